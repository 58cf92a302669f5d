/* The code audit's view of one file: code ranges, symbols, function starts, maps. */
#include "config.h"

#include "code/code_context.h"

#include "code/eh_frame.h"
#include "util/sort_address.h"
#include "util/text_build.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static void load_ranges(struct code_ctx *c)
{
	const struct elf_model *m = c->m;
	size_t cap = 0, i;
	const struct elf_section *sec = NULL;

	while ((sec = elf_model_next_section(m, sec, SHT_PROGBITS)) != NULL) {
		const GElf_Shdr sh = sec->sh;
		const unsigned char *bytes;

		if (!(sh.sh_flags & SHF_EXECINSTR) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		bytes = elf_model_file_bytes(m, sh.sh_offset, sh.sh_size);
		if (!bytes)
			continue;
		ARRAY_RESERVE(c->ranges, cap, c->nranges + 1);
		c->ranges[c->nranges++] =
			(struct exec_range){ sh.sh_addr, sh.sh_size, bytes, sec->name ?: "" };
	}
	if (c->nranges)
		return;
	/* No section headers: the executable segments are the code. */
	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];
		const unsigned char *bytes;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || !ph->p_filesz)
			continue;
		bytes = elf_model_file_bytes(m, ph->p_offset, ph->p_filesz);
		if (!bytes)
			continue;
		ARRAY_RESERVE(c->ranges, cap, c->nranges + 1);
		c->ranges[c->nranges++] =
			(struct exec_range){ ph->p_vaddr, ph->p_filesz, bytes, "" };
	}
}

/* At one address, a global name reads better than a local one: globals first in each
 * run of aliases, otherwise in table order. */
static void globals_first(struct code_symbol *syms, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t end = i + 1, j;

		while (end < n && syms[end].addr == syms[i].addr)
			end++;
		for (j = i + 1; j < end; j++) { /* a few aliases at most: insertion */
			struct code_symbol s = syms[j];
			size_t k = j;

			while (k > i && s.global && !syms[k - 1].global) {
				syms[k] = syms[k - 1];
				k--;
			}
			syms[k] = s;
		}
		i = end;
	}
}

/* The function symbols in the code, from the model's table already in address order. */
static void load_symbols(struct code_ctx *c)
{
	const struct elf_model *m = c->m;
	const struct elf_symbol *sym;
	size_t cap = 0;

	for (sym = m->symbols_by_addr; sym < m->symbols_by_addr + m->nsymbols; sym++) {
		if ((sym->type != STT_FUNC && sym->type != STT_GNU_IFUNC) ||
		    sym->shndx == SHN_UNDEF || !sym->value)
			continue;
		if (!sym->name || !*sym->name || !code_range_of(c, sym->value))
			continue;
		ARRAY_RESERVE(c->syms, cap, c->nsyms + 1);
		c->syms[c->nsyms++] = (struct code_symbol){ sym->value, sym->size, sym->name,
							    sym->bind != STB_LOCAL };
	}
	globals_first(c->syms, c->nsyms);
}

static void build_starts(struct code_ctx *c)
{
	size_t n = c->nsyms + c->nfdes + c->nranges, i, j = 0;

	c->starts = xcalloc(n, sizeof(*c->starts));
	for (i = 0; i < c->nsyms; i++)
		c->starts[j++] = c->syms[i].addr;
	for (i = 0; i < c->nfdes; i++)
		if (code_range_of(c, c->fdes[i].start))
			c->starts[j++] = c->fdes[i].start;
	for (i = 0; i < c->nranges; i++)
		c->starts[j++] = c->ranges[i].addr;
	sort_by_address(c->starts, j, sizeof(*c->starts));
	c->nstarts = 0;
	for (i = 0; i < j; i++)
		if (c->nstarts == 0 || c->starts[c->nstarts - 1] != c->starts[i])
			c->starts[c->nstarts++] = c->starts[i];
}

/* i386 PIC code keeps _GLOBAL_OFFSET_TABLE_ in a register and names code and tables
 * relative to it: the start of .got.plt, which DT_PLTGOT gives too. */
static uint64_t got_address(const struct elf_model *m)
{
	const struct elf_section *got_plt = elf_model_section_named(m, ".got.plt");
	uint64_t v;

	if (elf_model_dynamic_value(m, DT_PLTGOT, &v))
		return v;
	return got_plt ? got_plt->sh.sh_addr : 0;
}

