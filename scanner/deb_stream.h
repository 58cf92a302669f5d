/* Inside deb_input: one package being read, and its tar members opened as streams,
 * decompressed in process the way dpkg decompresses them, and held to the package's
 * limits. */
#ifndef ELFCET_DEB_STREAM_H
#define ELFCET_DEB_STREAM_H

#include "deb_input.h"

#include <archive.h>
#include <archive_entry.h>
#include <lzma.h>

/* Memory the xz or lzma decoder of one member may take (its dictionary, most of it).
 * libarchive's decoder has no limit: a header asking a 4 GiB dictionary gets one, filled
 * as the member unpacks. xz -9 and dpkg-deb -z9 use 64 MiB. */
#define DEB_LZMA_MEMLIMIT ((uint64_t)256 << 20)

struct deb_reader {
	struct archive *outer; /* the package's ar archive, at the member being read */
	const struct deb_limits *limits;
	uint64_t unpacked; /* bytes the tar members read to the end decompressed to */
	uint64_t members;  /* entries of the tar members so far */
	char buf[64 * 1024];
	/* xz and lzma members: decoded here, under DEB_LZMA_MEMLIMIT, from IN into BUF */
	bool lzma_on, lzma_in_end;
	lzma_stream lzma;
	unsigned char in[64 * 1024];
};

enum deb_member_kind { DEB_CONTROL, DEB_DATA };

/* The outer archive's current member, named MEMBER ("data.tar.xz"), as a tar archive:
 * decompressed with what dpkg uses for its name (deb(5): control.tar takes none, .gz,
 * .xz, .zst; data.tar also .bz2 and .lzma), in process (libarchive, or liblzma under
 * DEB_LZMA_MEMLIMIT), never by a program libarchive would run. NULL with ERR ("MEMBER:
 * problem") otherwise. */
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
