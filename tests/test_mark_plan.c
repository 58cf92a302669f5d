/* The mark planner: for each layout, small ELF files are planned, the planned image is
 * read back the way the kernel and ld.so read it, and every byte outside the planned
 * ranges is compared with the original. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/byteorder.h"
#include "elf_builder.h"
#include "property/gnu_property.h"
#include "mark/mark.h"
#include "mark/mark_plan.h"
#include "mark/mark_reads.h"
#include "property/property_note.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* An original file and its plan, with the planned image written out and opened. */
struct planned {
	char *orig_path, *new_path;
	struct elf_model orig, result;
	struct mark_plan plan;
	int rc;
	struct elfcet_error err;
};

static void plan_file(struct planned *p, const struct test_elf *spec, uint32_t set, uint32_t clear)
{
	struct mark_request req = { set, clear };
	struct elfcet_error msg;

	memset(p, 0, sizeof(*p));
	p->orig_path = test_elf_write(spec);
	assert_int_equal(elf_model_open(&p->orig, p->orig_path, &msg), ELF_OPEN_OK);
	p->rc = mark_plan_make(&p->orig, &req, &p->plan, &p->err);
	if (p->rc == 0 && p->plan.edit.image) {
		int fd;

		p->new_path = strdup("/tmp/elfcet-mark-XXXXXX");
		fd = mkstemp(p->new_path);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, p->plan.edit.image, p->plan.edit.size),
				 (ssize_t)p->plan.edit.size);
		close(fd);
		assert_int_equal(elf_model_open(&p->result, p->new_path, &msg), ELF_OPEN_OK);
	}
}

static void planned_free(struct planned *p)
{
	if (p->result.elf)
		elf_model_close(&p->result);
	elf_model_close(&p->orig);
	mark_plan_free(&p->plan);
	unlink(p->orig_path);
	free(p->orig_path);
	if (p->new_path) {
		unlink(p->new_path);
		free(p->new_path);
	}
}

/* Every byte of the original outside the plan's ranges is unchanged in the image, and the
 * ranges are sorted and disjoint. */
static void assert_only_ranges_changed(const struct planned *p)
{
	uint64_t i;
	size_t r;

	assert_true(p->plan.edit.size >= p->plan.edit.orig_size);
	for (r = 1; r < p->plan.edit.nranges; r++)
		assert_true(p->plan.edit.ranges[r - 1].offset + p->plan.edit.ranges[r - 1].len <
			    p->plan.edit.ranges[r].offset);
	for (i = 0; i < p->plan.edit.orig_size; i++)
		if (!mark_edit_covers(&p->plan.edit, i))
			assert_int_equal(p->plan.edit.image[i], p->orig.data[i]);
}

/* The kernel and ld.so both read exactly BITS (or no FEATURE_1_AND when BITS is 0). */
static void assert_loaders_read(const struct elf_model *m, uint32_t bits)
{
	struct consumer_reading k, g;

	property_kernel_read(m, &k);
	property_glibc_read(m, &g);
	assert_true(k.accepted);
	assert_null(k.rule);
	/* The kernel reads only the notes of files it starts without an interpreter. */
	if (property_kernel_reads_own_note(m)) {
		assert_int_equal(k.has_feature_1_and, bits != 0);
		assert_int_equal(k.feature_1_and, bits);
	}
	assert_int_equal(g.feature_1_and, bits);
	if (bits)
		assert_true(g.accepted && g.sees_note);
}

static void test_in_place_sets_a_bit(void **state)
{
	struct test_elf e = test_elf_default(64, FEATURE_1_IBT, 1);
	struct planned p;

	(void)state;
	plan_file(&p, &e, FEATURE_1_SHSTK, 0);
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.plan.layout, MARK_LAYOUT_IN_PLACE);
	assert_int_equal(p.plan.new_bits, FEATURE_1_IBT | FEATURE_1_SHSTK);
	assert_int_equal(p.plan.edit.size, p.plan.edit.orig_size);
	/* Only the four bytes of the value change. */
	assert_int_equal(p.plan.edit.nranges, 1);
	assert_int_equal(p.plan.edit.ranges[0].len, 4);
	assert_only_ranges_changed(&p);
	assert_loaders_read(&p.result, FEATURE_1_IBT | FEATURE_1_SHSTK);
	planned_free(&p);
}

