/* Unit tests of scanner/util/sort_address.c and scanner/util/text_arena.c, the two helpers the
 * audit's speed rests on: records come out in address order, those at one address in the
 * order they went in, whatever the count and the bytes the addresses differ in; the
 * searches count the records below and up to any address; arena
 * strings stay whole and in place however many blocks they take. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/sort_address.h"
#include "util/text_arena.h"
#include "code_samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct record {
	uint64_t addr;
	uint64_t order; /* where it was before the sort */
	uint32_t tag;	/* a third word, so records are 24 bytes as targets are */
};

static uint32_t random_state = RANDOM_SEED;

static uint64_t random_address(void)
{
	uint64_t high = next_random(&random_state);

	return high << 32 | next_random(&random_state);
}

/* Sorts N records with addresses from ADDRESS_OF and checks the order and stability. */
static void sort_and_check(size_t n, uint64_t (*address_of)(size_t i))
{
	struct record *r = calloc(n ? n : 1, sizeof(*r));
	size_t i;

	assert_non_null(r);
	for (i = 0; i < n; i++)
		r[i] = (struct record){ address_of(i), i, (uint32_t)(i * 7) };
	sort_by_address(r, n, sizeof(*r));
	for (i = 0; i < n; i++) {
		assert_int_equal(r[i].tag, (uint32_t)(r[i].order * 7)); /* records kept whole */
		if (i == 0)
			continue;
		if (r[i - 1].addr > r[i].addr)
			fail_msg("n=%zu: 0x%llx before 0x%llx", n,
				 (unsigned long long)r[i - 1].addr, (unsigned long long)r[i].addr);
		if (r[i - 1].addr == r[i].addr && r[i - 1].order > r[i].order)
			fail_msg("n=%zu: two records at 0x%llx swapped", n,
				 (unsigned long long)r[i].addr);
	}
	free(r);
}

static uint64_t code_like(size_t i) /* a file's code: high bytes shared, repeats */
{
	(void)i;
	return 0x401000 + random_address() % 0x20000;
}

static uint64_t anywhere(size_t i) /* every byte of the address differs */
{
	(void)i;
	return random_address();
}

static uint64_t few_values(size_t i) /* many records at each address */
{
	(void)i;
	return (random_address() % 5) << 56;
}

static uint64_t descending(size_t i)
{
	return UINT64_MAX - i;
}

static void sorts_by_address_and_keeps_the_order_of_equals(void **state)
{
	static const size_t counts[] = { 0, 1, 2, 3, 63, 64, 65, 1000, 100000 };
	uint64_t (*const kinds[])(size_t) = { code_like, anywhere, few_values, descending };
	size_t c, k;

	(void)state;
	for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			sort_and_check(counts[c], kinds[k]);
}

/* Plain addresses (8-byte records), as the function starts are sorted. */
static void sorts_bare_addresses(void **state)
{
	uint64_t a[5000];
	size_t i;

	(void)state;
	for (i = 0; i < 5000; i++)
		a[i] = random_address() % 100000;
	sort_by_address(a, 5000, sizeof(a[0]));
	for (i = 1; i < 5000; i++)
		assert_true(a[i - 1] <= a[i]);
}

/* What a lookup of a symbol, an FDE or a function start asks: how many records lie below
 * and at or below an address, counted one by one, for addresses at, between and beyond the
 * records (0 and UINT64_MAX too), with repeated addresses. */
static void counts_records_below_and_up_to_an_address(void **state)
{
	static const size_t counts[] = { 0, 1, 2, 7, 64, 1000 };
	struct record r[1000];
	size_t c, i, q;

	(void)state;
	for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		size_t n = counts[c];

		for (i = 0; i < n; i++)
			r[i] = (struct record){ 16 + random_address() % (4 * n + 1) * 4, i, 0 };
		if (n > 1)
			r[n - 1].addr = UINT64_MAX;
		sort_by_address(r, n, sizeof(r[0]));
		for (q = 0; q < 4 * n + 40; q++) {
			uint64_t addr =
				16 + (q - 2) * 4 + q % 3 - 1; /* at, below, above a record */
			size_t below = 0, upto = 0;

			if (q < 2)
				addr = q == 0 ? 0 : UINT64_MAX;

			for (i = 0; i < n; i++) {
				below += r[i].addr < addr;
				upto += r[i].addr <= addr;
			}
			if (records_below(r, n, sizeof(r[0]), addr) != below ||
			    records_upto(r, n, sizeof(r[0]), addr) != upto)
				fail_msg(
					"n=%zu, 0x%llx: %zu below and %zu up to it, found %zu and %zu",
					n, (unsigned long long)addr, below, upto,
					records_below(r, n, sizeof(r[0]), addr),
					records_upto(r, n, sizeof(r[0]), addr));
		}
	}
}

static char *formatted(struct text_arena *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = text_arena_vformat(a, fmt, ap);
	va_end(ap);
	return s;
}

/* Strings copied and formatted across many blocks, one longer than a block, all still
 * there and unchanged at the end. */
static void arena_strings_stay_whole_and_in_place(void **state)
{
	struct text_arena a = { 0 };
	char *kept[3000], expect[64], *big = malloc(200000), *big_copy;
	size_t i;

	(void)state;
	assert_non_null(big);
	memset(big, 'x', 199999);
	big[199999] = '\0';
	for (i = 0; i < 3000; i++)
		kept[i] = i % 2 ? formatted(&a, "sub_%zx+0x%zx", i * 16, i)
				: text_arena_copy(&a, "an exported function, reached through PLTs");
	big_copy = text_arena_copy(&a, big);
	for (i = 0; i < 3000; i++) {
		if (i % 2)
			snprintf(expect, sizeof(expect), "sub_%zx+0x%zx", i * 16, i);
		else
			snprintf(expect, sizeof(expect),
				 "an exported function, reached through PLTs");
		assert_string_equal(kept[i], expect);
	}
	assert_string_equal(big_copy, big);
	assert_string_equal(formatted(&a, "%s", ""), "");
	text_arena_free(&a);
	assert_null(a.blocks);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sorts_by_address_and_keeps_the_order_of_equals),
		cmocka_unit_test(sorts_bare_addresses),
		cmocka_unit_test(counts_records_below_and_up_to_an_address),
		cmocka_unit_test(arena_strings_stay_whole_and_in_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
