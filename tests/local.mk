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
endif

# Test helpers: programs the test scripts run.
check_PROGRAMS += tests/elf-damage
tests_elf_damage_SOURCES = tests/elf_damage.c
tests_elf_damage_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
tests_elf_damage_LDADD = $(ELFCET_LIBS)

# End-to-end: the tool on real binaries.
TESTS += tests/corpus-notes.sh tests/readelf-agree.sh tests/bad-input.sh tests/valgrind.sh
EXTRA_DIST += tests/corpus-notes.sh tests/readelf-agree.sh tests/bad-input.sh tests/valgrind.sh
# readelf-agree also reads the corpus that corpus-notes builds.
tests/readelf-agree.log: tests/corpus-notes.log
tests/valgrind.log: tests/corpus-notes.log
EXTRA_DIST += tests/deps.txt tests/setup tests/run-all
# What the end-to-end tests leave in the build tree.
clean-local: clean-test-outputs
clean-test-outputs:
	rm -rf tests/corpus-notes.out tests/corpus-notes.out.actual tests/corpus-notes.out.expected
.PHONY: clean-test-outputs

# VM verification helpers (vm/verify, make check-vm-verify).
check_PROGRAMS += tests/add-property-note
tests_add_property_note_SOURCES = tests/add_property_note.c

# The guest runner's job reader and JSON writer, built for the host.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_vm_guest
TESTS += tests/test_vm_guest
tests_test_vm_guest_SOURCES = tests/test_vm_guest.c vm/guest/job_parse.c vm/guest/json_out.c
tests_test_vm_guest_CFLAGS = $(UNIT_CFLAGS)
tests_test_vm_guest_LDADD = $(CMOCKA_LIBS) $(JSONC_LIBS)
endif
TESTS += tests/vm-runner.sh
EXTRA_DIST += tests/vm-runner.sh
tests/vm-runner.log: vm/guest/runner
