/* Auditing the programs and libraries of a Debian package read as it is. */
#include "config.h"

#include "audit_package.h"

#include "deb_input.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

struct package_audit {
	const struct audit_options *opt;
	struct report_batch *out;
};

static struct file_report *batch_next(struct report_batch *b)
{
	ARRAY_RESERVE(b->items, b->cap, b->count + 1);
	return &b->items[b->count++];
}

static void audit_member(const struct deb_package *pkg, const char *install_path,
			 unsigned char *image, size_t size, void *ctx)
{
	struct package_audit *pa = ctx;
	struct file_report *rep = batch_next(pa->out);

	audit_image(install_path, image, size, pa->opt, rep);
	free(image);
	rep->package = xstrdup(pkg->name);
	rep->package_version = xstrdup(pkg->version);
}

void audit_package(const char *path, const struct audit_options *opt, struct report_batch *out)
{
	struct package_audit pa = { opt, out };
	struct elfcet_error err;

	memset(out, 0, sizeof(*out));
	if (deb_read(path, audit_member, &pa, &err) != 0) {
		struct file_report *rep = batch_next(out);

		memset(rep, 0, sizeof(*rep));
		rep->path = xstrdup(path);
		rep->status = REPORT_ERROR;
		rep->message = xstrdup(err.text);
	}
}

void report_batch_free(struct report_batch *b)
{
	size_t i;

	for (i = 0; i < b->count; i++)
		file_report_free(&b->items[i]);
	free(b->items);
	memset(b, 0, sizeof(*b));
}
