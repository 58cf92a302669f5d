/* The guest runner's job-line reader, on the host: what vm/verify writes must be read
 * back exactly. (Its JSON writer, scanner/report/json_out.c, has tests/test_json_out.) */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "vm/guest/job_parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void full_job(void **state)
{
	struct job job;
	const char *error = NULL;

	(void)state;
	assert_int_equal(job_parse("{\"id\": \"F1\", \"path\": \"/elfcet/files/a b\", "
				   "\"args\": [\"--version\", \"x\\\"y\\\\z\", \"\\u00e9\\n\"], "
				   "\"timeout\": 7, \"expect_output\": \"hello\", \"window\": true, "
				   "\"later\": {\"n\": [1, -2.5e3, true, false, null, \"s\"]}}",
				   &job, &error),
			 0);
	assert_string_equal(job.id, "F1");
	assert_string_equal(job.path, "/elfcet/files/a b");
	assert_int_equal(job.argc, 4);
	assert_string_equal(job.argv[0], "/elfcet/files/a b");
	assert_string_equal(job.argv[1], "--version");
	assert_string_equal(job.argv[2], "x\"y\\z");
	assert_string_equal(job.argv[3], "\xc3\xa9\n");
	assert_null(job.argv[4]);
	assert_int_equal(job.timeout, 7);
	assert_int_equal(job.window, 1);
	assert_string_equal(job.expect_output, "hello");
	job_free(&job);
}

static void minimal_job(void **state)
{
	struct job job;
	const char *error = NULL;

	(void)state;
	assert_int_equal(job_parse("  {\"path\":\"/p\"}  ", &job, &error), 0);
	assert_null(job.id);
	assert_int_equal(job.argc, 1);
	assert_string_equal(job.argv[0], "/p");
	assert_null(job.argv[1]);
	assert_null(job.expect_output);
	assert_int_equal(job.timeout, 0);
	assert_int_equal(job.window, 0);
	job_free(&job);
}

static void bad_jobs(void **state)
{
	static const struct {
		const char *line, *error;
	} cases[] = {
		{ "", "a job must be a JSON object" },
		{ "[\"/p\"]", "a job must be a JSON object" },
		{ "{\"id\":\"1\"}", "the job has no path" },
		{ "{\"path\":\"/p\"", "expected ',' or '}'" },
		{ "{\"path\":\"/p\",}", "expected a member name" },
		{ "{\"path\":\"/p\"} x", "text after the job object" },
		{ "{\"path\":\"/p", "unterminated string or control character in a string" },
		{ "{\"path\":\"/p\\q\"}", "bad escape in a string" },
		{ "{\"path\":\"/p\\u00\"}", "bad \\u escape" },
		{ "{\"path\":\"/p\\u0000\"}", "\\u0000 or a surrogate in a string" },
		{ "{\"path\":1}", "id, path and expect_output must be strings" },
		{ "{\"path\":\"/p\",\"args\":\"-v\"}", "args must be an array of strings" },
		{ "{\"path\":\"/p\",\"args\":[1]}", "args must be an array of strings" },
		{ "{\"path\":\"/p\",\"timeout\":-1}", "timeout must be a number of seconds" },
		{ "{\"path\":\"/p\",\"x\":tru}", "unexpected character" },
		{ "{\"path\":\"/p\",\"window\":1}", "window must be true or false" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct job job;
		const char *error = NULL;

		printf("job line %s -> %s\n", cases[i].line, cases[i].error);
		assert_int_equal(job_parse(cases[i].line, &job, &error), -1);
		assert_non_null(error);
		assert_string_equal(error, cases[i].error);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_job),
		cmocka_unit_test(minimal_job),
		cmocka_unit_test(bad_jobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
