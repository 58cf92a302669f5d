/* What the kernel, ld.so and the program itself may read of a file (see mark_reads.h). */
#include "config.h"

#include "mark/mark_reads.h"

#include "elf/elf_header.h"
#include "elf/note_walk.h"
#include "mark/mark_place.h"
#include "property/property_note.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add(struct mark_reads *r, const struct elf_model *m, uint64_t off, uint64_t len,
	       enum mark_read_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Adds [OFF, OFF+LEN) clipped to the file; nothing when empty. */
static int add(struct mark_reads *r, const struct elf_model *m, uint64_t off, uint64_t len,
	       enum mark_read_kind kind, const char *fmt, ...)
{
	struct mark_read *item;
	va_list ap;

	if (off >= m->size || len == 0)
		return 0;
	if (len > m->size - off)
		len = m->size - off;
	if (r->count == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 32;
		struct mark_read *items = realloc(r->items, cap * sizeof(*items));

		if (!items)
			return -1;
		r->items = items;
		r->cap = cap;
	}
	item = &r->items[r->count++];
	item->offset = off;
	item->len = len;
	item->kind = kind;
	va_start(ap, fmt);
	vsnprintf(item->what, sizeof(item->what), fmt, ap);
	va_end(ap);
	return 0;
}

/* The file range behind LEN bytes read in memory from VADDR: from the PT_LOAD that maps
 * VADDR from the file up to where that mapping stops being the file's bytes (the end of
 * its last page when the segment has no zero-filled tail: the kernel maps whole pages,
 * so a read running past p_filesz still reads the file). False when no PT_LOAD does. */
static bool file_range(const struct elf_model *m, uint64_t page, uint64_t vaddr, uint64_t len,
		       uint64_t *off, uint64_t *flen)
{
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];
		uint64_t end;

		if (ph->p_type != PT_LOAD || vaddr < ph->p_vaddr ||
		    vaddr - ph->p_vaddr >= ph->p_filesz)
			continue;
		*off = ph->p_offset + (vaddr - ph->p_vaddr);
		end = ph->p_offset + ph->p_filesz;
		if (ph->p_filesz >= ph->p_memsz && end <= UINT64_MAX - page)
			end = align_up(end, page);
		*flen = len < end - *off ? len : end - *off;
		return true;
	}
	return false;
}

/* Every segment but the loads (their bytes are compared by mark_view) and the program
 * header table (rewritten on purpose). Notes as ld.so walks them: p_memsz bytes from
 * their address. */
static int add_segments(const struct elf_model *m, uint64_t page, struct mark_reads *r)
{
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];
		bool note = ph->p_type == PT_NOTE || ph->p_type == PT_GNU_PROPERTY;
		uint64_t len = ph->p_filesz, off, flen;
		enum mark_read_kind kind = MARK_READ_FIXED;

		switch (ph->p_type) {
		case PT_NULL:
		case PT_LOAD:
		case PT_PHDR:
		case PT_GNU_STACK:
		case PT_GNU_RELRO:
			continue;
		default:
			break;
		}
		if ((ph->p_type == PT_INTERP || ph->p_type == PT_NOTE) &&
		    ph->p_filesz == ph->p_memsz)
			kind = MARK_READ_MOVABLE;
		if (add(r, m, ph->p_offset, len, kind, "the bytes of program header %zu (%s)", i,
			elf_segment_type_name(ph->p_type)) != 0)
			return -1;
		if (note && ph->p_memsz > ph->p_filesz &&
		    file_range(m, page, ph->p_vaddr, ph->p_memsz, &off, &flen) &&
		    add(r, m, off, flen, MARK_READ_FIXED,
			"the notes ld.so walks through program header %zu (p_memsz 0x%llx)", i,
			(unsigned long long)ph->p_memsz) != 0)
			return -1;
	}
	return 0;
}

/* The tables the dynamic section gives with their sizes, as ld.so reads them. */
static int add_dynamic(const struct elf_model *m, uint64_t page, struct mark_reads *r)
{
	static const struct {
		int64_t tag, sztag;
		const char *what;
	} tables[] = {
		{ DT_RELA, DT_RELASZ, "DT_RELA table (DT_RELASZ)" },
		{ DT_REL, DT_RELSZ, "DT_REL table (DT_RELSZ)" },
		{ DT_JMPREL, DT_PLTRELSZ, "DT_JMPREL table (DT_PLTRELSZ)" },
		{ DT_RELR, DT_RELRSZ, "DT_RELR table (DT_RELRSZ)" },
		{ DT_INIT_ARRAY, DT_INIT_ARRAYSZ, "DT_INIT_ARRAY (DT_INIT_ARRAYSZ)" },
		{ DT_FINI_ARRAY, DT_FINI_ARRAYSZ, "DT_FINI_ARRAY (DT_FINI_ARRAYSZ)" },
		{ DT_PREINIT_ARRAY, DT_PREINIT_ARRAYSZ, "DT_PREINIT_ARRAY (DT_PREINIT_ARRAYSZ)" },
		{ DT_STRTAB, DT_STRSZ, "DT_STRTAB strings (DT_STRSZ)" },
	};
	size_t i;

	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		uint64_t addr, size, off, flen;

		if (elf_model_dynamic_value(m, tables[i].tag, &addr) &&
		    elf_model_dynamic_value(m, tables[i].sztag, &size) &&
		    file_range(m, page, addr, size, &off, &flen) &&
		    add(r, m, off, flen, MARK_READ_FIXED, "the %s", tables[i].what) != 0)
			return -1;
	}
	return 0;
}

