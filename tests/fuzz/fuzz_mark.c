/* Fuzz target: mark's plan and its checks on an image in memory, with an oracle of its
 * own. The input's first byte is the request (bit 0 set IBT, bit 1 set SHSTK, bit 2
 * clear IBT, bit 3 clear SHSTK), the rest the file. Whenever mark would write (the plan
 * passed its checks), the planned image — the bytes mark_write_file writes and then
 * compares on disk — must read, for the model and for the kernel's and glibc's readers,
 * as the original: the same interpreter, every segment inside the file, PT_PHDR inside a
 * PT_LOAD, the same loaded bytes outside the planned ranges, the same bytes after the
 * ELF image (a payload) at the end of the file, the same headers of note segments ld.so
 * walks by a p_memsz other than their p_filesz, and the requested bits and nothing else,
 * as the kernel and ld.so read them by the oracle's own statement (loaders_oracle.h),
 * not by the models mark itself checks with. The file write itself (temporary file,
 * rename) is not fuzzed. */
#include "config.h"

#include "fuzz_input.h"
#include "loaders_oracle.h"
#include "property/gnu_property.h"
#include "mark/mark.h"
#include "property/property_note.h"

#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void oracle_fail(const char *what)
{
	fprintf(stderr, "fuzz_mark oracle: %s\n", what);
	abort();
}

static bool phdr_covered(const struct elf_model *m, const GElf_Phdr *phdr)
{
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *l = &m->phdrs[i];

		if (l->p_type == PT_LOAD && phdr->p_vaddr >= l->p_vaddr &&
		    phdr->p_vaddr - l->p_vaddr < l->p_filesz &&
		    phdr->p_filesz <= l->p_filesz - (phdr->p_vaddr - l->p_vaddr) &&
		    l->p_offset + (phdr->p_vaddr - l->p_vaddr) == phdr->p_offset)
			return true;
	}
	return false;
}

/* Every byte BEFORE loads from the file, outside the plan's ranges, AFTER loads too,
 * each address read the model's way on both sides (the first PT_LOAD that maps it). */
static void same_loaded_bytes(const struct elf_model *before, const struct elf_model *after,
			      const struct mark_plan *plan)
{
	size_t i;

	for (i = 0; i < before->phnum; i++) {
		const GElf_Phdr *ph = &before->phdrs[i];
		uint64_t done = 0;

		if (ph->p_type != PT_LOAD)
			continue;
		while (done < ph->p_filesz) {
			uint64_t aoff, avail, boff, bavail, k;

			if (!elf_model_vaddr_to_offset(before, ph->p_vaddr + done, &boff, &bavail))
				oracle_fail("the model does not map a loaded byte");
			if (!elf_model_vaddr_to_offset(after, ph->p_vaddr + done, &aoff, &avail))
				oracle_fail("a loaded byte is no longer loaded from the file");
			if (avail > bavail)
				avail = bavail;
			if (avail > ph->p_filesz - done)
				avail = ph->p_filesz - done;
			for (k = 0; k < avail; k++)
				if (!mark_edit_covers(&plan->edit, boff + k) &&
				    after->data[aoff + k] != before->data[boff + k])
					oracle_fail("a loaded byte outside the change differs");
			done += avail;
		}
	}
}

static void reach(uint64_t *end, uint64_t off, uint64_t len)
{
	if (len && off + len >= off && off + len > *end)
		*end = off + len;
}

/* Bytes after everything the headers describe, read through libelf, are a payload its
 * program may find from the end of the file: they stay where they are, and end it. */
static void same_payload(const struct elf_model *before, const struct elf_model *after)
{
	uint64_t end = 0;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t i;

	if (!gelf_getehdr(before->elf, &eh))
		return;
	reach(&end, 0, eh.e_ehsize);
	reach(&end, eh.e_phoff, (uint64_t)eh.e_phnum * eh.e_phentsize);
	if (eh.e_shoff)
		reach(&end, eh.e_shoff, (uint64_t)(eh.e_shnum ? eh.e_shnum : 1) * eh.e_shentsize);
	for (i = 0; i < before->phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(before->elf, (int)i, &ph))
			reach(&end, ph.p_offset, ph.p_filesz);
	}
	while (before->shnum && (scn = elf_nextscn(before->elf, scn)) != NULL) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS)
			reach(&end, sh.sh_offset, sh.sh_size);
	}
	if (end >= before->size)
		return;
	if (after->size != before->size)
		oracle_fail("the bytes after the ELF image no longer end the file");
	if (memcmp(before->data + end, after->data + end, before->size - end) != 0)
		oracle_fail("the bytes after the ELF image changed");
}

/* ld.so walks a note segment by p_memsz: one whose p_memsz is not its p_filesz keeps its
 * header. */