static void test_in_place_clears_a_bit(void **state)
{
	struct test_elf e = test_elf_default(32, FEATURE_1_IBT | FEATURE_1_SHSTK, 1);
	struct planned p;

	(void)state;
	plan_file(&p, &e, 0, FEATURE_1_SHSTK);
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.plan.layout, MARK_LAYOUT_IN_PLACE);
	assert_only_ranges_changed(&p);
	assert_loaders_read(&p.result, FEATURE_1_IBT);
	planned_free(&p);
}

static void test_unchanged_when_already_marked(void **state)
{
	struct test_elf e = test_elf_default(64, FEATURE_1_IBT | FEATURE_1_SHSTK, 1);
	struct test_elf none = { .elf_class = 64 };
	struct planned p;

	(void)state;
	plan_file(&p, &e, FEATURE_1_IBT, 0);
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.plan.layout, MARK_LAYOUT_UNCHANGED);
	assert_null(p.plan.edit.image);
	planned_free(&p);
	/* Clearing what is not there changes nothing either. */
	plan_file(&p, &none, 0, FEATURE_1_IBT);
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.plan.layout, MARK_LAYOUT_UNCHANGED);
	planned_free(&p);
}

static void test_clearing_last_bit_drops_property(void **state)
{
	struct test_elf e = test_elf_default(64, FEATURE_1_IBT, 2);
	struct property_note note;
	struct planned p;

	(void)state;
	plan_file(&p, &e, 0, FEATURE_1_IBT);
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.plan.layout, MARK_LAYOUT_IN_PLACE);
	assert_false(p.plan.new_present);
	assert_false(p.plan.relocated);
	assert_only_ranges_changed(&p);
	assert_true(property_note_find(&p.result, &note));
	assert_false(note.has_feature_1_and);
	assert_true(note.has_isa_1_needed);
	assert_int_equal(note.isa_1_needed, 2);
	assert_int_equal(note.count, 1);
	/* PT_GNU_PROPERTY shrank with the note. */
	assert_int_equal(elf_model_find_phdr(&p.result, PT_GNU_PROPERTY)->p_filesz, 16 + 16);
	assert_loaders_read(&p.result, 0);
	planned_free(&p);
}

static void test_clearing_only_property_drops_note(void **state)
{
	struct test_elf e = test_elf_default(64, FEATURE_1_IBT, 0);
	struct property_note note;
	struct planned p;

	(void)state;
	e.notes[0].count = 1;
	plan_file(&p, &e, 0, FEATURE_1_IBT);
	assert_int_equal(p.rc, 0);
	assert_only_ranges_changed(&p);
	assert_false(property_note_find(&p.result, &note));
	assert_null(elf_model_find_phdr(&p.result, PT_GNU_PROPERTY));
	assert_null(elf_model_find_phdr(&p.result, PT_NOTE));
	planned_free(&p);
}

/* i386 style, dropping: the only property goes, and the PT_NOTE that held the property
 * note first is cut to the note after it. */
static void test_drop_from_shared_pt_note(void **state)
{
	struct test_elf e = test_elf_default(32, FEATURE_1_IBT, 0);
	struct property_note note;
	const GElf_Phdr *pn;
	struct planned p;

	(void)state;
	e.notes[0].count = 1;
	e.nnotes = 2;
	e.notes[1] = (struct test_note){ .type = 3, .descsz = -1, .count = 1 };
	e.notes[1].props[0] = (struct test_property){ 0x12345678, 4, 0x9abcdef0 };
	e.gnu_property_filesz = 16 + 12;
	plan_file(&p, &e, 0, FEATURE_1_IBT);
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.plan.layout, MARK_LAYOUT_IN_PLACE);
	assert_int_equal(p.plan.edit.size, p.plan.edit.orig_size);
	assert_only_ranges_changed(&p);
	assert_false(property_note_find(&p.result, &note));
	assert_null(elf_model_find_phdr(&p.result, PT_GNU_PROPERTY));
	pn = elf_model_find_phdr(&p.result, PT_NOTE);
	assert_non_null(pn);
	assert_int_equal(pn->p_offset, elf_model_find_phdr(&p.orig, PT_NOTE)->p_offset + 28);
	assert_int_equal(pn->p_filesz, 28);
	assert_int_equal(load_le32(p.result.data + pn->p_offset + 8), 3);
	planned_free(&p);
}

