/* Building a short string by pieces into a fixed buffer, truncating as snprintf would.
 * For the texts an audit writes hundreds of thousands of times (symbol names such as
 * sub_4011a0+0x1c, the ibt-missing-endbr message), where snprintf's format parsing was
 * a tenth of the work. */
#ifndef ELFCET_TEXT_BUILD_H
#define ELFCET_TEXT_BUILD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct text_build {
	char *buf;
	size_t size, used; /* buf[used] is always the terminating NUL */
};

static inline void text_start(struct text_build *t, char *buf, size_t size)
{
	t->buf = buf;
	t->size = size;
	t->used = 0;
	if (size)
		buf[0] = '\0';
}

static inline void text_bytes(struct text_build *t, const char *s, size_t n)
{
	if (!t->size)
		return;
	if (n > t->size - 1 - t->used)
		n = t->size - 1 - t->used;
	memcpy(t->buf + t->used, s, n);
	t->used += n;
	t->buf[t->used] = '\0';
}

static inline void text_str(struct text_build *t, const char *s)
{
	text_bytes(t, s, strlen(s));
}

/* V in lower-case hexadecimal, without 0x. */
static inline void text_hex(struct text_build *t, uint64_t v)
{
	char digits[16];
	size_t i = sizeof(digits);

	do {
		digits[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	text_bytes(t, digits + i, sizeof(digits) - i);
}

#endif
