/* Laying out a rewritten GNU property note, in place or in new space at the end. */
#include "config.h"

#include "mark/mark_layout.h"

#include "util/error.h"

#include "util/byteorder.h"
#include "property/gnu_property.h"
#include "elf/note_walk.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTE_HEADER_SIZE 16u        /* namesz, descsz, type, "GNU\0" */
#define MAX_PADDING (1u << 20)      /* zero bytes we accept to add for the nicer placement */

/* The ELF header fields the layout reads and writes, at their class's offsets. */
struct raw_ehdr {
	bool is64;
	uint64_t phoff, shoff;
	uint16_t phentsize, phnum, shentsize, shnum, shstrndx;
};

struct raw_shdr {
	uint32_t name, type;
	uint64_t flags, addr, offset, size;
	uint32_t link, info;
	uint64_t addralign, entsize;
};


static size_t phdr_size(bool is64)
{
	return is64 ? 56 : 32;
}

static size_t shdr_size(bool is64)
{
	return is64 ? 64 : 40;
}

static void read_ehdr(const struct elf_model *m, struct raw_ehdr *eh)
{
	const unsigned char *d = m->data;

	eh->is64 = m->elf_class == ELFCLASS64;
	if (eh->is64) {
		eh->phoff = load_le64(d + 32);
		eh->shoff = load_le64(d + 40);
		eh->phentsize = (uint16_t)(d[54] | d[55] << 8);
		eh->phnum = (uint16_t)(d[56] | d[57] << 8);
		eh->shentsize = (uint16_t)(d[58] | d[59] << 8);
		eh->shnum = (uint16_t)(d[60] | d[61] << 8);
		eh->shstrndx = (uint16_t)(d[62] | d[63] << 8);
	} else {
		eh->phoff = load_le32(d + 28);
		eh->shoff = load_le32(d + 32);
		eh->phentsize = (uint16_t)(d[42] | d[43] << 8);
		eh->phnum = (uint16_t)(d[44] | d[45] << 8);
		eh->shentsize = (uint16_t)(d[46] | d[47] << 8);
		eh->shnum = (uint16_t)(d[48] | d[49] << 8);
		eh->shstrndx = (uint16_t)(d[50] | d[51] << 8);
	}
}

static void put_word(struct mark_plan *plan, bool is64, uint64_t off, uint64_t v,
		     const char *what)
{
	unsigned char b[8];

	if (is64) {
		store_le64(b, v);
		mark_plan_put(plan, off, b, 8, what);
	} else {
		store_le32(b, (uint32_t)v);
		mark_plan_put(plan, off, b, 4, what);
	}
}

static void put_half(struct mark_plan *plan, uint64_t off, uint16_t v, const char *what)
{
	unsigned char b[2] = { (unsigned char)(v & 0xff), (unsigned char)(v >> 8) };

	mark_plan_put(plan, off, b, 2, what);
}

static void encode_phdr(unsigned char *p, bool is64, const GElf_Phdr *ph)
{
	if (is64) {
		store_le32(p, ph->p_type);
		store_le32(p + 4, ph->p_flags);
		store_le64(p + 8, ph->p_offset);
		store_le64(p + 16, ph->p_vaddr);
		store_le64(p + 24, ph->p_paddr);
		store_le64(p + 32, ph->p_filesz);
		store_le64(p + 40, ph->p_memsz);
		store_le64(p + 48, ph->p_align);
	} else {
		store_le32(p, ph->p_type);
		store_le32(p + 4, (uint32_t)ph->p_offset);
		store_le32(p + 8, (uint32_t)ph->p_vaddr);
		store_le32(p + 12, (uint32_t)ph->p_paddr);
		store_le32(p + 16, (uint32_t)ph->p_filesz);
		store_le32(p + 20, (uint32_t)ph->p_memsz);
		store_le32(p + 24, ph->p_flags);
		store_le32(p + 28, (uint32_t)ph->p_align);
	}
}

static void decode_shdr(const unsigned char *p, bool is64, struct raw_shdr *sh)
{
	sh->name = load_le32(p);
	sh->type = load_le32(p + 4);
	if (is64) {
		sh->flags = load_le64(p + 8);
		sh->addr = load_le64(p + 16);
		sh->offset = load_le64(p + 24);
		sh->size = load_le64(p + 32);
		sh->link = load_le32(p + 40);
		sh->info = load_le32(p + 44);
		sh->addralign = load_le64(p + 48);
		sh->entsize = load_le64(p + 56);
	} else {
		sh->flags = load_le32(p + 8);
		sh->addr = load_le32(p + 12);
		sh->offset = load_le32(p + 16);
		sh->size = load_le32(p + 20);
		sh->link = load_le32(p + 24);
		sh->info = load_le32(p + 28);
		sh->addralign = load_le32(p + 32);
		sh->entsize = load_le32(p + 36);
	}
}

