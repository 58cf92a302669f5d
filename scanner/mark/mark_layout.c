/* Laying out a rewritten GNU property note, in place or in new space at the end. */
#include "config.h"

#include "mark/mark_layout.h"

#include "mark/mark_place.h"

#include "util/error.h"

#include "elf/elf_header.h"
#include "util/byteorder.h"
#include "property/gnu_property.h"
#include "elf/note_walk.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_word(struct mark_plan *plan, bool is64, uint64_t off, uint64_t v, const char *what)
{
	unsigned char b[8];

	elf_put_word(b, is64, v);
	mark_edit_put_field(&plan->edit, off, b, is64 ? 8 : 4, what);
}

static void put_half(struct mark_plan *plan, uint64_t off, uint16_t v, const char *what)
{
	unsigned char b[2];

	elf_put_half(b, v);
	mark_edit_put_field(&plan->edit, off, b, 2, what);
}

/* The section header table as written, checked against the file; COUNT 0 when absent. */
static int section_table(const struct elf_model *m, const struct elf_raw_ehdr *eh,
			 const unsigned char **table, size_t *count, struct elfcet_error *err)
{
	*table = NULL;
	*count = 0;
	if (eh->shoff == 0)
		return 0;
	if (eh->shnum == 0)
		return error_set(err, "extended section numbering is not supported");
	if (eh->shentsize != elf_shdr_size(eh->is64))
		return error_set(err, "unusual section header size %u", eh->shentsize);
	*table = elf_model_file_bytes(m, eh->shoff, (uint64_t)eh->shnum * eh->shentsize);
	if (!*table)
		return error_set(err, "section header table lies outside the file");
	*count = eh->shnum;
	return 0;
}

/* The note section holding the note at [OFF, END): its index, or -1; -2 when a section
 * holds it together with other bytes. */
static long note_section(const unsigned char *table, size_t count, bool is64, uint64_t off,
			 uint64_t end)
{
	size_t i;

	for (i = 0; i < count; i++) {
		GElf_Shdr sh;

		elf_shdr_decode(table + i * elf_shdr_size(is64), is64, &sh);
		if (sh.sh_type != SHT_NOTE || sh.sh_offset > off ||
		    sh.sh_offset + sh.sh_size < end || sh.sh_size == 0)
			continue;
		return sh.sh_offset == off && sh.sh_offset + sh.sh_size == end ? (long)i : -2;
	}
	return -1;
}

static void write_note(unsigned char *p, const struct mark_desc *desc)
{
	store_le32(p, 4);
	store_le32(p + 4, desc->size);
	store_le32(p + 8, NOTE_TYPE_GNU_PROPERTY);
	memcpy(p + 12, NOTE_NAME_GNU, 4);
	memcpy(p + NOTE_HEADER_SIZE, desc->bytes, desc->size);
}

/* The note's last property goes: a note with no property is not allowed (ld.so ignores
 * it as misaligned), so the note itself goes. A header of just this note becomes
 * PT_NULL; a PT_NOTE that holds other notes too is cut to them; its section becomes
 * plain data; its bytes become zero. Every offset in the file stays where it was. */
