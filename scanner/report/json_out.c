/* The streaming JSON writer (see json_out.h). Built without config.h for the guest
 * runner, so it asks for the GNU unlocked stdio calls itself. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "report/json_out.h"

#include "util/utf8.h"

#include <inttypes.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Whether C is written as it is: printable ASCII other than the quote and backslash. */
static bool plain_byte(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/* How many bytes from S on (at most LEN) are plain: sixteen at a time where SSE2 is, as
 * a report of /usr/bin writes 150 MB of mostly plain text. */
static size_t plain_run(const char *s, size_t len)
{
	size_t i = 0;

#ifdef __SSE2__
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
	const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);

	for (; i + 16 <= len; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(s + i));
		/* a signed compare: bytes from 0x80 on are negative, below 0x20 too */
		__m128i odd = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote),
							_mm_cmpeq_epi8(x, backslash)),
					   _mm_or_si128(_mm_cmplt_epi8(x, space),
							_mm_cmpeq_epi8(x, del)));
		unsigned mask = (unsigned)_mm_movemask_epi8(odd);

		if (mask)
			return i + (size_t)__builtin_ctz(mask);
	}
#endif
	while (i < len && plain_byte((unsigned char)s[i]))
		i++;
	return i;
}

/* S as one JSON string; a byte that is not part of well-formed UTF-8 becomes U+FFFD when
 * REPLACE, else its Latin-1 character. */
static void write_string(FILE *f, const char *s, size_t len, bool replace)
{
	size_t i = 0;

	putc_unlocked('"', f);
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		size_t run = i + plain_run(s + i, len - i), n;

		/* Plain text, the bulk of every string, goes out in one write. */
		if (run > i) {
			fwrite_unlocked(s + i, 1, run - i, f);
			i = run;
			continue;
		}
		switch (c) {
		case '"':
			fputs_unlocked("\\\"", f);
			break;
		case '\\':
			fputs_unlocked("\\\\", f);
			break;
		case '\n':
			fputs_unlocked("\\n", f);
			break;
		case '\r':
			fputs_unlocked("\\r", f);
			break;
		case '\t':
			fputs_unlocked("\\t", f);
			break;
		default:
			n = c >= 0x80 ? utf8_sequence((const unsigned char *)s + i, len - i, NULL)
				      : 0;
			if (n) {
				fwrite_unlocked(s + i, 1, n, f);
				i += n;
				continue;
			}
			if (replace && c >= 0x80)
				fputs_unlocked("\\ufffd", f);
			else
				fprintf(f, "\\u%04x", c);
		}
		i++;
	}
	putc_unlocked('"', f);
}

void json_string_raw(FILE *f, const char *s, size_t len)
{
	write_string(f, s, len, false);
}

/* A comma before every member but the first of its container. */
static void separate(struct json_out *j)
{
	if (j->need_comma[j->depth])
		putc_unlocked(',', j->f);
	j->need_comma[j->depth] = true;
}

void json_key(struct json_out *j, const char *key)
{
	separate(j);
	if (key) {
		json_string_raw(j->f, key, strlen(key));
		putc_unlocked(':', j->f);
	}
}

static void open_container(struct json_out *j, const char *key, char c)
{
	json_key(j, key);
	putc_unlocked(c, j->f);
	if (j->depth + 1 < (int)(sizeof j->need_comma / sizeof j->need_comma[0]))
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void close_container(struct json_out *j, char c)
{
	putc_unlocked(c, j->f);
	if (j->depth > 0)
		j->depth--;
}

void json_begin(struct json_out *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
	putc_unlocked('{', f);
}

void json_end(struct json_out *j)
{
	fputs_unlocked("}\n", j->f);
	fflush(j->f);
}

void json_strn(struct json_out *j, const char *key, const char *value, size_t len)
{
	json_key(j, key);
	if (value)
		json_string_raw(j->f, value, len);
	else
		fputs_unlocked("null", j->f);
}

void json_str(struct json_out *j, const char *key, const char *value)
{
	json_strn(j, key, value, value ? strlen(value) : 0);
}

void json_name(struct json_out *j, const char *key, const char *hex_key, const char *value)
{
	FILE *f = j->f;
	size_t len, i;

	if (!value || utf8_valid(value, (len = strlen(value)))) {
		json_str(j, key, value);
		return;
	}
	json_key(j, key);
	write_string(f, value, len, true);
	if (!hex_key)
		return;
	json_key(j, hex_key);
	putc_unlocked('"', f);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)value[i];

		putc_unlocked("0123456789abcdef"[c >> 4], f);
		putc_unlocked("0123456789abcdef"[c & 15], f);
	}
	putc_unlocked('"', f);
}

/* VALUE in decimal, with a minus sign when NEGATIVE: every finding has an address, and
 * fprintf's format parsing for each was a few percent of an audit's report. */
static void write_decimal(FILE *f, uint64_t value, bool negative)
{
	char digits[21];
	size_t i = sizeof(digits);

	do {
		digits[--i] = (char)('0' + value % 10);
		value /= 10;
	} while (value);
	if (negative)
		digits[--i] = '-';
	fwrite_unlocked(digits + i, 1, sizeof(digits) - i, f);
}

void json_int(struct json_out *j, const char *key, long long value)
{
	json_key(j, key);
	/* the magnitude as unsigned, so that LLONG_MIN has one too */
	write_decimal(j->f, value < 0 ? 0 - (uint64_t)value : (uint64_t)value, value < 0);
}

void json_uint(struct json_out *j, const char *key, uint64_t value)
{
	json_key(j, key);
	write_decimal(j->f, value, false);
}

void json_boolean(struct json_out *j, const char *key, bool value)
{
	json_key(j, key);
	fputs_unlocked(value ? "true" : "false", j->f);
}

void json_null(struct json_out *j, const char *key)
{
	json_key(j, key);
	fputs_unlocked("null", j->f);
}

void json_hex(struct json_out *j, const char *key, uint64_t value)
{
	json_key(j, key);
	fprintf(j->f, "\"0x%" PRIx64 "\"", value);
}

void json_open_object(struct json_out *j, const char *key)
{
	open_container(j, key, '{');
}

void json_close_object(struct json_out *j)
{
	close_container(j, '}');
}

void json_open_array(struct json_out *j, const char *key)
{
	open_container(j, key, '[');
}

void json_close_array(struct json_out *j)
{
	close_container(j, ']');
}

void json_array_str(struct json_out *j, const char *value, size_t len)
{
	json_key(j, NULL);
	json_string_raw(j->f, value, len);
}

void json_newline(struct json_out *j)
{
	if (j->need_comma[j->depth])
		putc_unlocked(',', j->f);
	j->need_comma[j->depth] = false;
	putc_unlocked('\n', j->f);
}
