/* How the kernel reads a program's GNU property note.
 *
 * parse_elf_properties() in fs/binfmt_elf.c runs at exec for the program (or its
 * interpreter) when the architecture selects ARCH_USE_GNU_PROPERTY, as x86 does with the
 * elfcet CET series: it reads the last PT_GNU_PROPERTY, with notes aligned to 8 for ELF64
 * and 4 for ELF32 (the compat loader). kernel_note.c reads the segment's bytes. */
#include "config.h"

#include "property/property_note.h"

#include "property/kernel_note.h"

#include <string.h>

static const GElf_Phdr *last_gnu_property(const struct elf_model *m)
{
	const GElf_Phdr *found = NULL;
	size_t i;

	for (i = 0; i < m->phnum; i++)
		if (m->phdrs[i].p_type == PT_GNU_PROPERTY)
			found = &m->phdrs[i];
	return found;
}

void property_kernel_read(const struct elf_model *m, struct consumer_reading *r)
{
	const GElf_Phdr *ph = last_gnu_property(m);

	if (!ph) {
		memset(r, 0, sizeof(*r));
		r->accepted = true;
		return;
	}
	kernel_note_read(m->data, m->size, ph->p_offset, ph->p_filesz,
			 m->elf_class == ELFCLASS64 ? 8 : 4, r);
}

bool property_kernel_reads_own_note(const struct elf_model *m)
{
	uint64_t needed;

	if (m->interp)
		return false;
	return m->kind != ELF_KIND_SHARED || !elf_model_dynamic_value(m, DT_NEEDED, &needed);
}

bool property_loaders_read(bool kernel_reads_own_note, const struct consumer_reading *kernel,
			   const struct consumer_reading *glibc, uint32_t bits)
{
	bool glibc_ok = glibc->has_feature_1_and && glibc->feature_1_and == bits;
	bool kernel_ok = kernel->has_feature_1_and && kernel->feature_1_and == bits;

	return glibc_ok && (kernel_ok || !kernel_reads_own_note);
}
