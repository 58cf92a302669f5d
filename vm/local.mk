# rules for vm/
