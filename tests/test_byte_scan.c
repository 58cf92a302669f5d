/* Unit tests of scanner/code/byte_scan.c: its AVX2, SSE2 and byte-at-a-time ways find
 * exactly the offsets the definition gives (a wanted value, and for a value with
 * patterns a next byte that matches one, or no next byte), in real code, in random
 * bytes, and at every length of a short function. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "code/byte_scan.h"
#include "code_samples.h"

#include <stdlib.h>
#include <string.h>

/* The offsets a scan reported. */
struct found {
	size_t *at;
	size_t count, cap;
};

static void collect(size_t at, void *ctx)
{
	struct found *f = ctx;

	if (f->count == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 1024;
		f->at = realloc(f->at, f->cap * sizeof(*f->at));
		assert_non_null(f->at);
	}
	f->at[f->count++] = at;
}

/* The definition, written out again here. */
static bool wanted(const struct byte_scan_spec *spec, const unsigned char *p, size_t i, size_t n)
{
	size_t k;

	if (!spec->first[p[i]])
		return false;
	if (!spec->nnext[p[i]] || i + 1 == n)
		return true;
	for (k = 0; k < spec->nnext[p[i]]; k++)
		if ((p[i + 1] & spec->next[p[i]][k].mask) == spec->next[p[i]][k].value)
			return true;
	return false;
}

enum way { AVX2, SSE2, BYTES };
static const char *const way_name[] = { "AVX2", "SSE2", "byte at a time" };

/* Scans P with one way of S (false when this CPU or build has not got it). */
static bool scan_one_way(const struct byte_scan *prepared, enum way way, const unsigned char *p,
			 size_t n, struct found *f)
{
	struct byte_scan s = *prepared;

	if (way == AVX2 && !s.use_avx2)
		return false;
	if (way != AVX2)
		s.use_avx2 = false;
#if defined(__SSE2__)
	if (way == SSE2 && !s.use_sse2)
		return false;
	if (way == BYTES)
		s.use_sse2 = false;
#else
	if (way == SSE2)
		return false;
#endif
	f->count = 0;
	byte_scan_run(&s, p, n, collect, f);
	return true;
}

/* Every way that runs here finds exactly the definition's offsets in P; returns how many
 * ways ran. */
static int check_every_way(const struct byte_scan_spec *spec, const unsigned char *p, size_t n,
			   const char *what)
{
	struct byte_scan s;
	struct found f = { 0 };
	int way, ran = 0;

	assert_true(byte_scan_prepare(&s, spec));
	for (way = AVX2; way <= BYTES; way++) {
		size_t i, k = 0;

		if (!scan_one_way(&s, (enum way)way, p, n, &f))
			continue;
		ran++;
		for (i = 0; i < n; i++) {
			bool reported = k < f.count && f.at[k] == i;

			if (reported != wanted(spec, p, i, n))
				fail_msg("%s, %s, offset %zu of %zu (byte %02x, next %02x): %s",
					 what, way_name[way], i, n, p[i], i + 1 < n ? p[i + 1] : 0,
					 reported ? "reported, not wanted"
						  : "wanted, not reported");
			k += reported;
		}
		assert_int_equal(k, f.count);
	}
	free(f.at);
	return ran;
}

/* What the sweep asks of a position-independent x86-64 file with setjmp calls. */
static void sweep_like_spec(struct byte_scan_spec *spec, bool exec)
{
	static const uint8_t plain[] = { 0xc3, 0xc2, 0xf3, 0x38, 0x60, 0xe8 };
	size_t i;

	memset(spec, 0, sizeof(*spec));
	for (i = 0; i < sizeof(plain); i++)
		spec->first[plain[i]] = true;
	spec->first[0xff] = spec->first[0x8d] = true;
	spec->nnext[0xff] = 3;
	spec->next[0xff][0] = (struct byte_pattern){ 0xff, 0x24 };
	spec->next[0xff][1] = (struct byte_pattern){ 0xf8, 0xe0 };
	spec->next[0xff][2] = (struct byte_pattern){ 0xff, 0x15 };
	spec->nnext[0x8d] = 1;
	spec->next[0x8d][0] = (struct byte_pattern){ 0xc7, 0x05 };
	if (exec) {
		for (i = 0xb8; i <= 0xbf; i++)
			spec->first[i] = true;
		spec->first[0x68] = spec->first[0xc7] = true;
	}
}