/* Sections, which the program itself may read (backtraces read .symtab and .eh_frame,
 * AppImage's runtime finds its payload from the section header table). */
static int add_sections(const struct elf_model *m, struct mark_reads *r)
{
	size_t i;

	for (i = 0; i < m->nsections; i++) {
		const struct elf_section *sec = &m->sections[i];

		if (sec->sh.sh_type == SHT_NULL || sec->sh.sh_type == SHT_NOBITS)
			continue;
		if (add(r, m, sec->sh.sh_offset, sec->sh.sh_size, MARK_READ_MOVABLE, "section %s",
			sec->name ? sec->name : "(unnamed)") != 0)
			return -1;
	}
	return 0;
}

static void extend(uint64_t *end, uint64_t off, uint64_t len)
{
	if (len && off <= UINT64_MAX - len && off + len > *end)
		*end = off + len;
}

/* The end of everything the ELF header, the program headers and the section headers
 * describe; bytes after it belong to no header. */
static uint64_t image_end(const struct elf_model *m)
{
	uint64_t end = m->elf_class == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t i;

	extend(&end, m->phoff, (uint64_t)m->phnum * m->phentsize);
	for (i = 0; i < m->phnum; i++)
		extend(&end, m->phdrs[i].p_offset, m->phdrs[i].p_filesz);
	if (m->shoff)
		extend(&end, m->shoff, (uint64_t)(m->shnum ? m->shnum : 1) * m->shentsize);
	for (i = 0; i < m->nsections; i++)
		if (m->sections[i].sh.sh_type != SHT_NOBITS)
			extend(&end, m->sections[i].sh.sh_offset, m->sections[i].sh.sh_size);
	return end < m->size ? end : m->size;
}

int mark_reads_collect(const struct elf_model *m, struct mark_reads *reads)
{
	uint64_t page = mark_place_page(m);

	memset(reads, 0, sizeof(*reads));
	reads->image_end = image_end(m);
	if (add_segments(m, page, reads) != 0 || add_dynamic(m, page, reads) != 0 ||
	    add_sections(m, reads) != 0 ||
	    add(reads, m, reads->image_end, m->size - reads->image_end, MARK_READ_FIXED,
		"the %llu byte(s) after the ELF image (a payload the program may read)",
		(unsigned long long)(m->size - reads->image_end)) != 0) {
		mark_reads_free(reads);
		return -1;
	}
	return 0;
}

void mark_reads_free(struct mark_reads *reads)
{
	free(reads->items);
	memset(reads, 0, sizeof(*reads));
}

/* The bytes of the original the plan changes, as sorted disjoint runs: the bytes that
 * differ in the image, but for the field updates and the property note's own bytes
 * [SKIP, SKIP_END), which the plan changes on purpose. */
struct changes {
	struct mark_range *runs;
	size_t count;
};

