/* Reading a Debian binary package without unpacking it.
 *
 * A .deb is an ar archive: debian-binary, control.tar[.gz|.xz|.zst], data.tar[...]. Both
 * tar members are read as streams inside the outer stream (libarchive decompresses each),
 * so the package is read once, front to back, whatever its size. */
#include "config.h"

#include "deb_input.h"
#include "util/xalloc.h"

#include <archive.h>
#include <archive_entry.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AR_MAGIC "!<arch>\n"
#define DEB_FIRST_MEMBER "debian-binary"

/* An ELF file larger than this in a package is refused rather than read into memory. */
#define MEMBER_MAX ((size_t)4 << 30)

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

/* The outer archive's current member as the input of an inner archive. */
struct member_stream {
	struct archive *outer;
	char buf[64 * 1024];
};

static la_ssize_t member_read(struct archive *inner, void *ctx, const void **out)
{
	struct member_stream *ms = ctx;
	la_ssize_t n = archive_read_data(ms->outer, ms->buf, sizeof(ms->buf));

	(void)inner;
	*out = ms->buf;
	return n;
}

static struct archive *open_member(struct member_stream *ms)
{
	struct archive *a = archive_read_new();

	if (!a)
		return NULL;
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	if (archive_read_open(a, ms, NULL, member_read, NULL) != ARCHIVE_OK) {
		archive_read_free(a);
		return NULL;
	}
	return a;
}

/* WHAT, with libarchive's reason when it has one. */
static int fail(struct elfcet_error *err, const char *what, struct archive *a)
{
	return error_set(err, "%s%s%s", what, a && archive_error_string(a) ? ": " : "",
			 a && archive_error_string(a) ? archive_error_string(a) : "");
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

static int read_control(struct member_stream *ms, struct deb_package *pkg, struct elfcet_error *err)
{
	struct archive *a = open_member(ms);
	struct archive_entry *e;
	char text[64 * 1024];
	int rc = -1;

	if (!a)
		return fail(err, "cannot read control archive", ms->outer);
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		la_ssize_t n;

		if (!name || (strcmp(name, "./control") != 0 && strcmp(name, "control") != 0))
			continue;
		n = archive_read_data(a, text, sizeof(text) - 1);
		if (n < 0)
			break;
		text[n] = '\0';
		control_field(text, "Package", pkg->name, sizeof(pkg->name));
		control_field(text, "Version", pkg->version, sizeof(pkg->version));
		rc = pkg->name[0] && pkg->version[0] ? 0 : -1;
		break;
	}
	if (rc != 0)
		fail(err, "no Package and Version in the control file", NULL);
	archive_read_free(a);
	return rc;
}

/* The member's contents when it starts like an ELF file, else NULL (*SIZE 0). */
static unsigned char *read_elf_member(struct archive *a, struct archive_entry *e, size_t *size,
				      struct elfcet_error *err, bool *failed)
{
	unsigned char magic[SELFMAG], *image;
	size_t want, got = SELFMAG;
	la_ssize_t n;

	*size = 0;
	n = archive_read_data(a, magic, sizeof(magic));
	if (n < 0) {
		*failed = true;
		fail(err, "cannot read data archive", a);
		return NULL;
	}
	if (n < SELFMAG || memcmp(magic, ELFMAG, SELFMAG) != 0)
		return NULL;
	want = (size_t)archive_entry_size(e);
	if (!archive_entry_size_is_set(e) || want < SELFMAG || want > MEMBER_MAX) {
		*failed = true;
		error_set(err, "%s: member size unknown or too large", archive_entry_pathname(e));
		return NULL;
	}
	image = malloc(want); /* the member's size, bounded above: its own error */
	if (!image) {
		*failed = true;
		error_set(err, "%s: out of memory", archive_entry_pathname(e));
		return NULL;
	}
	memcpy(image, magic, SELFMAG);
	while (got < want && (n = archive_read_data(a, image + got, want - got)) > 0)
		got += (size_t)n;
	if (got < want) {
		free(image);
		*failed = true;
		fail(err, "data archive ends inside a member", a);
		return NULL;
	}
	*size = want;
	return image;
}

static int read_data(struct member_stream *ms, const struct deb_package *pkg, deb_file_fn fn,
		     void *ctx, struct elfcet_error *err)
{
	struct archive *a = open_member(ms);
	struct archive_entry *e;
	char path[4096];
	bool failed = false;
	int r;

	if (!a)
		return fail(err, "cannot read data archive", ms->outer);
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		unsigned char *image;
		size_t size;

		if (!name || archive_entry_filetype(e) != AE_IFREG || archive_entry_hardlink(e))
			continue;
		/* "./usr/bin/ls" is installed as "/usr/bin/ls". */
		if (name[0] == '.' && name[1] == '/')
			name++;
		snprintf(path, sizeof(path), "%s%s", name[0] == '/' ? "" : "/", name);
		image = read_elf_member(a, e, &size, err, &failed);
		if (failed)
			break;
		if (image)
			fn(pkg, path, image, size, ctx);
	}
	if (!failed && r != ARCHIVE_EOF) {
		fail(err, "cannot read data archive", a);
		failed = true;
	}
	archive_read_free(a);
	return failed ? -1 : 0;
}

int deb_read(const char *path, deb_file_fn fn, void *ctx, struct elfcet_error *err)
{
	struct member_stream *ms = xmalloc(sizeof(*ms));
	struct deb_package pkg = { .name = "" };
	struct archive_entry *e;
	bool control = false, data = false;
	int rc = 0, r = ARCHIVE_OK;

	ms->outer = archive_read_new();
	if (!ms->outer) {
		free(ms);
		return fail(err, "out of memory", NULL);
	}
	archive_read_support_format_ar(ms->outer);
	if (archive_read_open_filename(ms->outer, path, 64 * 1024) != ARCHIVE_OK) {
		rc = fail(err, "cannot open package", ms->outer);
		goto out;
	}
	while (rc == 0 && (r = archive_read_next_header(ms->outer, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);

		if (!name)
			continue;
		if (strncmp(name, "control.tar", 11) == 0) {
			rc = read_control(ms, &pkg, err);
			control = rc == 0;
		} else if (strncmp(name, "data.tar", 8) == 0) {
			if (!control) {
				rc = fail(err, "data archive before the control archive", NULL);
				break;
			}
			rc = read_data(ms, &pkg, fn, ctx, err);
			data = true;
		}
	}
	if (rc == 0 && r != ARCHIVE_EOF)
		rc = fail(err, "cannot read package", ms->outer);
	else if (rc == 0 && !data)
		rc = fail(err, "no data archive in the package", NULL);
out:
	archive_read_free(ms->outer);
	free(ms);
	return rc;
}
