# rules for bench/: scripts that print figures (see bench/README.md); none is a test
EXTRA_DIST += bench/README.md bench/audit-bench bench/plugin-bench bench/vm-bench bench/hostile-bench