/* Layout 2: only ISA_1_NEEDED; FEATURE_1_AND must come first (smaller type). */
static void check_grow(int elf_class)
{
	struct test_elf e = test_elf_default(elf_class, 0, 1);
	struct property_note note;
	const GElf_Phdr *gp, *load = NULL;
	struct planned p;
	size_t i;

	e.notes[0].props[0] = e.notes[0].props[1];
	e.notes[0].count = 1;
	plan_file(&p, &e, FEATURE_1_IBT, 0);
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.plan.layout, MARK_LAYOUT_GROW);
	assert_true(p.plan.relocated);
	/* The synthetic file's only PT_LOAD covers it all: no padding to grow into. */
	assert_true(p.plan.new_load);
	assert_true(p.plan.table_moved);
	assert_only_ranges_changed(&p);
	assert_int_equal(p.result.phnum, p.orig.phnum + 1);
	assert_true(property_note_find(&p.result, &note));
	assert_int_equal(note.count, 2);
	assert_int_equal(note.props[0].type, PROP_X86_FEATURE_1_AND);
	assert_int_equal(note.props[1].type, PROP_X86_ISA_1_NEEDED);
	assert_int_equal(note.isa_1_needed, 1);
	assert_loaders_read(&p.result, FEATURE_1_IBT);
	/* The new PT_LOAD: last, above the old one, offset and vaddr congruent, covering
	 * both the moved program header table and the note. */
	for (i = 0; i < p.result.phnum; i++)
		if (p.result.phdrs[i].p_type == PT_LOAD)
			load = &p.result.phdrs[i];
	assert_non_null(load);
	assert_true(load->p_vaddr >= p.orig.phdrs[0].p_vaddr + p.orig.phdrs[0].p_memsz);
	assert_int_equal(load->p_vaddr % 0x1000, load->p_offset % 0x1000);
	assert_int_equal(load->p_flags, PF_R);
	gp = elf_model_find_phdr(&p.result, PT_GNU_PROPERTY);
	assert_true(gp->p_offset >= load->p_offset &&
		    gp->p_offset + gp->p_filesz <= load->p_offset + load->p_filesz);
	assert_int_equal(gp->p_vaddr - load->p_vaddr, gp->p_offset - load->p_offset);
	planned_free(&p);
}

static void test_grow_elf64(void **state)
{
	(void)state;
	check_grow(64);
}

static void test_grow_elf32(void **state)
{
	(void)state;
	check_grow(32);
}

static void test_grow_keeps_types_sorted(void **state)
{
	struct test_elf e = test_elf_default(64, 0, 1);
	struct property_note note;
	struct planned p;

	(void)state;
	e.notes[0].props[0] = (struct test_property){ PROP_1_NEEDED, 4, 1 };
	plan_file(&p, &e, FEATURE_1_SHSTK, 0);
	assert_int_equal(p.rc, 0);
	assert_true(property_note_find(&p.result, &note));
	assert_int_equal(note.count, 3);
	assert_int_equal(note.props[0].type, PROP_1_NEEDED);
	assert_int_equal(note.props[1].type, PROP_X86_FEATURE_1_AND);
	assert_int_equal(note.props[1].value, FEATURE_1_SHSTK);
	assert_int_equal(note.props[2].type, PROP_X86_ISA_1_NEEDED);
	assert_loaders_read(&p.result, FEATURE_1_SHSTK);
	planned_free(&p);
}

