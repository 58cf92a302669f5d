/* A least-significant-digit radix sort, one byte of the address per pass. The addresses
 * of one file share their high bytes, so the passes where every record has the same
 * byte are skipped: three or four passes in practice, each a stable scatter. */
#include "config.h"

#include "util/sort_address.h"
#include "util/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Below this, insertion sort costs less than the 256-entry histograms. */
#define SMALL 64

static uint64_t address_of(const unsigned char *record)
{
	uint64_t a;

	memcpy(&a, record, sizeof(a));
	return a;
}

static void insertion_sort(unsigned char *r, size_t n, size_t size)
{
	unsigned char tmp[64], *held = size <= sizeof(tmp) ? tmp : xmalloc(size);
	size_t i, j;

	for (i = 1; i < n; i++) {
		uint64_t a = address_of(r + i * size);

		for (j = i; j > 0 && address_of(r + (j - 1) * size) > a; j--)
			;
		if (j == i)
			continue;
		memcpy(held, r + i * size, size);
		memmove(r + (j + 1) * size, r + j * size, (i - j) * size);
		memcpy(r + j * size, held, size);
	}
	if (held != tmp)
		free(held);
}

/* Copies one record; the common sizes as fixed copies the compiler inlines. */
static inline void copy_record(unsigned char *to, const unsigned char *from, size_t size)
{
	switch (size) {
	case 8:
		memcpy(to, from, 8);
		break;
	case 16:
		memcpy(to, from, 16);
		break;
	case 24:
		memcpy(to, from, 24);
		break;
	case 32:
		memcpy(to, from, 32);
		break;
	default:
		memcpy(to, from, size);
		break;
	}
}

/* Counts, for each of the eight bytes of the address, how many records have each value:
 * all in one read of the addresses. */
static void histograms(const unsigned char *r, size_t n, size_t size, size_t hist[8][256])
{
	size_t i, pass;

	memset(hist, 0, 8 * sizeof(*hist));
	for (i = 0; i < n; i++) {
		uint64_t a = address_of(r + i * size);

		for (pass = 0; pass < 8; pass++)
			hist[pass][(a >> (8 * pass)) & 0xff]++;
	}
}

void sort_by_address(void *records, size_t n, size_t size)
{
	size_t hist[8][256], i, pass;
	unsigned char *from = records, *to, *spare;

	if (n < SMALL) {
		insertion_sort(records, n, size);
		return;
	}
	spare = xreallocarray(NULL, n, size);
	to = spare;
	histograms(from, n, size, hist);
	for (pass = 0; pass < 8; pass++) {
		size_t *h = hist[pass], at = 0, b;
		unsigned shift = 8 * (unsigned)pass;
		unsigned char *t;

		if (h[(address_of(from) >> shift) & 0xff] == n)
			continue;	    /* every record has this byte */
		for (b = 0; b < 256; b++) { /* counts -> where each value's records go */
			size_t k = h[b];

			h[b] = at;
			at += k;
		}
		for (i = 0; i < n; i++) {
			const unsigned char *r = from + i * size;

			copy_record(to + h[(address_of(r) >> shift) & 0xff]++ * size, r, size);
		}
		t = from;
		from = to;
		to = t;
	}
	if (from != records)
		memcpy(records, from, n * size);
	free(spare);
}

size_t records_below(const void *records, size_t n, size_t size, uint64_t addr)
{
	const unsigned char *r = records;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (address_of(r + mid * size) < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t records_upto(const void *records, size_t n, size_t size, uint64_t addr)
{
	return addr == UINT64_MAX ? n : records_below(records, n, size, addr + 1);
}