static void encode_shdr(unsigned char *p, bool is64, const struct raw_shdr *sh)
{
	store_le32(p, sh->name);
	store_le32(p + 4, sh->type);
	if (is64) {
		store_le64(p + 8, sh->flags);
		store_le64(p + 16, sh->addr);
		store_le64(p + 24, sh->offset);
		store_le64(p + 32, sh->size);
		store_le32(p + 40, sh->link);
		store_le32(p + 44, sh->info);
		store_le64(p + 48, sh->addralign);
		store_le64(p + 56, sh->entsize);
	} else {
		store_le32(p + 8, (uint32_t)sh->flags);
		store_le32(p + 12, (uint32_t)sh->addr);
		store_le32(p + 16, (uint32_t)sh->offset);
		store_le32(p + 20, (uint32_t)sh->size);
		store_le32(p + 24, sh->link);
		store_le32(p + 28, sh->info);
		store_le32(p + 32, (uint32_t)sh->addralign);
		store_le32(p + 36, (uint32_t)sh->entsize);
	}
}

/* The section header table as written, checked against the file; COUNT 0 when absent. */
static int section_table(const struct elf_model *m, const struct raw_ehdr *eh,
			 const unsigned char **table, size_t *count, struct elfcet_error *err)
{
	*table = NULL;
	*count = 0;
	if (eh->shoff == 0)
		return 0;
	if (eh->shnum == 0)
		return error_set(err, "extended section numbering is not supported");
	if (eh->shentsize != shdr_size(eh->is64))
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
		struct raw_shdr sh;

		decode_shdr(table + i * shdr_size(is64), is64, &sh);
		if (sh.type != SHT_NOTE || sh.offset > off || sh.offset + sh.size < end ||
		    sh.size == 0)
			continue;
		return sh.offset == off && sh.offset + sh.size == end ? (long)i : -2;
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
static int drop_note(const struct elf_model *m, const struct raw_ehdr *eh, long sec,
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
			mark_plan_put(plan, at, zero, 4, "program header p_type");
			continue;
		}
		if (ph->p_offset == off) {
			put_word(plan, is64, at + (is64 ? 8 : 4), ph->p_offset + n, "p_offset");
			put_word(plan, is64, at + (is64 ? 16 : 8), ph->p_vaddr + n, "p_vaddr");
			put_word(plan, is64, at + (is64 ? 24 : 12), ph->p_paddr + n, "p_paddr");
		}
		put_word(plan, is64, at + (is64 ? 32 : 16), ph->p_filesz - n, "p_filesz");
		put_word(plan, is64, at + (is64 ? 40 : 20), ph->p_memsz - n, "p_memsz");
	}
	if (sec >= 0) {
		unsigned char type[4];

		store_le32(type, SHT_PROGBITS);
		mark_plan_put(plan, eh->shoff + (uint64_t)sec * eh->shentsize + 4, type, 4,
			      "section header sh_type");
	}
	for (i = off; i < end; i++)
		mark_plan_put(plan, i, zero, 1, "dropped note");
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
	struct raw_ehdr eh;
	size_t count, i;
	long sec;

	if (desc->size > note->descsz)
		return 1;
	read_ehdr(m, &eh);
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
	mark_plan_put(plan, off + 4, buf + 4, 4, "note descsz");
	mark_plan_put(plan, off + NOTE_HEADER_SIZE, desc->bytes, desc->size, "note properties");
	memset(buf, 0, sizeof(buf));
	mark_plan_put(plan, off + NOTE_HEADER_SIZE + desc->size, buf, shrink, "freed note bytes");
	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];
		uint64_t at = eh.phoff + i * eh.phentsize;

		if ((ph->p_type != PT_GNU_PROPERTY && ph->p_type != PT_NOTE) ||
		    ph->p_offset > off || ph->p_offset + ph->p_filesz != end)
			continue;
		put_word(plan, eh.is64, at + (eh.is64 ? 32 : 16), ph->p_filesz - shrink,
			 "program header p_filesz");
		put_word(plan, eh.is64, at + (eh.is64 ? 40 : 20), ph->p_memsz - shrink,
			 "program header p_memsz");
	}
	if (sec >= 0) {
		struct raw_shdr sh;
		uint64_t at = eh.shoff + (uint64_t)sec * eh.shentsize;

		decode_shdr(table + sec * shdr_size(eh.is64), eh.is64, &sh);
		put_word(plan, eh.is64, at + (eh.is64 ? 32 : 20), sh.size - shrink,
			 "section header sh_size");
	}
	return 0;
}

/* The page size the file was linked for: the largest PT_LOAD alignment (at least 4 KiB). */
static uint64_t load_page(const struct elf_model *m)
{
	uint64_t page = 0x1000;
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if (ph->p_type == PT_LOAD && ph->p_align > page &&
		    (ph->p_align & (ph->p_align - 1)) == 0 && ph->p_align <= 0x200000)
			page = ph->p_align;
	}
	return page;
}

