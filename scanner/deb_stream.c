/* The tar members of a package as streams inside the package's own stream.
 *
 * dpkg picks the decompressor by the member's name and accepts a fixed few; libarchive
 * would guess from the bytes and, for lzop, lrzip or grzip, run whatever program of that
 * name is on PATH over the untrusted member. So the filter is appended by name, never
 * bid for, and one that libarchive would hand to a program is refused. */
#include "config.h"

#include "deb_stream.h"

#include <inttypes.h>
#include <string.h>

struct compression {
	const char *suffix;
	int filter;
	bool in_control; /* dpkg accepts it for control.tar too */
};

static const struct compression compressions[] = {
	{ "", ARCHIVE_FILTER_NONE, true },	 { ".gz", ARCHIVE_FILTER_GZIP, true },
	{ ".xz", ARCHIVE_FILTER_XZ, true },	 { ".zst", ARCHIVE_FILTER_ZSTD, true },
	{ ".bz2", ARCHIVE_FILTER_BZIP2, false }, { ".lzma", ARCHIVE_FILTER_LZMA, false },
};

int deb_fail(struct elfcet_error *err, const char *what, struct archive *a)
{
	const char *why = a ? archive_error_string(a) : NULL;

	return error_set(err, "%s%s%s", what, why ? ": " : "", why ? why : "");
}

static const struct compression *compression_of(const char *member, enum deb_member_kind kind)
{
	const char *suffix = member + strlen(kind == DEB_DATA ? "data.tar" : "control.tar");
	size_t i;

	for (i = 0; i < sizeof(compressions) / sizeof(compressions[0]); i++)
		if (strcmp(suffix, compressions[i].suffix) == 0)
			return kind == DEB_DATA || compressions[i].in_control ? &compressions[i]
									      : NULL;
	return NULL;
}

static la_ssize_t member_read(struct archive *inner, void *ctx, const void **out)
{
	struct deb_reader *r = ctx;

	(void)inner;
	*out = r->buf;
	return archive_read_data(r->outer, r->buf, sizeof(r->buf));
}

struct archive *deb_open_tar(struct deb_reader *r, const char *member, enum deb_member_kind kind,
			     struct elfcet_error *err)
{
	const struct compression *c = compression_of(member, kind);
	struct archive *a;
	int rc;

	if (!c) {
		error_set(err, "%s: not a compression dpkg accepts for this member (%s)", member,
			  kind == DEB_DATA ? "none, gz, xz, zst, bz2, lzma" : "none, gz, xz, zst");
		return NULL;
	}
	a = archive_read_new();
	if (!a) {
		error_set(err, "%s: out of memory", member);
		return NULL;
	}
	archive_read_support_format_tar(a);
	/* ARCHIVE_WARN: this libarchive would decompress it with an external program. */
	rc = c->filter == ARCHIVE_FILTER_NONE ? ARCHIVE_OK
					      : archive_read_append_filter(a, c->filter);
	if (rc != ARCHIVE_OK) {
		error_set(err, "%s: this libarchive cannot decompress it in process", member);
		archive_read_free(a);
		return NULL;
	}
	if (archive_read_open(a, r, NULL, member_read, NULL) != ARCHIVE_OK) {
		char what[64];

		snprintf(what, sizeof(what), "%s: cannot read", member);
		deb_fail(err, what, a);
		archive_read_free(a);
		return NULL;
	}
	return a;
}

/* Bytes tar member A has decompressed to so far. */
static uint64_t unpacked_by(struct archive *a)
{
	la_int64_t n = archive_filter_bytes(a, 0);

	return n > 0 ? (uint64_t)n : 0;
}

int deb_count_entry(struct deb_reader *r, struct archive *a, struct archive_entry *e,
		    struct elfcet_error *err)
{
	const char *name = archive_entry_pathname(e) ? archive_entry_pathname(e) : "?";
	uint64_t used = r->unpacked + unpacked_by(a), max = r->limits->max_unpacked, size;

	if (++r->members > r->limits->max_members)
		return error_set(err, "%s: more than %" PRIu64 " members (--max-members)", name,
				 r->limits->max_members);
	size = archive_entry_size_is_set(e) && archive_entry_size(e) > 0
		       ? (uint64_t)archive_entry_size(e)
		       : 0;
	if (used > max || size > max - used)
		return error_set(err,
				 "%s: %" PRIu64 " bytes, with %" PRIu64
				 " unpacked before it, more than %" PRIu64
				 " bytes (--max-unpacked)",
				 name, size, used, max);
	return 0;
}

void deb_close_tar(struct deb_reader *r, struct archive *a)
{
	r->unpacked += unpacked_by(a);
	archive_read_free(a);
}
