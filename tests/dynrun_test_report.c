/* elfcet run's library pieces that need no QEMU: reading the plugin's lines back (and
 * rejecting what is not), option escaping, status wording. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "dynrun/dynrun.h"
#include "dynrun/dynrun_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char path[64];

static void write_log(const char *text)
{
	strcpy(path, "/tmp/dynrun-test-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void test_reads_violations_and_summaries(void **state)
{
	(void)state;
	write_log(
		"{\"event\":\"start\",\"pid\":7,\"target\":\"x86_64\",\"ibt\":true,\"shstk\":true}\n"
		"{\"event\":\"violation\",\"kind\":\"ibt\",\"pid\":7,\"tid\":8,\"src\":4096,"
		"\"dst\":8192,\"src_object\":\"/bin/x\",\"src_offset\":16,\"dst_object\":\"/bin/y\","
		"\"dst_offset\":32}\n"
		"{\"event\":\"violation\",\"kind\":\"shstk-unwind\",\"pid\":7,\"tid\":7,\"src\":1,"
		"\"dst\":2,\"expected\":3,\"depth\":4}\n"
		"{\"event\":\"summary\",\"pid\":7,\"calls\":10,\"returns\":9,\"tracked_branches\":5,"
		"\"ibt\":3,\"shstk\":0,\"shstk-unwind\":1}\n");
	struct dynrun_log log;
	struct elfcet_error err;
	assert_int_equal(dynrun_log_read(path, &log, &err), 0);
	unlink(path);
	assert_int_equal(log.processes, 1);
	assert_int_equal(log.count, 2);
	assert_int_equal(log.items[0].kind, VIOL_IBT);
	assert_int_equal(log.items[0].tid, 8);
	assert_string_equal(log.items[0].src.object, "/bin/x");
	assert_int_equal(log.items[0].src.offset, 16);
	assert_int_equal(log.items[0].dst.address, 8192);
	assert_int_equal(log.items[1].kind, VIOL_SHSTK_UNWIND);
	assert_true(log.items[1].has_expected);
	assert_int_equal(log.items[1].expected.address, 3);
	assert_int_equal(log.items[1].depth, 4);
	assert_null(log.items[1].src.object);
	assert_int_equal(log.totals[VIOL_IBT], 3); /* repeats counted by the plugin */
	assert_int_equal(log.totals[VIOL_SHSTK_UNWIND], 1);
	assert_int_equal(log.calls, 10);
	dynrun_log_free(&log);
}

static void test_violations_without_summary_still_count(void **state)
{
	(void)state;
	/* An aborted process writes no summary. */
	write_log(
		"{\"event\":\"start\",\"pid\":7}\n"
		"{\"event\":\"violation\",\"kind\":\"shstk\",\"pid\":7,\"tid\":7,\"src\":1,\"dst\":2}\n"
		"{\"event\":\"abort\",\"pid\":7,\"kind\":\"shstk\"}\n");
	struct dynrun_log log;
	struct elfcet_error err;
	assert_int_equal(dynrun_log_read(path, &log, &err), 0);
	unlink(path);
	assert_true(log.aborted);
	assert_int_equal(log.totals[VIOL_SHSTK], 1);
	dynrun_log_free(&log);
}

static void test_rejects_bad_lines(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"not json\n",
		"[1,2]\n",
		"{\"no_event\":1}\n",
		"{\"event\":\"violation\",\"kind\":\"nonsense\",\"src\":1,\"dst\":2}\n",
		"{\"event\":\"violation\",\"kind\":\"ibt\",\"src\":\"x\",\"dst\":2}\n",
		"{\"event\":\"violation\",\"kind\":\"ibt\",\"src\":1}\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[300];
		snprintf(text, sizeof(text), "{\"event\":\"start\",\"pid\":1}\n%s", bad[i]);
		write_log(text);
		struct dynrun_log log;
		struct elfcet_error err;
		assert_int_equal(dynrun_log_read(path, &log, &err), -1);
		assert_non_null(strstr(err.text, path));
		assert_non_null(strstr(err.text, "line 2"));
		unlink(path);
		dynrun_log_free(&log);
	}
	struct dynrun_log log;
	struct elfcet_error err;
	assert_int_equal(dynrun_log_read("/nonexistent/raw.json", &log, &err), -1);
	assert_non_null(strstr(err.text, "/nonexistent/raw.json"));
}

static void test_escape_option(void **state)
{
	(void)state;
	char out[16];
	assert_string_equal(dynrun_escape_option("/a,b,,c", out, sizeof(out)), "/a,,b,,,,c");
	assert_string_equal(dynrun_escape_option("", out, sizeof(out)), "");
	assert_null(dynrun_escape_option("0123456789,1234", out, sizeof(out)));
}

static void test_describe_status(void **state)
{
	(void)state;
	char buf[96];
	dynrun_describe_status(3 << 8, buf, sizeof(buf));
	assert_string_equal(buf, "exit status 3");
	dynrun_describe_status(11, buf, sizeof(buf));
	assert_non_null(strstr(buf, "killed by signal 11"));
}

/* Names from the program run (mapped files, the program, what it exec'd) are escaped in
 * the text on stderr as elfcet's text output escapes names (issue 35): a newline or an ESC
 * sequence in a file name forges no line and never reaches the terminal. */
static void test_text_escapes_names(void **state)
{
	(void)state;
	write_log("{\"event\":\"start\",\"pid\":7,\"target\":\"x86_64\",\"ibt\":true,"
		  "\"shstk\":true}\n"
		  "{\"event\":\"violation\",\"kind\":\"ibt\",\"pid\":7,\"tid\":7,\"src\":1,"
		  "\"dst\":2,\"src_object\":\"/t/a\\nibt: forged\",\"src_offset\":16,"
		  "\"dst_object\":\"/t/\\u001b[2J\\r\",\"dst_offset\":32}\n"
		  "{\"event\":\"exec\",\"pid\":7,\"path\":\"/t/\\u001b]0;title\\u0007\"}\n");
	struct dynrun_log log;
	struct elfcet_error err;
	assert_int_equal(dynrun_log_read(path, &log, &err), 0);
	unlink(path);
	struct dynrun_outcome run = { .ibt = true };
	strcpy(run.program, "/t/prog\n\x1b[1;1H");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	dynrun_print_text(f, &run, &log);
	fclose(f);
	dynrun_log_free(&log);
	printf("%s", text);
	assert_null(strchr(text, '\x1b'));
	assert_null(strchr(text, '\r'));
	assert_non_null(
		strstr(text, "ibt: /t/a\\nibt: forged@file+0x10 -> /t/\\x1b[2J\\r@file+0x20 "));
	assert_non_null(strstr(text, "elfcet run: /t/prog\\n\\x1b[1;1H: checked ibt;"));
	assert_non_null(strstr(text, "exec'd /t/\\x1b]0;title\\x07, which ran unchecked\n"));
	/* three lines: the violation, the summary, the exec */
	size_t lines = 0;
	for (const char *p = text; (p = strchr(p, '\n')) != NULL; p++)
		lines++;
	assert_int_equal(lines, 3);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_violations_and_summaries),
		cmocka_unit_test(test_violations_without_summary_still_count),
		cmocka_unit_test(test_rejects_bad_lines),
		cmocka_unit_test(test_escape_option),
		cmocka_unit_test(test_describe_status),
		cmocka_unit_test(test_text_escapes_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
