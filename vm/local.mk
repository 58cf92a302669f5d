# rules for vm/

# The dynamic CET checker: a QEMU TCG plugin, a shared object QEMU dlopens into its own
# process. It is built by an explicit rule rather than as an automake program because the
# user's CFLAGS/LDFLAGS must not reach it: a plugin built with -fsanitize (make check-asan)
# cannot load into an unsanitized QEMU. Installed to $(pkglibdir), where `elfcet run` looks
# for it (ELFCET_PLUGIN overrides, e.g. with the build tree's copy).
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
	vm/plugin/violation_log.h
cetplugin_flags = -O2 -g -fPIC -fvisibility=hidden $(WARN_CFLAGS)
vm/plugin/elfcet-qemu-plugin.so: $(cetplugin_src) $(cetplugin_hdr) config.h
	@$(MKDIR_P) vm/plugin
	$(AM_V_CCLD)$(CC) $(DEFS) -I$(top_builddir) -I$(top_srcdir) $(cetplugin_flags) \
		-shared -Wl,-z,defs -Wl,--unresolved-symbols=ignore-in-object-files -o $@ \
		`for f in $(cetplugin_src); do echo "$(srcdir)/$$f"; done` -lpthread
EXTRA_DIST += $(cetplugin_src) $(cetplugin_hdr) vm/plugin/README.md
CLEANFILES += vm/plugin/elfcet-qemu-plugin.so
AM_CPPFLAGS += -DELFCET_PLUGIN_PATH='"$(cetplugindir)/elfcet-qemu-plugin.so"'

# elfcet run: its library code lives in scanner/dynrun*, its command in elfcet/cmd_run.c.
scanner_libelfcet_a_SOURCES += \
	scanner/dynrun.c scanner/dynrun.h \
	scanner/dynrun_symbols.c scanner/dynrun_symbols.h \
	scanner/dynrun_report.c scanner/dynrun_report.h
elfcet_elfcet_SOURCES += elfcet/cmd_run.c
EXTRA_DIST += \
	vm/mkinitramfs \
	vm/qemu-boot
