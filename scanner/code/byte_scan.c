/* The byte scan's three ways, which find the same offsets (tests/test_byte_scan holds
 * them to one another and to the definition, on real code and random bytes). */
#include "config.h"

#include "code/byte_scan.h"

#include <string.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_AVX2_PATH 1
#include <immintrin.h>
#endif

/* The definition, one byte at a time. */
static bool hit_at(const struct byte_scan_spec *spec, const unsigned char *p, size_t i, size_t n)
{
	uint8_t v = p[i];
	size_t k;

	if (!spec->first[v])
		return false;
	if (!spec->nnext[v] || i + 1 == n)
		return true;
	for (k = 0; k < spec->nnext[v]; k++)
		if ((p[i + 1] & spec->next[v][k].mask) == spec->next[v][k].value)
			return true;
	return false;
}

/* The values without patterns as nibble classes: each high nibble's set of low nibbles is
 * one class, high nibbles with the same set share it. At most 8 classes fit a byte. */
static bool prepare_classes(struct byte_scan *s)
{
	uint16_t lows[16] = { 0 }, class_lows[8];
	size_t nclasses = 0, k;
	unsigned v, h, l;

	for (v = 0; v < 256; v++)
		if (s->spec.first[v] && !s->spec.nnext[v])
			lows[v >> 4] |= (uint16_t)(1u << (v & 15));
	memset(s->low_classes, 0, sizeof(s->low_classes));
	memset(s->high_classes, 0, sizeof(s->high_classes));
	for (h = 0; h < 16; h++) {
		if (!lows[h])
			continue;
		for (k = 0; k < nclasses && class_lows[k] != lows[h]; k++)
			;
		if (k == nclasses) {
			if (nclasses == 8)
				return false;
			class_lows[nclasses++] = lows[h];
		}
		s->high_classes[h] |= (uint8_t)(1u << k);
	}
	for (k = 0; k < nclasses; k++)
		for (l = 0; l < 16; l++)
			if (class_lows[k] & (1u << l))
				s->low_classes[l] |= (uint8_t)(1u << k);
	return true;
}

#if defined(__SSE2__)
/* Whether the COUNT values from V on are all found without a pattern. */
static bool all_plain(const struct byte_scan_spec *spec, unsigned v, unsigned count)
{
	unsigned k;

	for (k = v; k < v + count; k++)
		if (!spec->first[k] || spec->nnext[k])
			return false;
	return true;
}

/* One compare per value, pair (c2/c3) or octet (b8-bf) of values. */
static void prepare_sse2(struct byte_scan *s)
{
	unsigned v;

	s->ncompares = 0;
	for (v = 0; v < 256; v++) {
		uint8_t mask = 0xff;

		if (!all_plain(&s->spec, v, 1))
			continue;
		if (v % 8 == 0 && all_plain(&s->spec, v, 8))
			mask = 0xf8;
		else if (v % 2 == 0 && all_plain(&s->spec, v, 2))
			mask = 0xfe;
		s->mask[s->ncompares] = _mm_set1_epi8((char)mask);
		s->value[s->ncompares] = _mm_set1_epi8((char)v);
		s->ncompares++;
		v |= (uint8_t)~mask; /* skip the values the pair or octet covers */
	}
	s->use_sse2 = true;
}

/* Bit K set when P[K] (K < 16) is a hit; P[16] must be readable. */
static unsigned hits_in_16(const struct byte_scan *s, const unsigned char *p)
{
	__m128i x = _mm_loadu_si128((const __m128i *)p);
	__m128i y = _mm_loadu_si128((const __m128i *)(p + 1));
	__m128i hit = _mm_setzero_si128();
	size_t k, j;

	for (k = 0; k < s->ncompares; k++)
		hit = _mm_or_si128(hit, _mm_cmpeq_epi8(_mm_and_si128(x, s->mask[k]), s->value[k]));
	for (k = 0; k < s->nspecial; k++) {
		const struct byte_scan_special *sp = &s->special[k];
		__m128i next = _mm_setzero_si128();

		for (j = 0; j < sp->nnext; j++)
			next = _mm_or_si128(
				next,
				_mm_cmpeq_epi8(_mm_and_si128(y,
							     _mm_set1_epi8((char)sp->next[j].mask)),
					       _mm_set1_epi8((char)sp->next[j].value)));
		hit = _mm_or_si128(hit, _mm_and_si128(next,
						      _mm_cmpeq_epi8(x, _mm_set1_epi8(
										(char)sp->value))));
	}
	return (unsigned)_mm_movemask_epi8(hit);
}
#endif

