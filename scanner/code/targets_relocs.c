/* Targets from dynamic relocations, and the relocated words the other modules read. */
#include "config.h"

#include "code/targets.h"

#include "util/byteorder.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define R_X86_64_64 1
#define R_X86_64_GLOB_DAT 6
#define R_X86_64_JUMP_SLOT 7
#define R_X86_64_RELATIVE 8
#define R_X86_64_IRELATIVE 37
#define R_386_32 1
#define R_386_GLOB_DAT 6
#define R_386_JMP_SLOT 7
#define R_386_RELATIVE 8
#define R_386_IRELATIVE 42

#ifndef DT_RELRSZ
#define DT_RELRSZ 35
#define DT_RELR 36
#endif

enum reloc_kind { RK_OTHER, RK_ABS, RK_GLOB_DAT, RK_JUMP_SLOT, RK_RELATIVE, RK_IRELATIVE };

static enum reloc_kind kind_of(const struct code_ctx *c, uint32_t type)
{
	if (c->is64) {
		switch (type) {
		case R_X86_64_64:
			return RK_ABS;
		case R_X86_64_GLOB_DAT:
			return RK_GLOB_DAT;
		case R_X86_64_JUMP_SLOT:
			return RK_JUMP_SLOT;
		case R_X86_64_RELATIVE:
			return RK_RELATIVE;
		case R_X86_64_IRELATIVE:
			return RK_IRELATIVE;
		}
	} else {
		switch (type) {
		case R_386_32:
			return RK_ABS;
		case R_386_GLOB_DAT:
			return RK_GLOB_DAT;
		case R_386_JMP_SLOT:
			return RK_JUMP_SLOT;
		case R_386_RELATIVE:
			return RK_RELATIVE;
		case R_386_IRELATIVE:
			return RK_IRELATIVE;
		}
	}
	return RK_OTHER;
}

struct dynsyms {
	const unsigned char *table, *strtab;
	uint64_t strsz, entsize, count;
};

static bool symbol_at(const struct code_ctx *c, const struct dynsyms *ds, uint32_t index,
		      uint64_t *value, bool *defined, const char **name)
{
	const unsigned char *s;
	uint32_t st_name;
	uint16_t shndx;

	if (!ds->table || index >= ds->count)
		return false;
	s = ds->table + (uint64_t)index * ds->entsize;
	st_name = load_le32(s);
	if (c->is64) {
		shndx = (uint16_t)(s[6] | s[7] << 8);
		*value = load_le64(s + 8);
	} else {
		*value = load_le32(s + 4);
		shndx = (uint16_t)(s[14] | s[15] << 8);
	}
	*defined = shndx != SHN_UNDEF;
	*name = st_name < ds->strsz && memchr(ds->strtab + st_name, '\0', ds->strsz - st_name)
			? (const char *)ds->strtab + st_name
			: "";
	return true;
}

/* .dynsym through DT_SYMTAB, sized by its section when there is one. */
static void load_dynsyms(const struct code_ctx *c, struct dynsyms *ds)
{
	const struct elf_model *m = c->m;
	uint64_t symtab, strtab, strsz;
	const struct elf_section *sec;

	memset(ds, 0, sizeof(*ds));
	if (!elf_model_dynamic_value(m, DT_SYMTAB, &symtab) ||
	    !elf_model_dynamic_value(m, DT_STRTAB, &strtab) ||
	    !elf_model_dynamic_value(m, DT_STRSZ, &strsz))
		return;
	ds->entsize = c->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	for (sec = m->sections; sec < m->sections + m->nsections; sec++) {
		const GElf_Shdr sh = sec->sh;

		if (sh.sh_type == SHT_DYNSYM && sh.sh_addr == symtab)
			ds->count = sh.sh_size / ds->entsize;
	}
	if (!ds->count) /* the table ends where the string table begins, in practice */
		ds->count = strtab > symtab ? (strtab - symtab) / ds->entsize : 0;
	ds->table = elf_model_vaddr_bytes(m, symtab, ds->count * ds->entsize);
	ds->strtab = elf_model_vaddr_bytes(m, strtab, strsz);
	ds->strsz = strsz;
	if (!ds->table || !ds->strtab)
		memset(ds, 0, sizeof(*ds));
}

static void name_slot(struct code_ctx *c, uint64_t slot, const char *name)
{
	if (!*name)
		return;
	ARRAY_RESERVE(c->slot_names, c->slot_names_cap, c->nslot_names + 1);
	c->slot_names[c->nslot_names] = name;
	addr_map_put(&c->slot_symbol, slot, c->nslot_names++);
}

