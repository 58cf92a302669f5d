/* Choosing where a relocated GNU property note goes (see mark_layout.h). */
#ifndef ELFCET_MARK_PLACE_H
#define ELFCET_MARK_PLACE_H

#include "elf/elf_header.h"
#include "elf/elf_model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What moves to let the program header table grow where it is. */
struct room {
	uint64_t from, to;  /* file bytes right after the table that move */
	uint64_t dyn_at[2]; /* file offsets of the DT_HASH / DT_GNU_HASH values to move */
	uint64_t dyn_value[2];
	int ndyn;
	uint64_t to_off;	     /* their new file offset */
	uint64_t delta;		     /* new vaddr - old vaddr (modulo 2^64) */
	long load;		     /* the PT_LOAD that grows over the padding they move to, */
	uint64_t seg_off, seg_vaddr; /* or -1 and where the new PT_LOAD starts */
	long home;		     /* the PT_LOAD holding the table, when it must grow, or -1 */
};

/* The place chosen: a run of new bytes (C_OFF, C_SIZE) holding the moved program header
 * table when it moves (TABLE_SIZE bytes, else 0) and then the note. */
struct mark_place {
	bool grown_in_place; /* the table grows where it is; ROOM says what moves */
	bool table_moves;    /* the table moves to the new bytes */
	bool new_load;	     /* the new bytes lie under a new PT_LOAD at the end */
	struct room room;
	long grow; /* else the PT_LOAD that grows over them */
	uint64_t c_off, c_vaddr, c_size;
	uint64_t table_size;	     /* the moved or moved-after table's share of C_SIZE */
	uint64_t phsize;	     /* bytes of the program header table after the change */
	uint64_t seg_off, seg_vaddr; /* where the new PT_LOAD starts */
	uint64_t pdelta;	     /* p_paddr - p_vaddr of the segment holding the new bytes */
	uint64_t note_off, note_vaddr;
};

/* The page size the file was linked for: the largest PT_LOAD alignment (at least 4 KiB). */
uint64_t mark_place_page(const struct elf_model *m);

/* Chooses the place for a note of NOTE_SIZE bytes when the program header table needs
 * ENTRIES entries without a new PT_LOAD (PL->new_load says one is needed too). SHTAB holds
 * the SHCOUNT section headers. 0, or -1 with ERR when nothing fits. */
int mark_place_choose(const struct elf_model *m, const struct elf_raw_ehdr *eh,
		      const unsigned char *shtab, size_t shcount, size_t entries,
		      uint64_t note_size, struct mark_place *pl, struct elfcet_error *err);

#endif
