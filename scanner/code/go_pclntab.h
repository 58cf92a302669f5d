/* Go's own table of its functions (.gopclntab): Go's linker writes no FDE for Go code
 * and a stripped Go program keeps no symbol, but the runtime needs every function's entry
 * to walk stacks, so the table is always there. */
#ifndef ELFCET_GO_PCLNTAB_H
#define ELFCET_GO_PCLNTAB_H

#include "elf/elf_model.h"

#include <stddef.h>
#include <stdint.h>

struct go_functions {
	uint64_t *entries; /* function entry addresses, in the table's (address) order */
	size_t nentries;
	uint64_t end; /* the end of Go's text (the runtime's maxpc), or 0 */
};

/* Reads the functions of M's .gopclntab (the layout of Go 1.18 and later); false, and
 * nothing allocated, when there is none or it is not one this reader knows. TEXT_START
 * is the address of .text, which a position-independent program's table leaves to a
 * relocation. */
bool go_pclntab_read(const struct elf_model *m, uint64_t text_start, struct go_functions *out);
void go_functions_free(struct go_functions *g);

#endif
