# rules for scanner/