static int drop_note(const struct elf_model *m, const struct elf_raw_ehdr *eh, long sec,
		     uint64_t off, uint64_t end, struct mark_plan *plan)
{
	unsigned char zero[4] = { 0 };
	uint64_t i, n = end - off;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if ((ph->p_type == PT_GNU_PROPERTY || ph->p_type == PT_NOTE) &&
		    ph->p_offset <= off && ph->p_offset + ph->p_filesz >= end &&
		    (ph->p_filesz != ph->p_memsz ||
		     (ph->p_offset != off && ph->p_offset + ph->p_filesz != end)))
			return 1; /* between other notes: not dropped */
	}
	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];
		uint64_t at = eh->phoff + i * eh->phentsize;
		bool is64 = eh->is64;

		if ((ph->p_type != PT_GNU_PROPERTY && ph->p_type != PT_NOTE) ||
		    ph->p_offset > off || ph->p_offset + ph->p_filesz < end)
			continue;
		if (ph->p_offset == off && ph->p_filesz == n) {
			mark_edit_put(&plan->edit, at, zero, 4, "program header p_type");
			continue;
		}
		if (ph->p_offset == off) {
			put_word(plan, is64, at + elf_field_offset(ELF_P_OFFSET, is64),
				 ph->p_offset + n, "p_offset");
			put_word(plan, is64, at + elf_field_offset(ELF_P_VADDR, is64),
				 ph->p_vaddr + n, "p_vaddr");
			put_word(plan, is64, at + elf_field_offset(ELF_P_PADDR, is64),
				 ph->p_paddr + n, "p_paddr");
		}
		put_word(plan, is64, at + elf_field_offset(ELF_P_FILESZ, is64), ph->p_filesz - n,
			 "p_filesz");
		put_word(plan, is64, at + elf_field_offset(ELF_P_MEMSZ, is64), ph->p_memsz - n,
			 "p_memsz");
	}
	if (sec >= 0) {
		unsigned char type[4];

		store_le32(type, SHT_PROGBITS);
		mark_edit_put(&plan->edit,
			      eh->shoff + (uint64_t)sec * eh->shentsize +
				      elf_field_offset(ELF_SH_TYPE, eh->is64),
			      type, 4, "section header sh_type");
	}
	for (i = off; i < end; i++)
		mark_edit_put(&plan->edit, i, zero, 1, "dropped note");
	return 0;
}

int mark_layout_in_place(const struct elf_model *m, const struct property_note *note,
			 const struct mark_desc *desc, struct mark_plan *plan,
			 struct elfcet_error *err)
{
	uint64_t off = note->note_offset, old_size = NOTE_HEADER_SIZE + note->descsz;
	uint64_t end = off + old_size, shrink = note->descsz - desc->size;
	const unsigned char *table;
	unsigned char buf[NOTE_HEADER_SIZE + sizeof(desc->bytes)];
	struct elf_raw_ehdr eh;
	size_t count, i;
	long sec;

	if (desc->size > note->descsz)
		return 1;
	elf_ehdr_decode(m->data, &eh);
	if (section_table(m, &eh, &table, &count, err) != 0)
		return -1;
	sec = note_section(table, count, eh.is64, off, end);
	if (desc->size == 0)
		return sec == -2 ? 1 : drop_note(m, &eh, sec, off, end, plan);
	/* Every header over the note must end where it ends, so that it can simply shrink. */
	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if ((ph->p_type == PT_GNU_PROPERTY || ph->p_type == PT_NOTE) &&
		    ph->p_offset <= off && ph->p_offset + ph->p_filesz >= end &&
		    (ph->p_offset + ph->p_filesz != end || ph->p_memsz != ph->p_filesz))
			return 1;
	}
	if (sec == -2)
		return 1;

	write_note(buf, desc);
	mark_edit_put(&plan->edit, off + 4, buf + 4, 4, "note descsz");
	mark_edit_put(&plan->edit, off + NOTE_HEADER_SIZE, desc->bytes, desc->size,
		      "note properties");
	memset(buf, 0, sizeof(buf));
	mark_edit_put(&plan->edit, off + NOTE_HEADER_SIZE + desc->size, buf, shrink,
		      "freed note bytes");
	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];
		uint64_t at = eh.phoff + i * eh.phentsize;

		if ((ph->p_type != PT_GNU_PROPERTY && ph->p_type != PT_NOTE) ||
		    ph->p_offset > off || ph->p_offset + ph->p_filesz != end)
			continue;
		put_word(plan, eh.is64, at + elf_field_offset(ELF_P_FILESZ, eh.is64),
			 ph->p_filesz - shrink, "program header p_filesz");
		put_word(plan, eh.is64, at + elf_field_offset(ELF_P_MEMSZ, eh.is64),
			 ph->p_memsz - shrink, "program header p_memsz");
	}
	if (sec >= 0) {
		GElf_Shdr sh;
		uint64_t at = eh.shoff + (uint64_t)sec * eh.shentsize;

		elf_shdr_decode(table + sec * elf_shdr_size(eh.is64), eh.is64, &sh);
		put_word(plan, eh.is64, at + elf_field_offset(ELF_SH_SIZE, eh.is64),
			 sh.sh_size - shrink, "section header sh_size");
	}
	return 0;
}

/* Symbols defined in the sections that moved follow them. Only tables of the class's
 * entry size are rewritten: their entries lie at index * size. */