/* A set of random values, some with random patterns (as many as fit). */
static void random_spec(struct byte_scan_spec *spec, unsigned (*next)(void))
{
	size_t i, specials = 0;

	memset(spec, 0, sizeof(*spec));
	for (i = 0; i < 256; i++) {
		spec->first[i] = next() % 8 == 0;
		if (spec->first[i] && specials < BYTE_SCAN_MAX_SPECIAL && next() % 4 == 0) {
			size_t k;

			spec->nnext[i] = (uint8_t)(1 + next() % BYTE_SCAN_MAX_NEXT);
			for (k = 0; k < spec->nnext[i]; k++)
				spec->next[i][k] =
					(struct byte_pattern){ (uint8_t)(0xf0 | next()), 0 };
			for (k = 0; k < spec->nnext[i]; k++)
				spec->next[i][k].value = (uint8_t)(next() & spec->next[i][k].mask);
			specials++;
		}
	}
}

static uint32_t random_state = RANDOM_SEED;

static unsigned xorshift(void)
{
	return next_random(&random_state);
}

static void random_bytes_every_way(void **state)
{
	static unsigned char bytes[1 << 16];
	struct byte_scan_spec spec;
	size_t i;
	int round;

	(void)state;
	for (round = 0; round < 8; round++) {
		for (i = 0; i < sizeof(bytes); i++)
			bytes[i] = (unsigned char)xorshift();
		sweep_like_spec(&spec, round % 2);
		/* every x86-64 CPU has SSE2: at least it and the bytes ran */
		assert_true(check_every_way(&spec, bytes, sizeof(bytes), "random bytes") >= 2);
		random_spec(&spec, xorshift);
		check_every_way(&spec, bytes, sizeof(bytes), "random bytes, random set");
	}
}

/* Every length from 0 to 100, so that each way's end and the tail after it are read,
 * with a wanted value as the last byte (no next byte: the value alone decides). */
static void every_short_length(void **state)
{
	unsigned char bytes[100] = { 0 };
	struct byte_scan_spec spec;
	size_t n, i;

	(void)state;
	sweep_like_spec(&spec, false);
	for (n = 0; n <= sizeof(bytes); n++) {
		for (i = 0; i < n; i++)
			bytes[i] = (unsigned char)(i % 3 == 0 ? 0xff : i % 3 == 1 ? 0xe0 : 0x8d);
		if (n)
			bytes[n - 1] = 0xff;
		check_every_way(&spec, bytes, n, "short function");
	}
}

static void scan_segment(const unsigned char *code, size_t n, const char *object, void *ctx)
{
	check_every_way(ctx, code, n, object);
}

/* The code of this program and the libraries it has loaded (libc, libelf, Capstone,
 * Zydis, cmocka), as the sweep would scan it. */
static void real_code_every_way(void **state)
{
	struct byte_scan_spec spec;

	(void)state;
	sweep_like_spec(&spec, false);
	assert_true(for_each_loaded_code(scan_segment, &spec) >= 4);
	sweep_like_spec(&spec, true);
	for_each_loaded_code(scan_segment, &spec);
}

static void too_many_values_with_patterns_are_refused(void **state)
{
	struct byte_scan_spec spec;
	struct byte_scan s;
	size_t i;

	(void)state;
	memset(&spec, 0, sizeof(spec));
	for (i = 0; i <= BYTE_SCAN_MAX_SPECIAL; i++) {
		spec.first[i] = true;
		spec.nnext[i] = 1;
	}
	assert_false(byte_scan_prepare(&s, &spec));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_bytes_every_way),
		cmocka_unit_test(every_short_length),
		cmocka_unit_test(real_code_every_way),
		cmocka_unit_test(too_many_values_with_patterns_are_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
