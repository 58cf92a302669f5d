/* fuzz_mark's own statement of what the loaders read of a file's CET marking.
 *
 * mark checks its work with scanner/property's models of the kernel and ld.so; an
 * oracle that asked the same models would share their mistakes, and a plan built on a
 * mistaken model would pass both. So this is written apart, on the raw bytes, from the
 * behaviour of the two readers themselves, and simpler: no reasons, only what each
 * ends up with.
 *
 * The kernel (fs/binfmt_elf.c with the CET series, parse_elf_properties()): for a file
 * it starts itself (no PT_INTERP; a library, which needs others, is started by ld.so),
 * the last PT_GNU_PROPERTY, read from the file at p_offset, p_filesz at most 1 KiB (a
 * short read at the end of the file is what it gets, under 16 bytes EIO); one note,
 * type 5, named "GNU", its descriptor inside what was read; properties of 8-byte headers
 * at the note's alignment (8 for ELF64, 4 for ELF32), each inside the descriptor, its
 * data padded inside too, types strictly rising; FEATURE_1_AND of 4 bytes. Anything
 * else fails the exec.
 *
 * ld.so (glibc 2.36, x86: program headers walked from the last, each PT_NOTE handed to
 * the CET note reader of sysdeps/x86/dl-prop.h; PT_GNU_PROPERTY takes nothing on x86):
 * a PT_NOTE whose p_align is not the word size is skipped; the first other one decides,
 * with a property note or without. It walks that segment in memory (p_vaddr, p_memsz)
 * note by note while a note header starts before its end; the first GNU property note
 * is read (n_descsz at least 8 and a multiple of the word, properties in rising order
 * inside it, FEATURE_1_AND, ISA_1_NEEDED and 1_NEEDED of 4 bytes, the walk of the
 * properties ending at ISA_1_NEEDED or a type above it); a second property note, or any
 * fault in the first, and it takes nothing. Memory is the PT_LOADs' bytes (the last
 * one mapping an address wins, as a later mmap replaces an earlier one; beyond p_filesz
 * zeros), byte by byte rather than page by page. */
#ifndef ELFCET_LOADERS_ORACLE_H
#define ELFCET_LOADERS_ORACLE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define LO_PT_LOAD 1
#define LO_PT_DYNAMIC 2
#define LO_PT_INTERP 3
#define LO_PT_NOTE 4
#define LO_PT_GNU_PROPERTY 0x6474e553u
#define LO_ET_DYN 3
#define LO_DT_NEEDED 1
#define LO_NT_GNU_PROPERTY 5
#define LO_F1_AND 0xc0000002u
#define LO_ISA_1_NEEDED 0xc0008002u
#define LO_1_NEEDED 0xb0008000u
#define LO_KERNEL_NOTE_MAX 1024 /* the note buffer of parse_elf_properties() */
#define LO_WALK_MAX 256		/* notes walked before the oracle gives up judging */

struct lo_elf {
	const unsigned char *d;
	uint64_t size;
	bool is64;
	unsigned word;
	uint16_t type, phnum;
	uint64_t phoff;
};

struct lo_phdr {
	uint32_t type;
	uint64_t offset, vaddr, filesz, memsz, align;
};

enum lo_result {
	LO_READ,	 /* the reader ends with BITS (0: no marking) */
	LO_FAILS,	 /* the kernel fails the exec, or ld.so faults walking the note */
	LO_UNDETERMINED, /* beyond this statement: not judged */
	LO_REJECTED,	 /* inside ld.so's walk only: the note is dropped, nothing taken */
};

