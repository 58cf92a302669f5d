# The rule catalogue and lists, installed to $(pkgdatadir)/rules.
rulesdir = $(pkgdatadir)/rules
dist_rules_DATA = rules/catalogue.rules
