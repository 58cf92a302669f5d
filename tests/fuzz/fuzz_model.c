/* Fuzz target: the ELF model and every accessor the analyses use. */
#include "config.h"

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int64_t tags[] = { DT_INIT,	 DT_FINI,   DT_INIT_ARRAY,
					DT_INIT_ARRAYSZ, DT_PLTGOT, DT_FLAGS_1,
					DT_SYMTAB,	 DT_STRTAB, 36 };
	struct fuzz_input in;
	uint64_t v, off, avail;
	size_t i;

	fuzz_input_open(&in, data, size);
	if (in.open) {
		const struct elf_model *m = &in.m;

		for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
			if (elf_model_dynamic_value(m, tags[i], &v))
				elf_model_vaddr_bytes(m, v, 8);
		if (elf_model_vaddr_to_offset(m, m->entry, &off, &avail) &&
		    (off >= m->size || avail > m->size - off))
			abort();
		elf_model_vaddr_is_exec(m, m->entry);
		elf_model_section_named(m, ".text");
		for (i = 0; i < m->nsections; i++)
			elf_model_file_bytes(m, m->sections[i].sh.sh_offset,
					     m->sections[i].sh.sh_size);
		if (m->interp && strlen(m->interp) >= m->size)
			abort();
		elf_kind_name(m->kind);
	}
	fuzz_input_close(&in);
	return 0;
}