static void one_reloc(struct code_ctx *c, const struct dynsyms *ds, uint64_t offset, uint32_t type,
		      uint32_t symidx, int64_t addend, bool rela)
{
	enum reloc_kind k = kind_of(c, type);
	uint64_t value = 0, symval = 0, inplace = 0;
	bool defined = false;
	const char *name = "";
	const unsigned char *p;

	if (k == RK_OTHER)
		return;
	p = elf_model_vaddr_bytes(c->m, offset, c->word);
	if (p)
		inplace = elf_model_read_word(c->m, p);
	if (!rela)
		addend = (int64_t)inplace;
	if (symidx)
		symbol_at(c, ds, symidx, &symval, &defined, &name);
	/* What was in the word before is gone by the time the program runs. */
	if (k != RK_RELATIVE)
		addr_map_put(&c->rewritten, offset, 1);
	switch (k) {
	case RK_RELATIVE:
		value = (uint64_t)addend;
		if (!c->is64)
			value &= 0xffffffffu;
		addr_map_put(&c->relocated, offset, value);
		if (code_range_of(c, value))
			code_add_target(c, value, VIA_RELOC, offset);
		break;
	case RK_ABS:
	case RK_GLOB_DAT:
		if (symidx)
			name_slot(c, offset, name);
		if (defined && code_range_of(c, symval + (k == RK_ABS ? (uint64_t)addend : 0)))
			code_add_target(c, symval + (k == RK_ABS ? (uint64_t)addend : 0), VIA_RELOC,
					offset);
		break;
	case RK_JUMP_SLOT:
		name_slot(c, offset, name);
		/* Until bound, the GOT slot holds the lazy PLT slot: the PLT's tracked
		 * jmp *GOT lands there. targets_plt decides whether to report them. */
		if (!c->bind_now && p && code_range_of(c, inplace))
			code_add_target(c, inplace, VIA_PLT, offset);
		/* Bound to the file's own definition (its code calls an exported symbol
		 * through its PLT): the jmp *GOT lands there, a function symbol or not
		 * (ruby's coroutine_transfer is an assembler label without a type). */
		if (defined && code_range_of(c, symval))
			code_add_target(c, symval, VIA_RELOC, offset);
		break;
	case RK_IRELATIVE:
		value = (uint64_t)addend;
		if (!c->is64)
			value &= 0xffffffffu;
		if (code_range_of(c, value))
			code_add_target(c, value, VIA_IRELATIVE, offset);
		break;
	case RK_OTHER:
		break;
	}
}

static void table(struct code_ctx *c, const struct dynsyms *ds, uint64_t addr, uint64_t size,
		  bool rela)
{
	uint64_t ent = c->is64 ? (rela ? 24 : 16) : (rela ? 12 : 8), i;
	const unsigned char *p = elf_model_vaddr_bytes(c->m, addr, size);

	if (!p)
		return;
	for (i = 0; i + ent <= size; i += ent) {
		const unsigned char *r = p + i;

		if (c->is64) {
			uint64_t info = load_le64(r + 8);

			one_reloc(c, ds, load_le64(r), (uint32_t)info, (uint32_t)(info >> 32),
				  rela ? (int64_t)load_le64(r + 16) : 0, rela);
		} else {
			uint32_t info = load_le32(r + 4);

			one_reloc(c, ds, load_le32(r), info & 0xff, info >> 8,
				  rela ? (int32_t)load_le32(r + 8) : 0, rela);
		}
	}
}

/* DT_RELR: an address, then bitmaps of the words after it that are relocated.
 * A table can name a word again and again (an address entry, then the same bitmap), so
 * the words it relocates are limited to as many as the file holds: a real table never
 * relocates more, and a hostile one then costs time and memory linear in the file. */
static void relr(struct code_ctx *c, uint64_t addr, uint64_t size)
{
	const unsigned char *p = elf_model_vaddr_bytes(c->m, addr, size);
	uint64_t i, where = 0, budget = c->m->size / c->word;

	if (!p)
		return;
	for (i = 0; i + c->word <= size && budget; i += c->word) {
		uint64_t e = elf_model_read_word(c->m, p + i), v;
		unsigned bit;

		if (!(e & 1)) {
			where = e;
			budget--;
			if (code_read_word(c, where, &v) && code_range_of(c, v))
				code_add_target(c, v, VIA_RELOC, where);
			if (code_read_word(c, where, &v))
				addr_map_put(&c->relocated, where, v);
			where += c->word;
			continue;
		}
		for (bit = 1; bit < c->word * 8 && budget; bit++) {
			uint64_t at = where + (uint64_t)(bit - 1) * c->word;

			if (!((e >> bit) & 1))
				continue;
			budget--;
			if (code_read_word(c, at, &v)) {
				addr_map_put(&c->relocated, at, v);
				if (code_range_of(c, v))
					code_add_target(c, v, VIA_RELOC, at);
			}
		}
		where += (uint64_t)(c->word * 8 - 1) * c->word;
	}
}

/* A static executable has no PT_DYNAMIC: its IRELATIVE relocations sit in sections. */
static void section_relocs(struct code_ctx *c, const struct dynsyms *ds)
{
	const struct elf_section *sec;

	for (sec = c->m->sections; sec < c->m->sections + c->m->nsections; sec++) {
		const GElf_Shdr sh = sec->sh;

		if (!(sh.sh_flags & SHF_ALLOC) || (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL))
			continue;
		table(c, ds, sh.sh_addr, sh.sh_size, sh.sh_type == SHT_RELA);
	}
}

void targets_relocs(struct code_ctx *c)
{
	const struct elf_model *m = c->m;
	uint64_t a, sz, pltrel = DT_RELA;
	struct dynsyms ds;

	load_dynsyms(c, &ds);
	if (!m->has_dynamic) {
		section_relocs(c, &ds);
		return;
	}
	/* RELR first: RELA addends of other relocations never read these words. */
	if (elf_model_dynamic_value(m, DT_RELR, &a) && elf_model_dynamic_value(m, DT_RELRSZ, &sz))
		relr(c, a, sz);
	if (elf_model_dynamic_value(m, DT_RELA, &a) && elf_model_dynamic_value(m, DT_RELASZ, &sz))
		table(c, &ds, a, sz, true);
	if (elf_model_dynamic_value(m, DT_REL, &a) && elf_model_dynamic_value(m, DT_RELSZ, &sz))
		table(c, &ds, a, sz, false);
	elf_model_dynamic_value(m, DT_PLTREL, &pltrel);
	if (elf_model_dynamic_value(m, DT_JMPREL, &a) &&
	    elf_model_dynamic_value(m, DT_PLTRELSZ, &sz))
		table(c, &ds, a, sz, pltrel == DT_RELA);
}