/* True when file bytes [FROM, TO) are used by no segment, section or header table. */
static bool file_range_unused(const struct elf_model *m, const struct raw_ehdr *eh,
			      const unsigned char *shtab, size_t shcount, uint64_t from,
			      uint64_t to)
{
	const unsigned char *bytes;
	uint64_t i;

	if (to > m->size || from > to)
		return false;
	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if (ph->p_filesz && ph->p_offset < to && ph->p_offset + ph->p_filesz > from)
			return false;
	}
	for (i = 0; i < shcount; i++) {
		struct raw_shdr sh;

		decode_shdr(shtab + i * shdr_size(eh->is64), eh->is64, &sh);
		if (sh.type != SHT_NOBITS && sh.size && sh.offset < to &&
		    sh.offset + sh.size > from)
			return false;
	}
	if (eh->shoff < to && eh->shoff + (uint64_t)eh->shnum * eh->shentsize > from)
		return false;
	if (eh->phoff < to && eh->phoff + (uint64_t)eh->phnum * eh->phentsize > from)
		return false;
	/* Only zero padding is taken: anything else may mean something to someone. */
	bytes = m->data + from;
	for (i = 0; i < to - from; i++)
		if (bytes[i])
			return false;
	return true;
}

/* A read-only PT_LOAD followed, in the file and within its last page, by SIZE unused
 * zero bytes: it can simply grow over them, which needs no new program header. Prefers
 * a segment that is not executable. Returns its index, or -1. */
static long find_gap(const struct elf_model *m, const struct raw_ehdr *eh,
		     const unsigned char *shtab, size_t shcount, uint64_t size, unsigned align,
		     uint64_t min_start, uint64_t *at)
{
	uint64_t page = load_page(m);
	int pass;
	size_t i, j;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < m->phnum; i++) {
			const GElf_Phdr *l = &m->phdrs[i];
			uint64_t end, start, vend;
			bool ok = true;

			if (l->p_type != PT_LOAD || (l->p_flags & PF_W) || !l->p_filesz ||
			    l->p_filesz != l->p_memsz || ((l->p_flags & PF_X) != 0) != (pass == 1))
				continue;
			end = l->p_offset + l->p_filesz;
			start = align_up(end > min_start ? end : min_start, align);
			vend = l->p_vaddr + (start - l->p_offset) + size;
			/* Stay inside the last page the segment already maps. */
			if (align_up(vend, page) != align_up(l->p_vaddr + l->p_memsz, page))
				continue;
			for (j = 0; j < m->phnum && ok; j++) {
				const GElf_Phdr *o = &m->phdrs[j];

				if (j != i && o->p_type == PT_LOAD && o->p_vaddr < vend &&
				    o->p_vaddr + o->p_memsz > l->p_vaddr + l->p_memsz)
					ok = false;
			}
			if (ok && file_range_unused(m, eh, shtab, shcount, end, start + size)) {
				*at = start;
				return (long)i;
			}
		}
	}
	return -1;
}

/* Where a new segment at the end of the file goes. Its vaddr lies above every segment,
 * on a fresh page, congruent to its offset modulo the page size. When a little zero
 * padding allows it, vaddr - offset also equals that of the first PT_LOAD, so that loaders
 * which compute the program headers' address from the first PT_LOAD (kernels before
 * 5.18, qemu-user) agree. */
/* The largest symbol size in the file. Tools that check relocations (eu-elflint) take a
 * relocated word plus its symbol's size as the bytes it touches; a read-only segment
 * closer than that above the data would look written to. */
static uint64_t largest_symbol(const struct elf_model *m)
{
	const struct elf_section *sec;
	uint64_t largest = 0;

	if (m->shnum == 0)
		return 0;
	for (sec = m->sections; sec < m->sections + m->nsections; sec++) {
		const GElf_Shdr sh = sec->sh;
		Elf_Data *data;
		size_t i, n;

		if ((sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize || !(data = elf_getdata(sec->scn, NULL)))
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Sym sym;

			if (gelf_getsym(data, (int)i, &sym) && sym.st_size > largest &&
			    sym.st_size < (1ull << 32))
				largest = sym.st_size;
		}
	}
	return largest;
}

static int place_segment(const struct elf_model *m, bool is64, uint64_t *offset,
			 uint64_t *vaddr, struct elfcet_error *err)
{
	const GElf_Phdr *first = NULL;
	uint64_t page = load_page(m), maxend = 0, base, top, delta;
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (!first)
			first = ph;
		if (ph->p_vaddr + ph->p_memsz < ph->p_vaddr)
			return error_set(err, "a PT_LOAD wraps around the address space");
		if (ph->p_vaddr + ph->p_memsz > maxend)
			maxend = ph->p_vaddr + ph->p_memsz;
	}
	if (!first)
		return error_set(err, "no PT_LOAD segment");
	base = align_up(m->size, 8);
	top = align_up(maxend, page) + align_up(largest_symbol(m), page);
	if (first->p_vaddr >= first->p_offset) {
		delta = first->p_vaddr - first->p_offset;
		if (delta % page == 0) {
			uint64_t off = top >= delta && top - delta > base ? top - delta : base;

			off = align_up(off, 8);
			if (off - m->size <= MAX_PADDING && off + delta >= maxend) {
				*offset = off;
				*vaddr = off + delta;
				goto check;
			}
		}
	}
	*offset = base;
	*vaddr = top + base % page;
