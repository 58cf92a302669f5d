/* What the loaders see of a file, before and after elfcet mark changes it.
 *
 * Marking may only change the CET bits: the kernel and ld.so must find the same
 * interpreter, load the same bytes outside the planned change, and read the same notes
 * except for FEATURE_1_AND. These checks refuse a plan that would break that (before
 * anything is written) and a result that does (before it replaces the original). */
#ifndef ELFCET_MARK_VIEW_H
#define ELFCET_MARK_VIEW_H

#include "elf/elf_model.h"
#include "mark/mark_plan.h"
#include "util/error.h"

#include <stddef.h>

/* Refuses a file in which a program header or section refers to bytes past its end:
 * a note moved to new space could land under it (mark asks this only then). 0, or -1
 * with the reason in ERR. */
int mark_view_refs_inside(const struct elf_model *m, struct elfcet_error *err);

/* Refuses a plan that writes over bytes that two PT_LOADs load. What else the loaders
 * and the program read is mark_reads.h's. 0, or -1 with the reason in ERR. */
int mark_view_plan_safe(const struct elf_model *before, const struct mark_plan *plan,
			struct elfcet_error *err);

/* Compares the loaders' view of AFTER (the planned or written file) with BEFORE: the
 * same interpreter, every segment inside the file, PT_PHDR inside a PT_LOAD, every
 * PT_LOAD of BEFORE still mapping the same bytes outside the plan's ranges, the other
 * notes unchanged, and the kernel and ld.so reading exactly the planned FEATURE_1_AND
 * with the same ISA_1_NEEDED. 0, or -1 with the difference in ERR. */
int mark_view_compare(const struct elf_model *before, const struct elf_model *after,
		      const struct mark_plan *plan, struct elfcet_error *err);

#endif
