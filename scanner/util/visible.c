/* The text output's escaping of names (visible.h). */
#include "config.h"

#include "util/visible.h"

#include "util/utf8.h"
#include "util/xalloc.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Code points that are valid UTF-8 but act on the terminal or the line: C1 controls (an
 * 8-bit CSI among them), line and paragraph separators, bidirectional embeddings,
 * overrides and isolates (which reorder what follows them on the line). */
static bool acts_on_display(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

static size_t hex_byte(char *out, unsigned char c)
{
	out[0] = '\\';
	out[1] = 'x';
	out[2] = "0123456789abcdef"[c >> 4];
	out[3] = "0123456789abcdef"[c & 15];
	return 4;
}

size_t visible_escape(char *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, n, k;
	uint32_t cp;

	while (i < len) {
		unsigned char c = u[i];

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			out[o++] = (char)c;
			i++;
			continue;
		}
		if (c == '\\' || c == '\n' || c == '\r' || c == '\t') {
			out[o++] = '\\';
			out[o++] = c == '\\' ? '\\' : c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
			i++;
			continue;
		}
		n = c >= 0x80 ? utf8_sequence(u + i, len - i, &cp) : 0;
		if (n && !acts_on_display(cp)) {
			memcpy(out + o, u + i, n);
			o += n;
			i += n;
			continue;
		}
		/* a control, a byte that is not UTF-8, or each byte of a displayed control */
		for (k = 0; k < (n ? n : 1); k++)
			o += hex_byte(out + o, u[i + k]);
		i += n ? n : 1;
	}
	out[o] = '\0';
	return o;
}

char *visible_dup(const char *s)
{
	size_t len = strlen(s);
	char *out = xmalloc(VISIBLE_MAX(len) + 1);

	visible_escape(out, s, len);
	return out;
}

void visible_write(FILE *f, const char *s)
{
	char buf[1024];
	size_t len = strlen(s);

	/* Short names, the common case, without an allocation. */
	if (VISIBLE_MAX(len) < sizeof(buf)) {
		fwrite(buf, 1, visible_escape(buf, s, len), f);
	} else {
		char *out = visible_dup(s);

		fputs(out, f);
		free(out);
	}
}