check:
	if (!is64 && *vaddr + 2 * page > 0xffffffffull)
		return error_set(err, "no room above the last segment in a 32-bit address space");
	return 0;
}

/* What moves to let the program header table grow where it is. */
struct room {
	uint64_t from, to;       /* file bytes right after the table that move */
	uint64_t dyn_at[2];      /* file offsets of the DT_HASH / DT_GNU_HASH values to move */
	uint64_t dyn_value[2];
	int ndyn;
	uint64_t to_off;         /* their new file offset */
	uint64_t delta;          /* new vaddr - old vaddr (modulo 2^64) */
	long load;               /* the PT_LOAD that grows over the padding they move to, */
	uint64_t seg_off, seg_vaddr;  /* or -1 and where the new PT_LOAD starts */
	long home;               /* the PT_LOAD holding the table, when it must grow, or -1 */
};

static const char *section_name(const struct elf_model *m, const struct raw_ehdr *eh,
				const unsigned char *shtab, size_t shcount, uint32_t name)
{
	struct raw_shdr str;
	const unsigned char *p;

	if (eh->shstrndx == 0 || eh->shstrndx >= shcount)
		return "";
	decode_shdr(shtab + eh->shstrndx * shdr_size(eh->is64), eh->is64, &str);
	if (name >= str.size)
		return "";
	p = elf_model_file_bytes(m, str.offset + name, str.size - name);
	return p && memchr(p, '\0', str.size - name) ? (const char *)p : "";
}

static const GElf_Phdr *load_holding(const struct elf_model *m, uint64_t off)
{
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if (ph->p_type == PT_LOAD && ph->p_offset <= off && off < ph->p_offset + ph->p_filesz)
			return ph;
	}
	return NULL;
}

/* File offset of the value of the dynamic entry TAG whose value is VALUE. */
static bool dynamic_entry(const struct elf_model *m, int64_t tag, uint64_t value, uint64_t *at)
{
	const GElf_Phdr *dyn = elf_model_find_phdr(m, PT_DYNAMIC);
	uint64_t word = m->elf_class == ELFCLASS64 ? 8 : 4, i;
	const unsigned char *p;

	if (!dyn || !(p = elf_model_file_bytes(m, dyn->p_offset, dyn->p_filesz)))
		return false;
	for (i = 0; i + 2 * word <= dyn->p_filesz; i += 2 * word) {
		int64_t t = word == 8 ? (int64_t)load_le64(p + i) : (int32_t)load_le32(p + i);

		if (t == DT_NULL)
			break;
		if (t == tag && elf_model_read_word(m, p + i + word) == value) {
			*at = dyn->p_offset + i + word;
			return true;
		}
	}
	return false;
}

/* The program header table can grow by NEED bytes where it is when what follows it is
 * only the interpreter name, notes and hash tables (as ld lays out programs and
 * libraries): those move, with their program and section headers, symbols and dynamic
 * tags, into the padding after a read-only segment, and
 * the new note goes right after them. Binutils always writes the table right after the
 * ELF header, so this is the one kind of growth that strip and objcopy keep. */
