/* Targets the loader and libc reach through pointers: the entry point of a dynamically
 * linked executable (ld.so jumps to it), DT_INIT, DT_FINI, and the init/fini arrays. */
#include "config.h"

#include "code/targets.h"

#include <string.h>

#ifndef DT_PREINIT_ARRAY
#define DT_PREINIT_ARRAY 32
#define DT_PREINIT_ARRAYSZ 33
#endif

static void array_entries(struct code_ctx *c, uint64_t addr, uint64_t size, enum evidence via)
{
	uint64_t i, off, avail;

	/* The size comes from the file: only the words the file backs at ADDR are read
	 * (the loader could not have put pointers anywhere else either). */
	if (!elf_model_vaddr_to_offset(c->m, addr, &off, &avail))
		return;
	if (size > avail)
		size = avail;
	for (i = 0; i + c->word <= size; i += c->word) {
		uint64_t v;

		/* 0 and -1 are the terminators some linkers still write. */
		if (code_read_word(c, addr + i, &v) && v &&
		    v != (c->is64 ? ~0ull : 0xffffffffull) && code_range_of(c, v))
			code_add_target(c, v, via, addr + i);
	}
}

static void dynamic_array(struct code_ctx *c, int64_t tag, int64_t sztag, enum evidence via)
{
	uint64_t addr, size;

	if (elf_model_dynamic_value(c->m, tag, &addr) &&
	    elf_model_dynamic_value(c->m, sztag, &size))
		array_entries(c, addr, size, via);
}

/* A static executable has no dynamic table: its arrays are found by section. */
static void section_arrays(struct code_ctx *c)
{
	const struct elf_section *sec;

	for (sec = c->m->sections; sec < c->m->sections + c->m->nsections; sec++) {
		const GElf_Shdr sh = sec->sh;

		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		if (sh.sh_type == SHT_INIT_ARRAY)
			array_entries(c, sh.sh_addr, sh.sh_size, VIA_INIT_ARRAY);
		else if (sh.sh_type == SHT_FINI_ARRAY)
			array_entries(c, sh.sh_addr, sh.sh_size, VIA_FINI_ARRAY);
		else if (sh.sh_type == SHT_PREINIT_ARRAY)
			array_entries(c, sh.sh_addr, sh.sh_size, VIA_PREINIT_ARRAY);
	}
}

void targets_entry(struct code_ctx *c)
{
	uint64_t v;

	/* The kernel enters a static program directly; ld.so enters the others with a
	 * jump through a register. */
	if (c->m->interp && c->m->entry && code_range_of(c, c->m->entry))
		code_add_target(c, c->m->entry, VIA_ENTRY, 0);
	if (!c->m->has_dynamic) {
		section_arrays(c);
		return;
	}
	if (elf_model_dynamic_value(c->m, DT_INIT, &v) && code_range_of(c, v))
		code_add_target(c, v, VIA_INIT, 0);
	if (elf_model_dynamic_value(c->m, DT_FINI, &v) && code_range_of(c, v))
		code_add_target(c, v, VIA_FINI, 0);
	dynamic_array(c, DT_PREINIT_ARRAY, DT_PREINIT_ARRAYSZ, VIA_PREINIT_ARRAY);
	dynamic_array(c, DT_INIT_ARRAY, DT_INIT_ARRAYSZ, VIA_INIT_ARRAY);
	dynamic_array(c, DT_FINI_ARRAY, DT_FINI_ARRAYSZ, VIA_FINI_ARRAY);
}
