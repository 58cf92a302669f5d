/* Finding the bytes worth a look in code, many at a time. The sweep reads every byte of
 * every function (250 MB for a /usr/bin) for a few byte values, some of which count only
 * with the right byte after them (0xff before a jmp's ModRM, 0x8d before a RIP-relative
 * one). This finds exactly those: 32 bytes at a time with AVX2 nibble tables where the
 * CPU has it, else 16 at a time with SSE2 compares, else one at a time. */
#ifndef ELFCET_BYTE_SCAN_H
#define ELFCET_BYTE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define BYTE_SCAN_MAX_NEXT 3
#define BYTE_SCAN_MAX_SPECIAL 4

/* A byte pattern: (byte & mask) == value. */
struct byte_pattern {
	uint8_t mask, value;
};

/* What to find: byte values, and for up to BYTE_SCAN_MAX_SPECIAL of them the patterns
 * (at most BYTE_SCAN_MAX_NEXT) of which the byte after must match one. */
struct byte_scan_spec {
	bool first[256];
	uint8_t nnext[256];
	struct byte_pattern next[256][BYTE_SCAN_MAX_NEXT];
};

/* A value with patterns for the byte after it. */
struct byte_scan_special {
	uint8_t value, nnext;
	struct byte_pattern next[BYTE_SCAN_MAX_NEXT];
};

struct byte_scan {
	struct byte_scan_spec spec;
	struct byte_scan_special special[BYTE_SCAN_MAX_SPECIAL];
	size_t nspecial;
	/* AVX2: the other values as classes of (high nibble, low nibbles) pairs; a byte is
	 * in the set when the class bits of its two nibbles meet. */
	bool use_avx2;
	uint8_t low_classes[16], high_classes[16];
#if defined(__SSE2__)
	/* SSE2: one masked compare per value, or per aligned pair or octet of values. */
	bool use_sse2;
	__m128i mask[256], value[256];
	size_t ncompares;
#endif
};

/* Prepares S to find SPEC's bytes, with the fastest way this CPU has. False when SPEC
 * has more values with next-byte patterns than BYTE_SCAN_MAX_SPECIAL. */
bool byte_scan_prepare(struct byte_scan *s, const struct byte_scan_spec *spec);

/* Calls FN for each offset I of P[0, N) where P[I] is one of the values and, if the
 * value has patterns and P[I + 1] is in P, P[I + 1] matches one; in increasing order. */
void byte_scan_run(const struct byte_scan *s, const unsigned char *p, size_t n,
		   void (*fn)(size_t at, void *ctx), void *ctx);

#endif
