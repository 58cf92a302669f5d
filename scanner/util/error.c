/* The library's one error type: a one-line problem, named by the caller after its file. */
#include "config.h"

#include "util/error.h"

#include "util/visible.h"

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
	/* FILE and the problem may carry names from the input: escaped (visible.h). */
	fprintf(out, "%s: ", who);
	visible_write(out, file);
	fputs(": ", out);
	visible_write(out, err->text);
	fputc('\n', out);
}
