/* Planning a change of a file's CET marking: the layout, the new note, the new bytes. */
#include "config.h"

#include "mark/mark_plan.h"

#include "util/error.h"

#include "util/byteorder.h"
#include "property/gnu_property.h"
#include "mark/mark_layout.h"
#include "elf/note_walk.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *mark_layout_name(enum mark_layout layout)
{
	switch (layout) {
	case MARK_LAYOUT_UNCHANGED:
		return "unchanged";
	case MARK_LAYOUT_IN_PLACE:
		return "in place";
	case MARK_LAYOUT_GROW:
		return "note grown";
	case MARK_LAYOUT_CREATE:
		return "note created";
	}
	return "unknown";
}

void mark_plan_free(struct mark_plan *plan)
{
	mark_edit_clear(&plan->edit);
	memset(plan, 0, sizeof(*plan));
}

/* Checks the note the way a careful consumer would before anything is rewritten: one
 * note, whole, sorted, FEATURE_1_AND of the right size. */
static int check_note(const struct elf_model *m, const struct property_note *note,
		      const unsigned char **desc, struct elfcet_error *err)
{
	uint64_t room, off;
	const unsigned char *hdr;
	size_t i;

	if (note->notes > 1)
		return error_set(err, "damaged property note: %u GNU property notes", note->notes);
	hdr = elf_model_file_bytes(m, note->note_offset, 16);
	if (!hdr || note->note_offset < note->container_offset)
		return error_set(err, "damaged property note: header outside the file");
	if (load_le32(hdr) != 4 || memcmp(hdr + 12, NOTE_NAME_GNU, 4) != 0)
		return error_set(err, "damaged property note: bad name");
	room = note->container_size - (note->note_offset - note->container_offset);
	if (room < 16 || note->descsz > room - 16 ||
	    !elf_model_file_bytes(m, note->note_offset + 16, note->descsz))
		return error_set(err, "damaged property note: descsz %u runs past its %s",
				 note->descsz, property_source_name(note->source));
	if (note->descsz % note->align != 0)
		return error_set(err, "damaged property note: descsz %u not a multiple of %u",
				 note->descsz, note->align);
	if (!note->complete)
		return error_set(err, "damaged property note: a property runs past descsz");
	for (i = 0; i < note->count; i++) {
		if (i > 0 && note->props[i].type <= note->props[i - 1].type)
			return error_set(err, "damaged property note: properties out of order");
		if (note->props[i].type == PROP_X86_FEATURE_1_AND && note->props[i].datasz != 4)
			return error_set(err, "damaged property note: FEATURE_1_AND of %u bytes",
					 note->props[i].datasz);
	}
	*desc = hdr + 16;
	/* The decoded count must account for every byte (no trailing garbage). */
	for (off = 0, i = 0; i < note->count; i++)
		off += 8 + align_up(note->props[i].datasz, note->align);
	if (off != note->descsz)
		return error_set(err,
				 "damaged property note: %llu stray byte(s) after the "
				 "properties",
				 (unsigned long long)(note->descsz - off));
	return 0;
}

/* The new descriptor: the old property records byte for byte, FEATURE_1_AND replaced,
 * inserted in type order or dropped when no bit is left. */
static void build_desc(const struct property_note *note, const unsigned char *old, bool present,
		       uint32_t bits, struct mark_desc *out)
{
	uint32_t rec = 8 + (uint32_t)align_up(4, note->align);
	bool placed = !present;
	uint64_t off = 0;
	size_t i;

	out->size = 0;
	memset(out->bytes, 0, sizeof(out->bytes));
	for (i = 0; i < note->count; i++) {
		uint32_t len = 8 + (uint32_t)align_up(note->props[i].datasz, note->align);

		if (!placed && note->props[i].type >= PROP_X86_FEATURE_1_AND) {
			store_le32(out->bytes + out->size, PROP_X86_FEATURE_1_AND);
			store_le32(out->bytes + out->size + 4, 4);
			store_le32(out->bytes + out->size + 8, bits);
			out->size += rec;
			placed = true;
		}
		if (note->props[i].type != PROP_X86_FEATURE_1_AND) {
			memcpy(out->bytes + out->size, old + off, len);
			out->size += len;
		}
		off += len;
	}
	if (!placed) {
		store_le32(out->bytes + out->size, PROP_X86_FEATURE_1_AND);
		store_le32(out->bytes + out->size + 4, 4);
		store_le32(out->bytes + out->size + 8, bits);
		out->size += rec;
	}
}

