/* Auditing the programs and libraries of a Debian package read as it is. */
#include "config.h"

#include "audit_package.h"

#include "deb_input.h"
#include "util/xalloc.h"

#include <string.h>

struct package_audit {
	const char *path;
	const struct audit_options *opt;
	audit_sink_fn sink;
	void *ctx;
};

static void audit_member(const struct deb_package *pkg, const char *install_path,
			 const unsigned char *image, size_t size, const char *refused, void *ctx)
{
	struct package_audit *pa = ctx;
	struct file_report rep;

	if (refused) { /* not read: named as a file that could not be */
		memset(&rep, 0, sizeof(rep));
		rep.path = xstrdup(install_path);
		rep.status = REPORT_ERROR;
		rep.message = xstrdup(refused);
	} else {
		audit_image(install_path, image, size, pa->opt, &rep);
	}
	rep.package = xstrdup(pkg->name);
	rep.package_version = xstrdup(pkg->version);
	rep.package_file = xstrdup(pa->path);
	pa->sink(&rep, pa->ctx);
}

void audit_package(const char *path, const struct audit_options *opt, audit_sink_fn sink, void *ctx)
{
	static const struct deb_limits defaults = { DEB_DEFAULT_MAX_UNPACKED,
						    DEB_DEFAULT_MAX_MEMBERS,
						    DEB_DEFAULT_MAX_ELF_SIZE };
	struct package_audit pa = { path, opt, sink, ctx };
	struct elfcet_error err;

	if (deb_read(path, opt->deb_limits ? opt->deb_limits : &defaults, audit_member, &pa,
		     &err) != 0) {
		struct file_report rep;

		memset(&rep, 0, sizeof(rep));
		rep.path = xstrdup(path);
		rep.status = REPORT_ERROR;
		rep.message = xstrdup(err.text);
		sink(&rep, ctx);
	}
}
