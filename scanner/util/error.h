/* Errors: one rule for the whole library.
 *
 * A function that can fail takes a struct elfcet_error *err as its last parameter. On
 * failure it fills err with error_set() and returns -1 (error_set returns -1 for
 * `return error_set(err, ...)`), or, where the caller must tell kinds of failure apart,
 * a status enum (elf_model_open's ELF_OPEN_*, mark_file's MARK_*) with err filled all
 * the same. err may be NULL when the caller does not want the text.
 *
 * The text is one line, the problem only: the caller that knows which file it was
 * about adds the name, as "FILE: problem" (error_print). Messages that are about a
 * file other than the one the caller named (a rule list, an archive member) carry that
 * name themselves. */
#ifndef ELFCET_ERROR_H
#define ELFCET_ERROR_H

#include <stdarg.h>
#include <stdio.h>

struct elfcet_error {
	char text[4400]; /* room for a full path (PATH_MAX) and the problem */
};

/* Formats the problem into ERR (when not NULL) and returns -1. */
int error_set(struct elfcet_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int error_setv(struct elfcet_error *err, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* "WHO: FILE: problem\n" on OUT, WHO being the command ("elfcet mark"). */
void error_print(FILE *out, const char *who, const char *file, const struct elfcet_error *err);

#endif
