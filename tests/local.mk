# tests/: cmocka unit tests (tests/test_*.c) and end-to-end scripts (tests/*.sh).
# `make check` runs everything that needs no VM; the environment below tells the scripts
# where the built tool and the sources are.
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(BASH)
AM_TESTS_ENVIRONMENT = \
	ELFCET='$(abs_top_builddir)/elfcet/elfcet'; \
	ELFCET_RULES_DIR='$(abs_top_srcdir)/rules'; \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	export ELFCET ELFCET_RULES_DIR top_srcdir top_builddir;

# Unit tests link the library and cmocka.
UNIT_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBELF_CFLAGS) $(JSONC_CFLAGS)
UNIT_LDADD = $(ELFCET_LIBS) $(CMOCKA_LIBS)

if HAVE_CMOCKA
check_PROGRAMS += tests/test_property_note
TESTS += tests/test_property_note
tests_test_property_note_SOURCES = tests/test_property_note.c tests/elf_builder.c \
	tests/elf_builder.h
tests_test_property_note_CFLAGS = $(UNIT_CFLAGS)
tests_test_property_note_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/test_disasm
TESTS += tests/test_disasm
tests_test_disasm_SOURCES = tests/test_disasm.c tests/code_samples.h
tests_test_disasm_CFLAGS = $(UNIT_CFLAGS) $(CAPSTONE_CFLAGS)
tests_test_disasm_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/test_byte_scan
TESTS += tests/test_byte_scan
tests_test_byte_scan_SOURCES = tests/test_byte_scan.c tests/code_samples.h
tests_test_byte_scan_CFLAGS = $(UNIT_CFLAGS)
tests_test_byte_scan_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/test_sort_address
TESTS += tests/test_sort_address
tests_test_sort_address_SOURCES = tests/test_sort_address.c tests/code_samples.h
tests_test_sort_address_CFLAGS = $(UNIT_CFLAGS)
tests_test_sort_address_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/test_xalloc
TESTS += tests/test_xalloc
tests_test_xalloc_SOURCES = tests/test_xalloc.c
tests_test_xalloc_CFLAGS = $(UNIT_CFLAGS)
tests_test_xalloc_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/test_go_pclntab
TESTS += tests/test_go_pclntab
tests_test_go_pclntab_SOURCES = tests/test_go_pclntab.c
tests_test_go_pclntab_CFLAGS = $(UNIT_CFLAGS)
tests_test_go_pclntab_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/test_elf_index
TESTS += tests/test_elf_index
tests_test_elf_index_SOURCES = tests/test_elf_index.c
tests_test_elf_index_CFLAGS = $(UNIT_CFLAGS)
tests_test_elf_index_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/test_visible
TESTS += tests/test_visible
tests_test_visible_SOURCES = tests/test_visible.c
tests_test_visible_CFLAGS = $(UNIT_CFLAGS)
tests_test_visible_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/test_sarif_fingerprint
TESTS += tests/test_sarif_fingerprint
tests_test_sarif_fingerprint_SOURCES = tests/test_sarif_fingerprint.c
tests_test_sarif_fingerprint_CFLAGS = $(UNIT_CFLAGS)
tests_test_sarif_fingerprint_LDADD = $(UNIT_LDADD)

check_PROGRAMS += tests/test_eh_frame
TESTS += tests/test_eh_frame
tests_test_eh_frame_SOURCES = tests/test_eh_frame.c
tests_test_eh_frame_CFLAGS = $(UNIT_CFLAGS) $(CAPSTONE_CFLAGS)
tests_test_eh_frame_LDADD = $(UNIT_LDADD)
endif

# Test helpers: programs the test scripts run.
check_PROGRAMS += tests/elf-damage
tests_elf_damage_SOURCES = tests/elf_damage.c
tests_elf_damage_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
tests_elf_damage_LDADD = $(ELFCET_LIBS)