/* File offset of FEATURE_1_AND's value inside the note. */
static uint64_t feature_value_offset(const struct property_note *note)
{
	uint64_t off = note->note_offset + 16;
	size_t i;

	for (i = 0; i < note->count; i++) {
		if (note->props[i].type == PROP_X86_FEATURE_1_AND)
			return off + 8;
		off += 8 + align_up(note->props[i].datasz, note->align);
	}
	return 0;
}

static int copy_original(const struct elf_model *m, struct mark_plan *plan,
			 struct elfcet_error *err)
{
	plan->edit.image = malloc(m->size ? m->size : 1);
	if (!plan->edit.image)
		return error_set(err, "out of memory");
	memcpy(plan->edit.image, m->data, m->size);
	plan->edit.size = m->size;
	return 0;
}

bool note_header_left_empty(const struct property_note *note)
{
	return note->source == PROPERTY_SOURCE_PT_GNU_PROPERTY && note->container_size == 0;
}

/* True when the loaders read NOTE itself, as the consumers' models say: the note ld.so
 * takes and, for a file the kernel starts, the note the kernel reads at exec. Only then
 * does a change made to NOTE where it is take effect. */
static bool loaders_read_note(const struct elf_model *m, const struct property_note *note)
{
	struct consumer_reading glibc, kernel;

	property_glibc_read(m, &glibc);
	if (!glibc.reads_note || glibc.note_offset != note->note_offset)
		return false;
	if (!property_kernel_reads_own_note(m))
		return true;
	property_kernel_read(m, &kernel);
	return kernel.reads_note && kernel.note_offset == note->note_offset;
}

int mark_plan_make(const struct elf_model *m, const struct mark_request *req,
		   struct mark_plan *plan, struct elfcet_error *err)
{
	static const unsigned char none[1];
	const unsigned char *old_desc = none;
	struct property_note note;
	struct mark_desc *desc;
	bool found, visible;
	int rc;

	memset(plan, 0, sizeof(*plan));
	plan->edit.orig_size = m->size;
	found = property_note_find(m, &note);
	if (found && note_header_left_empty(&note)) {
		/* objcopy --remove-section leaves an empty PT_GNU_PROPERTY: no note. */
		found = false;
		memset(&note, 0, sizeof(note));
		note.align = m->elf_class == ELFCLASS64 ? 8 : 4;
	}
	if (found && check_note(m, &note, &old_desc, err) != 0)
		return -1;
	visible = found && loaders_read_note(m, &note);
	plan->old_present = note.has_feature_1_and;
	plan->old_bits = note.has_feature_1_and ? note.feature_1_and : 0;
	plan->new_bits = (plan->old_bits | req->set) & ~req->clear;
	plan->new_present = plan->new_bits != 0;

	/* Nothing to do when the bits are already as asked; a note the kernel or ld.so cannot
	 * see is still moved when bits are to be set, since setting them must take effect. */
	if (plan->new_bits == plan->old_bits && plan->new_present == plan->old_present &&
	    (visible || !req->set || !found))
		return 0;
	if (!found)
		plan->layout = MARK_LAYOUT_CREATE;
	else if (visible && note.has_feature_1_and)
		plan->layout = MARK_LAYOUT_IN_PLACE;
	else
		plan->layout = MARK_LAYOUT_GROW;

	if (plan->layout == MARK_LAYOUT_IN_PLACE && plan->new_present) {
		unsigned char v[4];

		if (copy_original(m, plan, err) != 0)
			return -1;
		store_le32(v, plan->new_bits);
		mark_edit_put(&plan->edit, feature_value_offset(&note), v, 4,
			      "FEATURE_1_AND value");
		return 0;
	}

	desc = malloc(sizeof(*desc));
	if (!desc)
		return error_set(err, "out of memory");
	build_desc(&note, old_desc, plan->new_present, plan->new_bits, desc);
	rc = 1;
	if (plan->layout == MARK_LAYOUT_IN_PLACE) {
		/* Dropping the property: the note shrinks where it is when it can. */
		rc = copy_original(m, plan, err);
		if (rc == 0)
			rc = mark_layout_in_place(m, &note, desc, plan, err);
		if (rc == 1)
			mark_edit_clear(&plan->edit);
	}
	if (rc == 1 && desc->size == 0)
		rc = error_set(err, "cannot remove the only property: its note shares a header "
				    "with other notes");
	if (rc == 1)
		rc = mark_layout_relocate(m, found ? &note : NULL, desc, plan, err);
	free(desc);
	if (rc != 0) {
		mark_plan_free(plan);
		return -1;
	}
	return 0;
}
