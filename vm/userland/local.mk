# rules for vm/userland/: the CET userland (Debian 12's glibc built with CET, programs
# built against it, run under enforcement). Slow (a cached glibc build, a Bochs boot):
# not part of make check.
#   make check-userland   vm/userland/check: the truth table, Bochs with CET
EXTRA_DIST += vm/userland/check vm/userland/glibc-build vm/userland/truth-table.jq \
	vm/userland/programs
.PHONY: check-userland
check-userland: elfcet/elfcet vm/guest/runner
	$(abs_top_srcdir)/vm/userland/check
