/* Inside deb_input: one package being read, and its tar members opened as streams,
 * decompressed in process the way dpkg decompresses them, and held to the package's
 * limits. */
#ifndef ELFCET_DEB_STREAM_H
#define ELFCET_DEB_STREAM_H

#include "deb_input.h"

#include <archive.h>
#include <archive_entry.h>

struct deb_reader {
	struct archive *outer; /* the package's ar archive, at the member being read */
	const struct deb_limits *limits;
	uint64_t unpacked; /* bytes the tar members read to the end decompressed to */
	uint64_t members;  /* entries of the tar members so far */
	char buf[64 * 1024];
};

enum deb_member_kind { DEB_CONTROL, DEB_DATA };

/* The outer archive's current member, named MEMBER ("data.tar.xz"), as a tar archive:
 * decompressed with what dpkg uses for its name (deb(5): control.tar takes none, .gz,
 * .xz, .zst; data.tar also .bz2 and .lzma), by libarchive itself, never by a program
 * it would run. NULL with ERR ("MEMBER: problem") otherwise. */
struct archive *deb_open_tar(struct deb_reader *r, const char *member, enum deb_member_kind kind,
			     struct elfcet_error *err);

/* Counts entry E, just read from tar member A, against the limits: 0, or -1 with ERR
 * ("ENTRY: problem") when the package has too many members or E would take it past its
 * bytes. */
int deb_count_entry(struct deb_reader *r, struct archive *a, struct archive_entry *e,
		    struct elfcet_error *err);

/* Closes tar member A, adding what it unpacked to R's count. */
void deb_close_tar(struct deb_reader *r, struct archive *a);

/* ERR = "WHAT", with libarchive's reason for A when it has one. Returns -1. */
int deb_fail(struct elfcet_error *err, const char *what, struct archive *a);

#endif
