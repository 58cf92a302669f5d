/* The loaders' view of a file before and after marking: what must not change. */
#include "config.h"

#include "mark/mark_view.h"

#include "elf/elf_header.h"

#include "property/gnu_property.h"
#include "util/error.h"
#include "property/property_note.h"

#include <string.h>

int mark_view_refs_inside(const struct elf_model *m, struct elfcet_error *err)
{
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if (ph->p_type == PT_NULL || ph->p_filesz == 0)
			continue;
		if (ph->p_offset > m->size || ph->p_filesz > m->size - ph->p_offset)
			return error_set(err,
					 "program header %zu (%s at offset 0x%llx, 0x%llx "
					 "bytes) runs past the end of the file: new bytes "
					 "could land under it",
					 i, elf_segment_type_name(ph->p_type),
					 (unsigned long long)ph->p_offset,
					 (unsigned long long)ph->p_filesz);
	}
	for (i = 0; i < m->nsections; i++) {
		const GElf_Shdr *sh = &m->sections[i].sh;

		if (sh->sh_type == SHT_NULL || sh->sh_type == SHT_NOBITS || sh->sh_size == 0)
			continue;
		if (sh->sh_offset > m->size || sh->sh_size > m->size - sh->sh_offset)
			return error_set(err,
					 "section %s (offset 0x%llx, 0x%llx bytes) runs "
					 "past the end of the file: the new note's bytes could land "
					 "under it",
					 m->sections[i].name ? m->sections[i].name : "?",
					 (unsigned long long)sh->sh_offset,
					 (unsigned long long)sh->sh_size);
	}
	return 0;
}

/* True when segment PH holds the property note (the plan rewrites it on purpose). */
static bool holds_note(const GElf_Phdr *ph, const struct property_note *note, bool found)
{
	return found && note->note_offset >= ph->p_offset &&
	       note->note_offset - ph->p_offset < ph->p_filesz;
}

/* The PT_LOAD after FROM whose file bytes meet [OFF, OFF+LEN), or phnum. */
static size_t load_meeting(const struct elf_model *m, size_t from, uint64_t off, uint64_t len)
{
	size_t i;

	for (i = from; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if (ph->p_type == PT_LOAD && ph->p_filesz && ph->p_offset < off + len &&
		    off < ph->p_offset + ph->p_filesz)
			return i;
	}
	return m->phnum;
}

int mark_view_plan_safe(const struct elf_model *before, const struct mark_plan *plan,
			struct elfcet_error *err)
{
	size_t i;

	/* Bytes two segments load are two things at once: changing them for one changes
	 * the other. */
	for (i = 0; i < plan->edit.nranges; i++) {
		const struct mark_range *r = &plan->edit.ranges[i];
		size_t a = load_meeting(before, 0, r->offset, r->len), b;

		if (a < before->phnum &&
		    (b = load_meeting(before, a + 1, r->offset, r->len)) < before->phnum)
			return error_set(err,
					 "the change would overwrite bytes at offset 0x%llx "
					 "that two segments load (program headers %zu and %zu)",
					 (unsigned long long)r->offset, a, b);
	}

	return 0;
}

static const GElf_Phdr *same_load(const struct elf_model *after, const GElf_Phdr *old)
{
	size_t i;

	for (i = 0; i < after->phnum; i++) {
		const GElf_Phdr *ph = &after->phdrs[i];

		if (ph->p_type == PT_LOAD && ph->p_vaddr == old->p_vaddr &&
		    ph->p_offset == old->p_offset && ph->p_flags == old->p_flags &&
		    ph->p_filesz >= old->p_filesz && ph->p_memsz >= old->p_memsz)
			return ph;
	}
	return NULL;
}

/* File bytes [OFF, OFF+LEN) of BEFORE and AFTER are equal outside the plan's ranges. */
static bool same_outside_plan(const struct elf_model *before, const struct elf_model *after,
			      const struct mark_plan *plan, uint64_t off, uint64_t len)
{
	const struct mark_edit *e = &plan->edit;
	uint64_t pos = off, end = off + len;
	size_t i;

	if (end > after->size)
		return false;
	for (i = 0; i <= e->nranges && pos < end; i++) {
		uint64_t stop = i < e->nranges ? e->ranges[i].offset : end;

		if (stop > end)
			stop = end;
		if (stop > pos && memcmp(before->data + pos, after->data + pos, stop - pos) != 0)
			return false;
		if (i < e->nranges && e->ranges[i].offset + e->ranges[i].len > pos)
			pos = e->ranges[i].offset + e->ranges[i].len;
	}
	return true;
}

static bool phdr_in_load(const struct elf_model *m, const GElf_Phdr *phdr)
{
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *l = &m->phdrs[i];

		if (l->p_type == PT_LOAD && phdr->p_vaddr >= l->p_vaddr &&
		    phdr->p_vaddr - l->p_vaddr <= l->p_filesz &&
		    phdr->p_memsz <= l->p_filesz - (phdr->p_vaddr - l->p_vaddr) &&
		    l->p_offset + (phdr->p_vaddr - l->p_vaddr) == phdr->p_offset)
			return true;
	}
	return false;
}

