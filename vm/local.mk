# rules for vm/

# The dynamic CET checker: a QEMU TCG plugin, a shared object QEMU dlopens into its own
# process. It is built by an explicit rule rather than as an automake program because the
# user's CFLAGS/LDFLAGS must not reach it: a plugin built with -fsanitize (make check-asan)
# cannot load into an unsanitized QEMU. Installed to $(pkglibdir), where an installed
# `elfcet run` looks for it; the build tree's elfcet uses the build tree's copy
# (scanner/util/install_dirs.c; ELFCET_PLUGIN overrides both).
cetplugindir = $(pkglibdir)
cetplugin_DATA = vm/plugin/elfcet-qemu-plugin.so
cetplugin_src = \
	vm/plugin/cet_plugin.c \
	vm/plugin/cet_state.c \
	vm/plugin/insn_class.c \
	vm/plugin/object_map.c \
	vm/plugin/object_marking.c \
	vm/plugin/violation_log.c
cetplugin_hdr = \
	vm/plugin/qemu_plugin_api.h \
	vm/plugin/cet_state.h \
	vm/plugin/insn_class.h \
	vm/plugin/object_map.h \
	vm/plugin/object_marking.h \
	vm/plugin/violation_log.h \
	vm/plugin/violation_wire.h
# The scanner's libelf-free readers, so that the plugin reads an object's marking as the
# audit does (distributed with the library).
cetplugin_scanner = \
	scanner/elf/elf_header.c \
	scanner/elf/note_walk.c \
	scanner/property/kernel_note.c
cetplugin_scanner_hdr = \
	scanner/elf/elf_header.h \
	scanner/elf/note_walk.h \
	scanner/property/consumer_reading.h \
	scanner/property/gnu_property.h \
	scanner/property/kernel_note.h \
	scanner/util/byteorder.h
# Hardened as a package build would harden it (the user's flags do not reach it).
cetplugin_flags = -O2 -g -fPIC -fvisibility=hidden -D_FORTIFY_SOURCE=2 -fstack-protector-strong \
	-Wl,-z,relro,-z,now $(WARN_CFLAGS)
vm/plugin/elfcet-qemu-plugin.so: $(cetplugin_src) $(cetplugin_hdr) $(cetplugin_scanner) \
		$(cetplugin_scanner_hdr) config.h
	@$(MKDIR_P) vm/plugin
	$(AM_V_CCLD)$(CC) $(DEFS) -I$(top_builddir) -I$(top_srcdir) -I$(top_srcdir)/scanner \
		$(cetplugin_flags) -shared -Wl,-z,defs \
		-Wl,--unresolved-symbols=ignore-in-object-files -o $@ \
		`for f in $(cetplugin_src) $(cetplugin_scanner); do echo "$(srcdir)/$$f"; done` \
		-lpthread
EXTRA_DIST += $(cetplugin_src) $(cetplugin_hdr) vm/plugin/README.md
CLEANFILES += vm/plugin/elfcet-qemu-plugin.so
AM_CPPFLAGS += -DELFCET_PLUGIN_PATH='"$(cetplugindir)/elfcet-qemu-plugin.so"' \
	-DELFCET_BUILD_PLUGIN_PATH='"$(abs_top_builddir)/vm/plugin/elfcet-qemu-plugin.so"'

EXTRA_DIST += \
	vm/mkinitramfs \
	vm/qemu-boot \
	vm/bochs-boot \
	vm/bochs-model-hang \
	vm/bochs/build \
	vm/bochs/patches

# The guest runner: a static program (glibc's libc.a only) that /init runs in the VM.
# Its own rule, without the user's CFLAGS and LDFLAGS: it must stay static even in the
# sanitizer build (there is no sanitizer runtime in the guest, and -static excludes
# -fsanitize=address); tests/test_vm_guest builds its reader and writer for the host,
# and the sanitizer build checks them there.
GUEST_RUNNER_C = $(srcdir)/vm/guest/runner.c $(srcdir)/vm/guest/job_parse.c \
	$(srcdir)/scanner/report/json_out.c $(srcdir)/vm/guest/window.S
