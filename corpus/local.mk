# rules for corpus/
