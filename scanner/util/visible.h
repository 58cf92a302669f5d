/* Names for people: file names, symbol names and the messages that carry them come from
 * the files audited and may hold any byte. Written raw, a newline forges a report line and
 * an ESC sequence drives the terminal. This is the one rule of the text output (elfcet(1),
 * TEXT OUTPUT), reversible so that two names never print the same:
 *   \  ->  \\          newline, CR, tab  ->  \n \r \t
 *   every other byte below 0x20, DEL, each byte of a C1 control (U+0080..U+009F), of a
 *   line or paragraph separator or bidirectional control (U+2028..U+202E, U+2066..U+2069),
 *   and each byte that is not part of well-formed UTF-8  ->  \xHH (lower-case)
 *   everything else, printable ASCII and the rest of UTF-8, as it is. */
#ifndef ELFCET_VISIBLE_H
#define ELFCET_VISIBLE_H

#include <stddef.h>
#include <stdio.h>

/* The most bytes the escaped form of LEN bytes takes, without the NUL. */
#define VISIBLE_MAX(len) (4 * (len))

/* Writes the escaped form of the LEN bytes at S into OUT (room for VISIBLE_MAX(len) + 1),
 * NUL-terminated; returns its length. */
size_t visible_escape(char *out, const char *s, size_t len);

/* The escaped form of S on F. */
void visible_write(FILE *f, const char *s);

/* The escaped form of S, allocated (free it). */
char *visible_dup(const char *s);

#endif