GUEST_RUNNER_H = $(srcdir)/vm/guest/job_parse.h $(srcdir)/scanner/report/json_out.h \
	$(srcdir)/scanner/util/utf8.h
vm/guest/runner: $(GUEST_RUNNER_C) $(GUEST_RUNNER_H)
	@mkdir -p vm/guest
	$(AM_V_CCLD)$(CC) $(WARN_CFLAGS) -O2 -g -static -I$(srcdir)/scanner -o $@ $(GUEST_RUNNER_C)
all-local: vm/guest/runner
CLEANFILES += vm/guest/runner
EXTRA_DIST += vm/guest/runner.c vm/guest/job_parse.c vm/guest/job_parse.h \
	vm/guest/window.S

# The VM verification of the note corpus (not part of `make check`: it boots a kernel).
# Builds the property-note corpus and the ld.so corpus, runs vm/verify on them with the
# cet kernel (kernel/build; VM_KERNEL=BZIMAGE to boot another) and fails on any
# contradiction or any failure of the VM run itself.
VM_VERIFY_OUT = vm/check-vm.out
VM_VERIFY = $(abs_top_srcdir)/vm/verify
VM_VERIFY_ENV = ELFCET='$(abs_top_builddir)/elfcet/elfcet' \
	ELFCET_VM_RUNNER='$(abs_top_builddir)/vm/guest/runner' \
	ELFCET_RULES_DIR='$(abs_top_srcdir)/rules'
check-vm-verify: elfcet/elfcet vm/guest/runner tests/elf-damage tests/add-property-note
	rm -rf $(VM_VERIFY_OUT) && mkdir -p $(VM_VERIFY_OUT)
	$(abs_top_srcdir)/corpus/notes/build $(VM_VERIFY_OUT)/notes $(abs_top_builddir)/tests/elf-damage >/dev/null
	$(abs_top_srcdir)/corpus/vm/build $(VM_VERIFY_OUT)/ld tests/add-property-note tests/elf-damage \
		elfcet/elfcet
	ldver="$$(/lib64/ld-linux-x86-64.so.2 --version | head -n1)"; \
	$(VM_VERIFY_ENV) $(VM_VERIFY) $(if $(VM_KERNEL),--kernel '$(VM_KERNEL)') \
		--json $(VM_VERIFY_OUT)/report.json \
		--expect 'nolibc*=nolibc corpus program' \
		--expect 'mark?-static*=nolibc corpus program' \
		--expect 'gcc-*=hello from the elfcet corpus' \
		--expect 'clang-*=hello from the elfcet corpus' \
		--expect 'prog-interp-*=hello from the elfcet corpus' \
		--expect-signal 'fault64=SIGSEGV/SEGV_MAPERR@0xdead0000' \
		--args 'ld-*=--version' --expect "ld-*=$$ldver" \
		$(VM_VERIFY_OUT)/notes $(VM_VERIFY_OUT)/ld > $(VM_VERIFY_OUT)/report.txt; \
	rc=$$?; cat $(VM_VERIFY_OUT)/report.txt; \
	if [ -s $(VM_VERIFY_OUT)/report.json ]; then \
		jq -r -f $(abs_top_srcdir)/vm/verify-results.jq \
			$(VM_VERIFY_OUT)/report.json; \
	else echo "check-vm-verify: the VM run failed (status $$rc): nothing verified"; fi; \
	exit $$rc
check-vm: check-vm-verify
clean-local: clean-vm-verify
clean-vm-verify:
	rm -rf $(VM_VERIFY_OUT)