/* Layout 3: no note at all. */
static void check_create(int elf_class, bool has_interp)
{
	struct test_elf e = { .elf_class = elf_class, .has_interp = has_interp };
	struct property_note note;
	struct planned p;

	plan_file(&p, &e, FEATURE_1_IBT | FEATURE_1_SHSTK, 0);
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.plan.layout, MARK_LAYOUT_CREATE);
	assert_only_ranges_changed(&p);
	assert_true(property_note_find(&p.result, &note));
	/* A program the kernel starts gets both headers; one with an interpreter may do with
	 * ld.so's PT_NOTE alone when that keeps the program header table in place. */
	if (!has_interp)
		assert_int_equal(note.source, PROPERTY_SOURCE_PT_GNU_PROPERTY);
	assert_int_equal(note.count, 1);
	assert_int_equal(note.align, elf_class == 64 ? 8 : 4);
	assert_loaders_read(&p.result, FEATURE_1_IBT | FEATURE_1_SHSTK);
	/* The interpreter is still found through its (unchanged) PT_INTERP. */
	if (has_interp) {
		assert_non_null(p.result.interp);
		assert_string_equal(p.result.interp, p.orig.interp);
	}
	planned_free(&p);
}

static void test_create_elf64(void **state)
{
	(void)state;
	check_create(64, true);
	check_create(64, false);
}

static void test_create_elf32(void **state)
{
	(void)state;
	check_create(32, true);
	check_create(32, false);
}

/* i386 style: one PT_NOTE holds the property note followed by another note. The PT_NOTE
 * is cut to the other note; PT_GNU_PROPERTY points at the new one. */
static void test_shared_pt_note_is_cut(void **state)
{
	struct test_elf e = test_elf_default(32, 0, 1);
	const GElf_Phdr *pn, *gp, *own;
	struct planned p;
	size_t i;

	(void)state;
	e.notes[0].props[0] = e.notes[0].props[1];
	e.notes[0].count = 1;
	e.nnotes = 2;
	e.notes[1] = (struct test_note){ .type = 3, .descsz = -1, .count = 1 };
	e.notes[1].props[0] = (struct test_property){ 0x12345678, 4, 0x9abcdef0 };
	e.gnu_property_filesz = 16 + 12;
	plan_file(&p, &e, FEATURE_1_IBT, 0);
	assert_int_equal(p.rc, 0);
	assert_only_ranges_changed(&p);
	assert_loaders_read(&p.result, FEATURE_1_IBT);
	/* The other note keeps a PT_NOTE cut to it; the moved property note gets one of its
	 * own, at the PT_GNU_PROPERTY's place, for ld.so. */
	for (i = 0, pn = NULL, gp = NULL, own = NULL; i < p.result.phnum; i++) {
		const GElf_Phdr *ph = &p.result.phdrs[i];

		if (ph->p_type == PT_GNU_PROPERTY)
			gp = ph;
		else if (ph->p_type == PT_NOTE && load_le32(p.result.data + ph->p_offset + 8) == 3)
			pn = ph;
		else if (ph->p_type == PT_NOTE)
			own = ph;
	}
	assert_non_null(pn);
	assert_int_equal(pn->p_filesz, 16 + 12);
	assert_non_null(gp);
	assert_non_null(own);
	assert_int_equal(own->p_offset, gp->p_offset);
	assert_int_equal(own->p_filesz, gp->p_filesz);
	assert_int_equal(own->p_align, gp->p_align);
	planned_free(&p);
}

