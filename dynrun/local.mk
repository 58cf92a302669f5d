# dynrun/: `elfcet run`'s reader. It starts a program under QEMU user mode with the
# checker plugin (vm/plugin/), reads the violations the plugin logs and names them by
# symbol. Apart from scanner/ because it alone forks programs and parses JSON with json-c.
noinst_LIBRARIES += dynrun/libdynrun.a
dynrun_libdynrun_a_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS) $(JSONC_CFLAGS)
dynrun_libdynrun_a_SOURCES = \
	dynrun/dynrun.c dynrun/dynrun.h \
	dynrun/dynrun_symbols.c dynrun/dynrun_symbols.h \
	dynrun/dynrun_report.c dynrun/dynrun_report.h \
	vm/plugin/violation_wire.h