.PHONY: check-vm check-vm-verify clean-vm-verify
EXTRA_DIST += vm/README.md vm/verify vm/verify-eval.jq vm/verify-text.jq vm/verify-results.jq vm/verify-lib.jq corpus/vm/build corpus/vm/fault64.S

# vm/verify's failure paths (a kernel that does not boot, a hang, no QEMU, ...).
check-vm-failures: elfcet/elfcet vm/guest/runner tests/elf-damage
	$(VM_VERIFY_ENV) top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(if $(VM_KERNEL),VM_KERNEL='$(VM_KERNEL)') \
		$(if $(VM_KERNEL_UNPATCHED),VM_KERNEL_UNPATCHED='$(VM_KERNEL_UNPATCHED)') \
		$(BASH) $(abs_top_srcdir)/tests/vm-failures.sh
check-vm: check-vm-failures
.PHONY: check-vm-failures
EXTRA_DIST += tests/vm-failures.sh

# vm/verify with the dynamic CET checker attached (the QEMU plugin must be built or
# named by ELFCET_PLUGIN); not yet part of check-vm.
check-vm-plugin: elfcet/elfcet vm/guest/runner tests/elf-damage
	$(VM_VERIFY_ENV) top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(if $(VM_KERNEL),VM_KERNEL='$(VM_KERNEL)') \
		$(BASH) $(abs_top_srcdir)/tests/vm-plugin.sh
.PHONY: check-vm-plugin
check-vm: check-vm-plugin
EXTRA_DIST += tests/vm-plugin.sh vm/qemu-with-plugin

# The plugin in system mode (tests/plugin-system.sh) with the cet kernel, built when the
# cache has none: `make check` skips that test on a machine where no kernel is built yet.
check-vm-plugin-system: vm/plugin/elfcet-qemu-plugin.so
	@kernel='$(VM_KERNEL)'; \
	[ -n "$$kernel" ] || kernel=$$($(abs_top_srcdir)/kernel/build --variant cet | tail -n1) || exit 1; \
	if ELFCET_VM_KERNEL="$$kernel" top_srcdir='$(abs_top_srcdir)' \
		top_builddir='$(abs_top_builddir)' $(BASH) $(abs_top_srcdir)/tests/plugin-system.sh; \
	then echo "PASS: plugin-system (check-vm)"; \
	else echo "FAIL: plugin-system (check-vm)"; exit 1; fi
check-vm: check-vm-plugin-system
.PHONY: check-vm-plugin-system

# The vsyscall check: a program calling the vsyscall page under the cet and nocet kernels.
check-vm-vsyscall: elfcet/elfcet vm/guest/runner
	$(VM_VERIFY_ENV) top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(if $(VM_KERNEL),VM_KERNEL='$(VM_KERNEL)') \
		$(if $(VM_KERNEL_NOCET),VM_KERNEL_NOCET='$(VM_KERNEL_NOCET)') \
		$(BASH) $(abs_top_srcdir)/tests/vm-vsyscall.sh
check-vm: check-vm-vsyscall
.PHONY: check-vm-vsyscall
EXTRA_DIST += tests/vm-vsyscall.sh corpus/vm/vsyscall64.S

# The plugin (emulated CET) against Bochs (real CET) on the same corpus programs: the same
# first violation for each, and every marked-broken verdict confirmed by a real #CP at a
# finding (tests/verify-differential.sh; SKIP, status 77, without Bochs). Part of
# check-bochs.
check-verify-differential: elfcet/elfcet vm/guest/runner tests/elf-damage tests/add-property-note \
		vm/plugin/elfcet-qemu-plugin.so
	$(VM_VERIFY_ENV) top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(if $(VM_KERNEL),VM_KERNEL='$(VM_KERNEL)') \
		$(BASH) $(abs_top_srcdir)/tests/verify-differential.sh; \
	rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 77 ]
check-bochs: check-verify-differential
.PHONY: check-verify-differential
EXTRA_DIST += tests/verify-differential.sh
