# rules for elfcet/
