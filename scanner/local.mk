# scanner/: the library that holds all of elfcet's logic.
noinst_LIBRARIES += scanner/libelfcet.a
scanner_libelfcet_a_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS) $(CAPSTONE_CFLAGS) $(JSONC_CFLAGS)
scanner_libelfcet_a_SOURCES = \
	scanner/byteorder.h \
	scanner/elf_model.c scanner/elf_model.h \
	scanner/gnu_property.c scanner/gnu_property.h \
	scanner/note_walk.c scanner/note_walk.h \
	scanner/property_note.c scanner/property_note.h \
	scanner/property_kernel.c \
	scanner/property_glibc.c \
	scanner/property_check.c \
	scanner/problem.c scanner/problem.h \
	scanner/rules.c scanner/rules.h \
	scanner/verdict.c scanner/verdict.h \
	scanner/audit.c scanner/audit.h \
	scanner/path_walk.c scanner/path_walk.h \
	scanner/audit_runner.c scanner/audit_runner.h \
	scanner/report.h scanner/report_text.c scanner/report_json.c

# What every program linked with the library needs.
ELFCET_LIBS = scanner/libelfcet.a $(LIBELF_LIBS) $(CAPSTONE_LIBS) $(JSONC_LIBS)
