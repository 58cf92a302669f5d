# rules for rules/
