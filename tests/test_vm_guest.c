/* The guest runner's job-line reader and JSON writer, on the host: what vm/verify writes
 * must be read back exactly, and whatever a program prints must come out as one valid
 * JSON string. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "vm/guest/job_parse.h"
#include "scanner/json_out.h"

#include <json-c/json.h>
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
				   &job, &error), 0);
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

/* Writes a document with the writer and reads it back with json-c. */
static json_object *written(void (*write)(struct json_out *j))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_out j;
	json_object *obj;

	assert_non_null(f);
	json_begin(&j, f);
	write(&j);
	json_end(&j);
	fclose(f);
	assert_int_equal(buf[len - 1], '\n');
	assert_null(memchr(buf, '\n', len - 1));        /* one line */
	obj = json_tokener_parse(buf);
	if (!obj)
		fail_msg("not JSON: %s", buf);
	free(buf);
	return obj;
}

static const char raw_output[] = "ok \"q\" \\ \t\r\n\x01\x7f \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"
				 " bad: \xff \xc3 \xe0\x80\x80 \xed\xa0\x80 end";

static void write_everything(struct json_out *j)
{
	json_str(j, "type", "job");
	json_str(j, "none", NULL);
	json_int(j, "n", -42);
	json_boolean(j, "t", true);
	json_null(j, "z");
	json_hex(j, "addr", 0xffffffffff600000ULL);
	json_strn(j, "output", raw_output, sizeof raw_output - 1);
	json_open_object(j, "status");
	json_str(j, "x86_Thread_features", "ibt");
	json_open_array(j, "list");
	json_array_str(j, "a", 1);
	json_open_object(j, NULL);
	json_close_object(j);
	json_close_array(j);
	json_close_object(j);
	json_open_array(j, "empty");
	json_close_array(j);
}

static void writer_round_trip(void **state)
{
	json_object *obj = written(write_everything), *v, *status, *list;
	/* Valid UTF-8 kept; each other byte read as its Latin-1 character. */
	const char *expected = "ok \"q\" \\ \t\r\n\x01\x7f \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"
			       " bad: \xc3\xbf \xc3\x83 \xc3\xa0\xc2\x80\xc2\x80 \xc3\xad\xc2\xa0\xc2\x80 end";

	(void)state;
	assert_true(json_object_object_get_ex(obj, "output", &v));
	printf("output read back: %s\n", json_object_to_json_string(v));
	assert_string_equal(json_object_get_string(v), expected);
	assert_true(json_object_object_get_ex(obj, "none", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(obj, "n", &v));
	assert_int_equal(json_object_get_int(v), -42);
	assert_true(json_object_object_get_ex(obj, "addr", &v));
	assert_string_equal(json_object_get_string(v), "0xffffffffff600000");
	assert_true(json_object_object_get_ex(obj, "status", &status));
	assert_true(json_object_object_get_ex(status, "list", &list));
	assert_int_equal(json_object_array_length(list), 2);
	assert_true(json_object_object_get_ex(obj, "empty", &v));
	assert_int_equal(json_object_array_length(v), 0);
	json_object_put(obj);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_job),
		cmocka_unit_test(minimal_job),
		cmocka_unit_test(bad_jobs),
		cmocka_unit_test(writer_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
