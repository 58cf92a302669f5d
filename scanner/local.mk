# scanner/: the library that holds all of elfcet's logic.
noinst_LIBRARIES += scanner/libelfcet.a
scanner_libelfcet_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/scanner/code
scanner_libelfcet_a_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS) $(CAPSTONE_CFLAGS) $(JSONC_CFLAGS) \
	$(LIBARCHIVE_CFLAGS)
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
	scanner/text_arena.c scanner/text_arena.h \
	scanner/text_build.h \
	scanner/message.c scanner/message.h \
	scanner/rules.c scanner/rules.h \
	scanner/install_dirs.c scanner/install_dirs.h \
	scanner/verdict.c scanner/verdict.h \
	scanner/audit.c scanner/audit.h \
	scanner/path_walk.c scanner/path_walk.h \
	scanner/audit_runner.c scanner/audit_runner.h \
	scanner/deb_input.c scanner/deb_input.h \
	scanner/audit_package.c scanner/audit_package.h \
	scanner/json_out.c scanner/json_out.h \
	scanner/report.h scanner/report_text.c scanner/report_json.c \
	scanner/report_sarif.c scanner/report_summary.c \
	scanner/mark_plan.c scanner/mark_plan.h \
	scanner/mark_layout.c scanner/mark_layout.h \
	scanner/mark_write.c scanner/mark_write.h \
	scanner/mark_view.c scanner/mark_view.h \
	scanner/mark.c scanner/mark.h \
	scanner/code/code_audit.c scanner/code/code_audit.h \
	scanner/code/code_context.c scanner/code/code_context.h \
	scanner/code/eh_frame.c scanner/code/eh_frame.h \
	scanner/code/disasm.c scanner/code/disasm.h \
	scanner/code/insn_length.c scanner/code/insn_length.h \
	scanner/code/sort_address.c scanner/code/sort_address.h \
	scanner/code/targets.h \
	scanner/code/targets_relocs.c \
	scanner/code/targets_entry.c \
	scanner/code/targets_exports.c \
	scanner/code/targets_plt.c \
	scanner/code/targets_landing_pads.c \
	scanner/code/targets_returns_twice.c \
	scanner/code/targets_data_pointers.c \
	scanner/code/byte_scan.c scanner/code/byte_scan.h \
	scanner/code/code_sweep.c \
	scanner/code/check_endbr.c

# What every program linked with the library needs.
ELFCET_LIBS = scanner/libelfcet.a $(LIBELF_LIBS) $(CAPSTONE_LIBS) $(ZYDIS_LIBS) $(JSONC_LIBS) \
	$(LIBARCHIVE_LIBS)
