/* Writing a one-line error message into a caller's buffer. */
#include "config.h"

#include "util/message.h"

#include <stdarg.h>
#include <stdio.h>

int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}
