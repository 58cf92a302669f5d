/* .eh_frame and the DWARF pointer encodings it and .gcc_except_table use: function starts
 * of stripped code, and the LSDA of each function for the landing pads. */
#ifndef ELFCET_EH_FRAME_H
#define ELFCET_EH_FRAME_H

#include "code/code_context.h"

#define DW_EH_PE_omit 0xff

/* Every FDE of M, sorted by start (*FDES is malloc'ed; may be NULL with *COUNT 0). */
void eh_frame_load(const struct elf_model *m, struct fde_info **fdes, size_t *count);

struct dw_cursor {
	const unsigned char *p, *end;
	uint64_t addr; /* virtual address of *p, for pc-relative pointers */
	unsigned word; /* 8 or 4: the size of an absolute pointer */
	bool bad;      /* ran past the end or met an unknown encoding */
};

uint64_t dw_uleb(struct dw_cursor *cur);
int64_t dw_sleb(struct dw_cursor *cur);
uint8_t dw_u8(struct dw_cursor *cur);
/* A pointer in encoding ENC (DW_EH_PE_*): absolute or pc-relative; others are bad. */
uint64_t dw_pointer(struct dw_cursor *cur, uint8_t enc);
void dw_skip(struct dw_cursor *cur, uint64_t n);

#endif