static bool is_bind_now(const struct elf_model *m)
{
	uint64_t v;

	if (elf_model_dynamic_value(m, DT_BIND_NOW, &v))
		return true;
	if (elf_model_dynamic_value(m, DT_FLAGS, &v) && (v & DF_BIND_NOW))
		return true;
	return elf_model_dynamic_value(m, DT_FLAGS_1, &v) && (v & DF_1_NOW);
}

/* The lowest and the highest executable address, for code_range_of's first test: most
 * words it is asked about (data, immediates) are nowhere near the code. */
static void span_ranges(struct code_ctx *c)
{
	size_t i;

	c->code_first = UINT64_MAX;
	c->code_last = 0;
	for (i = 0; i < c->nranges; i++) {
		const struct exec_range *r = &c->ranges[i];
		/* sizes are not 0; a range past 2^64 ends at the top */
		uint64_t last = r->addr + (r->size - 1) < r->addr ? UINT64_MAX
								  : r->addr + (r->size - 1);

		if (r->addr < c->code_first)
			c->code_first = r->addr;
		if (last > c->code_last)
			c->code_last = last;
	}
}

/* Go's functions, from its own table. Their entries do not divide the sweep's regions
 * (Go's stack switches, asmcgocall's, are read as one piece with what follows) and are
 * not function starts to the byte evidence: in a Go program at a fixed address, numbers
 * in immediates meet them (mov $5000000,%eax: a Go function's entry in fzf). */
static void load_go_functions(struct code_ctx *c)
{
	const struct elf_section *text = elf_model_section_named(c->m, ".text");
	uint64_t text_start = text ? text->sh.sh_addr : c->nranges ? c->ranges[0].addr : 0;

	go_pclntab_read(c->m, text_start, &c->go);
}

void code_ctx_init(struct code_ctx *c, const struct elf_model *m, const struct rule_set *rules,
		   struct finding_list *out)
{
	memset(c, 0, sizeof(*c));
	c->m = m;
	c->rules = rules;
	c->out = out;
	c->is64 = m->elf_class == ELFCLASS64;
	c->word = c->is64 ? 8 : 4;
	c->bind_now = is_bind_now(m);
	c->got = got_address(m);
	load_ranges(c);
	span_ranges(c);
	load_symbols(c);
	eh_frame_load(m, &c->fdes, &c->nfdes);
	load_go_functions(c);
	build_starts(c);
}

void code_ctx_free(struct code_ctx *c)
{
	free(c->ranges);
	free(c->syms);
	free(c->fdes);
	free(c->starts);
	go_functions_free(&c->go);
	addr_map_free(&c->relocated);
	addr_map_free(&c->rewritten);
	addr_map_free(&c->slot_symbol);
	addr_map_free(&c->plt_symbol);
	free(c->slot_names);
	free(c->targets);
	free(c->tables);
	free(c->returns_twice);
	memset(c, 0, sizeof(*c));
}

bool code_is_go_entry(const struct code_ctx *c, uint64_t addr)
{
	size_t i;

	if (!c->go.nentries)
		return false;
	i = records_upto(c->go.entries, c->go.nentries, sizeof(*c->go.entries), addr);
	return i && c->go.entries[i - 1] == addr;
}

const struct exec_range *code_range_of(const struct code_ctx *c, uint64_t addr)
{
	size_t i;

	if (addr < c->code_first || addr > c->code_last)
		return NULL;
	for (i = 0; i < c->nranges; i++)
		if (addr >= c->ranges[i].addr && addr - c->ranges[i].addr < c->ranges[i].size)
			return &c->ranges[i];
	return NULL;
}

const unsigned char *code_bytes(const struct code_ctx *c, uint64_t addr, size_t *avail)
{
	const struct exec_range *r = code_range_of(c, addr);

	if (!r)
		return NULL;
	*avail = r->size - (addr - r->addr);
	return r->bytes + (addr - r->addr);
}

/* Index of the last start <= ADDR, or (size_t)-1. */
static size_t start_index(const struct code_ctx *c, uint64_t addr)
{
	return records_upto(c->starts, c->nstarts, sizeof(*c->starts), addr) - 1;
}

