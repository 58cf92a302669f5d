/* Object offset to virtual address and symbol, with libelf through the ELF model. */
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
};

static struct opened *cache;
static size_t n_cache, cache_cap;

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
	return o;
}

static bool offset_to_vaddr(const struct elf_model *m, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if (ph->p_type == PT_LOAD && off >= ph->p_offset && off < ph->p_offset + ph->p_filesz) {
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
	int rank;                /* 3 exact, 2 contains, 1 label before, 0 none */
};

/* Ranks every symbol of the model's tables, in table order, against VADDR. */
static void search_symbols(const struct elf_model *m, uint64_t vaddr, size_t vaddr_shndx,
			   struct best_symbol *best)
{
	const struct elf_symbol *sym;

	for (sym = m->symbols; sym < m->symbols + m->nsymbols; sym++) {
		if (sym->shndx == SHN_UNDEF || sym->shndx >= SHN_LORESERVE || sym->value > vaddr)
			continue;
		if (sym->type != STT_FUNC && sym->type != STT_NOTYPE && sym->type != STT_GNU_IFUNC)
			continue;
		const char *name = sym->name;
		if (!name || !*name || name[0] == '.' || name[0] == '$')
			continue;
		int rank;
		if (sym->value == vaddr)
			rank = 3;
		else if (vaddr < sym->value + sym->size)
			rank = 2;
		else if (sym->size == 0 && sym->shndx == vaddr_shndx)
			rank = 1;
		else
			continue; /* a symbol that ends before VADDR says nothing about it */
		if (rank > best->rank || (rank == best->rank && sym->value > best->value) ||
		    (rank == best->rank && sym->value == best->value && sym->type == STT_FUNC)) {
			best->name = name;
			best->value = sym->value;
			best->rank = rank;
		}
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
	search_symbols(&o->model, place->vaddr, section ? section->index : 0, &best);
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
		free(cache[i].path);
	}
	free(cache);
	cache = NULL;
	n_cache = 0;
}
