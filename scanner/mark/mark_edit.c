/* The edit of a file: the new image and the ranges of the original it changes. */
#include "config.h"

#include "mark/mark_edit.h"

#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

void mark_edit_put(struct mark_edit *edit, uint64_t off, const void *bytes, uint64_t len,
		   const char *what)
{
	struct mark_range *r;
	size_t i, j;

	if (len == 0 || off > edit->size || len > edit->size - off)
		return;
	if (edit->image + off != bytes)
		memmove(edit->image + off, bytes, len);
	/* Ranges describe the original; the new space past its end is changed as a whole. */
	if (off >= edit->orig_size)
		return;
	if (len > edit->orig_size - off)
		len = edit->orig_size - off;
	ARRAY_RESERVE(edit->ranges, edit->cap, edit->nranges + 1);
	/* Keep the list sorted; merge with overlapping or touching neighbours. */
	for (i = 0; i < edit->nranges && edit->ranges[i].offset < off; i++)
		;
	memmove(edit->ranges + i + 1, edit->ranges + i,
		(edit->nranges - i) * sizeof(*edit->ranges));
	edit->ranges[i] = (struct mark_range){ off, len, what };
	edit->nranges++;
	if (i > 0 && edit->ranges[i - 1].offset + edit->ranges[i - 1].len >= off)
		i--;
	r = &edit->ranges[i];
	for (j = i + 1; j < edit->nranges && edit->ranges[j].offset <= r->offset + r->len; j++) {
		uint64_t end = edit->ranges[j].offset + edit->ranges[j].len;

		if (end > r->offset + r->len)
			r->len = end - r->offset;
	}
	memmove(edit->ranges + i + 1, edit->ranges + j,
		(edit->nranges - j) * sizeof(*edit->ranges));
	edit->nranges -= j - i - 1;
}

void mark_edit_put_field(struct mark_edit *edit, uint64_t off, const void *bytes, uint64_t len,
			 const char *what)
{
	mark_edit_put(edit, off, bytes, len, what);
	ARRAY_RESERVE(edit->fields, edit->fields_cap, edit->nfields + 1);
	edit->fields[edit->nfields++] = (struct mark_range){ off, len, what };
}

bool mark_edit_covers(const struct mark_edit *edit, uint64_t off)
{
	size_t i;

	for (i = 0; i < edit->nranges; i++)
		if (off >= edit->ranges[i].offset &&
		    off - edit->ranges[i].offset < edit->ranges[i].len)
			return true;
	return off >= edit->orig_size;
}

void mark_edit_clear(struct mark_edit *edit)
{
	free(edit->image);
	free(edit->ranges);
	free(edit->fields);
	edit->image = NULL;
	edit->ranges = NULL;
	edit->fields = NULL;
	edit->nranges = edit->cap = 0;
	edit->nfields = edit->fields_cap = 0;
	edit->size = 0;
}
