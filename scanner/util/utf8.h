/* Reading UTF-8 strictly, for the writers that must tell names that are UTF-8 from those
 * that are not (json_out, visible). Header-only: the guest runner, built without the
 * library, uses it too. */
#ifndef ELFCET_UTF8_H
#define ELFCET_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Length of the well-formed UTF-8 sequence of two to four bytes at S (at most LEN bytes),
 * or 0 (an ASCII byte, a stray byte, a truncated, overlong or surrogate sequence, or one
 * past U+10FFFF). *CP receives its code point when CP is not NULL. */
static inline size_t utf8_sequence(const unsigned char *s, size_t len, uint32_t *cp)
{
	size_t need, i;
	uint32_t c;

	if (len == 0)
		return 0;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		need = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		need = 4, c = s[0] & 0x07;
	else
		return 0;
	if (need > len)
		return 0;
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if ((need == 3 && c < 0x800) || (need == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	if (cp)
		*cp = c;
	return need;
}

/* Whether the LEN bytes at S are UTF-8 throughout. */
static inline int utf8_valid(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		n = utf8_sequence(u + i, len - i, NULL);
		if (!n)
			return 0;
		i += n;
	}
	return 1;
}

#endif
