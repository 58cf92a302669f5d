/* Planning a change of a file's CET marking: which of the three layouts applies and the
 * exact bytes of the new file, with every range of the original that the change touches.
 *
 * The plan is built in memory from the mapped original; nothing is written here. The
 * writer (mark_write.h) puts it on disk and checks it against the ranges listed. */
#ifndef ELFCET_MARK_PLAN_H
#define ELFCET_MARK_PLAN_H

#include "elf/elf_model.h"
#include "mark/mark_edit.h"
#include "property/property_note.h"
#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NOTE_SECTION_NAME ".note.gnu.property"

enum mark_layout {
	MARK_LAYOUT_UNCHANGED = 0, /* the file already carries the requested bits */
	MARK_LAYOUT_IN_PLACE = 1,  /* FEATURE_1_AND exists: its value changes where it is */
	MARK_LAYOUT_GROW = 2,	   /* a note without FEATURE_1_AND (or not where loaders look):
				    * rebuilt with the property, moved to new space */
	MARK_LAYOUT_CREATE = 3,	   /* no note at all: created in new space */
};

/* Bits to set and to clear in FEATURE_1_AND; clearing wins over setting. */
struct mark_request {
	uint32_t set, clear;
};

struct mark_plan {
	enum mark_layout layout;
	bool old_present, new_present; /* FEATURE_1_AND before and after */
	uint32_t old_bits, new_bits;
	bool relocated;			  /* the note moved to new space */
	bool new_load;			  /* ... under a new PT_LOAD at the end of the file */
	bool table_moved;		  /* ... with the program header table, grown */
	bool table_grown;		  /* the table grew where it is ... */
	uint64_t moved_from, moved_bytes; /* ... over these bytes (.interp, notes), moved */
	uint64_t seg_offset, seg_vaddr, seg_size; /* where the new note is */
	bool section_added;    /* a .note.gnu.property section header was added */
	struct mark_edit edit; /* the new file and what it changes */
};

/* Plans REQ for the file in M. 0 with PLAN filled (layout UNCHANGED when there is nothing
 * to do); -1 with a short reason in ERR (no file name) when the file's note is damaged or
 * laid out in a way the planner will not touch. Free the plan with mark_plan_free. */
int mark_plan_make(const struct elf_model *m, const struct mark_request *req,
		   struct mark_plan *plan, struct elfcet_error *err);
void mark_plan_free(struct mark_plan *plan);

/* True when NOTE is only an empty PT_GNU_PROPERTY (what objcopy --remove-section
 * .note.gnu.property leaves): the file has no note, and marking gives it one. */
bool note_header_left_empty(const struct property_note *note);

const char *mark_layout_name(enum mark_layout layout);

#endif
