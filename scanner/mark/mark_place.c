/* Choosing where a relocated GNU property note goes: the gap after a read-only segment,
 * or a new PT_LOAD at the end of the file; and whether the program header table grows
 * where it is (moving what follows it), moves with the note, or stays. */
#include "config.h"

#include "mark/mark_place.h"

#include "elf/note_walk.h"
#include "util/error.h"

#include <string.h>

#define MAX_PADDING (1u << 20) /* zero bytes we accept to add for the nicer placement */

/* The page size the file was linked for: the largest PT_LOAD alignment (at least 4 KiB). */
uint64_t mark_place_page(const struct elf_model *m)
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
static bool file_range_unused(const struct elf_model *m, const struct elf_raw_ehdr *eh,
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
		GElf_Shdr sh;

		elf_shdr_decode(shtab + i * elf_shdr_size(eh->is64), eh->is64, &sh);
		if (sh.sh_type != SHT_NOBITS && sh.sh_size && sh.sh_offset < to &&
		    sh.sh_offset + sh.sh_size > from)
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
static long find_gap(const struct elf_model *m, const struct elf_raw_ehdr *eh,
		     const unsigned char *shtab, size_t shcount, uint64_t size, unsigned align,
		     uint64_t min_start, uint64_t *at)
{
	uint64_t page = mark_place_page(m);
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
	const struct elf_symbol *sym;
	uint64_t largest = 0;

	for (sym = m->symbols; sym < m->symbols + m->nsymbols; sym++)
		if (sym->size > largest && sym->size < (1ull << 32))
			largest = sym->size;
	return largest;
}

static int place_segment(const struct elf_model *m, bool is64, uint64_t *offset, uint64_t *vaddr,
			 struct elfcet_error *err)
{
	const GElf_Phdr *first = NULL;
	uint64_t page = mark_place_page(m), maxend = 0, base, top, delta;
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

static const char *section_name(const struct elf_model *m, const struct elf_raw_ehdr *eh,
				const unsigned char *shtab, size_t shcount, uint32_t name)
{
	GElf_Shdr str;
	const unsigned char *p;

	if (eh->shstrndx == 0 || eh->shstrndx >= shcount)
		return "";
	elf_shdr_decode(shtab + eh->shstrndx * elf_shdr_size(eh->is64), eh->is64, &str);
	if (name >= str.sh_size)
		return "";
	p = elf_model_file_bytes(m, str.sh_offset + name, str.sh_size - name);
	return p && memchr(p, '\0', str.sh_size - name) ? (const char *)p : "";
}

static const GElf_Phdr *load_holding(const struct elf_model *m, uint64_t off)
{
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if (ph->p_type == PT_LOAD && ph->p_offset <= off &&
		    off < ph->p_offset + ph->p_filesz)
			return ph;
	}
	return NULL;
}

/* File offset of the value of the dynamic entry TAG whose value is VALUE. */
static bool dynamic_entry(const struct elf_model *m, int64_t tag, uint64_t value, uint64_t *at)
{
	uint64_t v, v_at;
	size_t i = 0;
	int64_t t;

	while (elf_model_dynamic_next(m, &i, &t, &v, &v_at)) {
		if (t == tag && v == value) {
			*at = v_at;
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
static int make_room(const struct elf_model *m, const struct elf_raw_ehdr *eh,
		     const unsigned char *shtab, size_t shcount, uint64_t need, uint64_t note_size,
		     unsigned nalign, bool at_end, struct room *r)
{
	uint64_t from = eh->phoff + (uint64_t)eh->phnum * eh->phentsize, to = from + need;
	const GElf_Phdr *home, *gap;
	bool changed = true;
	uint64_t at;
	size_t i;

	while (changed) {
		changed = false;
		for (i = 0; i < shcount; i++) {
			GElf_Shdr sh;

			elf_shdr_decode(shtab + i * elf_shdr_size(eh->is64), eh->is64, &sh);
			if (sh.sh_type == SHT_NULL || sh.sh_type == SHT_NOBITS || sh.sh_size == 0 ||
			    sh.sh_offset >= to || sh.sh_offset + sh.sh_size <= from)
				continue;
			if (sh.sh_offset < from)
				return -1;
			if (sh.sh_type != SHT_NOTE && sh.sh_type != SHT_HASH &&
			    sh.sh_type != SHT_GNU_HASH &&
			    strcmp(section_name(m, eh, shtab, shcount, sh.sh_name), ".interp") != 0)
				return -1;
			if (sh.sh_offset + sh.sh_size > to) {
				to = sh.sh_offset + sh.sh_size;
				changed = true;
			}
		}
		for (i = 0; i < m->phnum; i++) {
			const GElf_Phdr *ph = &m->phdrs[i];

			if (ph->p_type == PT_LOAD || ph->p_type == PT_PHDR || ph->p_filesz == 0 ||
			    ph->p_type == PT_GNU_PROPERTY || ph->p_offset >= to ||
			    ph->p_offset + ph->p_filesz <= from)
				continue;
			if ((ph->p_type != PT_INTERP && ph->p_type != PT_NOTE) ||
			    ph->p_offset < from)
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
		uint64_t page = mark_place_page(m);

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
		GElf_Shdr sh;

		elf_shdr_decode(shtab + i * elf_shdr_size(eh->is64), eh->is64, &sh);
		if ((sh.sh_type != SHT_HASH && sh.sh_type != SHT_GNU_HASH) || sh.sh_offset < from ||
		    sh.sh_offset >= to)
			continue;
		if (r->ndyn == 2 ||
		    !dynamic_entry(m, sh.sh_type == SHT_HASH ? DT_HASH : DT_GNU_HASH, sh.sh_addr,
				   &r->dyn_at[r->ndyn]))
			return -1;
		r->dyn_value[r->ndyn++] = sh.sh_addr;
	}
	/* Moved by a multiple of 8, so every note and name keeps its alignment: into the
	 * padding after a segment, or to a new segment at the end of the file. */
	r->from = from;
	r->to = to;
	if (at_end) {
		struct elfcet_error err;

		r->load = -1;
		if (place_segment(m, eh->is64, &r->seg_off, &r->seg_vaddr, &err) != 0)
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

/* First choice: the gap after a read-only segment, which then grows over it. Second: a
 * new read-only PT_LOAD at the end of the file. A table that must grow grows where it is
 * when what follows it can move to the new space too; only when that fails does it move
 * with the note. */
int mark_place_choose(const struct elf_model *m, const struct elf_raw_ehdr *eh,
		      const unsigned char *shtab, size_t shcount, size_t entries,
		      uint64_t note_size, struct mark_place *pl, struct elfcet_error *err)
{
	unsigned nalign = eh->is64 ? 8 : 4;
	size_t n = entries, i;

	memset(pl, 0, sizeof(*pl));
	pl->grow = -1;
	pl->table_moves = n > m->phnum;
	if (pl->table_moves && make_room(m, eh, shtab, shcount, (n - m->phnum) * eh->phentsize,
					 note_size, nalign, false, &pl->room) == 0) {
		pl->grown_in_place = true;
	} else if (pl->table_moves &&
		   make_room(m, eh, shtab, shcount, (n + 1 - m->phnum) * eh->phentsize, note_size,
			     nalign, true, &pl->room) == 0) {
		pl->grown_in_place = true;
		pl->new_load = true;
		n++;
	}
	if (pl->grown_in_place) {
		pl->table_moves = false;
		pl->phsize = n * eh->phentsize;
		pl->c_off = pl->room.to_off;
		pl->table_size = align_up(pl->room.to - pl->room.from, nalign);
		pl->c_size = pl->table_size + note_size;
		pl->grow = pl->room.load;
		pl->seg_off = pl->room.seg_off;
		pl->seg_vaddr = pl->room.seg_vaddr;
		pl->c_vaddr = pl->seg_vaddr + (pl->c_off - pl->seg_off);
	} else {
		pl->phsize = (pl->table_moves ? n : m->phnum) * eh->phentsize;
		pl->table_size = pl->table_moves ? align_up(pl->phsize, nalign) : 0;
		pl->c_size = pl->table_size + note_size;
		pl->grow = find_gap(m, eh, shtab, shcount, pl->c_size, pl->table_moves ? 8 : nalign,
				    0, &pl->c_off);
		if (pl->grow < 0) {
			pl->new_load = true;
			n++;
			pl->table_moves = n > m->phnum;
			pl->phsize = (pl->table_moves ? n : m->phnum) * eh->phentsize;
			pl->table_size = pl->table_moves ? align_up(pl->phsize, nalign) : 0;
			pl->c_size = pl->table_size + note_size;
			if (place_segment(m, eh->is64, &pl->c_off, &pl->c_vaddr, err) != 0)
				return -1;
			pl->seg_off = pl->c_off;
			pl->seg_vaddr = pl->c_vaddr;
		}
	}
	if (!pl->new_load) {
		const GElf_Phdr *l = &m->phdrs[pl->grow];

		pl->c_vaddr = l->p_vaddr + (pl->c_off - l->p_offset);
		pl->pdelta = l->p_paddr - l->p_vaddr;
	} else {
		/* The new PT_LOAD keeps the first one's paddr - vaddr. */
		for (i = 0; i < m->phnum; i++)
			if (m->phdrs[i].p_type == PT_LOAD) {
				pl->pdelta = m->phdrs[i].p_paddr - m->phdrs[i].p_vaddr;
				break;
			}
	}
	pl->note_off = pl->c_off + pl->table_size;
	pl->note_vaddr = pl->c_vaddr + pl->table_size;
	return 0;
}
