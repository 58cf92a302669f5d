/* The tar members of a package as streams inside the package's own stream.
 *
 * dpkg picks the decompressor by the member's name and accepts a fixed few; libarchive
 * would guess from the bytes and, for lzop, lrzip or grzip, run whatever program of that
 * name is on PATH over the untrusted member. So the filter is appended by name, never
 * bid for, and one that libarchive would hand to a program is refused. */
#include "config.h"

#include "deb_stream.h"

#include <errno.h>
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

/* What liblzma's RC says of the member, for its error line. */
static const char *lzma_problem(lzma_ret rc)
{
	switch (rc) {
	case LZMA_MEMLIMIT_ERROR:
		return "its decoder needs more than the 256 MiB of memory allowed "
		       "(a dictionary larger than xz -9's)";
	case LZMA_MEM_ERROR:
		return "out of memory";
	case LZMA_FORMAT_ERROR:
		return "not in the format its name says";
	case LZMA_OPTIONS_ERROR:
		return "unsupported compression options";
	case LZMA_BUF_ERROR:
		return "truncated compressed data";
	default:
		return "corrupt compressed data";
	}
}

/* An xz or lzma member's next decompressed bytes into R->buf: at least one, or 0 at its
 * end, or -1 with the reason set on INNER. */
static la_ssize_t lzma_read(struct deb_reader *r, struct archive *inner)
{
	r->lzma.next_out = (uint8_t *)r->buf;
	r->lzma.avail_out = sizeof(r->buf);
	while (r->lzma.avail_out == sizeof(r->buf)) {
		lzma_ret rc;

		if (r->lzma.avail_in == 0 && !r->lzma_in_end) {
			la_ssize_t n = archive_read_data(r->outer, r->in, sizeof(r->in));

			if (n < 0) {
				archive_set_error(inner, EIO, "%s", archive_error_string(r->outer));
				return -1;
			}
			r->lzma.next_in = r->in;
			r->lzma.avail_in = (size_t)n;
			r->lzma_in_end = n == 0;
		}
		rc = lzma_code(&r->lzma, r->lzma_in_end ? LZMA_FINISH : LZMA_RUN);
		if (rc == LZMA_STREAM_END)
			break;
		if (rc != LZMA_OK) {
			archive_set_error(inner, EIO, "%s", lzma_problem(rc));
			return -1;
		}
	}
	return (la_ssize_t)(sizeof(r->buf) - r->lzma.avail_out);
}

static la_ssize_t member_read(struct archive *inner, void *ctx, const void **out)
{
	struct deb_reader *r = ctx;

	*out = r->buf;
	if (r->lzma_on)
		return lzma_read(r, inner);
	return archive_read_data(r->outer, r->buf, sizeof(r->buf));
}

/* liblzma's decoder for compression FILTER (xz or lzma), bounded; false when it cannot
 * start. */
static bool lzma_start(struct deb_reader *r, int filter)
{
	lzma_ret rc;

	r->lzma = (lzma_stream)LZMA_STREAM_INIT;
	r->lzma_in_end = false;
	rc = filter == ARCHIVE_FILTER_XZ
		     ? lzma_stream_decoder(&r->lzma, DEB_LZMA_MEMLIMIT, LZMA_CONCATENATED)
		     : lzma_alone_decoder(&r->lzma, DEB_LZMA_MEMLIMIT);
	r->lzma_on = rc == LZMA_OK;
	return r->lzma_on;
}

static void lzma_stop(struct deb_reader *r)
{
	if (r->lzma_on)
		lzma_end(&r->lzma);
	r->lzma_on = false;
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
	if (c->filter == ARCHIVE_FILTER_XZ || c->filter == ARCHIVE_FILTER_LZMA) {
		if (!lzma_start(r, c->filter)) {
			error_set(err, "%s: out of memory", member);
			archive_read_free(a);
			return NULL;
		}
		rc = ARCHIVE_OK;
	} else {
		/* ARCHIVE_WARN: this libarchive would decompress it with an external program. */
		rc = c->filter == ARCHIVE_FILTER_NONE ? ARCHIVE_OK
						      : archive_read_append_filter(a, c->filter);
	}
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
		lzma_stop(r);
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
	lzma_stop(r);
}