/* Every note segment of BEFORE but the property note's has a twin in AFTER. */
static const GElf_Phdr *lost_note(const struct elf_model *before, const struct elf_model *after,
				  const struct property_note *note, bool found)
{
	size_t i, j;

	for (i = 0; i < before->phnum; i++) {
		const GElf_Phdr *ph = &before->phdrs[i];
		bool kept = false;

		if (ph->p_type != PT_NOTE || holds_note(ph, note, found) || ph->p_filesz == 0 ||
		    ph->p_offset > before->size || ph->p_filesz > before->size - ph->p_offset)
			continue;
		for (j = 0; j < after->phnum && !kept; j++) {
			const GElf_Phdr *q = &after->phdrs[j];

			kept = q->p_type == PT_NOTE && q->p_filesz == ph->p_filesz &&
			       q->p_offset <= after->size &&
			       q->p_filesz <= after->size - q->p_offset &&
			       memcmp(before->data + ph->p_offset, after->data + q->p_offset,
				      ph->p_filesz) == 0;
		}
		if (!kept)
			return ph;
	}
	return NULL;
}

static size_t property_sections(const struct elf_model *m)
{
	size_t i, n = 0;

	for (i = 0; i < m->nsections; i++)
		if (m->sections[i].sh.sh_type == SHT_NOTE && m->sections[i].name &&
		    strcmp(m->sections[i].name, NOTE_SECTION_NAME) == 0)
			n++;
	return n;
}

static int check_notes(const struct elf_model *before, const struct elf_model *after,
		       const struct mark_plan *plan, struct elfcet_error *err)
{
	struct property_note old_note, new_note;
	bool found = property_note_find(before, &old_note);
	struct consumer_reading kernel, glibc;
	const GElf_Phdr *lost;

	lost = lost_note(before, after, &old_note, found);
	if (lost)
		return error_set(err, "the note at offset 0x%llx would be lost or changed",
				 (unsigned long long)lost->p_offset);
	if (property_sections(after) > 1 && property_sections(after) > property_sections(before))
		return error_set(err, "the result would carry a second %s section",
				 NOTE_SECTION_NAME);
	property_note_find(after, &new_note);
	if (new_note.has_isa_1_needed != old_note.has_isa_1_needed ||
	    new_note.isa_1_needed != old_note.isa_1_needed)
		return error_set(err, "ISA_1_NEEDED would change");
	property_kernel_read(after, &kernel);
	property_glibc_read(after, &glibc);
	if (glibc.faults) {
		struct consumer_reading old_glibc;

		property_glibc_read(before, &old_glibc);
		if (!old_glibc.faults)
			return error_set(err, "ld.so would read a PT_NOTE that no PT_LOAD maps "
					      "(SIGSEGV at start)");
	}
	if (plan->new_present && !property_loaders_read(property_kernel_reads_own_note(after),
							&kernel, &glibc, plan->new_bits))
		return error_set(err,
				 "the kernel or ld.so would not read FEATURE_1_AND 0x%x "
				 "(kernel 0x%x, ld.so 0x%x)",
				 plan->new_bits,
				 kernel.has_feature_1_and ? kernel.feature_1_and : 0,
				 glibc.has_feature_1_and ? glibc.feature_1_and : 0);
	if (!plan->new_present && ((kernel.has_feature_1_and && kernel.feature_1_and) ||
				   (glibc.has_feature_1_and && glibc.feature_1_and)))
		return error_set(err, "the kernel or ld.so would still read CET bits");
	return 0;
}

int mark_view_compare(const struct elf_model *before, const struct elf_model *after,
		      const struct mark_plan *plan, struct elfcet_error *err)
{
	const GElf_Phdr *phdr;
	size_t i;

	if ((before->interp == NULL) != (after->interp == NULL) ||
	    (before->interp && strcmp(before->interp, after->interp) != 0))
		return error_set(err, "the interpreter would change (from %s to %s)",
				 before->interp ? before->interp : "none",
				 after->interp ? after->interp : "none");
	for (i = 0; i < after->phnum; i++) {
		const GElf_Phdr *ph = &after->phdrs[i];

		if (ph->p_type != PT_NULL && ph->p_filesz &&
		    (ph->p_offset > after->size || ph->p_filesz > after->size - ph->p_offset))
			return error_set(err,
					 "program header %zu (%s) would run past the end "
					 "of the file",
					 i, elf_segment_type_name(ph->p_type));
	}
	phdr = elf_model_find_phdr(after, PT_PHDR);
	if (phdr && !phdr_in_load(after, phdr)) {
		const GElf_Phdr *old = elf_model_find_phdr(before, PT_PHDR);

		if (old && phdr_in_load(before, old))
			return error_set(err, "PT_PHDR would lie outside every PT_LOAD");
	}
	for (i = 0; i < before->phnum; i++) {
		const GElf_Phdr *ph = &before->phdrs[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (!same_load(after, ph))
			return error_set(err,
					 "the PT_LOAD at offset 0x%llx would be mapped "
					 "differently",
					 (unsigned long long)ph->p_offset);
		if (!same_outside_plan(before, after, plan, ph->p_offset, ph->p_filesz))
			return error_set(err,
					 "loaded bytes outside the change would differ "
					 "(PT_LOAD at offset 0x%llx)",
					 (unsigned long long)ph->p_offset);
	}
	return check_notes(before, after, plan, err);
}