# Hostile inputs (issue 19): patched copies of real programs and small made-up files.
check_PROGRAMS += tests/elf-hostile
tests_elf_hostile_SOURCES = tests/elf_hostile.c
tests_elf_hostile_CFLAGS = $(AM_CFLAGS)
TESTS += tests/hostile-input.sh
EXTRA_DIST += tests/hostile-input.sh
tests/hostile-input.log: tests/elf-hostile elfcet/elfcet
TESTS += tests/mark-hostile.sh tests/resource-bounds.sh
EXTRA_DIST += tests/resource-bounds.sh
tests/resource-bounds.log: tests/elf-hostile elfcet/elfcet
EXTRA_DIST += tests/mark-hostile.sh
tests/mark-hostile.log: tests/elf-hostile tests/elf-damage elfcet/elfcet

# Hostile and unusual .deb files (issue 35), made by the script from small trees.
TESTS += tests/deb-hostile.sh
EXTRA_DIST += tests/deb-hostile.sh
tests/deb-hostile.log: tests/elf-hostile elfcet/elfcet

# End-to-end: the tool on real binaries.
TESTS += tests/corpus-notes.sh tests/readelf-agree.sh tests/bad-input.sh tests/valgrind.sh
EXTRA_DIST += tests/corpus-notes.sh tests/readelf-agree.sh tests/bad-input.sh tests/valgrind.sh
TESTS += tests/tree-symlinks.sh tests/shstk-text-objects.sh tests/severities.sh
EXTRA_DIST += tests/tree-symlinks.sh tests/shstk-text-objects.sh tests/severities.sh
# readelf-agree also reads the corpus that corpus-notes builds.
tests/readelf-agree.log: tests/corpus-notes.log
tests/valgrind.log: tests/corpus-notes.log
# One thread or several: the same report, and no data race under helgrind.
TESTS += tests/thread-races.sh
EXTRA_DIST += tests/thread-races.sh
EXTRA_DIST += tests/deps.txt tests/setup tests/run-all tests/debian-mirror
# Indirect-branch targets: corpus/targets built with gcc and clang, against its manifest.
TESTS += tests/corpus-targets.sh
EXTRA_DIST += tests/corpus-targets.sh
tests/corpus-targets.log: elfcet/elfcet
# Every case label of a tracked jump table in the JSON (reads the corpus-targets build).
TESTS += tests/jump-table-labels.sh
EXTRA_DIST += tests/jump-table-labels.sh
tests/jump-table-labels.log: tests/corpus-targets.log
# What the end-to-end tests leave in the build tree.
clean-local: clean-test-outputs
clean-test-outputs:
	rm -rf tests/corpus-notes.out tests/corpus-notes.out.actual tests/corpus-notes.out.expected \
		tests/corpus-targets.out tests/corpus-targets.out.build.log
.PHONY: clean-test-outputs

# elfcet run and the QEMU checking plugin (vm/plugin).
if HAVE_CMOCKA
check_PROGRAMS += tests/plugin_test_insn_class tests/plugin_test_cet_state \
	tests/dynrun_test_report
TESTS += tests/plugin_test_insn_class tests/plugin_test_cet_state tests/dynrun_test_report
tests_plugin_test_insn_class_SOURCES = tests/plugin_test_insn_class.c vm/plugin/insn_class.c
tests_plugin_test_insn_class_CFLAGS = $(UNIT_CFLAGS)
tests_plugin_test_insn_class_LDADD = $(CMOCKA_LIBS)
tests_plugin_test_cet_state_SOURCES = tests/plugin_test_cet_state.c vm/plugin/cet_state.c
tests_plugin_test_cet_state_CFLAGS = $(UNIT_CFLAGS)
tests_plugin_test_cet_state_LDADD = $(CMOCKA_LIBS)
tests_dynrun_test_report_SOURCES = tests/dynrun_test_report.c
tests_dynrun_test_report_CFLAGS = $(UNIT_CFLAGS)
tests_dynrun_test_report_LDADD = dynrun/libdynrun.a $(UNIT_LDADD)
endif
TESTS += tests/dynrun-e2e.sh tests/dynrun-errors.sh tests/dynrun-names.sh
EXTRA_DIST += tests/dynrun-e2e.sh tests/dynrun-errors.sh tests/dynrun-names.sh corpus/dynamic
# The scripts run the plugin from the build tree.
tests/dynrun-e2e.log tests/dynrun-errors.log tests/dynrun-names.log: \
	vm/plugin/elfcet-qemu-plugin.so elfcet/elfcet
