/* The property-note readings, table-driven: each case is a small ELF file with one thing
 * wrong, and what the kernel, glibc and the report must then say. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "elf_builder.h"
#include "property/gnu_property.h"
#include "property/property_note.h"
#include "rules.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct note_case {
	const char *name;
	int elf_class;
	void (*damage)(struct test_elf *e);
	int kernel_error; /* 0, ENOEXEC or EIO */
	const char *kernel_rule;
	bool glibc_accepted;
	const char *glibc_rule;	      /* the problem reported for glibc, or NULL */
	uint32_t glibc_feature_1_and; /* what ld.so ends up with */
	const char *source;
};

static void nothing(struct test_elf *e)
{
	(void)e;
}

static void swap_properties(struct test_elf *e)
{
	struct test_property t = e->notes[0].props[0];

	e->notes[0].props[0] = e->notes[0].props[1];
	e->notes[0].props[1] = t;
}

static void duplicate_feature(struct test_elf *e)
{
	e->notes[0].props[2] = e->notes[0].props[1];
	e->notes[0].props[1] = (struct test_property){ PROP_X86_FEATURE_1_AND, 4, FEATURE_1_IBT };
	e->notes[0].count = 3;
}

static void feature_size_8(struct test_elf *e)
{
	e->notes[0].props[0].datasz = 8;
}

static void bad_name(struct test_elf *e)
{
	e->notes[0].name = "GNX";
}

static void bad_type(struct test_elf *e)
{
	e->notes[0].type = 1;
}

static void descsz_overrun(struct test_elf *e)
{
	e->notes[0].descsz = 0x100;
}

static void datasz_overrun(struct test_elf *e)
{
	e->notes[0].props[1].datasz = 100;
	e->notes[0].descsz = 32;
}

static void descsz_28(struct test_elf *e)
{
	e->notes[0].descsz = 28;
}

static void descsz_20(struct test_elf *e)
{
	e->notes[0].descsz = 20;
}

static void too_large(struct test_elf *e)
{
	e->gnu_property_filesz = 2048;
}

static void truncated(struct test_elf *e)
{
	e->gnu_property_filesz = 8;
}

static void both_aligned_4(struct test_elf *e)
{
	e->gnu_property_align = 4;
	e->note_align = 4;
}

static void gnu_property_aligned_4(struct test_elf *e)
{
	e->gnu_property_align = 4;
}

static void pt_note_only(struct test_elf *e)
{
	e->pt_gnu_property = false;
}

static void second_note(struct test_elf *e)
{
	e->notes[1] = e->notes[0];
	e->nnotes = 2;
}

static void second_note_pt_note_only(struct test_elf *e)
{
	second_note(e);
	pt_note_only(e);
}

static void no_segments(struct test_elf *e)
{
	e->pt_gnu_property = false;
	e->pt_note = false;
}

#define IBT_SHSTK (FEATURE_1_IBT | FEATURE_1_SHSTK)

static const struct note_case cases[] = {
	{ "valid", 64, nothing, 0, NULL, true, NULL, IBT_SHSTK, "pt_gnu_property" },
	{ "valid-32", 32, nothing, 0, NULL, true, NULL, IBT_SHSTK, "pt_gnu_property" },
	{ "unsorted", 64, swap_properties, ENOEXEC, "property-unsorted", false, "property-unsorted",
	  0, "pt_gnu_property" },
	{ "duplicate", 64, duplicate_feature, ENOEXEC, "property-duplicate", false,
	  "property-duplicate", FEATURE_1_IBT, "pt_gnu_property" },
	{ "feature-size-8", 64, feature_size_8, ENOEXEC, "feature-1-and-bad-size", false,
	  "feature-1-and-bad-size", 0, "pt_gnu_property" },
	{ "bad-name", 64, bad_name, ENOEXEC, "property-note-name", true, NULL, 0,
	  "pt_gnu_property" },
	{ "bad-type", 64, bad_type, ENOEXEC, "property-note-type", true, NULL, 0,
	  "pt_gnu_property" },
	{ "descsz-overrun", 64, descsz_overrun, ENOEXEC, "property-descsz-overrun", false,
	  "property-descsz-overrun", 0, "pt_gnu_property" },
	{ "datasz-overrun", 64, datasz_overrun, ENOEXEC, "property-datasz-overrun", false,
	  "property-datasz-overrun", 0, "pt_gnu_property" },
	{ "padding-overrun", 64, descsz_28, ENOEXEC, "property-padding-overrun", false,
	  "property-descsz-unaligned", 0, "pt_gnu_property" },
	{ "header-short", 64, descsz_20, ENOEXEC, "property-header-short", false,
	  "property-descsz-unaligned", 0, "pt_gnu_property" },
	{ "too-large", 64, too_large, ENOEXEC, "property-too-large", true, NULL, IBT_SHSTK,
	  "pt_gnu_property" },
	{ "truncated", 64, truncated, EIO, "property-truncated", true, NULL, IBT_SHSTK, "pt_note" },
	{ "misaligned", 64, both_aligned_4, 0, NULL, false, "property-misaligned-segment", 0,
	  "pt_gnu_property" },
	{ "misaligned-with-fallback", 64, gnu_property_aligned_4, 0, NULL, true, NULL, IBT_SHSTK,
	  "pt_gnu_property" },
	{ "misaligned-32", 32, both_aligned_4, 0, NULL, true, NULL, IBT_SHSTK, "pt_gnu_property" },
	{ "pt-note-only", 64, pt_note_only, 0, NULL, true, NULL, IBT_SHSTK, "pt_note" },
	/* glibc 2.36 drops everything at a second property note in its PT_NOTE. */
	{ "two-notes", 64, second_note, 0, NULL, false, "property-multiple-notes", 0,
	  "pt_gnu_property" },
	{ "two-notes-pt-note-only", 64, second_note_pt_note_only, 0, NULL, false,
	  "property-multiple-notes", 0, "pt_note" },
	{ "no-note-segments", 64, no_segments, 0, NULL, true, NULL, 0, "none" },
};

