# rules for kernel/
#
# The kernel series is not built by "make" or "make check": building and
# booting kernels takes minutes.  Targets:
#   make check-vm      boot the cet, nocet and unpatched kernels in QEMU and
#                      run the in-guest tests (kernel/boot-test)
#   make check-bochs   boot the cet kernel under Bochs, whose CPU implements
#                      CET, and run the in-guest tests with enforcement
#                      (kernel/bochs-test; Bochs built once by vm/bochs/build)
#   make check-exec-survey  every ELF program and library of /usr exec'd
#                      under the cet and nocet kernels; lists those whose
#                      outcome differs (kernel/exec-survey, about 4 min)
#   make check-series  every patch of the series applied in turn, built
#                      with CET on and off, checkpatch --strict
#                      (kernel/check-series, slow: about 4 h; pass
#                      CHECK_SERIES_FLAGS="--config wide" for the second
#                      configuration)
#   make check-hunk-coverage  the whole series built in the second
#                      configuration (config/wide.config) with CET on and
#                      off, and every hunk shown to reach the compiler
#                      (kernel/hunk-coverage; two kernel builds, cached)
EXTRA_DIST += \
	kernel/README.md \
	kernel/build \
	kernel/exec-survey \
	kernel/boot-test \
	kernel/bochs-test \
	kernel/guest-tests \
	kernel/check-series \
	kernel/hunk-coverage \
	kernel/hunk-coverage.known \
	kernel/check-vdso-endbr \
	kernel/config \
	kernel/patches \
	kernel/tests

.PHONY: check-vm check-vm-kernel check-bochs check-series check-exec-survey \
	check-hunk-coverage
check-vm: check-vm-kernel
check-vm-kernel:
	$(srcdir)/kernel/boot-test
check-bochs:
	$(srcdir)/kernel/bochs-test
check-series:
	$(srcdir)/kernel/check-series $(CHECK_SERIES_FLAGS)
check-hunk-coverage:
	$(srcdir)/kernel/build --variant cet-wide >/dev/null
	$(srcdir)/kernel/build --variant nocet-wide >/dev/null
	$(srcdir)/kernel/build --variant i386 >/dev/null
	$(srcdir)/kernel/hunk-coverage
check-exec-survey: tests/elf-damage
	$(srcdir)/kernel/exec-survey --elf-damage tests/elf-damage