static void test_damaged_notes_are_refused(void **state)
{
	struct test_elf unsorted = test_elf_default(64, FEATURE_1_IBT, 1);
	struct test_elf overrun = test_elf_default(64, FEATURE_1_IBT, 1);
	struct test_elf bad_f1 = test_elf_default(64, FEATURE_1_IBT, 1);
	struct test_property t;
	struct planned p;

	(void)state;
	t = unsorted.notes[0].props[0];
	unsorted.notes[0].props[0] = unsorted.notes[0].props[1];
	unsorted.notes[0].props[1] = t;
	plan_file(&p, &unsorted, FEATURE_1_SHSTK, 0);
	assert_int_equal(p.rc, -1);
	assert_non_null(strstr(p.err.text, "out of order"));
	assert_null(p.plan.edit.image);
	planned_free(&p);

	overrun.notes[0].descsz = 200;
	plan_file(&p, &overrun, FEATURE_1_SHSTK, 0);
	assert_int_equal(p.rc, -1);
	assert_non_null(strstr(p.err.text, "descsz"));
	planned_free(&p);

	bad_f1.notes[0].props[0].datasz = 8;
	plan_file(&p, &bad_f1, FEATURE_1_SHSTK, 0);
	assert_int_equal(p.rc, -1);
	assert_non_null(strstr(p.err.text, "FEATURE_1_AND"));
	planned_free(&p);
}

/* Marking the planned result again with the same request plans nothing. */
static void test_idempotent(void **state)
{
	struct test_elf e = { .elf_class = 64 };
	struct mark_request req = { FEATURE_1_IBT, 0 };
	struct mark_plan again;
	struct planned p;
	struct elfcet_error err;

	(void)state;
	plan_file(&p, &e, FEATURE_1_IBT, 0);
	assert_int_equal(p.rc, 0);
	assert_int_equal(mark_plan_make(&p.result, &req, &again, &err), 0);
	assert_int_equal(again.layout, MARK_LAYOUT_UNCHANGED);
	mark_plan_free(&again);
	planned_free(&p);
}

