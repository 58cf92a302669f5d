/* Reading a Debian binary package without unpacking it.
 *
 * A .deb is an ar archive: debian-binary, control.tar[.EXT], data.tar[.EXT], and members
 * after data.tar that readers ignore (deb(5)). Both tar members are read as streams
 * inside the outer stream (deb_stream), so the package is read once, front to back,
 * whatever its size. Names are the archive's bytes: libarchive converts pax names to the
 * locale's character set, so the package is read in the C locale, where any name that is
 * not ASCII fails that conversion and keeps its bytes. */
#include "config.h"

#include "deb_input.h"

#include "deb_data.h"
#include "deb_stream.h"
#include "util/xalloc.h"

#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AR_MAGIC "!<arch>\n"
#define DEB_FIRST_MEMBER "debian-binary"

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

bool deb_is_package(const char *path)
{
	char head[sizeof(AR_MAGIC) - 1 + sizeof(DEB_FIRST_MEMBER) - 1];
	ssize_t n;
	int fd;

	if (!has_suffix(path, ".deb") && !has_suffix(path, ".udeb"))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return false;
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	return n == (ssize_t)sizeof(head) && memcmp(head, AR_MAGIC, sizeof(AR_MAGIC) - 1) == 0 &&
	       memcmp(head + sizeof(AR_MAGIC) - 1, DEB_FIRST_MEMBER,
		      sizeof(DEB_FIRST_MEMBER) - 1) == 0;
}

/* Copies the value of FIELD ("Package") from the control file TEXT into OUT. */
static void control_field(const char *text, const char *field, char *out, size_t outlen)
{
	size_t k = strlen(field);
	const char *line;

	for (line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, field, k) == 0 && line[k] == ':') {
			const char *v = line + k + 1, *end;

			while (*v == ' ' || *v == '\t')
				v++;
			end = strchr(v, '\n');
			if (!end)
				end = v + strlen(v);
			snprintf(out, outlen, "%.*s", (int)(end - v), v);
			return;
		}
	}
}

/* The first 64 KiB of the control file hold Package and Version. */
static int read_control(struct deb_reader *r, const char *member, struct deb_package *pkg,
			struct elfcet_error *err)
{
	struct archive *a = deb_open_tar(r, member, DEB_CONTROL, err);
	struct archive_entry *e;
	char text[64 * 1024];
	int rc;

	if (!a)
		return -1;
	while ((rc = archive_read_next_header(a, &e)) == ARCHIVE_OK || rc == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(e);
		size_t got = 0;
		la_ssize_t n;

		if (deb_count_entry(r, a, e, err) != 0) {
			struct elfcet_error inner = *err;

			deb_close_tar(r, a);
			return error_set(err, "%s: %s", member, inner.text);
		}
		if (!name || (strcmp(name, "./control") != 0 && strcmp(name, "control") != 0))
			continue;
		while (got < sizeof(text) - 1 &&
		       (n = archive_read_data(a, text + got, sizeof(text) - 1 - got)) > 0)
			got += (size_t)n;
		text[got] = '\0';
		control_field(text, "Package", pkg->name, sizeof(pkg->name));
		control_field(text, "Version", pkg->version, sizeof(pkg->version));
		break;
	}
	if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN && rc != ARCHIVE_EOF) {
		char what[64];

		snprintf(what, sizeof(what), "%s: cannot read", member);
		deb_fail(err, what, a);
		deb_close_tar(r, a);
		return -1;
	}
	deb_close_tar(r, a);
	if (!pkg->name[0] || !pkg->version[0])
		return error_set(err, "%s: no Package and Version in the control file", member);
	return 0;
}

static int read_members(struct deb_reader *r, const char *path, deb_file_fn fn, void *ctx,
			struct elfcet_error *err)
{
	struct deb_package pkg = { .name = "" };
	struct archive_entry *e;
	bool control = false;
	int rc;

	if (archive_read_open_filename(r->outer, path, 64 * 1024) != ARCHIVE_OK)
		return deb_fail(err, "cannot open package", r->outer);
	while ((rc = archive_read_next_header(r->outer, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);

		if (!name)
			continue;
		if (strncmp(name, "control.tar", 11) == 0) {
			if (read_control(r, name, &pkg, err) != 0)
				return -1;
			control = true;
		} else if (strncmp(name, "data.tar", 8) == 0) {
			struct archive *a;
			int data_rc;

			if (!control)
				return error_set(err, "%s before the control archive", name);
			a = deb_open_tar(r, name, DEB_DATA, err);
			if (!a)
				return -1;
			data_rc = deb_read_data(r, a, name, &pkg, fn, ctx, err);
			deb_close_tar(r, a);
			return data_rc; /* what follows data.tar is for later formats */
		}
	}
	return rc == ARCHIVE_EOF ? error_set(err, "no data archive in the package")
				 : deb_fail(err, "cannot read package", r->outer);
}

int deb_read(const char *path, const struct deb_limits *limits, deb_file_fn fn, void *ctx,
	     struct elfcet_error *err)
{
	struct deb_reader *r = xcalloc(1, sizeof(*r));
	locale_t c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0), saved = (locale_t)0;
	int rc = -1;

	if (c_locale)
		saved = uselocale(c_locale);
	r->limits = limits;
	r->outer = archive_read_new();
	if (!r->outer) {
		error_set(err, "out of memory");
		goto out;
	}
	archive_read_support_format_ar(r->outer);
	rc = read_members(r, path, fn, ctx, err);
	archive_read_free(r->outer);
out:
	if (c_locale) {
		uselocale(saved);
		freelocale(c_locale);
	}
	free(r);
	return rc;
}