static void move_symbols(const struct elf_model *m, const struct elf_raw_ehdr *eh, size_t shcount,
			 const struct room *r, struct mark_plan *plan)
{
	const struct elf_symbol *sym;
	uint64_t entsize = elf_sym_size(eh->is64);

	for (sym = m->symbols; sym < m->symbols + m->nsymbols; sym++) {
		const struct elf_section *target;

		if (sym->table->sh.sh_entsize != entsize || sym->shndx == SHN_UNDEF ||
		    sym->shndx >= shcount)
			continue;
		target = elf_model_section_by_index(m, sym->shndx);
		if (!target || target->sh.sh_type == SHT_NOBITS || target->sh.sh_offset < r->from ||
		    target->sh.sh_offset >= r->to)
			continue;
		put_word(plan, eh->is64,
			 sym->table->sh.sh_offset + sym->index * entsize + (eh->is64 ? 8 : 4),
			 sym->value + r->delta, "symbol value");
	}
}

/* The program header table being rebuilt: the old entries with their new values, and
 * for each the index it came from (-1 for a new one). */
struct phdr_list {
	GElf_Phdr *items;
	long *from;
	size_t count;
};

/* Room for the old entries and the few new ones. */
static bool list_init(struct phdr_list *l, size_t phnum)
{
	l->count = 0;
	l->items = calloc(phnum + 4, sizeof(*l->items));
	l->from = calloc(phnum + 4, sizeof(*l->from));
	return l->items && l->from;
}

static void list_free(struct phdr_list *l)
{
	free(l->items);
	free(l->from);
}

static void list_insert(struct phdr_list *l, size_t at, const GElf_Phdr *ph)
{
	memmove(l->items + at + 1, l->items + at, (l->count - at) * sizeof(*l->items));
	memmove(l->from + at + 1, l->from + at, (l->count - at) * sizeof(*l->from));
	l->items[at] = *ph;
	l->from[at] = -1;
	l->count++;
}

/* The old entries: the note's headers adjusted, and empty ones (PT_NULL, or a note header
 * left empty by objcopy --remove-section) dropped to make room; a PT_GNU_PROPERTY added
 * when there is none (the kernel reads that one), and a PT_NOTE of the note's own when
 * none held it alone (glibc 2.36's ld.so reads only that one). LAST_LOAD gets the last
 * PT_LOAD's place in the list. */
static int collect_phdrs(const struct elf_model *m, const struct property_note *note,
			 uint64_t old_off, uint64_t old_end, struct phdr_list *list,
			 size_t *last_load, struct elfcet_error *err)
{
	bool has_gnu_property = false, has_own_note = false;
	size_t i;

	*last_load = 0;
	for (i = 0; i < m->phnum; i++) {
		GElf_Phdr p = m->phdrs[i];

		if (p.p_type == PT_NULL ||
		    ((p.p_type == PT_NOTE || p.p_type == PT_GNU_PROPERTY) && p.p_filesz == 0))
			continue;
		if (p.p_type == PT_GNU_PROPERTY)
			has_gnu_property = true;
		if (p.p_type == PT_NOTE && note && p.p_offset == old_off &&
		    p.p_filesz == old_end - old_off)
			has_own_note = true;
		if (p.p_type == PT_NOTE && note && p.p_offset <= old_off &&
		    p.p_offset + p.p_filesz >= old_end &&
		    !(p.p_offset == old_off && p.p_filesz == old_end - old_off)) {
			uint64_t cut = old_end - old_off;

			if (p.p_offset == old_off) {
				p.p_offset += cut;
				p.p_vaddr += cut;
				p.p_paddr += cut;
				p.p_filesz -= cut;
				p.p_memsz -= cut;
			} else if (p.p_offset + p.p_filesz == old_end) {
				p.p_filesz -= cut;
				p.p_memsz -= cut;
			} else {
				return error_set(err, "a PT_NOTE holds the property note between "
						      "other notes");
			}
		}
		if (p.p_type == PT_LOAD)
			*last_load = list->count;
		list->from[list->count] = (long)i;
		list->items[list->count++] = p;
	}
	if (!has_own_note)
		list_insert(list, list->count, &(GElf_Phdr){ .p_type = PT_NOTE });
	if (!has_gnu_property)
		list_insert(list, list->count, &(GElf_Phdr){ .p_type = PT_GNU_PROPERTY });
	return 0;
}

