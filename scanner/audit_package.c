/* Auditing the programs and libraries of a Debian package read as it is. */
#include "config.h"

#include "audit_package.h"

#include "deb_input.h"

#include <stdlib.h>
#include <string.h>

struct package_audit {
	const struct audit_options *opt;
	struct report_batch *out;
};

static struct file_report *batch_next(struct report_batch *b)
{
	if (b->count == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 16;
		b->items = realloc(b->items, b->cap * sizeof(*b->items));
		if (!b->items)
			abort();
	}
	return &b->items[b->count++];
}

static void audit_member(const struct deb_package *pkg, const char *install_path,
			 unsigned char *image, size_t size, void *ctx)
{
	struct package_audit *pa = ctx;
	struct file_report *rep = batch_next(pa->out);

	audit_image(install_path, image, size, pa->opt, rep);
	free(image);
	rep->package = strdup(pkg->name);
	rep->package_version = strdup(pkg->version);
}

void audit_package(const char *path, const struct audit_options *opt, struct report_batch *out)
{
	struct package_audit pa = { opt, out };
	char err[512];

	memset(out, 0, sizeof(*out));
	if (deb_read(path, audit_member, &pa, err, sizeof(err)) != 0) {
		struct file_report *rep = batch_next(out);

		memset(rep, 0, sizeof(*rep));
		rep->path = strdup(path);
		rep->status = REPORT_ERROR;
		rep->message = strdup(err);
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