static int by_offset(const void *a, const void *b)
{
	const struct mark_range *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int changes_find(const struct elf_model *before, const struct mark_plan *plan, uint64_t skip,
			uint64_t skip_end, struct changes *c)
{
	const unsigned char *old = before->data, *new = plan->edit.image;
	const struct mark_edit *e = &plan->edit;
	struct mark_range *fields = NULL;
	size_t i, f = 0, cap = 0;
	uint64_t pos;

	memset(c, 0, sizeof(*c));
	if (e->nfields) {
		fields = malloc(e->nfields * sizeof(*fields));
		if (!fields)
			return -1;
		memcpy(fields, e->fields, e->nfields * sizeof(*fields));
		qsort(fields, e->nfields, sizeof(*fields), by_offset);
	}
	/* The ranges are sorted and disjoint, so one pass over them and the fields. */
	for (i = 0; i < e->nranges; i++) {
		uint64_t end = e->ranges[i].offset + e->ranges[i].len;

		for (pos = e->ranges[i].offset; pos < end && pos < before->size; pos++) {
			struct mark_range *last = c->count ? &c->runs[c->count - 1] : NULL;

			while (f < e->nfields && fields[f].offset + fields[f].len <= pos)
				f++;
			if ((f < e->nfields && fields[f].offset <= pos) ||
			    (pos >= skip && pos < skip_end) || old[pos] == new[pos])
				continue;
			if (last && last->offset + last->len == pos) {
				last->len++;
				continue;
			}
			if (c->count == cap) {
				size_t ncap = cap ? 2 * cap : 16;
				struct mark_range *runs = realloc(c->runs, ncap * sizeof(*runs));

				if (!runs) {
					free(fields);
					return -1;
				}
				c->runs = runs;
				cap = ncap;
			}
			c->runs[c->count++] = (struct mark_range){ pos, 1, e->ranges[i].what };
		}
	}
	free(fields);
	return 0;
}

/* The first changed run meeting [OFF, OFF+LEN), or NULL: a binary search. */
static const struct mark_range *changed_in(const struct changes *c, uint64_t off, uint64_t len)
{
	size_t lo = 0, hi = c->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->runs[mid].offset + c->runs[mid].len <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->count && c->runs[lo].offset < off + len ? &c->runs[lo] : NULL;
}

/* A note segment ld.so walks by a p_memsz other than its p_filesz must keep its header:
 * moved or cut, the walk runs from the new place over whatever follows it. */
static int notes_by_memsz_kept(const struct elf_model *before, const struct elf_model *after,
			       struct elfcet_error *err)
{
	size_t i, j;

	for (i = 0; i < before->phnum; i++) {
		const GElf_Phdr *ph = &before->phdrs[i];
		bool kept = false;

		if ((ph->p_type != PT_NOTE && ph->p_type != PT_GNU_PROPERTY) ||
		    ph->p_memsz == ph->p_filesz)
			continue;
		for (j = 0; j < after->phnum && !kept; j++) {
			const GElf_Phdr *q = &after->phdrs[j];

			/* All of it: ld.so's note walk reads p_align too. */
			kept = memcmp(q, ph, sizeof(*q)) == 0;
		}
		if (!kept)
			return error_set(err,
					 "program header %zu (%s, p_memsz 0x%llx, p_filesz "
					 "0x%llx) would change, and ld.so walks its notes by "
					 "p_memsz",
					 i, elf_segment_type_name(ph->p_type),
					 (unsigned long long)ph->p_memsz,
					 (unsigned long long)ph->p_filesz);
	}
	return 0;
}

int mark_reads_check(const struct elf_model *before, const struct elf_model *after,
		     const struct mark_plan *plan, struct elfcet_error *err)
{
	uint64_t note_off = 0, note_end = 0;
	uint64_t moved = plan->moved_from, moved_end = plan->moved_from + plan->moved_bytes;
	struct property_note note;
	struct mark_reads reads;
	struct changes changes;
	size_t i;
	int rc = 0;

	/* Every range read lies in the original, which the image holds unchanged in size
	 * or grown. */
	if (plan->edit.size < before->size)
		return error_set(err, "the planned file is shorter than the original");
	if (property_note_find(before, &note)) {
		note_off = note.note_offset;
		note_end = note.note_offset + 16 + note.descsz;
	}
	if (mark_reads_collect(before, &reads) != 0)
		return error_set(err, "out of memory");
	if (changes_find(before, plan, note_off, note_end, &changes) != 0) {
		mark_reads_free(&reads);
		return error_set(err, "out of memory");
	}
	if (reads.image_end < before->size && plan->edit.size != plan->edit.orig_size) {
		rc = error_set(err,
			       "the %llu byte(s) after the ELF image (from offset 0x%llx: a "
			       "payload the program may read) would no longer end the file",
			       (unsigned long long)(before->size - reads.image_end),
			       (unsigned long long)reads.image_end);
		goto out;
	}
	for (i = 0; i < reads.count; i++) {
		const struct mark_read *r = &reads.items[i];
		const struct mark_range *w;

		/* Moved whole with the header that finds it. */
		if (r->kind == MARK_READ_MOVABLE && plan->table_grown && r->offset >= moved &&
		    r->offset + r->len <= moved_end)
			continue;
		w = changed_in(&changes, r->offset, r->len);
		if (w) {
			uint64_t at = w->offset > r->offset ? w->offset : r->offset;

			rc = error_set(err,
				       "the change (%s, at offset 0x%llx) would overwrite %s "
				       "(offset 0x%llx, 0x%llx bytes)",
				       w->what, (unsigned long long)at, r->what,
				       (unsigned long long)r->offset, (unsigned long long)r->len);
			goto out;
		}
	}
	rc = notes_by_memsz_kept(before, after, err);
out:
	free(changes.runs);
	mark_reads_free(&reads);
	return rc;
}