/* Removes the PT_GNU_PROPERTY collect_phdrs added; false when there is none. */
static bool drop_new_gnu_property(struct phdr_list *l)
{
	size_t i;

	for (i = 0; i < l->count; i++) {
		if (l->from[i] < 0 && l->items[i].p_type == PT_GNU_PROPERTY) {
			memmove(l->items + i, l->items + i + 1,
				(l->count - i - 1) * sizeof(*l->items));
			memmove(l->from + i, l->from + i + 1,
				(l->count - i - 1) * sizeof(*l->from));
			l->count--;
			return true;
		}
	}
	return false;
}

/* The entries' new values for the place PL: the segment that grows or the new PT_LOAD,
 * the moved interpreter name and notes, PT_PHDR, and the headers of the note itself. */
static void rebuild_phdrs(const struct elf_model *m, const struct property_note *note,
			  uint64_t old_off, uint64_t old_end, struct phdr_list *list,
			  size_t last_load, const struct mark_place *pl, uint64_t note_size)
{
	unsigned nalign = m->elf_class == ELFCLASS64 ? 8 : 4;
	const struct room *room = &pl->room;
	size_t i;

	if (!pl->new_load) {
		const GElf_Phdr *l = &m->phdrs[pl->grow];

		for (i = 0; i < list->count; i++) {
			if (list->from[i] == pl->grow) {
				list->items[i].p_filesz = pl->c_off + pl->c_size - l->p_offset;
				list->items[i].p_memsz = list->items[i].p_filesz;
			}
		}
	} else {
		list->items[last_load + 1] = (GElf_Phdr){
			.p_type = PT_LOAD,
			.p_flags = PF_R,
			.p_offset = pl->seg_off,
			.p_vaddr = pl->seg_vaddr,
			.p_paddr = pl->seg_vaddr + pl->pdelta,
			.p_filesz = pl->c_off + pl->c_size - pl->seg_off,
			.p_memsz = pl->c_off + pl->c_size - pl->seg_off,
			.p_align = mark_place_page(m),
		};
	}
	if (pl->grown_in_place && room->home >= 0) {
		const GElf_Phdr *h = &m->phdrs[room->home];

		for (i = 0; i < list->count; i++) {
			if (list->from[i] == room->home &&
			    list->items[i].p_filesz < room->to - h->p_offset) {
				list->items[i].p_filesz = room->to - h->p_offset;
				list->items[i].p_memsz = list->items[i].p_filesz;
			}
		}
	}
	/* A table that did not grow keeps its place and size: PT_NULL fills what was
	 * dropped. */
	while (!pl->table_moves && list->count < m->phnum)
		list_insert(list, list->count, &(GElf_Phdr){ .p_type = PT_NULL });

	for (i = 0; i < list->count; i++) {
		GElf_Phdr *p = &list->items[i];

		if (pl->grown_in_place && list->from[i] >= 0 &&
		    (p->p_type == PT_INTERP || p->p_type == PT_NOTE) && p->p_offset >= room->from &&
		    p->p_offset < room->to) {
			p->p_offset += room->to_off - room->from;
			p->p_vaddr += room->delta;
			p->p_paddr += room->delta;
		}
		if (p->p_type == PT_PHDR && pl->grown_in_place) {
			p->p_filesz = p->p_memsz = pl->phsize;
		} else if (p->p_type == PT_PHDR && pl->table_moves) {
			p->p_offset = pl->c_off;
			p->p_vaddr = pl->c_vaddr;
			p->p_paddr = pl->c_vaddr + pl->pdelta;
			p->p_filesz = p->p_memsz = pl->phsize;
			p->p_align = nalign;
		} else if (p->p_type == PT_GNU_PROPERTY ||
			   (p->p_type == PT_NOTE && list->from[i] < 0) ||
			   (p->p_type == PT_NOTE && note && p->p_offset == old_off &&
			    p->p_filesz == old_end - old_off)) {
			p->p_flags = PF_R;
			p->p_offset = pl->note_off;
			p->p_vaddr = pl->note_vaddr;
			p->p_paddr = p->p_vaddr + pl->pdelta;
			p->p_filesz = p->p_memsz = note_size;
			p->p_align = nalign;
		}
	}
}

