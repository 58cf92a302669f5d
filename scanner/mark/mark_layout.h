/* Laying out a rewritten GNU property note: in its old place when it does not grow, else in
 * new space at the end of the file under a new read-only PT_LOAD, with the program header
 * table moved there too (it gains that PT_LOAD) and every header that points at the note
 * (PT_GNU_PROPERTY, PT_NOTE, PT_PHDR, the .note.gnu.property section) pointed at the new
 * copy. The old bytes stay where they were, unreferenced, so nothing else moves. */
#ifndef ELFCET_MARK_LAYOUT_H
#define ELFCET_MARK_LAYOUT_H

#include "elf/elf_model.h"
#include "mark/mark_edit.h"
#include "mark/mark_plan.h"

#define NOTE_HEADER_SIZE 16u /* namesz, descsz, type, "GNU\0" */
#include "property/property_note.h"
#include "util/error.h"

#include <stdint.h>

/* Rewrites the note NOTE of M with DESC, no larger than the old descriptor, where it is,
 * shrinking every header that ends with it. 0 done; 1 when some header covers more than
 * the note (the caller relocates instead); -1 with ERR on damage. PLAN->edit.image must
 * hold a copy of the original. */
int mark_layout_in_place(const struct elf_model *m, const struct property_note *note,
			 const struct mark_desc *desc, struct mark_plan *plan,
			 struct elfcet_error *err);

/* Writes DESC as a new note in new space (see above). NOTE is the old note, or NULL when
 * the file has none. Allocates PLAN->edit.image (the original plus the new space). 0, or -1
 * with ERR when the file's headers do not allow it. */
int mark_layout_relocate(const struct elf_model *m, const struct property_note *note,
			 const struct mark_desc *desc, struct mark_plan *plan,
			 struct elfcet_error *err);

#endif
