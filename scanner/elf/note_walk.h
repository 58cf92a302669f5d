/* Walking the ELF notes packed in a segment or a section. */
#ifndef ELFCET_NOTE_WALK_H
#define ELFCET_NOTE_WALK_H

#include <stdbool.h>
#include <stdint.h>

struct elf_note_view {
	uint32_t namesz, descsz, type;
	uint64_t offset;      /* of the note header, from the start of the walked bytes */
	uint64_t desc_offset; /* of the descriptor, likewise */
	uint64_t next_offset; /* of the next note */
	const unsigned char *name;
	const unsigned char *desc;
	bool name_in_bounds; /* the whole name lies inside the walked bytes */
	bool desc_in_bounds; /* the whole descriptor lies inside the walked bytes */
};

/* Reads the note at *POS of BYTES[0..SIZE) with notes padded to ALIGN (4 or 8) and
 * advances *POS. False at the end or when the header itself does not fit. */
bool note_next(const unsigned char *bytes, uint64_t size, unsigned align, uint64_t *pos,
	       struct elf_note_view *note);

/* True when NOTE is a GNU property note (namesz 4, "GNU", type 5). */
bool note_is_gnu_property(const struct elf_note_view *note);

static inline uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

#endif
