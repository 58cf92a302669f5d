/* Exported functions: other objects call them through their PLT's tracked jmp *GOT, or
 * take their address; an IFUNC's resolver is called by ld.so through a pointer. */
#include "config.h"

#include "code/targets.h"

void targets_exports(struct code_ctx *c)
{
	const struct elf_section *sec;

	for (sec = c->m->sections; sec < c->m->sections + c->m->nsections; sec++) {
		const GElf_Shdr sh = sec->sh;
		Elf_Data *data;
		size_t i, n;

		if (sh.sh_type != SHT_DYNSYM || !sh.sh_entsize)
			continue;
		data = elf_getdata(sec->scn, NULL);
		if (!data)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 1; i < n; i++) {
			GElf_Sym s;
			int type, bind, vis;

			if (!gelf_getsym(data, (int)i, &s))
				break;
			type = GELF_ST_TYPE(s.st_info);
			bind = GELF_ST_BIND(s.st_info);
			vis = GELF_ST_VISIBILITY(s.st_other);
			if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF ||
			    (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE) ||
			    (vis != STV_DEFAULT && vis != STV_PROTECTED) || !s.st_value)
				continue;
			if (code_range_of(c, s.st_value))
				code_add_target(c, s.st_value, VIA_EXPORT, 0);
		}
	}
}
