# rules for bench/: scripts that print figures (see bench/README.md); none is a test
EXTRA_DIST += bench/README.md bench/audit-bench bench/plugin-bench bench/vm-bench bench/hostile-bench
# Precision on real Debian 13 binaries (issue 18): the fixed package list, the oracles and
# the hand-labelled sample (kept by tests/precision-sample.sh).
EXTRA_DIST += bench/precision bench/precision-judge bench/precision-oracle bench/precision-run \
	bench/precision-packages bench/precision-sample.tsv