/* The section header edits: the note's own header pointed at the new note, or, for a
 * file without one, a new header at the end of a moved copy of the table (no other
 * index changes), with its name appended to a moved copy of the names when missing. */
struct section_edit {
	long sec;	 /* the note's section, or -1 */
	bool add;	 /* a header is added */
	GElf_Shdr strsh; /* the section names' header */
	const unsigned char *strtab;
	uint64_t strtab_off, strtab_size; /* where the names move, when they grow */
	uint64_t shtab_off;		  /* where the grown table goes */
	uint32_t name_index;
};

/* Plans the section edits; *TOTAL grows by the space they need. */
static int plan_sections(const struct elf_model *m, const struct elf_raw_ehdr *eh,
			 const unsigned char *shtab, size_t shcount,
			 const struct property_note *note, uint64_t old_off, uint64_t old_end,
			 struct section_edit *se, uint64_t *total, struct elfcet_error *err)
{
	size_t es = elf_shdr_size(eh->is64);
	const unsigned char *hit;

	memset(se, 0, sizeof(*se));
	se->sec = -1;
	if (!shcount)
		return 0;
	se->sec = note ? note_section(shtab, shcount, eh->is64, old_off, old_end) : -1;
	if (se->sec == -2)
		return error_set(err, "a section holds the property note with other bytes");
	if (se->sec >= 0)
		return 0;
	if (eh->shstrndx == 0 || eh->shstrndx >= shcount || shcount + 1 >= SHN_LORESERVE)
		return error_set(err, "no usable section name table");
	elf_shdr_decode(shtab + eh->shstrndx * es, eh->is64, &se->strsh);
	se->strtab = elf_model_file_bytes(m, se->strsh.sh_offset, se->strsh.sh_size);
	if (!se->strtab || se->strsh.sh_type != SHT_STRTAB)
		return error_set(err, "damaged section name table");
	se->add = true;
	se->strtab_size = se->strsh.sh_size;
	hit = memmem(se->strtab, se->strsh.sh_size, NOTE_SECTION_NAME, sizeof(NOTE_SECTION_NAME));
	if (hit) {
		se->name_index = (uint32_t)(hit - se->strtab);
	} else {
		se->name_index = (uint32_t)se->strsh.sh_size;
		se->strtab_size += sizeof(NOTE_SECTION_NAME);
		se->strtab_off = *total;
		*total = se->strtab_off + se->strtab_size;
	}
	se->shtab_off = align_up(*total, 8);
	*total = se->shtab_off + (shcount + 1) * es;
	return 0;
}

/* What followed the table moves first, with its section headers, symbols and dynamic
 * tags; the table then grows over it. BUF is scratch space for one header. */
static void move_room(const struct elf_model *m, const struct elf_raw_ehdr *eh,
		      const unsigned char *shtab, size_t shcount, const struct room *room,
		      uint16_t phnum, struct mark_plan *plan, unsigned char *buf)
{
	size_t es = elf_shdr_size(eh->is64), i;
	struct mark_edit *edit = &plan->edit;

	mark_edit_put(edit, room->to_off, m->data + room->from, room->to - room->from,
		      "moved interpreter name and notes");
	put_half(plan, elf_field_offset(ELF_E_PHNUM, eh->is64), phnum, "e_phnum");
	for (i = 0; i < shcount; i++) {
		GElf_Shdr sh;

		elf_shdr_decode(shtab + i * es, eh->is64, &sh);
		if (sh.sh_type == SHT_NULL || sh.sh_type == SHT_NOBITS || sh.sh_size == 0 ||
		    sh.sh_offset < room->from || sh.sh_offset >= room->to)
			continue;
		sh.sh_offset += room->to_off - room->from;
		sh.sh_addr += room->delta;
		elf_shdr_encode(buf, eh->is64, &sh);
		mark_edit_put(edit, eh->shoff + i * es, buf, es, "moved section header");
	}
	move_symbols(m, eh, shcount, room, plan);
	for (i = 0; i < (size_t)room->ndyn; i++)
		put_word(plan, eh->is64, room->dyn_at[i], room->dyn_value[i] + room->delta,
			 "dynamic hash table address");
}

