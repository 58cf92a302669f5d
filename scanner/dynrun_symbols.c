/* Object offset to virtual address and symbol, with libelf through the ELF model. */
#include "config.h"

#include "dynrun_symbols.h"

#include "elf_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opened {
	char *path;
	bool ok;
	struct elf_model model;
};

static struct opened *cache;
static size_t n_cache;

static struct opened *open_cached(const char *path)
{
	for (size_t i = 0; i < n_cache; i++)
		if (strcmp(cache[i].path, path) == 0)
			return &cache[i];
	struct opened *grown = realloc(cache, (n_cache + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	cache = grown;
	struct opened *o = &cache[n_cache];
	memset(o, 0, sizeof(*o));
	o->path = strdup(path);
	if (!o->path)
		return NULL;
	n_cache++;
	char msg[160];
	o->ok = elf_model_open(&o->model, path, msg, sizeof(msg)) == ELF_OPEN_OK;
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

/* The best symbol for VADDR in one symbol table: one that contains it, else the nearest
 * size-0 label before it. */
static void search_table(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, uint64_t vaddr,
			 const char **best, uint64_t *best_value, bool *best_contains)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!data || sh->sh_entsize == 0)
		return;
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
		    sym.st_value > vaddr)
			continue;
		int type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_NOTYPE && type != STT_GNU_IFUNC)
			continue;
		bool contains = vaddr < sym.st_value + sym.st_size;
		/* A sized symbol that ends before VADDR says nothing about it (stripped
		 * objects keep only exports); a size-0 label may still be the nearest name. */
		if (!contains && sym.st_size != 0)
			continue;
		const char *name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name || name[0] == '.' || (name[0] == '$'))
			continue;
		/* Prefer containing symbols, then the closest start; FUNC over NOTYPE labels. */
		if ((contains && !*best_contains) ||
		    (contains == *best_contains && (!*best || sym.st_value > *best_value))) {
			*best = name;
			*best_value = sym.st_value;
			*best_contains = contains;
		}
	}
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

	const char *best = NULL;
	uint64_t best_value = 0;
	bool best_contains = false;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(o->model.elf, scn)) != NULL) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM))
			search_table(o->model.elf, scn, &sh, place->vaddr, &best, &best_value,
				     &best_contains);
	}
	if (!best)
		return;
	if (place->vaddr == best_value)
		snprintf(place->symbol, sizeof(place->symbol), "%s", best);
	else
		snprintf(place->symbol, sizeof(place->symbol), "%s+0x%llx", best,
			 (unsigned long long)(place->vaddr - best_value));
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
