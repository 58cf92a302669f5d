/* Finding the GNU property note and decoding it as written. */
#include "config.h"

#include "property/property_note.h"

#include "util/byteorder.h"
#include "property/gnu_property.h"
#include "elf/note_walk.h"

#include <stdio.h>
#include <string.h>

const char *property_source_name(enum property_source s)
{
	switch (s) {
	case PROPERTY_SOURCE_NONE:
		return "none";
	case PROPERTY_SOURCE_PT_GNU_PROPERTY:
		return "pt_gnu_property";
	case PROPERTY_SOURCE_PT_NOTE:
		return "pt_note";
	case PROPERTY_SOURCE_SECTION:
		return "section";
	}
	return "none";
}

/* Decodes the properties of one note's descriptor, stopping where the bounds give out. */
static void decode_properties(struct property_note *note, const unsigned char *desc,
			      uint64_t descsz)
{
	uint64_t off = 0;

	note->complete = true;
	while (off < descsz) {
		struct gnu_property *p;
		uint32_t datasz;

		if (descsz - off < 8 || note->count == PROPERTY_MAX) {
			note->complete = false;
			return;
		}
		datasz = load_le32(desc + off + 4);
		if (datasz > descsz - off - 8) {
			note->complete = false;
			return;
		}
		p = &note->props[note->count++];
		p->type = load_le32(desc + off);
		p->datasz = datasz;
		p->has_value = datasz == 4 || datasz == 8;
		p->value = datasz == 4	 ? load_le32(desc + off + 8)
			   : datasz == 8 ? load_le64(desc + off + 8)
					 : 0;
		if (p->type == PROP_X86_FEATURE_1_AND && datasz == 4 && !note->has_feature_1_and) {
			note->has_feature_1_and = true;
			note->feature_1_and = (uint32_t)p->value;
		}
		if (p->type == PROP_X86_ISA_1_NEEDED && datasz == 4 && !note->has_isa_1_needed) {
			note->has_isa_1_needed = true;
			note->isa_1_needed = (uint32_t)p->value;
		}
		off += 8 + align_up(datasz, note->align);
	}
}

/* Looks for GNU property notes in BYTES; decodes the first, counts them all. */
static bool scan_container(struct property_note *note, const unsigned char *bytes, uint64_t size,
			   uint64_t file_offset, unsigned walk_align)
{
	struct elf_note_view v;
	uint64_t pos = 0;
	bool found = false;

	while (note_next(bytes, size, walk_align, &pos, &v)) {
		if (!note_is_gnu_property(&v))
			continue;
		note->notes++;
		if (found)
			continue;
		found = true;
		note->container_offset = file_offset;
		note->container_size = size;
		note->note_offset = file_offset + v.offset;
		note->descsz = v.descsz;
		if (v.desc_in_bounds)
			decode_properties(note, v.desc, v.descsz);
		else if (v.desc_offset <= size)
			decode_properties(note, bytes + v.desc_offset, size - v.desc_offset);
	}
	return found;
}

static unsigned walk_align_of(uint64_t p_align)
{
	return p_align == 8 ? 8 : 4;
}

static bool find_in_segments(const struct elf_model *m, struct property_note *note, uint32_t type,
			     enum property_source source)
{
	size_t i;

	/* The kernel uses the last PT_GNU_PROPERTY; there is normally just one. */
	for (i = m->phnum; i-- > 0;) {
		const GElf_Phdr *ph = &m->phdrs[i];
		uint64_t avail;

		if (ph->p_type != type)
			continue;
		if (ph->p_offset > m->size)
			continue;
		avail = m->size - ph->p_offset;
		if (avail > ph->p_filesz)
			avail = ph->p_filesz;
		if (scan_container(note, m->data + ph->p_offset, avail, ph->p_offset,
				   type == PT_GNU_PROPERTY ? note->align
							   : walk_align_of(ph->p_align))) {
			note->source = source;
			return true;
		}
	}
	return false;
}

static bool find_in_sections(const struct elf_model *m, struct property_note *note)
{
	const struct elf_section *sec;

	if (m->shnum == 0)
		return false;
	for (sec = m->sections; sec < m->sections + m->nsections; sec++) {
		const GElf_Shdr sh = sec->sh;
		uint64_t avail;

		if (sh.sh_type != SHT_NOTE || sh.sh_offset > m->size)
			continue;
		/* A section that runs past the end of the file is read as far as it goes,
		 * as segments are: its note is then damaged, not absent. */
		avail = m->size - sh.sh_offset;
		if (avail > sh.sh_size)
			avail = sh.sh_size;
		if (scan_container(note, m->data + sh.sh_offset, avail, sh.sh_offset,
				   walk_align_of(sh.sh_addralign))) {
			note->source = PROPERTY_SOURCE_SECTION;
			return true;
		}
	}
	return false;
}

bool property_note_find(const struct elf_model *m, struct property_note *note)
{
	const GElf_Phdr *ph;

	memset(note, 0, sizeof(*note));
	note->align = m->elf_class == ELFCLASS64 ? 8 : 4;
	if (find_in_segments(m, note, PT_GNU_PROPERTY, PROPERTY_SOURCE_PT_GNU_PROPERTY))
		return true;
	note->notes = 0;
	if (find_in_segments(m, note, PT_NOTE, PROPERTY_SOURCE_PT_NOTE))
		return true;
	note->notes = 0;
	if (find_in_sections(m, note))
		return true;
	memset(note, 0, sizeof(*note));
	note->align = m->elf_class == ELFCLASS64 ? 8 : 4;
	/* A PT_GNU_PROPERTY with no readable note in it is still the kernel's source: its
	 * reading says what is wrong. */
	ph = elf_model_find_phdr(m, PT_GNU_PROPERTY);
	if (ph) {
		note->source = PROPERTY_SOURCE_PT_GNU_PROPERTY;
		note->container_offset = ph->p_offset;
		note->container_size = ph->p_filesz;
		note->note_offset = ph->p_offset;
		return true;
	}
	return false;
}

int property_read_feature_1_and(const char *path, uint32_t *bits, bool *present,
				struct elfcet_error *err)
{
	struct property_note note;
	struct elf_model m;
	struct elfcet_error msg;

	if (elf_model_open(&m, path, &msg) != ELF_OPEN_OK) {
		error_set(err, "%s: %s", path, msg.text);
		return -1;
	}
	property_note_find(&m, &note);
	*present = note.has_feature_1_and;
	*bits = note.has_feature_1_and ? note.feature_1_and : 0;
	elf_model_close(&m);
	return 0;
}
