/* How the kernel reads the bytes of a program's PT_GNU_PROPERTY.
 *
 * This follows parse_elf_properties() in fs/binfmt_elf.c: it reads at most 1 KiB of the
 * segment from the file (not from memory), takes the first note only, and rejects the
 * exec on anything malformed. Where the kernel offers no user CET feature, the series'
 * arch_elf_note_error() turns the parser's ENOEXEC into "no note" (the program runs as
 * without one); a read error (EIO) always fails the exec. Needs no libelf: the QEMU
 * plugin reads objects with it. */
#include "config.h"

#include "property/kernel_note.h"

#include "elf/note_walk.h"
#include "property/gnu_property.h"
#include "util/byteorder.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define KERNEL_NOTE_MAX 1024u

static void reject(struct consumer_reading *r, int error, const char *rule, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void reject(struct consumer_reading *r, int error, const char *rule, const char *fmt, ...)
{
	va_list ap;

	r->accepted = false;
	r->error = error;
	r->ignored_without_user_cet = error == ENOEXEC;
	r->rule = rule;
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
}

/* One property; returns false when the exec is rejected. */
static bool read_property(struct consumer_reading *r, const unsigned char *data, uint64_t *off,
			  uint64_t end, unsigned align, bool have_prev, uint32_t *prev_type)
{
	uint64_t left = end - *off;
	uint32_t type, datasz;
	uint64_t step;

	if (left < 8) {
		reject(r, ENOEXEC, "property-header-short",
		       "%llu byte(s) left in the descriptor, too few for a property header",
		       (unsigned long long)left);
		return false;
	}
	type = load_le32(data + *off);
	datasz = load_le32(data + *off + 4);
	left -= 8;
	if (datasz > left) {
		reject(r, ENOEXEC, "property-datasz-overrun",
		       "property 0x%x: pr_datasz %u runs past the descriptor (%llu left)", type,
		       datasz, (unsigned long long)left);
		return false;
	}
	step = align_up(datasz, align);
	if (step > left) {
		reject(r, ENOEXEC, "property-padding-overrun",
		       "property 0x%x: pr_datasz %u padded to %u runs past the descriptor", type,
		       datasz, align);
		return false;
	}
	if (have_prev && type <= *prev_type) {
		if (type == *prev_type)
			reject(r, ENOEXEC, "property-duplicate", "property 0x%x appears twice",
			       type);
		else
			reject(r, ENOEXEC, "property-unsorted",
			       "property 0x%x follows 0x%x: types must strictly increase", type,
			       *prev_type);
		return false;
	}
	*prev_type = type;
	if (type == PROP_X86_FEATURE_1_AND) {
		if (datasz != 4) {
			reject(r, ENOEXEC, "feature-1-and-bad-size",
			       "x86_feature_1_and has pr_datasz %u, not 4", datasz);
			return false;
		}
		r->has_feature_1_and = true;
		r->feature_1_and = load_le32(data + *off + 8);
	}
	if (type == PROP_X86_ISA_1_NEEDED && datasz == 4) {
		r->has_isa_1_needed = true;
		r->isa_1_needed = load_le32(data + *off + 8);
	}
	*off += 8 + step;
	return true;
}

void kernel_note_read(const unsigned char *file, uint64_t file_size, uint64_t offset,
		      uint64_t filesz, unsigned align, struct consumer_reading *r)
{
	uint32_t namesz, descsz, type, prev_type = 0;
	const unsigned char *data;
	uint64_t n, off, end;
	bool have_prev = false;

	memset(r, 0, sizeof(*r));
	r->sees_note = true;
	if (filesz > KERNEL_NOTE_MAX) {
		reject(r, ENOEXEC, "property-too-large",
		       "PT_GNU_PROPERTY p_filesz %llu exceeds the kernel's %u-byte limit",
		       (unsigned long long)filesz, KERNEL_NOTE_MAX);
		return;
	}
	/* kernel_read() stops at the end of the file: a short read is what it gets. */
	n = offset < file_size ? file_size - offset : 0;
	if (n > filesz)
		n = filesz;
	if (n < 16) {
		reject(r, EIO, "property-truncated",
		       "PT_GNU_PROPERTY holds %llu readable byte(s), less than a note header",
		       (unsigned long long)n);
		return;
	}
	data = file + offset;
	r->reads_note = true;
	r->note_offset = offset;
	namesz = load_le32(data);
	descsz = load_le32(data + 4);
	type = load_le32(data + 8);
	if (type != NOTE_TYPE_GNU_PROPERTY) {
		reject(r, ENOEXEC, "property-note-type", "note type %u, not %u", type,
		       NOTE_TYPE_GNU_PROPERTY);
		return;
	}
	if (namesz != 4 || memcmp(data + 12, NOTE_NAME_GNU, 4) != 0) {
		reject(r, ENOEXEC, "property-note-name", "note name is not \"GNU\" (namesz %u)",
		       namesz);
		return;
	}
	off = align_up(16, align);
	if (descsz > n - off) {
		reject(r, ENOEXEC, "property-descsz-overrun",
		       "n_descsz %u runs past the segment's %llu byte(s)", descsz,
		       (unsigned long long)(n - off));
		return;
	}
	end = off + descsz;
	while (off < end) {
		if (!read_property(r, data, &off, end, align, have_prev, &prev_type))
			return;
		have_prev = true;
	}
	r->accepted = true;
}