static void same_notes_by_memsz(const struct elf_model *before, const struct elf_model *after)
{
	size_t i, j;

	for (i = 0; i < before->phnum; i++) {
		const GElf_Phdr *ph = &before->phdrs[i];
		bool kept = false;

		if (ph->p_type != PT_NOTE || ph->p_memsz == ph->p_filesz)
			continue;
		for (j = 0; j < after->phnum; j++)
			kept |= memcmp(&after->phdrs[j], ph, sizeof(*ph)) == 0;
		if (!kept)
			oracle_fail("a note segment walked by p_memsz changed");
	}
}

/* ld.so, and the kernel for a file it starts, read WANT from the planned image, by the
 * oracle's own statement of what they read (loaders_oracle.h), not the models mark
 * checks itself with. A reader that could not read the original is not held to it. */
static void loaders_read_want(const struct elf_model *before, const struct mark_plan *plan,
			      uint32_t want)
{
	struct lo_elf b, a;
	uint32_t bits, old_bits;
	enum lo_result r, old_r;

	if (!lo_open(&b, before->data, before->size))
		return;
	if (!lo_open(&a, plan->edit.image, plan->edit.size))
		oracle_fail("the loaders cannot read the result's program headers");
	r = lo_ldso_reads(&a, &bits);
	old_r = lo_ldso_reads(&b, &old_bits);
	if (r == LO_FAILS && old_r == LO_READ)
		oracle_fail("ld.so faults walking the result's notes");
	if (r == LO_READ && old_r != LO_UNDETERMINED && bits != want)
		oracle_fail(want ? "ld.so does not read the requested bits"
				 : "ld.so still reads CET bits after clearing them");
	if (!lo_kernel_starts(&a))
		return;
	r = lo_kernel_reads(&a, &bits);
	old_r = lo_kernel_reads(&b, &old_bits);
	if (r == LO_FAILS && old_r == LO_READ)
		oracle_fail("the kernel fails to exec the result");
	if (r == LO_READ && bits != want)
		oracle_fail(want ? "the kernel does not read the requested bits"
				 : "the kernel still reads CET bits after clearing them");
}

static void check_result(const struct elf_model *before, const struct mark_plan *plan,
			 const struct mark_request *req)
{
	struct property_note old_note, new_note;
	const GElf_Phdr *phdr, *old_phdr;
	struct elf_model after;
	uint32_t want;
	struct elfcet_error msg;
	size_t i;

	if (elf_model_open_memory(&after, "planned", plan->edit.image, plan->edit.size, &msg) !=
	    ELF_OPEN_OK)
		oracle_fail(msg.text);
	if ((before->interp == NULL) != (after.interp == NULL) ||
	    (before->interp && strcmp(before->interp, after.interp) != 0))
		oracle_fail("the interpreter changed");
	for (i = 0; i < after.phnum; i++) {
		const GElf_Phdr *ph = &after.phdrs[i];

		if (ph->p_type != PT_NULL && ph->p_filesz &&
		    (ph->p_offset > after.size || ph->p_filesz > after.size - ph->p_offset))
			oracle_fail("a segment runs past the end of the file");
	}
	phdr = elf_model_find_phdr(&after, PT_PHDR);
	old_phdr = elf_model_find_phdr(before, PT_PHDR);
	if (phdr && old_phdr && phdr_covered(before, old_phdr) && !phdr_covered(&after, phdr))
		oracle_fail("PT_PHDR is not covered by a PT_LOAD");
	same_loaded_bytes(before, &after, plan);
	same_payload(before, &after);
	same_notes_by_memsz(before, &after);

	property_note_find(before, &old_note);
	property_note_find(&after, &new_note);
	want = ((old_note.has_feature_1_and ? old_note.feature_1_and : 0) | req->set) & ~req->clear;
	if (want != plan->new_bits)
		oracle_fail("the plan sets other bits than requested");
	loaders_read_want(before, plan, want);
	if (new_note.has_isa_1_needed != old_note.has_isa_1_needed ||
	    new_note.isa_1_needed != old_note.isa_1_needed)
		oracle_fail("ISA_1_NEEDED changed");
	elf_model_close(&after);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mark_request req;
	struct mark_plan plan;
	struct fuzz_input in;
	struct elfcet_error err;

	if (size < 1)
		return 0;
	req.set = (data[0] & 1 ? FEATURE_1_IBT : 0) | (data[0] & 2 ? FEATURE_1_SHSTK : 0);
	req.clear = (data[0] & 4 ? FEATURE_1_IBT : 0) | (data[0] & 8 ? FEATURE_1_SHSTK : 0);
	fuzz_input_open(&in, data + 1, size - 1);
	if (in.open) {
		if (mark_plan_checked(&in.m, &req, &plan, &err) == 0 &&
		    plan.layout != MARK_LAYOUT_UNCHANGED)
			check_result(&in.m, &plan, &req);
		mark_plan_free(&plan);
	}
	fuzz_input_close(&in);
	return 0;
}
