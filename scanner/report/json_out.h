/* A small streaming JSON writer. The audit report writes tens of thousands of findings per
 * file: building a json-c tree for each costs more than the audit itself, and the guest
 * runner, linked statically against glibc alone, cannot use json-c at all. Strings are
 * escaped completely (quotes, backslashes,
 * control characters); well-formed UTF-8 is kept and every other byte that is not printable
 * ASCII is written as \u00XX (its Latin-1 reading), so any
 * program output, valid UTF-8 or not, stays one valid JSON string. Names, which must stay
 * distinct, have json_name. The writer uses stdio's
 * unlocked calls: its FILE must be written by one thread only. */
#ifndef ELFCET_JSON_OUT_H
#define ELFCET_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One object being written: commas between members are the writer's job. */
struct json_out {
	FILE *f;
	int depth;
	bool need_comma[16];
};

void json_begin(struct json_out *j, FILE *f); /* opens the top-level object */
void json_end(struct json_out *j);	      /* closes it and ends the line */

void json_string_raw(FILE *f, const char *s, size_t len);

void json_key(struct json_out *j, const char *key); /* "key": (for a nested value) */
void json_str(struct json_out *j, const char *key, const char *value); /* null if NULL */
void json_strn(struct json_out *j, const char *key, const char *value, size_t len);
/* A name (a path, a symbol: bytes from the input): as json_str when it is UTF-8; otherwise
 * KEY shows it with U+FFFD for each stray byte and HEX_KEY follows with its exact bytes
 * in lower-case hexadecimal, so that names stay lossless and distinct. null if NULL.
 * Without HEX_KEY (text for display: messages, a member the format defines alone) only
 * the string with U+FFFD is written. */
void json_name(struct json_out *j, const char *key, const char *hex_key, const char *value);
void json_int(struct json_out *j, const char *key, long long value);
void json_uint(struct json_out *j, const char *key, uint64_t value);
void json_boolean(struct json_out *j, const char *key, bool value);
void json_null(struct json_out *j, const char *key);
void json_hex(struct json_out *j, const char *key, uint64_t value); /* "0x..." string */

/* Nested containers: KEY is NULL inside an array. */
void json_open_object(struct json_out *j, const char *key);
void json_close_object(struct json_out *j);
void json_open_array(struct json_out *j, const char *key);
void json_close_array(struct json_out *j);
void json_array_str(struct json_out *j, const char *value, size_t len);

/* Starts a new line before the next member (the comma, if one is due, ends this line). */
void json_newline(struct json_out *j);

#endif
