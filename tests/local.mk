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
