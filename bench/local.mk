# rules for bench/
EXTRA_DIST += bench/vm-bench
