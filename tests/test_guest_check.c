/* The /proc readers the guest tests (kernel/tests/cettest, shstktest) decide with, on the
 * host: a CET CPU must be seen as one. /proc/cpuinfo pads "flags" with tabs before its
 * colon, and a CPU with AVX-512 has a flags line longer than 1 KiB; a reader that misses
 * either takes every enforcement check down its "no CET" branch. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kernel/tests/guest_check.h"

#include <stdlib.h>

/* A file with the given text, removed by the caller; its path in path */
static void write_file(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The flags line of a CPU with AVX-512 and CET, as the 6.1 kernel writes it */
static char *cpuinfo_text(void)
{
	static const char *head = "processor\t: 0\nvendor_id\t: GenuineIntel\n"
				  "model name\t: Intel(R) Core(TM)\nflags\t\t: fpu vme de pse";
	static const char *tail = " avx512f avx512dq avx512cd avx512bw avx512vl ibt shstk"
				  " user_ibt user_shstk\nbugs\t\t: spectre_v1\n\n";
	size_t n = strlen(head) + strlen(tail) + 1500 * 8 + 1;
	char *text = malloc(n);
	int i;

	assert_non_null(text);
	strcpy(text, head);
	/* Filler flags: the line runs to about 12 KiB */
	for (i = 0; i < 1500; i++)
		strcat(text, " flag");
	strcat(text, tail);
	return text;
}

static void cpuinfo_flags_padded_and_long(void **state)
{
	char path[] = "/tmp/test_guest_check.XXXXXX", buf[16384];
	char *text = cpuinfo_text();

	(void)state;
	write_file(path, text);
	assert_non_null(status_field(path, "flags", buf, sizeof(buf)));
	assert_true(strncmp(buf, "fpu vme", 7) == 0);
	/* The last flags of the line are there: nothing was cut at a fixed length */
	assert_non_null(strstr(buf, "ibt shstk user_ibt user_shstk"));
	assert_non_null(status_field(path, "model name", buf, sizeof(buf)));
	assert_string_equal(buf, "Intel(R) Core(TM)");
	unlink(path);
	free(text);
}

static void status_keys_exact(void **state)
{
	char path[] = "/tmp/test_guest_check.XXXXXX", buf[256];

	(void)state;
	write_file(path, "x86_Thread_features_locked:\tibt\n"
			 "x86_Thread_features:\tibt shstk\n"
			 "Cpus_allowed_list:\t0\n");
	assert_non_null(status_field(path, "x86_Thread_features", buf, sizeof(buf)));
	assert_string_equal(buf, "ibt shstk");
	/* A key is a whole word: a longer key with the same start is another field */
	assert_null(status_field(path, "Cpus_allowed", buf, sizeof(buf)));
	assert_string_equal(buf, "");
	assert_null(status_field("/nonexistent/status", "x", buf, sizeof(buf)));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpuinfo_flags_padded_and_long),
		cmocka_unit_test(status_keys_exact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