# What they leave in the build tree.
clean-local: clean-dynrun-outputs
clean-dynrun-outputs:
	rm -rf tests/dynrun-e2e.out tests/dynrun-errors.out tests/plugin-system.out
.PHONY: clean-dynrun-outputs
# Differential: every violation observed was predicted by elfcet audit (skips until the
# audit reports code findings).
TESTS += tests/dynrun-differential.sh
EXTRA_DIST += tests/dynrun-differential.sh
tests/dynrun-differential.log: tests/dynrun-e2e.log
# System mode: boots the cached kernel with the plugin (skips without one).
TESTS += tests/plugin-system.sh
EXTRA_DIST += tests/plugin-system.sh
tests/plugin-system.log: vm/plugin/elfcet-qemu-plugin.so

# elfcet mark: the planner (unit), the three layouts on real binaries, the safety rules.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_mark_plan
TESTS += tests/test_mark_plan
tests_test_mark_plan_SOURCES = tests/test_mark_plan.c tests/elf_builder.c tests/elf_builder.h
tests_test_mark_plan_CFLAGS = $(UNIT_CFLAGS)
tests_test_mark_plan_LDADD = $(UNIT_LDADD)
endif
TESTS += tests/mark-layouts.sh
EXTRA_DIST += tests/mark-layouts.sh tests/mark-bytes-check.sh
TESTS += tests/mark-safety.sh tests/mark-mounts.sh
# What the loaders and the program read stays in place: payloads, notes by p_memsz,
# DT_*SZ tables.
TESTS += tests/mark-readers.sh
EXTRA_DIST += tests/mark-readers.sh tests/mark_payload_prog.c
tests/mark-readers.log: elfcet/elfcet tests/elf-hostile
# Another process changing the file, and signals, while mark checks its result.
TESTS += tests/mark-races.sh
EXTRA_DIST += tests/mark-races.sh tests/mark_race_shim.c
tests/mark-races.log: elfcet/elfcet
EXTRA_DIST += tests/mark-safety.sh tests/mark-mounts.sh
# What mark-refusal, mark-races and mark-readers source first.
EXTRA_DIST += tests/mark-prologue.sh tests/archive-package.sh

# VM verification helpers (vm/verify, make check-vm-verify).
check_PROGRAMS += tests/add-property-note
tests_add_property_note_SOURCES = tests/add_property_note.c

# The /proc readers of the kernel's guest tests, built for the host.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_guest_check
TESTS += tests/test_guest_check
tests_test_guest_check_SOURCES = tests/test_guest_check.c kernel/tests/guest_check.h
tests_test_guest_check_CFLAGS = $(UNIT_CFLAGS)
tests_test_guest_check_LDADD = $(CMOCKA_LIBS)
endif

# The guest runner's job reader, built for the host, and the JSON writer it shares with
# the audit report.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_vm_guest tests/test_json_out
TESTS += tests/test_vm_guest tests/test_json_out
tests_test_vm_guest_SOURCES = tests/test_vm_guest.c vm/guest/job_parse.c
tests_test_vm_guest_CFLAGS = $(UNIT_CFLAGS)
tests_test_vm_guest_LDADD = $(CMOCKA_LIBS)
tests_test_json_out_SOURCES = tests/test_json_out.c scanner/report/json_out.c
tests_test_json_out_CFLAGS = $(UNIT_CFLAGS)
tests_test_json_out_LDADD = $(CMOCKA_LIBS) $(JSONC_LIBS)
endif
TESTS += tests/vm-runner.sh
EXTRA_DIST += tests/vm-runner.sh
tests/vm-runner.log: vm/guest/runner
# vm/verify's evaluator on canned runs (real enforcement placed by the fault's ip): no VM.
TESTS += tests/verify-eval.sh
EXTRA_DIST += tests/verify-eval.sh

