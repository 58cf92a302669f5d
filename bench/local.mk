# rules for bench/
