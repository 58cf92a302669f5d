/* Writing a one-line error message into a caller's buffer. */
#ifndef ELFCET_MESSAGE_H
#define ELFCET_MESSAGE_H

#include <stddef.h>

/* Formats the message into ERR (ERRLEN bytes) and returns -1, for `return fail(...)`. */
int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
