# rules for vm/userland/: the CET userland (Debian 12's glibc built with CET, programs
# and Debian 12 packages (dash, bzip2, xz-utils, gawk, pth) built against it, run under
# enforcement). Slow (cached glibc and package builds, a Bochs boot): not part of make check.
#   make check-userland   vm/userland/check: the truth table, Bochs with CET
EXTRA_DIST += vm/userland/check vm/userland/glibc-build vm/userland/truth-table.jq \
	vm/userland/programs vm/userland/sysroot vm/userland/package-build vm/userland/workloads
.PHONY: check-userland
check-userland: elfcet/elfcet vm/guest/runner
	$(abs_top_srcdir)/vm/userland/check
