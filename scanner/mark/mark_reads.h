/* What the kernel, ld.so and the program itself may read of a file, as file ranges.
 *
 * Marking rewrites a few headers and the property note and writes new bytes into padding
 * or at the end of the file. Whatever anyone reads must stay where its reader finds it:
 * segments by their program headers (notes by p_memsz, as ld.so walks them), the tables
 * the dynamic section sizes (DT_*SZ: relocations, init/fini arrays, strings), sections
 * when the file has section headers, and the bytes after the ELF image, which programs
 * carrying a payload (deno compile, Bun, pkg, self-extracting archives, AppImage's
 * runtime) find from the end of the file or of the section header table. */
#ifndef ELFCET_MARK_READS_H
#define ELFCET_MARK_READS_H

#include "elf/elf_model.h"
#include "mark/mark_plan.h"
#include "util/error.h"

#include <stddef.h>
#include <stdint.h>

enum mark_read_kind {
	MARK_READ_FIXED,   /* found where it is: must not move or change */
	MARK_READ_MOVABLE, /* found through a header the plan re-points when it moves the bytes
			    * after the program header table (see mark_place.h's room) */
};

struct mark_read {
	uint64_t offset, len; /* file range, within the file */
	enum mark_read_kind kind;
	char what[96]; /* who reads it, for the message: "DT_JMPREL table (DT_PLTRELSZ)" */
};

struct mark_reads {
	struct mark_read *items;
	size_t count, cap;
	uint64_t image_end; /* the end of everything the headers describe */
};

/* Collects what may be read of M. 0, or -1 when out of memory. */
int mark_reads_collect(const struct elf_model *m, struct mark_reads *reads);
void mark_reads_free(struct mark_reads *reads);

/* Refuses PLAN when it would overwrite or move anything BEFORE's readers read (AFTER is
 * the planned image, opened): a range the plan writes meets a read range outside the
 * property note's own bytes (unless the plan moved it with its header), bytes follow the
 * ELF image and the plan changes the file's size, or a note segment that ld.so walks by
 * a p_memsz other than its p_filesz would change. 0, or -1 with the reason in ERR. */
int mark_reads_check(const struct elf_model *before, const struct elf_model *after,
		     const struct mark_plan *plan, struct elfcet_error *err);

#endif
