# scanner/: the library that holds all of elfcet's logic.
noinst_LIBRARIES += scanner/libelfcet.a
scanner_libelfcet_a_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS) $(CAPSTONE_CFLAGS) $(JSONC_CFLAGS) \
	$(LIBARCHIVE_CFLAGS) $(LIBLZMA_CFLAGS) $(NETTLE_CFLAGS)
scanner_libelfcet_a_SOURCES = \
	scanner/audit.c scanner/audit.h \
	scanner/audit_package.c scanner/audit_package.h \
	scanner/audit_runner.c scanner/audit_runner.h \
	scanner/deb_data.c scanner/deb_data.h \
	scanner/deb_input.c scanner/deb_input.h \
	scanner/deb_stream.c scanner/deb_stream.h \
	scanner/path_walk.c scanner/path_walk.h \
	scanner/problem.c scanner/problem.h \
	scanner/rules.c scanner/rules.h \
	scanner/verdict.c scanner/verdict.h \
	scanner/elf/elf_header.c scanner/elf/elf_header.h \
	scanner/elf/elf_model.c scanner/elf/elf_model.h \
	scanner/elf/note_walk.c scanner/elf/note_walk.h \
	scanner/property/gnu_property.c scanner/property/gnu_property.h \
	scanner/property/property_check.c \
	scanner/property/property_glibc.c \
	scanner/property/consumer_reading.h \
	scanner/property/kernel_note.c scanner/property/kernel_note.h \
	scanner/property/property_kernel.c \
	scanner/property/property_note.c scanner/property/property_note.h \
	scanner/code/byte_scan.c scanner/code/byte_scan.h \
	scanner/code/check_endbr.c scanner/code/check_endbr.h \
	scanner/code/code_audit.c scanner/code/code_audit.h \
	scanner/code/code_context.c scanner/code/code_context.h \
	scanner/code/code_finding.c \
	scanner/code/code_sweep.c scanner/code/code_sweep.h \
	scanner/code/sweep.h \
	scanner/code/sweep_address_flow.c \
	scanner/code/sweep_code_refs.c \
	scanner/code/sweep_jump_tables.c \
	scanner/code/sweep_returns.c \
	scanner/code/sweep_stray_endbr.c \
	scanner/code/sweep_vsyscall.c \
	scanner/code/disasm.c scanner/code/disasm.h \
	scanner/code/eh_frame.c scanner/code/eh_frame.h \
	scanner/code/go_pclntab.c scanner/code/go_pclntab.h \
	scanner/code/insn_length.c scanner/code/insn_length.h \
	scanner/util/sort_address.c scanner/util/sort_address.h \
	scanner/code/targets.h \
	scanner/code/targets_data_pointers.c \
	scanner/code/targets_entry.c \
	scanner/code/targets_exports.c \
	scanner/code/targets_landing_pads.c \
	scanner/code/targets_plt.c \
	scanner/code/targets_relocs.c \
	scanner/code/targets_returns_twice.c \
	scanner/mark/mark.c scanner/mark/mark.h \
	scanner/mark/mark_edit.c scanner/mark/mark_edit.h \
	scanner/mark/mark_layout.c scanner/mark/mark_layout.h \
	scanner/mark/mark_place.c scanner/mark/mark_place.h \
	scanner/mark/mark_plan.c scanner/mark/mark_plan.h \
	scanner/mark/mark_reads.c scanner/mark/mark_reads.h \
	scanner/mark/mark_view.c scanner/mark/mark_view.h \
	scanner/mark/mark_write.c scanner/mark/mark_write.h \
	scanner/report/json_out.c scanner/report/json_out.h \
	scanner/report/report.h \
	scanner/report/report_json.c \
	scanner/report/report_mark.c scanner/report/report_mark.h \
	scanner/report/report_sarif.c scanner/report/sarif_fingerprint.c \
	scanner/report/sarif_fingerprint.h \
	scanner/report/report_summary.c \
	scanner/report/report_text.c \
	scanner/util/byteorder.h \
	scanner/util/error.c scanner/util/error.h \
	scanner/util/install_dirs.c scanner/util/install_dirs.h \
	scanner/util/text_arena.c scanner/util/text_arena.h \
	scanner/util/xalloc.c scanner/util/xalloc.h \
	scanner/util/text_build.h \
	scanner/util/utf8.h \
	scanner/util/visible.c scanner/util/visible.h

# What every program linked with the library needs.
ELFCET_LIBS = scanner/libelfcet.a $(LIBELF_LIBS) $(CAPSTONE_LIBS) $(ZYDIS_LIBS) $(JSONC_LIBS) \
	$(LIBARCHIVE_LIBS) $(LIBLZMA_LIBS) $(NETTLE_LIBS)
