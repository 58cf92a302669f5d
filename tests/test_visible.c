/* The text output's escaping of names (scanner/util/visible.c, elfcet(1) NAMES IN THE
 * OUTPUT): each escape of the rule, then random byte strings: the escaped text is UTF-8
 * (checked by glibc's decoder) without a control character, and undoing the five escapes
 * (a decoder written here from the manual) gives the bytes back, so that two names never
 * print the same. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/visible.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static void escaped_as(const char *name, const char *want)
{
	char *got = visible_dup(name);

	assert_string_equal(got, want);
	free(got);
}

static void each_escape(void **state)
{
	(void)state;
	escaped_as("/usr/bin/ls", "/usr/bin/ls");
	escaped_as("a\nb: ibt=ready shstk=ready", "a\\nb: ibt=ready shstk=ready");
	escaped_as("\x1b]0;title\x07\x1b[2J\rx", "\\x1b]0;title\\x07\\x1b[2J\\rx");
	escaped_as("tab\there\x7f\x01", "tab\\there\\x7f\\x01");
	escaped_as("back\\slash \\xff", "back\\\\slash \\\\xff");
	escaped_as("\xff\xfe", "\\xff\\xfe");
	/* Latin-1 and UTF-8 é; C1 CSI and a no-break space */
	escaped_as("caf\xe9 caf\xc3\xa9", "caf\\xe9 caf\xc3\xa9");
	escaped_as("\xc2\x9b-31m \xc2\xa0", "\\xc2\\x9b-31m \xc2\xa0");
	/* a right-to-left override, an isolate, a line separator */
	escaped_as("\xe2\x80\xae-txt.exe", "\\xe2\\x80\\xae-txt.exe");
	escaped_as("\xe2\x81\xa6x\xe2\x80\xa8", "\\xe2\\x81\\xa6x\\xe2\\x80\\xa8");
	escaped_as("\xe2\x82\xac \xf0\x9f\x98\x80", "\xe2\x82\xac \xf0\x9f\x98\x80"); /* € 😀 */
	/* truncated, overlong, surrogate, past U+10FFFF: each byte */
	escaped_as("\xc3", "\\xc3");
	escaped_as("\xe0\x80\x80", "\\xe0\\x80\\x80");
	escaped_as("\xed\xa0\x80", "\\xed\\xa0\\x80");
	escaped_as("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
	escaped_as("", "");
}

/* Undoes the five escapes of elfcet(1); returns the length, or -1 on a stray backslash. */
static long unescape(const char *s, char *out)
{
	long n = 0;

	while (*s) {
		unsigned v;

		if (*s != '\\') {
			out[n++] = *s++;
			continue;
		}
		switch (s[1]) {
		case '\\':
			out[n++] = '\\';
			break;
		case 'n':
			out[n++] = '\n';
			break;
		case 'r':
			out[n++] = '\r';
			break;
		case 't':
			out[n++] = '\t';
			break;
		case 'x':
			if (sscanf(s + 2, "%2x", &v) != 1 || strspn(s + 2, "0123456789abcdef") < 2)
				return -1;
			out[n++] = (char)v;
			s += 2;
			break;
		default:
			return -1;
		}
		s += 2;
	}
	return n;
}

/* Whether S is UTF-8 that holds no control character (C0, DEL, C1) for glibc. */
static int terminal_safe(const char *s)
{
	mbstate_t st = { 0 };
	size_t len = strlen(s);

	while (len) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, len, &st);

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0)
			return 0;
		if (wc < 0x20 || (wc >= 0x7f && wc <= 0x9f))
			return 0;
		s += n;
		len -= n;
	}
	return 1;
}

static void random_names_round_trip(void **state)
{
	/* bytes that make the interesting cases likely: controls, UTF-8 lead and
	 * continuation bytes, the backslash and the letters of the escapes */
	static const unsigned char alphabet[] = { 0x01, '\n', '\r', '\t', 0x1b, 0x7f, '\\',
						  'x',	'n',  'f',  'a',  '/',	0x80, 0x9b,
						  0xa0, 0xbf, 0xc2, 0xc3, 0xe2, 0xed, 0xf0,
						  0xf4, 0xff, 0x81, 0xa8, 0xae };
	char name[40], *esc, back[40];
	unsigned seed = 35;
	int round, i, len;

	(void)state;
	assert_non_null(setlocale(LC_CTYPE, "C.UTF-8"));
	for (round = 0; round < 200000; round++) {
		len = 1 + rand_r(&seed) % 12;
		for (i = 0; i < len; i++)
			name[i] = (char)(rand_r(&seed) % 3
						 ? alphabet[rand_r(&seed) % sizeof(alphabet)]
						 : 1 + rand_r(&seed) % 255);
		name[len] = '\0';
		esc = visible_dup(name);
		if (!terminal_safe(esc) || unescape(esc, back) != len ||
		    memcmp(back, name, len) != 0)
			fail_msg("round %d: escaped as '%s'", round, esc);
		free(esc);
	}
}

/* visible_write gives what visible_escape does, for a name longer than its buffer too. */
static void write_long_name(void **state)
{
	char name[3000], *text = NULL, *want;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	for (i = 0; i < sizeof(name) - 1; i++)
		name[i] = (char)(i % 3 ? 'a' : 0x1b);
	name[sizeof(name) - 1] = '\0';
	visible_write(f, name);
	visible_write(f, "\n");
	fclose(f);
	want = visible_dup(name);
	assert_int_equal(len, strlen(want) + 2);
	assert_memory_equal(text, want, strlen(want));
	assert_string_equal(text + strlen(want), "\\n");
	free(want);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_escape),
		cmocka_unit_test(random_names_round_trip),
		cmocka_unit_test(write_long_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