/* Calls FN for each bit of HITS, the offsets from BASE. */
static inline void report(uint32_t hits, size_t base, void (*fn)(size_t at, void *ctx), void *ctx)
{
	while (hits) {
		fn(base + (size_t)__builtin_ctz(hits), ctx);
		hits &= hits - 1;
	}
}

#ifdef HAVE_AVX2_PATH
/* The hits in P[0, N) 32 bytes at a time, while P[32] is readable; returns where it
 * stopped. The nibble tables answer for any set of values in two shuffles. */
__attribute__((target("avx2"))) static size_t run_avx2(const struct byte_scan *s,
						       const unsigned char *p, size_t n,
						       void (*fn)(size_t at, void *ctx), void *ctx)
{
	const __m256i low_table =
		_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)s->low_classes));
	const __m256i high_table =
		_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)s->high_classes));
	const __m256i nibble = _mm256_set1_epi8(0x0f);
	size_t i, k, j;

	for (i = 0; i + 33 <= n; i += 32) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(p + i));
		__m256i y = _mm256_loadu_si256((const __m256i *)(p + i + 1));
		__m256i low = _mm256_and_si256(x, nibble);
		__m256i high = _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
		__m256i classes = _mm256_and_si256(_mm256_shuffle_epi8(low_table, low),
						   _mm256_shuffle_epi8(high_table, high));
		uint32_t hits = ~(uint32_t)_mm256_movemask_epi8(
			_mm256_cmpeq_epi8(classes, _mm256_setzero_si256()));

		for (k = 0; k < s->nspecial; k++) {
			const struct byte_scan_special *sp = &s->special[k];
			uint32_t at = (uint32_t)_mm256_movemask_epi8(
				_mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)sp->value)));
			__m256i next = _mm256_setzero_si256();

			if (!at)
				continue;
			for (j = 0; j < sp->nnext; j++)
				next = _mm256_or_si256(
					next,
					_mm256_cmpeq_epi8(
						_mm256_and_si256(y,
								 _mm256_set1_epi8(
									 (char)sp->next[j].mask)),
						_mm256_set1_epi8((char)sp->next[j].value)));
			hits |= at & (uint32_t)_mm256_movemask_epi8(next);
		}
		report(hits, i, fn, ctx);
	}
	return i;
}
#endif

bool byte_scan_prepare(struct byte_scan *s, const struct byte_scan_spec *spec)
{
	unsigned v;

	memset(s, 0, sizeof(*s));
	s->spec = *spec;
	for (v = 0; v < 256; v++) {
		struct byte_scan_special *sp;

		if (!spec->first[v] || !spec->nnext[v])
			continue;
		if (s->nspecial == BYTE_SCAN_MAX_SPECIAL || spec->nnext[v] > BYTE_SCAN_MAX_NEXT)
			return false;
		sp = &s->special[s->nspecial++];
		sp->value = (uint8_t)v;
		sp->nnext = spec->nnext[v];
		memcpy(sp->next, spec->next[v], sizeof(sp->next));
	}
#if defined(__SSE2__)
	prepare_sse2(s);
#endif
#ifdef HAVE_AVX2_PATH
	s->use_avx2 = __builtin_cpu_supports("avx2") && prepare_classes(s);
#else
	(void)prepare_classes;
#endif
	return true;
}

void byte_scan_run(const struct byte_scan *s, const unsigned char *p, size_t n,
		   void (*fn)(size_t at, void *ctx), void *ctx)
{
	size_t i = 0;

#ifdef HAVE_AVX2_PATH
	if (s->use_avx2)
		i = run_avx2(s, p, n, fn, ctx);
#endif
#if defined(__SSE2__)
	if (s->use_sse2)
		for (; i + 17 <= n; i += 16)
			report(hits_in_16(s, p + i), i, fn, ctx);
#endif
	for (; i < n; i++)
		if (hit_at(&s->spec, p, i, n))
			fn(i, ctx);
}