/* Writes the rebuilt program header table: at the new place when it moves, else only
 * the entries that changed (after moving what follows it when it grows). */
static void write_phdrs(const struct elf_model *m, const struct elf_raw_ehdr *eh,
			const unsigned char *shtab, size_t shcount, const struct phdr_list *list,
			const struct mark_place *pl, struct mark_plan *plan, unsigned char *buf)
{
	size_t i;

	for (i = 0; i < list->count; i++)
		elf_phdr_encode(buf + i * eh->phentsize, eh->is64, &list->items[i]);
	if (pl->table_moves) {
		mark_edit_put(&plan->edit, pl->c_off, buf, pl->phsize,
			      "program header table (moved)");
		put_word(plan, eh->is64, elf_field_offset(ELF_E_PHOFF, eh->is64), pl->c_off,
			 "e_phoff");
		put_half(plan, elf_field_offset(ELF_E_PHNUM, eh->is64), (uint16_t)list->count,
			 "e_phnum");
		return;
	}
	if (pl->grown_in_place) {
		move_room(m, eh, shtab, shcount, &pl->room, (uint16_t)list->count, plan, buf);
		/* The scratch space held headers: encode the table again. */
		for (i = 0; i < list->count; i++)
			elf_phdr_encode(buf + i * eh->phentsize, eh->is64, &list->items[i]);
	}
	for (i = 0; i < list->count; i++) {
		uint64_t at = eh->phoff + i * eh->phentsize;

		if (memcmp(plan->edit.image + at, buf + i * eh->phentsize, eh->phentsize) != 0)
			mark_edit_put(&plan->edit, at, buf + i * eh->phentsize, eh->phentsize,
				      "program header");
	}
}

/* Writes the section header edits SE planned, for the note at PL. */
static void edit_shdrs(const struct elf_raw_ehdr *eh, const unsigned char *shtab, size_t shcount,
		       struct section_edit *se, const struct mark_place *pl, uint64_t note_size,
		       struct mark_plan *plan, unsigned char *buf)
{
	size_t es = elf_shdr_size(eh->is64);
	unsigned nalign = eh->is64 ? 8 : 4;
	GElf_Shdr sh;

	if (se->sec >= 0) {
		elf_shdr_decode(shtab + se->sec * es, eh->is64, &sh);
		sh.sh_addr = pl->note_vaddr;
		sh.sh_offset = pl->note_off;
		sh.sh_size = note_size;
		sh.sh_addralign = nalign;
		elf_shdr_encode(buf, eh->is64, &sh);
		mark_edit_put(&plan->edit, eh->shoff + (uint64_t)se->sec * eh->shentsize, buf, es,
			      "note section header");
		return;
	}
	if (!se->add)
		return;
	sh = (GElf_Shdr){
		.sh_name = se->name_index,
		.sh_type = SHT_NOTE,
		.sh_flags = SHF_ALLOC,
		.sh_addr = pl->note_vaddr,
		.sh_offset = pl->note_off,
		.sh_size = note_size,
		.sh_addralign = nalign,
	};
	/* From the image: headers of moved sections are already updated there. */
	memcpy(buf, plan->edit.image + eh->shoff, shcount * es);
	if (se->strtab_off) {
		mark_edit_put(&plan->edit, se->strtab_off, se->strtab, se->strsh.sh_size,
			      "section names");
		mark_edit_put(&plan->edit, se->strtab_off + se->strsh.sh_size, NOTE_SECTION_NAME,
			      sizeof(NOTE_SECTION_NAME), "section names");
		se->strsh.sh_offset = se->strtab_off;
		se->strsh.sh_size = se->strtab_size;
		elf_shdr_encode(buf + eh->shstrndx * es, eh->is64, &se->strsh);
	}
	elf_shdr_encode(buf + shcount * es, eh->is64, &sh);
	mark_edit_put(&plan->edit, se->shtab_off, buf, (shcount + 1) * es, "section header table");
	put_word(plan, eh->is64, elf_field_offset(ELF_E_SHOFF, eh->is64), se->shtab_off, "e_shoff");
	put_half(plan, elf_field_offset(ELF_E_SHNUM, eh->is64), (uint16_t)(shcount + 1), "e_shnum");
	plan->section_added = true;
}