static struct rule_set rules;

static int load_rules(void **state)
{
	struct elfcet_error err;
	const char *dir = getenv("ELFCET_RULES_DIR");

	(void)state;
	if (rules_load(dir ? dir : "rules", &rules, &err) != 0) {
		fprintf(stderr, "%s\n", err.text);
		return -1;
	}
	return 0;
}

static int free_rules(void **state)
{
	(void)state;
	rules_free(&rules);
	return 0;
}

static bool has_problem(const struct problem_list *l, const char *rule, unsigned consumer)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		if (strcmp(l->items[i].rule, rule) == 0 && (l->items[i].rejected_by & consumer))
			return true;
	return false;
}

/* Writes SPEC, opens it and checks its note; the caller checks, then calls close_case. */
struct checked_file {
	char *path;
	struct elf_model m;
	struct property_report rep;
	struct problem_list problems;
};

static void open_case(const struct test_elf *spec, struct checked_file *cf)
{
	struct elfcet_error msg;

	memset(cf, 0, sizeof(*cf));
	cf->path = test_elf_write(spec);
	assert_int_equal(elf_model_open(&cf->m, cf->path, &msg), ELF_OPEN_OK);
	property_check(&cf->m, &rules, &cf->rep, &cf->problems);
}

static void close_case(struct checked_file *cf)
{
	problem_list_free(&cf->problems);
	elf_model_close(&cf->m);
	unlink(cf->path);
	free(cf->path);
}

static void run_case(const struct note_case *c)
{
	struct test_elf spec = test_elf_default(c->elf_class, IBT_SHSTK, 1);
	struct checked_file cf;
	const struct property_report *rep = &cf.rep;
	const struct problem_list *problems = &cf.problems;

	c->damage(&spec);
	open_case(&spec, &cf);

	assert_string_equal(property_source_name(rep->note.source), c->source);
	assert_int_equal(rep->kernel.error, c->kernel_error);
	/* A kernel offering no user CET ignores what its parser rejects, not a read error. */
	assert_int_equal(rep->kernel.ignored_without_user_cet, c->kernel_error == ENOEXEC);
	if (c->kernel_rule) {
		assert_non_null(rep->kernel.rule);
		assert_string_equal(rep->kernel.rule, c->kernel_rule);
		assert_true(has_problem(problems, c->kernel_rule, CONSUMER_KERNEL));
	} else {
		assert_null(rep->kernel.rule);
	}
	assert_int_equal(rep->glibc.accepted, c->glibc_accepted);
	assert_int_equal(rep->glibc.feature_1_and, c->glibc_feature_1_and);
	if (c->glibc_rule)
		assert_true(has_problem(problems, c->glibc_rule, CONSUMER_GLIBC));
	if (c->kernel_error == 0 && rep->kernel.sees_note)
		assert_int_equal(rep->kernel.feature_1_and, IBT_SHSTK);
	if (!c->kernel_rule && !c->glibc_rule && strcmp(c->source, "pt_note") != 0)
		assert_int_equal(problems->count, 0);

	close_case(&cf);
}

static void test_note_case(void **state)
{
	run_case(*state);
}

/* An ELF32 note laid out with ELF64's 8-byte padding: the compat loader reads the
 * padding as the next property's header, which is then out of order. */
static void test_elf32_note_with_elf64_padding(void **state)
{
	struct test_elf spec = test_elf_default(32, IBT_SHSTK, 1);
	struct checked_file cf;

	(void)state;
	/* datasz 8 pads like ELF64 would; the value's upper half is the padding. */
	spec.notes[0].props[0].datasz = 8;
	spec.notes[0].props[1].datasz = 8;
	open_case(&spec, &cf);
	assert_int_equal(cf.rep.kernel.error, ENOEXEC);
	assert_string_equal(cf.rep.kernel.rule, "feature-1-and-bad-size");
	close_case(&cf);
}

/* The kernel reads the interpreter's note for a program that has one. */
static void test_kernel_reads_interpreter(void **state)
{
	struct test_elf spec = test_elf_default(64, IBT_SHSTK, 1);
	struct checked_file cf;

	(void)state;
	spec.has_interp = true;
	open_case(&spec, &cf);
	assert_string_equal(cf.m.interp, "/lib/ld-test.so");
	assert_true(cf.rep.kernel_reads_interpreter);
	close_case(&cf);
}

int main(void)
{
	struct CMUnitTest tests[sizeof(cases) / sizeof(cases[0]) + 2];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&tests[i], 0, sizeof(tests[i]));
		tests[i].name = cases[i].name;
		tests[i].test_func = test_note_case;
		tests[i].initial_state = (void *)&cases[i];
	}
	tests[i++] = (struct CMUnitTest)cmocka_unit_test(test_elf32_note_with_elf64_padding);
	tests[i++] = (struct CMUnitTest)cmocka_unit_test(test_kernel_reads_interpreter);
	return _cmocka_run_group_tests("property_note", tests, i, load_rules, free_rules);
}
