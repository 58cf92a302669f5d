/* Object offset to virtual address and symbol, through the ELF model: its sections and its
 * symbols sorted by address, searched by bisection. */
#include "config.h"

#include "dynrun/dynrun_symbols.h"

#include "elf/elf_model.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opened {
	char *path;
	bool ok;
	struct elf_model model;
	/* reach[i]: the highest end (value + size) of a nameable symbol among the model's
	 * symbols_by_addr[0..i]: below an index whose reach is at most VADDR, no symbol
	 * contains VADDR. */
	uint64_t *reach;
};

static struct opened *cache;
static size_t n_cache, cache_cap;

/* True for the symbols that may name an address: defined, of a function or no type, with
 * a name that is not a section's or a mapping symbol's. */
static bool nameable(const struct elf_symbol *sym)
{
	if (sym->shndx == SHN_UNDEF || sym->shndx >= SHN_LORESERVE)
		return false;
	if (sym->type != STT_FUNC && sym->type != STT_NOTYPE && sym->type != STT_GNU_IFUNC)
		return false;
	return sym->name && *sym->name && sym->name[0] != '.' && sym->name[0] != '$';
}

static uint64_t *reach_of(const struct elf_model *m)
{
	uint64_t *reach = xmalloc((m->nsymbols ? m->nsymbols : 1) * sizeof(*reach));
	uint64_t high = 0;

	for (size_t i = 0; i < m->nsymbols; i++) {
		const struct elf_symbol *sym = &m->symbols_by_addr[i];

		/* Wrapping as the containment test below does. */
		if (nameable(sym) && sym->value + sym->size > high)
			high = sym->value + sym->size;
		reach[i] = high;
	}
	return reach;
}

static struct opened *open_cached(const char *path)
{
	for (size_t i = 0; i < n_cache; i++)
		if (strcmp(cache[i].path, path) == 0)
			return &cache[i];
	ARRAY_RESERVE(cache, cache_cap, n_cache + 1);
	struct opened *o = &cache[n_cache];
	memset(o, 0, sizeof(*o));
	o->path = xstrdup(path);
	n_cache++;
	o->ok = elf_model_open(&o->model, path, NULL) == ELF_OPEN_OK;
	if (o->ok)
		o->reach = reach_of(&o->model);
	return o;
}

static bool offset_to_vaddr(const struct elf_model *m, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if (ph->p_type == PT_LOAD && off >= ph->p_offset &&
		    off < ph->p_offset + ph->p_filesz) {
			*vaddr = ph->p_vaddr + (off - ph->p_offset);
			return true;
		}
	}
	return false;
}

/* Candidate names for an address, best first: a symbol starting exactly there, one whose
 * extent contains it, the nearest size-0 label before it in the same section. */
struct best_symbol {
	const char *name;
	uint64_t value;
	int rank; /* 3 exact, 2 contains, 1 label before, 0 none */
};

/* Ranks SYM against VADDR and keeps it in BEST when it names VADDR better: a higher rank,
 * at one rank the higher value, at one value the last STT_FUNC, else the first seen. */
static void rank_symbol(const struct elf_symbol *sym, uint64_t vaddr, size_t vaddr_shndx,
			struct best_symbol *best)
{
	int rank;

	if (sym->value > vaddr || !nameable(sym))
		return;
	if (sym->value == vaddr)
		rank = 3;
	else if (vaddr < sym->value + sym->size)
		rank = 2;
	else if (sym->size == 0 && sym->shndx == vaddr_shndx)
		rank = 1;
	else
		return; /* a symbol that ends before VADDR says nothing about it */
	if (rank > best->rank || (rank == best->rank && sym->value > best->value) ||
	    (rank == best->rank && sym->value == best->value && sym->type == STT_FUNC)) {
		best->name = sym->name;
		best->value = sym->value;
		best->rank = rank;
	}
}

/* Finds the best name for VADDR in the model's symbols sorted by address: a binary search
 * for the last symbol at or below VADDR, then down one value at a time (each value's
 * symbols in table order, which breaks ties as a walk of the tables would) until nothing
 * lower can do better: a symbol at or containing VADDR found, or a label found and no
 * symbol lower down reaching VADDR. */
static void search_symbols(const struct opened *o, uint64_t vaddr, size_t vaddr_shndx,
			   struct best_symbol *best)
{
	const struct elf_symbol *by_addr = o->model.symbols_by_addr;
	size_t lo = 0, hi = o->model.nsymbols;

	while (lo < hi) { /* hi: the first symbol above VADDR */
		size_t mid = lo + (hi - lo) / 2;

		if (by_addr[mid].value <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (hi > 0) {
		uint64_t value = by_addr[hi - 1].value;

		lo = hi - 1;
		while (lo > 0 && by_addr[lo - 1].value == value)
			lo--;
		for (size_t i = lo; i < hi; i++)
			rank_symbol(&by_addr[i], vaddr, vaddr_shndx, best);
		if (best->rank >= 2)
			return; /* lower values neither sit at VADDR nor contain it more closely */
		if (best->rank == 1 && (lo == 0 || o->reach[lo - 1] <= vaddr))
			return; /* a closer label than any below, and none below contains VADDR */
		hi = lo;
	}
}

/* The allocated section with file bytes holding VADDR. */
static const struct elf_section *section_of(const struct elf_model *m, uint64_t vaddr)
{
	const struct elf_section *sec = NULL;

	while ((sec = elf_model_section_at(m, vaddr, sec)) != NULL)
		if (sec->sh.sh_type != SHT_NOBITS)
			return sec;
	return NULL;
}

static void name_place(struct dynrun_place *place, const char *name, uint64_t value)
{
	if (place->vaddr == value)
		snprintf(place->symbol, sizeof(place->symbol), "%s", name);
	else
		snprintf(place->symbol, sizeof(place->symbol), "%s+0x%llx", name,
			 (unsigned long long)(place->vaddr - value));
}

void dynrun_symbolize(const char *path, uint64_t offset, struct dynrun_place *place)
{
	memset(place, 0, sizeof(*place));
	if (!path)
		return;
	struct opened *o = open_cached(path);
	if (!o || !o->ok || !offset_to_vaddr(&o->model, offset, &place->vaddr))
		return;
	place->known = true;

	const struct elf_section *section = section_of(&o->model, place->vaddr);
	struct best_symbol best = { NULL, 0, 0 };
	search_symbols(o, place->vaddr, section ? section->index : 0, &best);
	if (best.name)
		name_place(place, best.name, best.value);
	else if (section && section->name && *section->name)
		/* stripped, or code with no symbol such as the PLT */
		name_place(place, section->name, section->sh.sh_addr);
}

void dynrun_symbols_release(void)
{
	for (size_t i = 0; i < n_cache; i++) {
		if (cache[i].ok)
			elf_model_close(&cache[i].model);
		free(cache[i].reach);
		free(cache[i].path);
	}
	free(cache);
	cache = NULL;
	n_cache = 0;
}
