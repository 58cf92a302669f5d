/* Walking the ELF notes packed in a segment or a section. */
#include "config.h"

#include "elf/note_walk.h"

#include "util/byteorder.h"
#include "property/gnu_property.h"

#include <string.h>

bool note_next(const unsigned char *bytes, uint64_t size, unsigned align, uint64_t *pos,
	       struct elf_note_view *note)
{
	uint64_t at = *pos;

	if (at > size || size - at < 12)
		return false;
	note->offset = at;
	note->namesz = load_le32(bytes + at);
	note->descsz = load_le32(bytes + at + 4);
	note->type = load_le32(bytes + at + 8);
	note->name = bytes + at + 12;
	note->desc_offset = align_up(at + 12 + (uint64_t)note->namesz, align);
	note->next_offset = align_up(note->desc_offset + (uint64_t)note->descsz, align);
	note->name_in_bounds = at + 12 + (uint64_t)note->namesz <= size;
	note->desc_in_bounds = note->name_in_bounds && note->desc_offset <= size &&
			       note->descsz <= size - note->desc_offset;
	note->desc = note->desc_in_bounds ? bytes + note->desc_offset : NULL;
	*pos = note->next_offset;
	return true;
}

bool note_is_gnu_property(const struct elf_note_view *note)
{
	return note->namesz == 4 && note->type == NOTE_TYPE_GNU_PROPERTY && note->name_in_bounds &&
	       memcmp(note->name, NOTE_NAME_GNU, 4) == 0;
}
