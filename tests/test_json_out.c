/* The streaming JSON writer (scanner/report/json_out.c) of the audit report and the guest
 * runner: whatever a program prints must come out as one valid JSON string, and what the
 * report writes must read back as the values it was given. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/json_out.h"

#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes a document with the writer into *TEXT and reads it back with json-c. */
static json_object *written_text(void (*write)(struct json_out *j), char **text)
{
	size_t len = 0;
	FILE *f = open_memstream(text, &len);
	struct json_out j;
	json_object *obj;

	assert_non_null(f);
	json_begin(&j, f);
	write(&j);
	json_end(&j);
	fclose(f);
	assert_int_equal((*text)[len - 1], '\n');
	obj = json_tokener_parse(*text);
	if (!obj)
		fail_msg("not JSON: %s", *text);
	return obj;
}

static json_object *written(void (*write)(struct json_out *j))
{
	char *text = NULL;
	json_object *obj = written_text(write, &text);

	assert_null(memchr(text, '\n', strlen(text) - 1)); /* one line */
	free(text);
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
	const char *expected =
		"ok \"q\" \\ \t\r\n\x01\x7f \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"
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

/* The report's shape: a list of files, one per line, then more members. */
static void write_report_lines(struct json_out *j)
{
	int i;

	json_open_array(j, "files");
	for (i = 0; i < 3; i++) {
		json_newline(j);
		json_open_object(j, NULL);
		json_uint(j, "address", i == 2 ? UINT64_MAX : (uint64_t)i);
		json_close_object(j);
	}
	json_close_array(j);
	json_newline(j);
	json_open_array(j, "skipped");
	json_close_array(j);
}

static void report_lines_and_unsigned_values(void **state)
{
	char *text = NULL;
	json_object *obj = written_text(write_report_lines, &text), *files, *v;
	const char *line;
	int lines = 0;

	(void)state;
	/* each file object starts a line; the commas end the lines before */
	for (line = text; (line = strchr(line, '\n')) != NULL; line++)
		lines++;
	assert_int_equal(lines, 5);
	assert_non_null(strstr(text, "\n{\"address\":0},\n{\"address\":1},\n{"));
	assert_true(json_object_object_get_ex(obj, "files", &files));
	assert_int_equal(json_object_array_length(files), 3);
	assert_true(json_object_object_get_ex(json_object_array_get_idx(files, 2), "address", &v));
	assert_true(json_object_get_uint64(v) == UINT64_MAX);
	assert_true(json_object_object_get_ex(obj, "skipped", &v));
	json_object_put(obj);
	free(text);
}

static void write_integers(struct json_out *j)
{
	json_int(j, "min", LLONG_MIN);
	json_int(j, "max", LLONG_MAX);
	json_int(j, "zero", 0);
	json_int(j, "minus_one", -1);
	json_uint(j, "ten", 10);
}

/* Integers at the ends of their types, written digit by digit, read back as they were. */
static void integers_at_their_limits(void **state)
{
	char *text = NULL;
	json_object *obj = written_text(write_integers, &text), *v;

	(void)state;
	assert_string_equal(text, "{\"min\":-9223372036854775808,\"max\":9223372036854775807,"
				  "\"zero\":0,\"minus_one\":-1,\"ten\":10}\n");
	assert_true(json_object_object_get_ex(obj, "min", &v));
	assert_true(json_object_get_int64(v) == LLONG_MIN);
	json_object_put(obj);
	free(text);
}

/* Names that are not UTF-8 (issue 35): \xe9 and UTF-8 \xc3\xa9 once both read as é, and
 * \xff\xfe as two Latin-1 letters that a UTF-8 name can hold too. */
static const char *const hostile_names[] = {
	"/t/\xff\xfe",	  "/t/\xc3\xbf\xc3\xbe", "/t/\xe9",
	"/t/\xc3\xa9",	  "/t/\xef\xbf\xbd",	 "/t/\xef\xbf\xbd\xef\xbf\xbd",
	"/t/a\nb\x1b[2J", "/t/\xed\xa0\x80",	 "/t/\xc3",
	"plain",
};
#define NHOSTILE (sizeof(hostile_names) / sizeof(hostile_names[0]))

static void write_names(struct json_out *j)
{
	size_t i;

	json_open_array(j, "files");
	for (i = 0; i < NHOSTILE; i++) {
		json_open_object(j, NULL);
		json_name(j, "path", "path_hex", hostile_names[i]);
		json_close_object(j);
	}
	json_close_array(j);
	json_name(j, "none", "none_hex", NULL);
	json_name(j, "message", NULL, "bad \xe9");
}

/* The bytes of member KEY of O as a reader of elfcet(1) takes them: KEY_hex when present,
 * else KEY's UTF-8. Allocated. */
static char *name_bytes(json_object *o, const char *key)
{
	char hex_key[64];
	json_object *v;
	const char *h;
	char *out;
	size_t i, n;

	snprintf(hex_key, sizeof(hex_key), "%s_hex", key);
	if (!json_object_object_get_ex(o, hex_key, &v))
		return strdup(json_object_get_string(json_object_object_get(o, key)));
	h = json_object_get_string(v);
	n = strlen(h);
	assert_int_equal(n % 2, 0);
	out = calloc(1, n / 2 + 1);
	assert_non_null(out);
	for (i = 0; i < n / 2; i++) {
		unsigned byte;

		assert_int_equal(sscanf(h + 2 * i, "%2x", &byte), 1);
		out[i] = (char)byte;
	}
	return out;
}

static void names_lossless_and_distinct(void **state)
{
	json_object *obj = written(write_names), *files, *v;
	char *back[NHOSTILE];
	size_t i, k;

	(void)state;
	assert_true(json_object_object_get_ex(obj, "files", &files));
	assert_int_equal(json_object_array_length(files), NHOSTILE);
	for (i = 0; i < NHOSTILE; i++) {
		json_object *f = json_object_array_get_idx(files, i);

		back[i] = name_bytes(f, "path");
		assert_string_equal(back[i], hostile_names[i]);
		/* the display string of a name that is not UTF-8 has U+FFFD, not Latin-1 */
		if (json_object_object_get_ex(f, "path_hex", NULL))
			assert_non_null(
				strstr(json_object_get_string(json_object_object_get(f, "path")),
				       "\xef\xbf\xbd"));
	}
	for (i = 0; i < NHOSTILE; i++)
		for (k = i + 1; k < NHOSTILE; k++)
			assert_string_not_equal(back[i], back[k]);
	for (i = 0; i < NHOSTILE; i++)
		free(back[i]);
	assert_true(json_object_object_get_ex(obj, "none", &v));
	assert_null(v);
	assert_false(json_object_object_get_ex(obj, "none_hex", NULL));
	assert_string_equal(json_object_get_string(json_object_object_get(obj, "message")),
			    "bad \xef\xbf\xbd");
	assert_false(json_object_object_get_ex(obj, "message_hex", NULL));
	json_object_put(obj);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(writer_round_trip),
		cmocka_unit_test(report_lines_and_unsigned_values),
		cmocka_unit_test(integers_at_their_limits),
		cmocka_unit_test(names_lossless_and_distinct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