static void test_ranges_merge(void **state)
{
	unsigned char image[64] = { 0 }, b[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct mark_edit edit = { .image = image, .size = 64, .orig_size = 48 };

	(void)state;
	mark_edit_put(&edit, 10, b, 4, "a");
	mark_edit_put(&edit, 20, b, 4, "b");
	mark_edit_put(&edit, 13, b, 8, "c"); /* bridges a and b */
	mark_edit_put(&edit, 40, b, 8, "d");
	mark_edit_put(&edit, 46, b, 8, "e"); /* runs into the new space */
	assert_int_equal(edit.nranges, 2);
	assert_int_equal(edit.ranges[0].offset, 10);
	assert_int_equal(edit.ranges[0].len, 14);
	assert_int_equal(edit.ranges[1].offset, 40);
	assert_int_equal(edit.ranges[1].len, 8);
	assert_true(mark_edit_covers(&edit, 23));
	assert_false(mark_edit_covers(&edit, 24));
	assert_true(mark_edit_covers(&edit, 50));
	assert_int_equal(image[53], 8);
	free(edit.ranges);
}

/* The audit gate: which requested bits the verdicts forbid, and which findings block
 * each (ibt-* block IBT, shstk-* SHSTK, vsyscall-* both, info findings nothing). */
static void test_audit_gate(void **state)
{
	struct file_report rep = { .ibt = VERDICT_NOT_READY, .shstk = VERDICT_READY };
	struct mark_request both = { FEATURE_1_IBT | FEATURE_1_SHSTK, 0 };
	struct mark_request shstk = { FEATURE_1_SHSTK, 0 };
	struct finding endbr = { .rule = "ibt-missing-endbr", .severity = SEVERITY_WARNING };
	struct finding ret = { .rule = "shstk-ret-as-jump", .severity = SEVERITY_ERROR };
	struct finding vsys = { .rule = "vsyscall-call", .severity = SEVERITY_WARNING };
	struct finding stray = { .rule = "ibt-stray-endbr", .severity = SEVERITY_INFO };

	(void)state;
	assert_int_equal(mark_blocked_bits(&rep, &both), FEATURE_1_IBT);
	assert_int_equal(mark_blocked_bits(&rep, &shstk), 0);
	rep.ibt = VERDICT_MARKED_OK;
	assert_int_equal(mark_blocked_bits(&rep, &both), 0);
	rep.shstk = VERDICT_NOT_APPLICABLE; /* ELF32: no shadow stack */
	assert_int_equal(mark_blocked_bits(&rep, &both), FEATURE_1_SHSTK);
	rep.ibt = VERDICT_MARKED_BROKEN;
	assert_int_equal(mark_blocked_bits(&rep, &both), FEATURE_1_IBT | FEATURE_1_SHSTK);
	/* Clearing is never gated. */
	assert_int_equal(mark_blocked_bits(&rep, &(struct mark_request){ 0, FEATURE_1_IBT }), 0);

	assert_true(mark_finding_blocks(&endbr, FEATURE_1_IBT));
	assert_false(mark_finding_blocks(&endbr, FEATURE_1_SHSTK));
	assert_true(mark_finding_blocks(&ret, FEATURE_1_SHSTK));
	assert_false(mark_finding_blocks(&ret, FEATURE_1_IBT));
	assert_true(mark_finding_blocks(&vsys, FEATURE_1_IBT));
	assert_true(mark_finding_blocks(&vsys, FEATURE_1_SHSTK));
	assert_false(mark_finding_blocks(&stray, FEATURE_1_IBT | FEATURE_1_SHSTK));
}

/* Bytes appended after the ELF image are a payload its program may read: the model
 * lists them, fixed, and a plan that would append after them (a file without a note, whose
 * one PT_LOAD ends the file) is refused, while the same file without them is planned. */
static void test_payload_after_image(void **state)
{
	struct mark_request req = { FEATURE_1_IBT, 0 };
	struct test_elf e = { .elf_class = 64 };
	char *path = test_elf_write(&e);
	struct elf_model m;
	struct mark_reads reads;
	struct mark_plan plan;
	struct elfcet_error err;
	uint64_t image;
	FILE *f;

	(void)state;
	assert_int_equal(elf_model_open_copy(&m, path, &err), ELF_OPEN_OK);
	image = m.size;
	assert_int_equal(mark_plan_checked(&m, &req, &plan, &err), 0);
	assert_true(plan.edit.size > image);
	mark_plan_free(&plan);
	elf_model_close(&m);

	f = fopen(path, "ab");
	assert_non_null(f);
	assert_int_equal(fwrite("PAYLOAD!payload-bytes", 1, 21, f), 21);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(elf_model_open_copy(&m, path, &err), ELF_OPEN_OK);
	assert_int_equal(mark_reads_collect(&m, &reads), 0);
	assert_int_equal(reads.image_end, image);
	assert_true(reads.count > 0);
	assert_int_equal(reads.items[reads.count - 1].offset, image);
	assert_int_equal(reads.items[reads.count - 1].len, 21);
	assert_int_equal(reads.items[reads.count - 1].kind, MARK_READ_FIXED);
	mark_reads_free(&reads);
	assert_int_equal(mark_plan_checked(&m, &req, &plan, &err), 1);
	assert_non_null(strstr(err.text, "after the ELF image"));
	mark_plan_free(&plan);
	elf_model_close(&m);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_place_sets_a_bit),
		cmocka_unit_test(test_in_place_clears_a_bit),
		cmocka_unit_test(test_unchanged_when_already_marked),
		cmocka_unit_test(test_clearing_last_bit_drops_property),
		cmocka_unit_test(test_clearing_only_property_drops_note),
		cmocka_unit_test(test_drop_from_shared_pt_note),
		cmocka_unit_test(test_grow_elf64),
		cmocka_unit_test(test_grow_elf32),
		cmocka_unit_test(test_grow_keeps_types_sorted),
		cmocka_unit_test(test_create_elf64),
		cmocka_unit_test(test_create_elf32),
		cmocka_unit_test(test_shared_pt_note_is_cut),
		cmocka_unit_test(test_damaged_notes_are_refused),
		cmocka_unit_test(test_idempotent),
		cmocka_unit_test(test_ranges_merge),
		cmocka_unit_test(test_audit_gate),
		cmocka_unit_test(test_payload_after_image),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