# elfcet mark refuses what the code audit blocks (real findings on real binaries).
TESTS += tests/mark-refusal.sh
EXTRA_DIST += tests/mark-refusal.sh corpus/mark/shstk_hazard.S corpus/mark/vsyscall_user.c

# The build tree's and a staged install's audit, mark and run.
TESTS += tests/install.sh
EXTRA_DIST += tests/install.sh
tests/install.log: elfcet/elfcet vm/plugin/elfcet-qemu-plugin.so

# SARIF and JSON Lines reports, elfcet report merging shards (on the two corpora).
TESTS += tests/sarif.sh tests/jsonl-report.sh tests/hostile-names.sh
EXTRA_DIST += tests/sarif.sh tests/sarif-subset.schema.json tests/jsonl-report.sh \
	tests/hostile-names.sh tests/name_rule.py
tests/sarif.log tests/jsonl-report.log: tests/corpus-notes.log tests/corpus-targets.log
# Progress on a terminal (script(1)), none in pipes or JSON; the summary table.
TESTS += tests/progress.sh
EXTRA_DIST += tests/progress.sh
tests/progress.log: tests/corpus-targets.log

# The GNU parallel recipe across machines: stand-in ssh machines that see none of the
# local files (mount namespaces; skipped without them).
TESTS += tests/archive-ssh.sh
EXTRA_DIST += tests/archive-ssh.sh
tests/archive-ssh.log: elfcet/elfcet
# The same across real machines: two OpenSSH sshd started on 127.0.0.1, each in a mount
# namespace of its own; a run killed and resumed; files/s here and over ssh (skipped
# without sshd or namespaces).
TESTS += tests/archive-sshd.sh
EXTRA_DIST += tests/archive-sshd.sh
tests/archive-sshd.log: elfcet/elfcet

# Real Debian 13 binaries (downloaded once into the cache; skipped, status 77 -> 0, when
# the mirror cannot be reached). Network-dependent, so outside make check.
# Then the same packages read as .deb files (tests/deb-input.sh) and audited by the GNU
# parallel recipe (tests/archive-parallel.sh, tools/elfcet-audit-archive). Last, the labelled
# sample of bench/precision keeps its verdicts (tests/precision-sample.sh, its own package set).
DEBIAN13_TESTS = tests/debian13.sh tests/deb-input.sh tests/archive-parallel.sh \
	tests/precision-sample.sh
check-debian13: elfcet/elfcet
	@fail=0; for t in $(DEBIAN13_TESTS); do \
		ELFCET='$(abs_top_builddir)/elfcet/elfcet' ELFCET_RULES_DIR='$(abs_top_srcdir)/rules' \
		top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
			$(BASH) $(abs_top_srcdir)/$$t; \
		rc=$$?; if [ $$rc -eq 77 ]; then echo "SKIP: $$t (mirror unreachable)"; break; fi; \
		[ $$rc -eq 0 ] || fail=1; \
	done; exit $$fail
.PHONY: check-debian13
EXTRA_DIST += tests/debian13.sh tests/debian13-fetch tests/x86-elf-files tests/deb-input.sh \
	tests/archive-parallel.sh tests/precision-sample.sh

# Fuzzing (issue 19): libFuzzer targets built with clang, ASan and UBSan (tests/fuzz/).
#   make fuzz FUZZ_SECONDS=N   each target for N seconds (default 600), one at a time
#   make check-fuzz            the regression inputs, then 60 s of new input per target
FUZZ_ENV = top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)'
# (elfcet itself writes fuzz_report's seeds)
fuzz: tests/elf-hostile tests/elf-damage elfcet/elfcet
	$(FUZZ_ENV) FUZZ_SECONDS='$(FUZZ_SECONDS)' $(BASH) $(abs_top_srcdir)/tests/fuzz/run fuzz
check-fuzz: tests/elf-hostile tests/elf-damage elfcet/elfcet
	$(FUZZ_ENV) $(BASH) $(abs_top_srcdir)/tests/fuzz/run check
.PHONY: fuzz check-fuzz
EXTRA_DIST += tests/fuzz
clean-local: clean-fuzz
clean-fuzz:
	rm -rf tests/fuzz-build
.PHONY: clean-fuzz
