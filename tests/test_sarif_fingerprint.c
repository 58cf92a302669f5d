/* SARIF fingerprints (scanner/report/sarif_fingerprint.c): the same finding keeps its
 * fingerprint when its code moves, different findings get different ones, findings that
 * share every field are told apart by an ordinal, and the hash is SHA-256 of the fields
 * as Python's hashlib computes it (the expected values below). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/sarif_fingerprint.h"

#include <stdlib.h>
#include <string.h>

static const char uri[] = "usr/bin/prog";

static void add(struct finding_list *list, uint64_t address, const char *symbol, const char *via)
{
	finding_add_text(list, "ibt-missing-endbr", SEVERITY_ERROR, address, symbol, via, "m");
}

/* The fingerprint of a lone finding at ADDRESS. */
static char *print_of(uint64_t address, const char *symbol, const char *via)
{
	struct finding_list list = { 0 };
	char **prints, *p;

	add(&list, address, symbol, via);
	prints = sarif_finding_fingerprints(uri, &list);
	p = strdup(prints[0]);
	sarif_fingerprints_free(prints, list.count);
	finding_list_free(&list);
	return p;
}

static void test_sha256_of_the_fields(void **state)
{
	/* hashlib.sha256(b"ibt-missing-endbr\0usr/bin/prog\0target\0" b"0x10\0data-pointer\0") */
	char *p = print_of(0x401010, "target+0x10", "data-pointer");
	char *q;

	(void)state;
	assert_string_equal(p,
			    "92c10b5565c21de327de45cc92f1172ec947d817b20b213570850656a3b3bd4f:1");
	/* hashlib.sha256(b"property-unsorted\0usr/bin/prog\0") */
	q = sarif_problem_fingerprint(uri, "property-unsorted");
	assert_string_equal(q,
			    "c767c1ae8ee2d4002fb3f45f5a800dfa347a4055ae291a0db05310e9fd73030f:1");
	free(p);
	free(q);
}

static void test_moved_code_keeps_it(void **state)
{
	char *before = print_of(0x401129, "target", "data-pointer");
	char *after = print_of(0x40115b, "target", "data-pointer");
	char *inside = print_of(0x401139, "target+0x10", "data-pointer");
	char *other = print_of(0x401129, "main", "data-pointer");
	char *via = print_of(0x401129, "target", "export");

	(void)state;
	assert_string_equal(before, after);
	assert_string_not_equal(before, inside);
	assert_string_not_equal(before, other);
	assert_string_not_equal(before, via);
	free(before);
	free(after);
	free(inside);
	free(other);
	free(via);
}

static void test_same_fields_numbered_in_address_order(void **state)
{
	struct finding_list list = { 0 };
	char **prints;
	size_t len;

	(void)state;
	/* Two local functions named free_mem, and another function between them. */
	add(&list, 0x478380, "free_mem", "data-pointer");
	add(&list, 0x478400, "other", "data-pointer");
	add(&list, 0x4786b0, "free_mem", "data-pointer");
	prints = sarif_finding_fingerprints(uri, &list);
	len = strlen(prints[0]);
	assert_int_equal(len, 64 + 2);
	assert_memory_equal(prints[0], prints[2], 64);
	assert_string_equal(prints[0] + 64, ":1");
	assert_string_equal(prints[2] + 64, ":2");
	assert_string_equal(prints[1] + 64, ":1");
	assert_memory_not_equal(prints[0], prints[1], 64);
	sarif_fingerprints_free(prints, list.count);
	finding_list_free(&list);
}

static void test_no_findings(void **state)
{
	struct finding_list list = { 0 };
	char **prints = sarif_finding_fingerprints(uri, &list);

	(void)state;
	assert_non_null(prints);
	sarif_fingerprints_free(prints, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_of_the_fields),
		cmocka_unit_test(test_moved_code_keeps_it),
		cmocka_unit_test(test_same_fields_numbered_in_address_order),
		cmocka_unit_test(test_no_findings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
