/* One edit of a file: the whole new image and every range of the original it changes.
 *
 * The planner (mark_plan) and the layouts (mark_layout) write into it; the checks
 * (mark_view) and the writer (mark_write) read it. Nothing here touches the disk. */
#ifndef ELFCET_MARK_EDIT_H
#define ELFCET_MARK_EDIT_H

#include "property/property_note.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A range of the original file the edit rewrites. */
struct mark_range {
	uint64_t offset, len;
	const char *what;
};

struct mark_edit {
	unsigned char *image; /* the whole new file */
	uint64_t size, orig_size;
	struct mark_range *ranges; /* sorted, disjoint; the space appended after the
					   * original is changed as a whole and not listed */
	size_t nranges, cap;
	/* The writes that update a reference to bytes that moved (a header field, a symbol
	 * value, a dynamic entry's value), as put, unmerged: changing what a reader finds
	 * there is their purpose (see mark_reads.h). */
	struct mark_range *fields;
	size_t nfields, fields_cap;
};

/* A GNU property note descriptor (the property records, each padded to the class's
 * alignment) to be written as the file's note. */
struct mark_desc {
	unsigned char bytes[PROPERTY_MAX * 16];
	uint32_t size;
};

/* Writes LEN bytes at OFF of the new image and records the range (merging neighbours).
 * The image must already be large enough. */
void mark_edit_put(struct mark_edit *edit, uint64_t off, const void *bytes, uint64_t len,
		   const char *what);

/* mark_edit_put for a field that now refers to where something moved. */
void mark_edit_put_field(struct mark_edit *edit, uint64_t off, const void *bytes, uint64_t len,
			 const char *what);

/* True when OFF of the original lies in one of the edit's ranges, or past its end. */
bool mark_edit_covers(const struct mark_edit *edit, uint64_t off);

/* Frees the image and the ranges: the edit is empty again (ORIG_SIZE stays). */
void mark_edit_clear(struct mark_edit *edit);

#endif