bool code_is_function_start(const struct code_ctx *c, uint64_t addr)
{
	size_t i;

	/* Most addresses asked about are data (every lea of a string): no search. */
	if (!c->nstarts || addr < c->starts[0] || addr > c->starts[c->nstarts - 1])
		return false;
	i = start_index(c, addr);

	return i != (size_t)-1 && c->starts[i] == addr;
}

uint64_t code_function_start(const struct code_ctx *c, uint64_t addr)
{
	size_t i = start_index(c, addr);

	return i == (size_t)-1 ? 0 : c->starts[i];
}

uint64_t code_function_end(const struct code_ctx *c, uint64_t addr)
{
	const struct exec_range *r = code_range_of(c, addr);
	size_t i = start_index(c, addr) + 1;
	uint64_t end = r ? r->addr + r->size : addr;

	if (i < c->nstarts && c->starts[i] < end)
		end = c->starts[i];
	return end;
}

/* "NAME", or "NAME+0xOFFSET" when OFFSET is not 0. */
static void name_plus_offset(char *buf, size_t len, const char *name, uint64_t offset)
{
	struct text_build t;

	text_start(&t, buf, len);
	text_str(&t, name);
	if (offset) {
		text_str(&t, "+0x");
		text_hex(&t, offset);
	}
}

/* "section+0xN" for an address in a loaded section. */
static bool data_section_name(const struct code_ctx *c, uint64_t addr, char *buf, size_t len)
{
	const struct elf_section *sec = NULL;

	while ((sec = elf_model_section_at(c->m, addr, sec)) != NULL) {
		if (!sec->name || !*sec->name)
			continue;
		name_plus_offset(buf, len, sec->name, addr - sec->sh.sh_addr);
		return true;
	}
	return false;
}

size_t code_fdes_upto(const struct code_ctx *c, uint64_t addr)
{
	return records_upto(c->fdes, c->nfdes, sizeof(*c->fdes), addr);
}

size_t code_syms_upto(const struct code_ctx *c, uint64_t addr)
{
	return records_upto(c->syms, c->nsyms, sizeof(*c->syms), addr);
}

void code_symbol_name(const struct code_ctx *c, uint64_t addr, char *buf, size_t len)
{
	size_t lo = code_syms_upto(c, addr);
	const struct code_symbol *s;
	const struct exec_range *r;
	struct text_build t;
	uint64_t start;

	/* Step back over aliases at the same address to the preferred (first) one. */
	while (lo > 1 && c->syms[lo - 2].addr == c->syms[lo - 1].addr)
		lo--;
	s = lo ? &c->syms[lo - 1] : NULL;
	start = code_function_start(c, addr);
	if (s && (addr == s->addr || addr - s->addr < s->size) && start <= s->addr) {
		name_plus_offset(buf, len, s->name, addr - s->addr);
		return;
	}
	/* A data word (vsyscall-data): after its section, not after the code before it. */
	r = code_range_of(c, addr);
	if (!r && data_section_name(c, addr, buf, len))
		return;
	/* No symbol: name it after the function start the FDEs or the sections give. */
	if (r && r->name[0] && start == r->addr) {
		name_plus_offset(buf, len, r->name, addr - start);
		return;
	}
	if (!start)
		start = addr;
	text_start(&t, buf, len);
	text_str(&t, "sub_");
	text_hex(&t, start);
	if (addr != start) {
		text_str(&t, "+0x");
		text_hex(&t, addr - start);
	}
}

uint64_t code_symbol_addr(const struct code_ctx *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nsyms; i++)
		if (strcmp(c->syms[i].name, name) == 0)
			return c->syms[i].addr;
	return 0;
}

bool code_read_word(const struct code_ctx *c, uint64_t addr, uint64_t *value)
{
	const unsigned char *p;

	if (addr_map_get(&c->relocated, addr, value))
		return true;
	p = elf_model_vaddr_bytes(c->m, addr, c->word);
	if (!p)
		return false;
	*value = elf_model_read_word(c->m, p);
	return true;
}