static int make_room(const struct elf_model *m, const struct raw_ehdr *eh,
		     const unsigned char *shtab, size_t shcount, uint64_t need,
		     uint64_t note_size, unsigned nalign, bool at_end, struct room *r)
{
	uint64_t from = eh->phoff + (uint64_t)eh->phnum * eh->phentsize, to = from + need;
	const GElf_Phdr *home, *gap;
	bool changed = true;
	uint64_t at;
	size_t i;

	while (changed) {
		changed = false;
		for (i = 0; i < shcount; i++) {
			struct raw_shdr sh;

			decode_shdr(shtab + i * shdr_size(eh->is64), eh->is64, &sh);
			if (sh.type == SHT_NULL || sh.type == SHT_NOBITS || sh.size == 0 ||
			    sh.offset >= to || sh.offset + sh.size <= from)
				continue;
			if (sh.offset < from)
				return -1;
			if (sh.type != SHT_NOTE && sh.type != SHT_HASH && sh.type != SHT_GNU_HASH &&
			    strcmp(section_name(m, eh, shtab, shcount, sh.name), ".interp") != 0)
				return -1;
			if (sh.offset + sh.size > to) {
				to = sh.offset + sh.size;
				changed = true;
			}
		}
		for (i = 0; i < m->phnum; i++) {
			const GElf_Phdr *ph = &m->phdrs[i];

			if (ph->p_type == PT_LOAD || ph->p_type == PT_PHDR || ph->p_filesz == 0 ||
			    ph->p_type == PT_GNU_PROPERTY || ph->p_offset >= to ||
			    ph->p_offset + ph->p_filesz <= from)
				continue;
			if ((ph->p_type != PT_INTERP && ph->p_type != PT_NOTE) || ph->p_offset < from)
				return -1;
			if (ph->p_offset + ph->p_filesz > to) {
				to = ph->p_offset + ph->p_filesz;
				changed = true;
			}
		}
	}
	home = load_holding(m, from);
	if (!home || to > m->size)
		return -1;
	/* The grown table may run past the end of the segment that holds it, over unused
	 * zero padding within its last page: that segment then grows too. */
	r->home = -1;
	if (home != load_holding(m, to - 1)) {
		uint64_t home_end = home->p_offset + home->p_filesz;
		uint64_t page = load_page(m);

		if (to <= home_end || home->p_filesz != home->p_memsz ||
		    !file_range_unused(m, eh, shtab, shcount, home_end, to) ||
		    align_up(home->p_vaddr + (to - home->p_offset), page) !=
			    align_up(home->p_vaddr + home->p_memsz, page))
			return -1;
		r->home = home - m->phdrs;
	}
	/* A hash table that moves is found by ld.so through its dynamic tag, which moves
	 * with it; without that tag, it stays. */
	r->ndyn = 0;
	for (i = 0; i < shcount; i++) {
		struct raw_shdr sh;

		decode_shdr(shtab + i * shdr_size(eh->is64), eh->is64, &sh);
		if ((sh.type != SHT_HASH && sh.type != SHT_GNU_HASH) || sh.offset < from ||
		    sh.offset >= to)
			continue;
		if (r->ndyn == 2 ||
		    !dynamic_entry(m, sh.type == SHT_HASH ? DT_HASH : DT_GNU_HASH, sh.addr,
				   &r->dyn_at[r->ndyn]))
			return -1;
		r->dyn_value[r->ndyn++] = sh.addr;
	}
	/* Moved by a multiple of 8, so every note and name keeps its alignment: into the
	 * padding after a segment, or to a new segment at the end of the file. */
	r->from = from;
	r->to = to;
	if (at_end) {
		r->load = -1;
		if (place_segment(m, eh->is64, &r->seg_off, &r->seg_vaddr, NULL) != 0)
			return -1;
		r->to_off = r->seg_off + (from & 7);
		r->delta = (r->seg_vaddr + (from & 7)) - (home->p_vaddr + (from - home->p_offset));
		return 0;
	}
	r->load = find_gap(m, eh, shtab, shcount,
			   (from & 7) + align_up(to - from, nalign) + note_size, 8, to, &at);
	if (r->load < 0)
		return -1;
	gap = &m->phdrs[r->load];
	r->to_off = at + (from & 7);
	r->seg_off = at;
	r->seg_vaddr = gap->p_vaddr + (at - gap->p_offset);
	r->delta = (gap->p_vaddr + (r->to_off - gap->p_offset)) -
		   (home->p_vaddr + (from - home->p_offset));
	return 0;
}

/* Symbols defined in the sections that moved follow them. */
static void move_symbols(const struct elf_model *m, const struct raw_ehdr *eh,
			 const unsigned char *shtab, size_t shcount, const struct room *r,
			 struct mark_plan *plan)
{
	size_t es = shdr_size(eh->is64), i;
	uint64_t j;

