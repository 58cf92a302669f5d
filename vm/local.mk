# rules for vm/

# The dynamic CET checker: a QEMU TCG plugin (a shared object QEMU dlopens).  Built as a
# "program" linked with -shared, since the project does not use libtool; installed to
# $(pkglibdir), where `elfcet run` looks for it (ELFCET_PLUGIN overrides, e.g. the build tree).
cetplugindir = $(pkglibdir)
cetplugin_PROGRAMS = vm/plugin/elfcet-qemu-plugin.so
vm_plugin_elfcet_qemu_plugin_so_SOURCES = \
	vm/plugin/qemu_plugin_api.h \
	vm/plugin/cet_plugin.c \
	vm/plugin/cet_state.c vm/plugin/cet_state.h \
	vm/plugin/insn_class.c vm/plugin/insn_class.h \
	vm/plugin/object_map.c vm/plugin/object_map.h \
	vm/plugin/object_marking.c vm/plugin/object_marking.h \
	vm/plugin/violation_log.c vm/plugin/violation_log.h
vm_plugin_elfcet_qemu_plugin_so_CFLAGS = $(AM_CFLAGS) -fPIC -fvisibility=hidden
vm_plugin_elfcet_qemu_plugin_so_LDFLAGS = -shared -Wl,-z,defs -Wl,--unresolved-symbols=ignore-in-object-files
vm_plugin_elfcet_qemu_plugin_so_LDADD = -lpthread
AM_CPPFLAGS += -DELFCET_PLUGIN_PATH='"$(cetplugindir)/elfcet-qemu-plugin.so"'

# elfcet run: its library code lives in scanner/dynrun*, its command in elfcet/cmd_run.c.
scanner_libelfcet_a_SOURCES += \
	scanner/dynrun.c scanner/dynrun.h \
	scanner/dynrun_symbols.c scanner/dynrun_symbols.h \
	scanner/dynrun_report.c scanner/dynrun_report.h
elfcet_elfcet_SOURCES += elfcet/cmd_run.c