static inline uint64_t lo_le(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static inline struct lo_phdr lo_phdr(const struct lo_elf *e, unsigned i);

/* The headers as the kernel takes them: little-endian, its class's program header size,
 * the table inside the file, every PT_LOAD inside the user address space (x86-64's
 * 47 bits, i386's 32: a larger or wrapping one fails the exec) and mapped by mmap
 * (p_vaddr and p_offset equal modulo the page: else the exec or ld.so fails). */
static inline bool lo_open(struct lo_elf *e, const unsigned char *d, uint64_t size)
{
	uint64_t phentsize, top;
	unsigned i;

	if (size < 64 || memcmp(d, "\177ELF", 4) != 0 || d[5] != 1 || (d[4] != 1 && d[4] != 2))
		return false;
	e->d = d;
	e->size = size;
	e->is64 = d[4] == 2;
	e->word = e->is64 ? 8 : 4;
	e->type = (uint16_t)lo_le(d + 16, 2);
	e->phoff = e->is64 ? lo_le(d + 32, 8) : lo_le(d + 28, 4);
	phentsize = lo_le(d + (e->is64 ? 54 : 42), 2);
	e->phnum = (uint16_t)lo_le(d + (e->is64 ? 56 : 44), 2);
	if (phentsize != (e->is64 ? 56u : 32u) || e->phoff > size ||
	    (uint64_t)e->phnum * phentsize > size - e->phoff)
		return false;
	top = e->is64 ? (uint64_t)1 << 47 : (uint64_t)1 << 32;
	for (i = 0; i < e->phnum; i++) {
		struct lo_phdr ph = lo_phdr(e, i);

		if (ph.type == LO_PT_LOAD &&
		    (ph.vaddr > top || ph.memsz > top - ph.vaddr || (ph.vaddr - ph.offset) % 4096))
			return false;
	}
	return true;
}

static inline struct lo_phdr lo_phdr(const struct lo_elf *e, unsigned i)
{
	const unsigned char *p = e->d + e->phoff + (uint64_t)i * (e->is64 ? 56 : 32);
	struct lo_phdr ph;

	ph.type = (uint32_t)lo_le(p, 4);
	if (e->is64) {
		ph.offset = lo_le(p + 8, 8);
		ph.vaddr = lo_le(p + 16, 8);
		ph.filesz = lo_le(p + 32, 8);
		ph.memsz = lo_le(p + 40, 8);
		ph.align = lo_le(p + 48, 8);
	} else {
		ph.offset = lo_le(p + 4, 4);
		ph.vaddr = lo_le(p + 8, 4);
		ph.filesz = lo_le(p + 16, 4);
		ph.memsz = lo_le(p + 20, 4);
		ph.align = lo_le(p + 28, 4);
	}
	return ph;
}

/* The byte loaded at VA: false when nothing maps it (or maps it past the file's end). */
static inline bool lo_mem_byte(const struct lo_elf *e, uint64_t va, unsigned char *out)
{
	unsigned i = e->phnum;

	while (i-- > 0) {
		struct lo_phdr ph = lo_phdr(e, i);
		uint64_t k = va - ph.vaddr;

		if (ph.type != LO_PT_LOAD || va < ph.vaddr || k >= ph.memsz)
			continue;
		if (k >= ph.filesz) {
			*out = 0;
			return true;
		}
		if (ph.offset > e->size || k >= e->size - ph.offset)
			return false;
		*out = e->d[ph.offset + k];
		return true;
	}
	return false;
}

static inline bool lo_mem(const struct lo_elf *e, uint64_t va, unsigned char *out, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (!lo_mem_byte(e, va + i, out + i))
			return false;
	return true;
}

static inline uint64_t lo_align(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* The first GNU property note of the segment at VA, its header at NOTE: what ld.so
 * takes from it into *BITS, or LO_REJECTED. */
static inline enum lo_result lo_ldso_property(const struct lo_elf *e, uint64_t va, uint64_t note,
					      uint32_t descsz, uint32_t *bits)
{
	uint64_t ptr = note + 16, end = ptr + descsz;
	uint32_t last = 0;
	unsigned char h[8];

	if (descsz < 8 || descsz % e->word != 0)
		return LO_REJECTED;
	do {
		uint32_t type, datasz;

		if (!lo_mem(e, va + ptr, h, 8))
			return LO_FAILS;
		type = (uint32_t)lo_le(h, 4);
		datasz = (uint32_t)lo_le(h + 4, 4);
		if (type < last)
			return LO_REJECTED;
		ptr += 8;
		if (datasz > end - ptr)
			return LO_REJECTED;
		last = type;
		if (type == LO_F1_AND || type == LO_ISA_1_NEEDED || type == LO_1_NEEDED) {
			if (datasz != 4)
				return LO_REJECTED;
			if (!lo_mem(e, va + ptr, h, 4))
				return LO_FAILS;
			if (type == LO_F1_AND)
				*bits = (uint32_t)lo_le(h, 4);
			else if (type == LO_ISA_1_NEEDED)
				break;
		} else if (type > LO_ISA_1_NEEDED) {
			break;
		}
		ptr += lo_align(datasz, e->word);
	} while (ptr <= end && end - ptr >= 8);
	return LO_READ;
}

/* What ld.so reads of E's marking into *BITS. */
static inline enum lo_result lo_ldso_reads(const struct lo_elf *e, uint32_t *bits)
{
	unsigned i = e->phnum;

	*bits = 0;
	while (i-- > 0) {
		struct lo_phdr ph = lo_phdr(e, i);
		uint32_t found = 0;
		uint64_t pos = 0, walked = 0;
		bool seen = false;

		if (ph.type != LO_PT_NOTE || ph.align != e->word)
			continue;
		while (pos + 12 < ph.memsz && pos + 12 > pos) {
			unsigned char h[16];
			uint32_t namesz, descsz;

			if (++walked > LO_WALK_MAX)
				return LO_UNDETERMINED;
			if (!lo_mem(e, ph.vaddr + pos, h, 12))
				return LO_FAILS;
			namesz = (uint32_t)lo_le(h, 4);
			descsz = (uint32_t)lo_le(h + 4, 4);
			if (namesz == 4 && lo_le(h + 8, 4) == LO_NT_GNU_PROPERTY) {
				if (!lo_mem(e, ph.vaddr + pos + 12, h + 12, 4))
					return LO_FAILS;
				if (memcmp(h + 12, "GNU", 4) == 0) {
					enum lo_result r;

					if (seen)
						return LO_READ; /* a second one: nothing */
					seen = true;
					r = lo_ldso_property(e, ph.vaddr, pos, descsz, &found);
					if (r == LO_REJECTED)
						return LO_READ; /* nothing */
					if (r != LO_READ)
						return r;
				}
			}
			pos += lo_align(lo_align(12 + (uint64_t)namesz, e->word) + descsz, e->word);
		}
		*bits = found;
		return LO_READ;
	}
	return LO_READ;
}

/* Whether the kernel starts E itself: no PT_INTERP, and not a library that needs others
 * (DT_NEEDED in PT_DYNAMIC). */
static inline bool lo_kernel_starts(const struct lo_elf *e)
{
	bool needed = false;
	unsigned i;

	for (i = 0; i < e->phnum; i++) {
		struct lo_phdr ph = lo_phdr(e, i);
		uint64_t k, ent = e->is64 ? 16 : 8;

		if (ph.type == LO_PT_INTERP)
			return false;
		if (ph.type != LO_PT_DYNAMIC || ph.offset > e->size)
			continue;
		for (k = 0; k + ent <= ph.filesz && k + ent <= e->size - ph.offset; k += ent) {
			uint64_t tag = lo_le(e->d + ph.offset + k, ent / 2);

			if (tag == 0)
				break;
			needed |= tag == LO_DT_NEEDED;
		}
	}
	return !(e->type == LO_ET_DYN && needed);
}

/* What the kernel reads of E's own marking at exec into *BITS. */
static inline enum lo_result lo_kernel_reads(const struct lo_elf *e, uint32_t *bits)
{
	const unsigned char *d;
	struct lo_phdr ph = { 0 };
	uint64_t n, off, datasz;
	uint32_t prev = 0;
	bool have_prev = false, have = false;
	unsigned i, align = e->word;

	*bits = 0;
	for (i = 0; i < e->phnum; i++) {
		struct lo_phdr p = lo_phdr(e, i);

		if (p.type == LO_PT_GNU_PROPERTY) {
			ph = p;
			have = true;
		}
	}
	if (!have)
		return LO_READ;
	if (ph.filesz > LO_KERNEL_NOTE_MAX)
		return LO_FAILS;
	n = ph.offset < e->size ? e->size - ph.offset : 0;
	if (n > ph.filesz)
		n = ph.filesz;
	if (n < 16)
		return LO_FAILS;
	d = e->d + ph.offset;
	if (lo_le(d + 8, 4) != LO_NT_GNU_PROPERTY || lo_le(d, 4) != 4 || memcmp(d + 12, "GNU", 4))
		return LO_FAILS;
	off = lo_align(16, align);
	if (off > n || lo_le(d + 4, 4) > n - off)
		return LO_FAILS;
	datasz = off + lo_le(d + 4, 4);
	for (;;) {
		uint32_t type, prsz;
		uint64_t step;

		if (off > datasz || off % align)
			return LO_FAILS;
		if (datasz - off < 8)
			return LO_READ;
		type = (uint32_t)lo_le(d + off, 4);
		prsz = (uint32_t)lo_le(d + off + 4, 4);
		off += 8;
		if (prsz > datasz - off)
			return LO_FAILS;
		step = lo_align(prsz, align);
		if (step > datasz - off)
			return LO_FAILS;
		if (have_prev && type <= prev)
			return LO_FAILS;
		have_prev = true;
		prev = type;
		if (type == LO_F1_AND) {
			if (prsz != 4)
				return LO_FAILS;
			*bits = (uint32_t)lo_le(d + off, 4);
		}
		off += step;
	}
}

#endif
