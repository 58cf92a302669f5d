/* Unit tests of scanner/util/xalloc.c and scanner/util/error.c: a growable array keeps its
 * items and grows by doubling, a request past what size_t can count ends the program with
 * the one line "elfcet: out of memory" instead of wrapping round to a small block, and an
 * error's text is one line, NULL-safe, and printed as "WHO: FILE: problem". */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/error.h"
#include "util/xalloc.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_array_keeps_items_and_doubles(void **state)
{
	uint64_t *items = NULL;
	size_t count = 0, cap = 0, grows = 0, last_cap = 0, i;

	(void)state;
	for (i = 0; i < 100000; i++) {
		ARRAY_RESERVE(items, cap, count + 1);
		items[count++] = i * 7;
		if (cap != last_cap) {
			if (last_cap)
				assert_int_equal(cap, last_cap * 2);
			last_cap = cap;
			grows++;
		}
	}
	for (i = 0; i < count; i++)
		assert_int_equal(items[i], i * 7);
	assert_true(cap >= count);
	assert_true(grows <= 16); /* 8 doubled to 131072: amortised, not one at a time */
	free(items);
}

static void test_array_reserve_within_capacity_keeps_block(void **state)
{
	char *items = NULL, *before;
	size_t cap = 0;

	(void)state;
	ARRAY_RESERVE(items, cap, 20);
	before = items;
	ARRAY_RESERVE(items, cap, cap);
	assert_ptr_equal(items, before);
	ARRAY_RESERVE(items, cap, cap + 1);
	assert_true(cap >= 21);
	free(items);
}

/* Runs FN in a child; its stderr and whether it died of SIGABRT. */
static void run_child(void (*fn)(void), char *err, size_t errlen, bool *aborted)
{
	int pipefd[2], status;
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGABRT, SIG_DFL);
		dup2(pipefd[1], 2);
		fn();
		_exit(0);
	}
	close(pipefd[1]);
	n = read(pipefd[0], err, errlen - 1);
	err[n > 0 ? n : 0] = '\0';
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	*aborted = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void reserve_past_size_max(void)
{
	uint64_t *items = NULL;
	size_t cap = 0;

	ARRAY_RESERVE(items, cap, SIZE_MAX / 8 + 2); /* 2^62 items of 8 bytes: 2^65 wraps to 0 */
	items[0] = 1;
	free(items);
}

static void test_overflow_ends_with_one_line(void **state)
{
	char err[256];
	bool aborted;

	(void)state;
	run_child(reserve_past_size_max, err, sizeof(err), &aborted);
	assert_true(aborted);
	assert_string_equal(err, "elfcet: out of memory\n");
}

static void test_error_text(void **state)
{
	struct elfcet_error err;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(error_set(&err, "damaged %s at 0x%x", "note", 0x1c), -1);
	assert_string_equal(err.text, "damaged note at 0x1c");
	assert_int_equal(error_set(NULL, "nobody wants %s", "this"), -1);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	error_print(f, "elfcet mark", "/bin/true", &err);
	fclose(f);
	assert_string_equal(out, "elfcet mark: /bin/true: damaged note at 0x1c\n");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_array_keeps_items_and_doubles),
		cmocka_unit_test(test_array_reserve_within_capacity_keeps_block),
		cmocka_unit_test(test_overflow_ends_with_one_line),
		cmocka_unit_test(test_error_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
