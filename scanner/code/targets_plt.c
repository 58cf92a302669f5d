/* The PLT: with an IBT PLT (.plt.sec) every .plt.sec entry may be a function's canonical
 * address and so a target, as are the lazy .plt slots; a non-IBT lazy PLT cannot be made
 * to work under IBT and is one finding. Also names each PLT entry after its GOT slot,
 * for the returns-twice check. */
#include "config.h"

#include "code/targets.h"

#include "util/byteorder.h"

#include <string.h>

struct plt_sections {
	GElf_Shdr plt, plt_sec, plt_got;
	bool has_plt, has_plt_sec, has_plt_got;
};

static void find_sections(const struct code_ctx *c, struct plt_sections *ps)
{
	const struct elf_section *sec;

	memset(ps, 0, sizeof(*ps));
	for (sec = c->m->sections; sec < c->m->sections + c->m->nsections; sec++) {
		const GElf_Shdr sh = sec->sh;
		const char *name = sec->name;

		if (!name)
			continue;
		if (strcmp(name, ".plt") == 0) {
			ps->plt = sh;
			ps->has_plt = true;
		} else if (strcmp(name, ".plt.sec") == 0) {
			ps->plt_sec = sh;
			ps->has_plt_sec = true;
		} else if (strcmp(name, ".plt.got") == 0) {
			ps->plt_got = sh;
			ps->has_plt_got = true;
		}
	}
}

/* The GOT slot an entry jumps through: jmp *disp(%rip), jmp *disp(%ebx) (%ebx holding
 * GOT, DT_PLTGOT's value), jmp *abs. */
static bool entry_slot(const struct code_ctx *c, uint64_t entry, uint64_t size, uint64_t got,
		       uint64_t *slot)
{
	const unsigned char *p;
	size_t avail;
	uint64_t i;

	p = code_bytes(c, entry, &avail);
	if (!p || avail < size)
		return false;
	for (i = 0; i + 6 <= size; i++) {
		if (p[i] != 0xff)
			continue;
		if (p[i + 1] == 0x25) {
			int32_t disp = (int32_t)load_le32(p + i + 2);

			*slot = c->is64 ? entry + i + 6 + (uint64_t)(int64_t)disp : (uint32_t)disp;
			return true;
		}
		if (!c->is64 && p[i + 1] == 0xa3) {
			*slot = (got + (uint64_t)(int64_t)(int32_t)load_le32(p + i + 2)) &
				0xffffffffu;
			return true;
		}
	}
	return false;
}

/* The size of a PLT section as far as its code is in the file: a size read from the
 * section header is not trusted further (nor past the end of the address space). */
static uint64_t plt_extent(const struct code_ctx *c, const GElf_Shdr *sh)
{
	size_t avail = 0;

	if (!code_bytes(c, sh->sh_addr, &avail))
		return 0;
	return sh->sh_size < avail ? sh->sh_size : avail;
}

/* Entries are walked by their offset in the section: an address near the top of the
 * address space would wrap (a section at 0xffffffffffffffff looped for 2^61 steps). */
static void name_entries(struct code_ctx *c, const GElf_Shdr *sh, uint64_t entsize, uint64_t first)
{
	uint64_t off, size = plt_extent(c, sh), got = 0;

	elf_model_dynamic_value(c->m, DT_PLTGOT, &got);
	for (off = first; off <= size && entsize <= size - off; off += entsize) {
		uint64_t e = sh->sh_addr + off, slot, name;

		if (entry_slot(c, e, entsize, got, &slot) &&
		    addr_map_get(&c->slot_symbol, slot, &name))
			addr_map_put(&c->plt_symbol, e, name);
	}
}

static uint64_t entry_size(const GElf_Shdr *sh, uint64_t dflt)
{
	return sh->sh_entsize >= 8 && sh->sh_entsize <= 32 ? sh->sh_entsize : dflt;
}

/* Drops the lazy-slot targets the relocations added: summarised as one finding. */
static void drop_lazy_slots(struct code_ctx *c, const GElf_Shdr *plt)
{
	size_t i, j = 0;

	for (i = 0; i < c->ntargets; i++) {
		const struct target *t = &c->targets[i];

		if (t->via == VIA_PLT && t->addr >= plt->sh_addr &&
		    t->addr < plt->sh_addr + plt->sh_size)
			continue;
		c->targets[j++] = *t;
	}
	c->ntargets = j;
}

void targets_plt(struct code_ctx *c)
{
	struct plt_sections ps;
	size_t lazy = 0, i;

	find_sections(c, &ps);
	if (ps.has_plt_sec) {
		uint64_t es = entry_size(&ps.plt_sec, 16), off, size = plt_extent(c, &ps.plt_sec);

		name_entries(c, &ps.plt_sec, es, 0);
		for (off = 0; es <= size - off; off += es)
			code_add_target(c, ps.plt_sec.sh_addr + off, VIA_PLT, 0);
	} else if (ps.has_plt) {
		name_entries(c, &ps.plt, entry_size(&ps.plt, 16), entry_size(&ps.plt, 16));
	}
	if (ps.has_plt_got)
		name_entries(c, &ps.plt_got, entry_size(&ps.plt_got, c->is64 ? 8 : 8), 0);

	if (!ps.has_plt || ps.has_plt_sec || c->bind_now)
		return;
	for (i = 0; i < c->ntargets; i++)
		if (c->targets[i].via == VIA_PLT && c->targets[i].addr >= ps.plt.sh_addr &&
		    c->targets[i].addr < ps.plt.sh_addr + ps.plt.sh_size)
			lazy++;
	if (!lazy)
		return;
	drop_lazy_slots(c, &ps.plt);
	code_finding(c, "ibt-non-ibt-plt", ps.plt.sh_addr, "plt",
		     "lazy binding through a PLT without ENDBR (no .plt.sec, not BIND_NOW): "
		     "the PLT's tracked jmp *GOT lands on %zu lazy slot(s) without ENDBR",
		     lazy);
}