int mark_layout_relocate(const struct elf_model *m, const struct property_note *note,
			 const struct mark_desc *desc, struct mark_plan *plan,
			 struct elfcet_error *err)
{
	uint64_t old_off = note ? note->note_offset : 0;
	uint64_t old_end = note ? old_off + NOTE_HEADER_SIZE + note->descsz : 0;
	uint64_t note_size = NOTE_HEADER_SIZE + desc->size, total;
	const unsigned char *shtab = NULL;
	struct phdr_list *list = NULL;
	struct section_edit se;
	struct mark_place pl;
	unsigned char *buf = NULL;
	size_t shcount = 0, last_load, es, i;
	struct elf_raw_ehdr eh;
	int rc = -1;

	elf_ehdr_decode(m->data, &eh);
	es = elf_shdr_size(eh.is64);
	if (eh.phentsize != elf_phdr_size(eh.is64))
		return error_set(err, "unusual program header size %u", eh.phentsize);
	if (m->phnum != eh.phnum || m->phnum >= PN_XNUM - 3)
		return error_set(err, "extended program header numbering is not supported");
	/* Placement keeps the new bytes clear of every segment's memory; a segment that maps
	 * more of the file than its memory size reaches further than that says. */
	for (i = 0; i < m->phnum; i++)
		if (m->phdrs[i].p_type == PT_LOAD && m->phdrs[i].p_filesz > m->phdrs[i].p_memsz)
			return error_set(err, "program header %zu: PT_LOAD with p_filesz > p_memsz",
					 i);
	if (section_table(m, &eh, &shtab, &shcount, err) != 0)
		return -1;
	list = calloc(1, sizeof(*list));
	if (!list || !list_init(list, m->phnum)) {
		if (list)
			list_free(list);
		free(list);
		return error_set(err, "out of memory");
	}
	if (collect_phdrs(m, note, old_off, old_end, list, &last_load, err) != 0)
		goto out;
	if (mark_place_choose(m, &eh, shtab, shcount, list->count, note_size, &pl, err) != 0)
		goto out;
	/* A moved table is one binutils and eu-unstrip cannot handle: a file whose note only
	 * ld.so reads does without a new PT_GNU_PROPERTY when that keeps the table. */
	if (pl.table_moves && !property_kernel_reads_own_note(m) && drop_new_gnu_property(list)) {
		if (mark_place_choose(m, &eh, shtab, shcount, list->count, note_size, &pl, err) !=
		    0)
			goto out;
	}
	/* A new PT_LOAD goes right after the last one: loaders want them in address order. */
	if (pl.new_load)
		list_insert(list, last_load + 1, &(GElf_Phdr){ .p_type = PT_LOAD });
	rebuild_phdrs(m, note, old_off, old_end, list, last_load, &pl, note_size);
	total = pl.new_load ? pl.c_off + pl.c_size : m->size;
	if (plan_sections(m, &eh, shtab, shcount, note, old_off, old_end, &se, &total, err) != 0)
		goto out;

	plan->edit.image = calloc(1, total);
	buf = calloc(1, list->count * eh.phentsize + (shcount + 1) * es + note_size + 64);
	if (!plan->edit.image || !buf) {
		error_set(err, "out of memory");
		goto out;
	}
	memcpy(plan->edit.image, m->data, m->size);
	plan->edit.size = total;
	plan->relocated = true;
	plan->seg_offset = pl.note_off;
	plan->seg_vaddr = pl.note_vaddr;
	plan->seg_size = note_size;
	plan->new_load = pl.new_load;
	plan->table_moved = pl.table_moves;
	plan->table_grown = pl.grown_in_place;
	plan->moved_from = pl.grown_in_place ? pl.room.from : 0;
	plan->moved_bytes = pl.grown_in_place ? pl.room.to - pl.room.from : 0;

	write_phdrs(m, &eh, shtab, shcount, list, &pl, plan, buf);
	write_note(buf, desc);
	mark_edit_put(&plan->edit, pl.note_off, buf, note_size, "property note");
	edit_shdrs(&eh, shtab, shcount, &se, &pl, note_size, plan, buf);
	rc = 0;
out:
	free(buf);
	list_free(list);
	free(list);
	return rc;
}
