/* The library's one error type: a one-line problem, named by the caller after its file. */
#include "config.h"

#include "util/error.h"

int error_setv(struct elfcet_error *err, const char *fmt, va_list ap)
{
	if (err)
		vsnprintf(err->text, sizeof(err->text), fmt, ap);
	return -1;
}

int error_set(struct elfcet_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_setv(err, fmt, ap);
	va_end(ap);
	return -1;
}

void error_print(FILE *out, const char *who, const char *file, const struct elfcet_error *err)
{
	fprintf(out, "%s: %s: %s\n", who, file, err->text);
}
