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
