/* Naming a place in a mapped object for elfcet run's reports: the file offset the plugin saw
 * becomes the object's own virtual address (what objdump and elfcet audit show) and the
 * nearest function symbol. */
#ifndef ELFCET_DYNRUN_SYMBOLS_H
#define ELFCET_DYNRUN_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dynrun_place {
	bool known; /* the offset lies in a PT_LOAD of a readable ELF file */
	uint64_t vaddr;
	char symbol[256]; /* "name", "name+0x1c", or "" when no symbol covers it */
};

/* Symbolizes OFFSET in the file at PATH. Files are opened once and kept: call
 * dynrun_symbols_release() when done. */
void dynrun_symbolize(const char *path, uint64_t offset, struct dynrun_place *place);
void dynrun_symbols_release(void);

#endif
