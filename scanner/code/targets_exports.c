/* Exported functions: other objects call them through their PLT's tracked jmp *GOT, or
 * take their address; an IFUNC's resolver is called by ld.so through a pointer. */
#include "config.h"

#include "code/targets.h"

void targets_exports(struct code_ctx *c)
{
	const struct elf_symbol *s;

	for (s = c->m->symbols; s < c->m->symbols + c->m->nsymbols; s++) {
		if (s->table->sh.sh_type != SHT_DYNSYM)
			continue;
		if ((s->type != STT_FUNC && s->type != STT_GNU_IFUNC) || s->shndx == SHN_UNDEF ||
		    (s->bind != STB_GLOBAL && s->bind != STB_WEAK && s->bind != STB_GNU_UNIQUE) ||
		    (s->visibility != STV_DEFAULT && s->visibility != STV_PROTECTED) || !s->value)
			continue;
		if (code_range_of(c, s->value))
			code_add_target(c, s->value, VIA_EXPORT, 0);
	}
}