	for (i = 0; i < shcount; i++) {
		uint64_t entsize = eh->is64 ? 24 : 16;
		const unsigned char *syms;
		struct raw_shdr sh;

		decode_shdr(shtab + i * es, eh->is64, &sh);
		if ((sh.type != SHT_SYMTAB && sh.type != SHT_DYNSYM) || sh.entsize != entsize)
			continue;
		syms = elf_model_file_bytes(m, sh.offset, sh.size);
		for (j = 0; syms && j + entsize <= sh.size; j += entsize) {
			const unsigned char *sym = syms + j;
			uint16_t ndx = (uint16_t)(eh->is64 ? sym[6] | sym[7] << 8
							  : sym[14] | sym[15] << 8);
			struct raw_shdr target;
			uint64_t value;

			if (ndx == SHN_UNDEF || ndx >= shcount)
				continue;
			decode_shdr(shtab + ndx * es, eh->is64, &target);
			if (target.type == SHT_NOBITS || target.offset < r->from ||
			    target.offset >= r->to)
				continue;
			value = eh->is64 ? load_le64(sym + 8) : load_le32(sym + 4);
			put_word(plan, eh->is64, sh.offset + j + (eh->is64 ? 8 : 4),
				 value + r->delta, "symbol value");
		}
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
static void list_init(struct phdr_list *l, size_t phnum)
{
	l->count = 0;
	l->items = xcalloc(phnum + 4, sizeof(*l->items));
	l->from = xcalloc(phnum + 4, sizeof(*l->from));
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

static void list_remove(struct phdr_list *l, size_t at)
{
	memmove(l->items + at, l->items + at + 1, (l->count - at - 1) * sizeof(*l->items));
	memmove(l->from + at, l->from + at + 1, (l->count - at - 1) * sizeof(*l->from));
	l->count--;
}

int mark_layout_relocate(const struct elf_model *m, const struct property_note *note,
			 const struct mark_desc *desc, struct mark_plan *plan,
			 struct elfcet_error *err)
{
	unsigned nalign = m->elf_class == ELFCLASS64 ? 8 : 4;
	uint64_t old_off = note ? note->note_offset : 0;
	uint64_t old_end = note ? old_off + NOTE_HEADER_SIZE + note->descsz : 0;
	uint64_t note_size = NOTE_HEADER_SIZE + desc->size;
	uint64_t c_off = 0, c_vaddr = 0, c_size, table_size = 0, note_off, total, phsize;
	uint64_t strtab_off = 0, shtab_off = 0, strtab_size = 0, pdelta = 0;
	uint64_t seg_off = 0, seg_vaddr = 0;
	const unsigned char *shtab = NULL, *strtab = NULL;
	size_t shcount = 0, i, last_load = 0, es;
	bool has_gnu_property = false, table_moves, add_section = false, new_load = false;
	bool grown_in_place = false;
	struct room room = { 0 };
	struct phdr_list *list = NULL;
	struct raw_shdr strsh = { 0 };
	unsigned char *buf = NULL;
	uint32_t name_index = 0;
	struct raw_ehdr eh;
	long sec = -1, grow = -1;
	int rc = -1;

	read_ehdr(m, &eh);
	es = shdr_size(eh.is64);
	if (eh.phentsize != phdr_size(eh.is64))
		return error_set(err, "unusual program header size %u", eh.phentsize);
	if (m->phnum != eh.phnum || m->phnum >= PN_XNUM - 2)
		return error_set(err, "extended program header numbering is not supported");
	if (section_table(m, &eh, &shtab, &shcount, err) != 0)
		return -1;
	list = xcalloc(1, sizeof(*list));
	list_init(list, m->phnum);

	/* The old entries: the note's headers adjusted, and empty ones (PT_NULL, or a note
	 * header left empty by objcopy --remove-section) dropped to make room. */
	for (i = 0; i < m->phnum; i++) {
		GElf_Phdr p = m->phdrs[i];

		if (p.p_type == PT_NULL ||
		    ((p.p_type == PT_NOTE || p.p_type == PT_GNU_PROPERTY) && p.p_filesz == 0))
			continue;
		if (p.p_type == PT_GNU_PROPERTY)
			has_gnu_property = true;
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
				error_set(err, "a PT_NOTE holds the property note between other "
					       "notes");
				goto out;
			}
		}
		if (p.p_type == PT_LOAD)
			last_load = list->count;
		list->from[list->count] = (long)i;
		list->items[list->count++] = p;
	}
	if (!has_gnu_property)
		list_insert(list, list->count, &(GElf_Phdr){ .p_type = PT_GNU_PROPERTY });

	/* First choice: the gap after a read-only segment, which then grows over it.
	 * Second: a new read-only PT_LOAD at the end of the file, right after the last
	 * PT_LOAD entry (loaders want them in address order). A table that must grow grows
	 * where it is when what follows it can move to the new space too; only when that
	 * fails does it move with the note. */
	table_moves = list->count > m->phnum;
	if (table_moves && make_room(m, &eh, shtab, shcount,
				     (list->count - m->phnum) * eh.phentsize, note_size, nalign,
				     false, &room) == 0) {
		grown_in_place = true;
	} else if (table_moves) {
		list_insert(list, last_load + 1, &(GElf_Phdr){ .p_type = PT_LOAD });
		if (make_room(m, &eh, shtab, shcount, (list->count - m->phnum) * eh.phentsize,
			      note_size, nalign, true, &room) == 0) {
			grown_in_place = true;
			new_load = true;
		} else {
			list_remove(list, last_load + 1);
		}
	}
	if (grown_in_place) {
		table_moves = false;
		phsize = list->count * eh.phentsize;
		c_off = room.to_off;
		table_size = align_up(room.to - room.from, nalign);
		c_size = table_size + note_size;
		grow = room.load;
		seg_off = room.seg_off;
		seg_vaddr = room.seg_vaddr;
		c_vaddr = seg_vaddr + (c_off - seg_off);
	} else {
		phsize = (table_moves ? list->count : m->phnum) * eh.phentsize;
		table_size = table_moves ? align_up(phsize, nalign) : 0;
		c_size = table_size + note_size;
		grow = find_gap(m, &eh, shtab, shcount, c_size, table_moves ? 8 : nalign, 0, &c_off);
		if (grow < 0) {
			new_load = true;
			list_insert(list, last_load + 1, &(GElf_Phdr){ .p_type = PT_LOAD });
			table_moves = list->count > m->phnum;
			phsize = (table_moves ? list->count : m->phnum) * eh.phentsize;
			table_size = table_moves ? align_up(phsize, nalign) : 0;
			c_size = table_size + note_size;
			if (place_segment(m, eh.is64, &c_off, &c_vaddr, err) != 0)
				goto out;
			seg_off = c_off;
			seg_vaddr = c_vaddr;
		}
	}
	if (!new_load) {
		const GElf_Phdr *l = &m->phdrs[grow];

		c_vaddr = l->p_vaddr + (c_off - l->p_offset);
		pdelta = l->p_paddr - l->p_vaddr;
		for (i = 0; i < list->count; i++) {
			if (list->from[i] == grow) {
				list->items[i].p_filesz = c_off + c_size - l->p_offset;
				list->items[i].p_memsz = list->items[i].p_filesz;
			}
		}
	} else {
		for (i = 0; i < list->count; i++)
			if (list->items[i].p_type == PT_LOAD) {
				pdelta = list->items[i].p_paddr - list->items[i].p_vaddr;
				break;
			}
		list->items[last_load + 1] = (GElf_Phdr){
			.p_type = PT_LOAD, .p_flags = PF_R, .p_offset = seg_off,
			.p_vaddr = seg_vaddr, .p_paddr = seg_vaddr + pdelta,
			.p_filesz = c_off + c_size - seg_off, .p_memsz = c_off + c_size - seg_off,
			.p_align = load_page(m),
		};
	}
	if (grown_in_place && room.home >= 0) {
		const GElf_Phdr *h = &m->phdrs[room.home];

		for (i = 0; i < list->count; i++) {
			if (list->from[i] == room.home &&
			    list->items[i].p_filesz < room.to - h->p_offset) {
				list->items[i].p_filesz = room.to - h->p_offset;
				list->items[i].p_memsz = list->items[i].p_filesz;
			}
		}
	}
	/* A table that did not grow keeps its place and size: PT_NULL fills what was
	 * dropped. */
	while (!table_moves && list->count < m->phnum)
		list_insert(list, list->count, &(GElf_Phdr){ .p_type = PT_NULL });
	note_off = c_off + table_size;

	for (i = 0; i < list->count; i++) {
		GElf_Phdr *p = &list->items[i];

		if (grown_in_place && list->from[i] >= 0 &&
		    (p->p_type == PT_INTERP || p->p_type == PT_NOTE) &&
		    p->p_offset >= room.from && p->p_offset < room.to) {
			p->p_offset += room.to_off - room.from;
			p->p_vaddr += room.delta;
			p->p_paddr += room.delta;
		}
		if (p->p_type == PT_PHDR && grown_in_place) {
			p->p_filesz = p->p_memsz = phsize;
		} else if (p->p_type == PT_PHDR && table_moves) {
			p->p_offset = c_off;
			p->p_vaddr = c_vaddr;
			p->p_paddr = c_vaddr + pdelta;
			p->p_filesz = p->p_memsz = phsize;
			p->p_align = nalign;
		} else if (p->p_type == PT_GNU_PROPERTY ||
			   (p->p_type == PT_NOTE && note && p->p_offset == old_off &&
			    p->p_filesz == old_end - old_off)) {
			p->p_flags = PF_R;
			p->p_offset = note_off;
			p->p_vaddr = c_vaddr + table_size;
			p->p_paddr = p->p_vaddr + pdelta;
			p->p_filesz = p->p_memsz = note_size;
			p->p_align = nalign;
		}
	}

	/* Sections: the note's own header is pointed at the new note; a file without one
	 * gains it at the end of a moved copy of the table (no other index changes). */
	total = new_load ? c_off + c_size : m->size;
	if (shcount) {
		sec = note ? note_section(shtab, shcount, eh.is64, old_off, old_end) : -1;
		if (sec == -2) {
			error_set(err, "a section holds the property note with other bytes");
			goto out;
		}
		if (sec < 0) {
			const unsigned char *hit;

			if (eh.shstrndx == 0 || eh.shstrndx >= shcount || shcount + 1 >= SHN_LORESERVE) {
				error_set(err, "no usable section name table");
				goto out;
			}
			decode_shdr(shtab + eh.shstrndx * es, eh.is64, &strsh);
			strtab = elf_model_file_bytes(m, strsh.offset, strsh.size);
			if (!strtab || strsh.type != SHT_STRTAB) {
				error_set(err, "damaged section name table");
				goto out;
			}
			add_section = true;
			strtab_size = strsh.size;
			hit = memmem(strtab, strsh.size, NOTE_SECTION_NAME,
				     sizeof(NOTE_SECTION_NAME));
			if (hit) {
				name_index = (uint32_t)(hit - strtab);
			} else {
				name_index = (uint32_t)strsh.size;
				strtab_size += sizeof(NOTE_SECTION_NAME);
				strtab_off = total;
				total = strtab_off + strtab_size;
			}
			shtab_off = align_up(total, 8);
			total = shtab_off + (shcount + 1) * es;
		}
	}

	/* Sized by the file's layout: a failure is this file's error. */
	plan->image = calloc(1, total);
	buf = calloc(1, list->count * eh.phentsize + (shcount + 1) * es + note_size + 64);
	if (!plan->image || !buf) {
		error_set(err, "out of memory");
		goto out;
	}
	memcpy(plan->image, m->data, m->size);
	plan->size = total;
	plan->relocated = true;
	plan->seg_offset = note_off;
	plan->seg_vaddr = c_vaddr + table_size;
	plan->seg_size = note_size;
	plan->new_load = new_load;
	plan->table_moved = table_moves;
	plan->table_grown = grown_in_place;
	plan->moved_from = grown_in_place ? room.from : 0;
	plan->moved_bytes = grown_in_place ? room.to - room.from : 0;

	for (i = 0; i < list->count; i++)
		encode_phdr(buf + i * eh.phentsize, eh.is64, &list->items[i]);
	if (table_moves) {
		mark_plan_put(plan, c_off, buf, phsize, "program header table (moved)");
		put_word(plan, eh.is64, eh.is64 ? 32 : 28, c_off, "e_phoff");
		put_half(plan, eh.is64 ? 56 : 44, (uint16_t)list->count, "e_phnum");
	} else {
		if (grown_in_place) {
			/* What followed the table moves first; the table grows over it. */
			mark_plan_put(plan, room.to_off, m->data + room.from, room.to - room.from,
				      "moved interpreter name and notes");
			put_half(plan, eh.is64 ? 56 : 44, (uint16_t)list->count, "e_phnum");
			for (i = 0; i < shcount; i++) {
				struct raw_shdr sh;

				decode_shdr(shtab + i * es, eh.is64, &sh);
				if (sh.type == SHT_NULL || sh.type == SHT_NOBITS || sh.size == 0 ||
				    sh.offset < room.from || sh.offset >= room.to)
					continue;
				sh.offset += room.to_off - room.from;
				sh.addr += room.delta;
				encode_shdr(buf, eh.is64, &sh);
				mark_plan_put(plan, eh.shoff + i * es, buf, es, "moved section header");
			}
			move_symbols(m, &eh, shtab, shcount, &room, plan);
			for (i = 0; i < (size_t)room.ndyn; i++)
				put_word(plan, eh.is64, room.dyn_at[i], room.dyn_value[i] + room.delta,
					 "dynamic hash table address");
			for (i = 0; i < list->count; i++)
				encode_phdr(buf + i * eh.phentsize, eh.is64, &list->items[i]);
		}
		/* Only the entries that changed are rewritten. */
		for (i = 0; i < list->count; i++) {
			uint64_t at = eh.phoff + i * eh.phentsize;

			if (memcmp(plan->image + at, buf + i * eh.phentsize, eh.phentsize) != 0)
				mark_plan_put(plan, at, buf + i * eh.phentsize, eh.phentsize,
					      "program header");
		}
	}
	write_note(buf, desc);
	mark_plan_put(plan, note_off, buf, note_size, "property note");

	if (sec >= 0) {
		struct raw_shdr sh;
		uint64_t at = eh.shoff + (uint64_t)sec * eh.shentsize;

		decode_shdr(shtab + sec * es, eh.is64, &sh);
		sh.addr = c_vaddr + table_size;
		sh.offset = note_off;
		sh.size = note_size;
		sh.addralign = nalign;
		encode_shdr(buf, eh.is64, &sh);
		mark_plan_put(plan, at, buf, es, "note section header");
	} else if (add_section) {
		struct raw_shdr nsh = {
			.name = name_index, .type = SHT_NOTE, .flags = SHF_ALLOC,
			.addr = c_vaddr + table_size, .offset = note_off,
			.size = note_size, .addralign = nalign,
		};

		/* From the image: headers of moved sections are already updated there. */
		memcpy(buf, plan->image + eh.shoff, shcount * es);
		if (strtab_off) {
			mark_plan_put(plan, strtab_off, strtab, strsh.size, "section names");
			mark_plan_put(plan, strtab_off + strsh.size, NOTE_SECTION_NAME,
				      sizeof(NOTE_SECTION_NAME), "section names");
			strsh.offset = strtab_off;
			strsh.size = strtab_size;
			encode_shdr(buf + eh.shstrndx * es, eh.is64, &strsh);
		}
		encode_shdr(buf + shcount * es, eh.is64, &nsh);
		mark_plan_put(plan, shtab_off, buf, (shcount + 1) * es, "section header table");
		put_word(plan, eh.is64, eh.is64 ? 40 : 32, shtab_off, "e_shoff");
		put_half(plan, eh.is64 ? 60 : 48, (uint16_t)(shcount + 1), "e_shnum");
		plan->section_added = true;
	}
	rc = 0;
out:
	free(buf);
	list_free(list);
	free(list);
	return rc;
}