const char *evidence_name(enum evidence via)
{
	static const char *const names[] = {
		[VIA_ENTRY] = "entry",
		[VIA_INIT] = "init",
		[VIA_FINI] = "fini",
		[VIA_PREINIT_ARRAY] = "preinit-array",
		[VIA_INIT_ARRAY] = "init-array",
		[VIA_FINI_ARRAY] = "fini-array",
		[VIA_EXPORT] = "export",
		[VIA_IRELATIVE] = "irelative",
		[VIA_PLT] = "plt",
		[VIA_RELOC] = "reloc",
		[VIA_LANDING_PAD] = "landing-pad",
		[VIA_RETURNS_TWICE] = "returns-twice",
		[VIA_CODE_REF] = "code-ref",
		[VIA_DATA_POINTER] = "data-pointer",
	};

	return names[via];
}

void code_add_target(struct code_ctx *c, uint64_t addr, enum evidence via, uint64_t from)
{
	/* A word holding the end of Go's text (the runtime's etext and maxpc, relocated in
	 * a position-independent program) bounds its code; no branch goes there. */
	if (c->go.end && addr == c->go.end && (via == VIA_RELOC || via == VIA_DATA_POINTER))
		return;
	ARRAY_RESERVE(c->targets, c->targets_cap, c->ntargets + 1);
	c->targets[c->ntargets++] = (struct target){ addr, from, via };
}

void code_add_table(struct code_ctx *c, uint64_t start, uint64_t end)
{
	ARRAY_RESERVE(c->tables, c->tables_cap, c->ntables + 1);
	c->tables[c->ntables++] = (struct addr_range){ start, end };
}

void code_index_tables(struct code_ctx *c)
{
	size_t i, j = 0;

	if (!c->ntables)
		return;
	sort_by_address(c->tables, c->ntables, sizeof(*c->tables));
	/* Merge overlaps, so a binary search finds the one range that can hold ADDR. */
	for (i = 1; i < c->ntables; i++) {
		if (c->tables[i].start <= c->tables[j].end) {
			if (c->tables[i].end > c->tables[j].end)
				c->tables[j].end = c->tables[i].end;
		} else {
			c->tables[++j] = c->tables[i];
		}
	}
	c->ntables = j + 1;
}

bool code_in_table(const struct code_ctx *c, uint64_t addr)
{
	size_t lo = 0, hi = c->ntables;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < c->tables[mid].start)
			hi = mid;
		else if (addr >= c->tables[mid].end)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

static size_t slot_of(const struct addr_map *map, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (map->cap - 1);
}

void addr_map_put(struct addr_map *map, uint64_t key, uint64_t value)
{
	size_t i;

	if ((map->count + 1) * 2 > map->cap) {
		struct addr_map bigger = { 0 };
		size_t j;

		bigger.cap = map->cap ? map->cap * 2 : 64;
		bigger.keys = xcalloc(bigger.cap, sizeof(*bigger.keys));
		bigger.values = xcalloc(bigger.cap, sizeof(*bigger.values));
		for (j = 0; j < map->cap; j++)
			if (map->keys[j])
				addr_map_put(&bigger, map->keys[j], map->values[j]);
		addr_map_free(map);
		*map = bigger;
	}
	/* Key 0 marks an empty slot: address 0 is never a word elfcet looks up. */
	if (!key)
		return;
	for (i = slot_of(map, key); map->keys[i] && map->keys[i] != key;
	     i = (i + 1) & (map->cap - 1))
		;
	if (!map->keys[i])
		map->count++;
	map->keys[i] = key;
	map->values[i] = value;
}

bool addr_map_get(const struct addr_map *map, uint64_t key, uint64_t *value)
{
	size_t i;

	if (!map->cap || !key)
		return false;
	for (i = slot_of(map, key); map->keys[i]; i = (i + 1) & (map->cap - 1)) {
		if (map->keys[i] == key) {
			*value = map->values[i];
			return true;
		}
	}
	return false;
}

void addr_map_free(struct addr_map *map)
{
	free(map->keys);
	free(map->values);
	memset(map, 0, sizeof(*map));
}

const char *vsyscall_name(uint64_t addr)
{
	switch (addr - VSYSCALL_PAGE) {
	case 0x000:
		return "gettimeofday";
	case 0x400:
		return "time";
	case 0x800:
		return "getcpu";
	default:
		return "an unknown vsyscall";
	}
}

bool is_vsyscall_entry(uint64_t addr)
{
	return addr == VSYSCALL_PAGE || addr == VSYSCALL_PAGE + 0x400 ||
	       addr == VSYSCALL_PAGE + 0x800;
}
