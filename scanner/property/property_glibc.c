/* How glibc's ld.so reads an object's GNU property note.
 *
 * Modelled on a CET-enabled glibc 2.36 for x86 (this series' user ABI): after mapping an
 * object, ld.so walks the program headers backwards. A PT_GNU_PROPERTY goes to the
 * generic property walker, whose x86 hook in 2.36 takes no property at all: the walk
 * stops at the first one and records nothing. Only a PT_NOTE counts: the x86 note reader
 * reads it from memory (p_vaddr, p_memsz), insists on the segment's p_align being the
 * word size, does nothing once a property note has been seen, and quietly gives up on
 * anything it does not like: the marking is then ignored, never reported. Only
 * FEATURE_1_AND, ISA_1_NEEDED and 1_NEEDED matter to it. So a note behind a
 * PT_GNU_PROPERTY alone is one the kernel sees and ld.so does not. */
#include "config.h"

#include "property/property_note.h"

#include "util/byteorder.h"
#include "property/gnu_property.h"
#include "elf/note_walk.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum glibc_property_state { STATE_UNKNOWN, STATE_NONE, STATE_VALID };

struct glibc_sim {
	enum glibc_property_state state;
	uint32_t feature_1_and, isa_1_needed, needed_1;
	bool took_note;
	bool faults;	      /* it read a PT_NOTE that no PT_LOAD maps */
	uint64_t note_offset; /* file offset of the property note it took */
	const char *rule;     /* first reason it gave up, for the report */
	char detail[160];
};

static void give_up(struct glibc_sim *s, const char *rule, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void give_up(struct glibc_sim *s, const char *rule, const char *fmt, ...)
{
	va_list ap;

	if (s->rule)
		return;
	s->rule = rule;
	va_start(ap, fmt);
	vsnprintf(s->detail, sizeof(s->detail), fmt, ap);
	va_end(ap);
}

enum check_result { CHECK_SKIP_NOTE = -1, CHECK_STOP = 0, CHECK_CONTINUE = 1 };

/* The x86 property filter: which types it takes, when it stops. */
static enum check_result check_property(uint32_t type, uint32_t datasz, const unsigned char *data,
					uint32_t *f1, uint32_t *needed_1, uint32_t *isa)
{
	if (type == PROP_X86_FEATURE_1_AND || type == PROP_X86_ISA_1_NEEDED ||
	    type == PROP_1_NEEDED) {
		if (datasz != 4)
			return CHECK_SKIP_NOTE;
		if (type == PROP_X86_FEATURE_1_AND)
			*f1 = load_le32(data);
		else if (type == PROP_1_NEEDED)
			*needed_1 = load_le32(data);
		else {
			*isa = load_le32(data);
			return CHECK_STOP;
		}
	} else if (type > PROP_X86_ISA_1_NEEDED) {
		return CHECK_STOP;
	}
	return CHECK_CONTINUE;
}

/* When ld.so stops early on a sorted-looking prefix, a property it never reached is lost
 * only because the note is out of order: say so. */
static void note_unread_reason(struct glibc_sim *s, const unsigned char *desc, uint64_t descsz,
			       uint64_t off, uint32_t type, unsigned word)
{
	while (off <= descsz && descsz - off >= 8) {
		uint32_t t = load_le32(desc + off), datasz = load_le32(desc + off + 4);

		if (t < type) {
			give_up(s, "property-unsorted", "property 0x%x follows 0x%x", t, type);
			return;
		}
		if (datasz > descsz - off - 8)
			return;
		off += 8 + align_up(datasz, word);
	}
}

static const char *bad_size_rule(uint32_t type)
{
	return type == PROP_X86_FEATURE_1_AND ? "feature-1-and-bad-size" : "property-bad-size";
}

/* Segment bytes as ld.so sees them in memory; NULL when not mapped from the file. */
static const unsigned char *segment_memory(const struct elf_model *m, const GElf_Phdr *ph)
{
	return elf_model_vaddr_bytes(m, ph->p_vaddr, ph->p_memsz);
}

/* True when no PT_LOAD maps the page of VADDR: reading there faults. */
static bool vaddr_unmapped(const struct elf_model *m, uint64_t vaddr)
{
	const uint64_t page = 4096;
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *l = &m->phdrs[i];
		uint64_t start = l->p_vaddr & ~(page - 1), end = l->p_vaddr + l->p_memsz;

		if (l->p_type != PT_LOAD)
			continue;
		if (end < l->p_vaddr || end > UINT64_MAX - page)
			return false; /* wraps: no claim */
		end = (end + page - 1) & ~(page - 1);
		if (vaddr >= start && vaddr < end)
			return false;
	}
	return true;
}

static bool descsz_ok(struct glibc_sim *s, const struct elf_note_view *v, unsigned word)
{
	if (v->descsz < 8 || v->descsz % word != 0) {
		give_up(s, "property-descsz-unaligned",
			"n_descsz %u is not a non-zero multiple of %u", v->descsz, word);
		return false;
	}
	if (!v->desc_in_bounds) {
		give_up(s, "property-descsz-overrun", "n_descsz %u runs past the segment",
			v->descsz);
		return false;
	}
	return true;
}

struct glibc_values {
	uint32_t feature_1_and, needed_1, isa_1_needed;
};

enum walk_result {
	WALK_ABANDON,	/* the walker itself gave up before the x86 hook saw the property */
	WALK_SKIP_NOTE, /* the hook rejected the property: the note is dropped */
	WALK_STOP,	/* the hook has all it wants */
	WALK_NEXT,
};

/* One property of V at *OFF, with the note reader's checks; what it took
 * from it lands in GOT, and *OFF moves to the next property. */
static enum walk_result read_one(struct glibc_sim *s, const struct elf_note_view *v, uint64_t *off,
				 uint32_t *last_type, unsigned word, struct glibc_values *got)
{
	const unsigned char *p = v->desc + *off;
	uint32_t type = load_le32(p), datasz = load_le32(p + 4);
	enum check_result res;

	if (type < *last_type) {
		give_up(s, "property-unsorted", "property 0x%x follows 0x%x", type, *last_type);
		return WALK_ABANDON;
	}
	if (datasz > v->descsz - *off - 8) {
		give_up(s, "property-datasz-overrun",
			"property 0x%x: pr_datasz %u runs past the descriptor", type, datasz);
		return WALK_ABANDON;
	}
	if (type == *last_type && type == PROP_X86_FEATURE_1_AND)
		give_up(s, "property-duplicate",
			"x86_feature_1_and appears twice; ld.so keeps the last");
	*last_type = type;
	res = check_property(type, datasz, p + 8, &got->feature_1_and, &got->needed_1,
			     &got->isa_1_needed);
	if (res == CHECK_SKIP_NOTE) {
		give_up(s, bad_size_rule(type), "property 0x%x has pr_datasz %u, not 4", type,
			datasz);
		return WALK_SKIP_NOTE;
	}
	*off += 8 + align_up(datasz, word);
	if (res == CHECK_STOP) {
		note_unread_reason(s, v->desc, v->descsz, *off, type, word);
		return WALK_STOP;
	}
	return WALK_NEXT;
}

static bool more_properties(const struct elf_note_view *v, uint64_t off)
{
	return off <= v->descsz && v->descsz - off >= 8;
}

/* The x86 PT_NOTE reader: all or nothing, and nothing once a note has been seen. */
static void read_pt_note(const struct elf_model *m, const GElf_Phdr *ph, unsigned word,
			 struct glibc_sim *s)
{
	struct glibc_values acc = { 0 };
	uint32_t last_type = 0;
	const unsigned char *mem;
	struct elf_note_view v;
	uint64_t pos = 0;

	if (s->state != STATE_UNKNOWN)
		return;
	mem = segment_memory(m, ph);
	if (!mem) {
		/* ld.so decides at the first PT_NOTE of the word's alignment, whatever it
		 * finds there (zeros, bytes past a segment's file contents): none of it is
		 * a note the model can vouch for. It faults where no PT_LOAD maps the page
		 * and the segment has room for a note header. */
		if (ph->p_align == word) {
			s->state = STATE_NONE;
			s->faults = ph->p_memsz > 12 && vaddr_unmapped(m, ph->p_vaddr);
		}
		return;
	}
	if (ph->p_align != word) {
		/* Skipped whole; worth naming only when it holds the property note. */
		while (note_next(mem, ph->p_memsz, 4, &pos, &v))
			if (note_is_gnu_property(&v))
				give_up(s, "property-misaligned-segment",
					"PT_NOTE p_align is %llu, not %u",
					(unsigned long long)ph->p_align, word);
		return;
	}
	while (note_next(mem, ph->p_memsz, word, &pos, &v)) {
		uint64_t off = 0;
		enum walk_result r;

		if (!note_is_gnu_property(&v))
			continue;
		if (s->state != STATE_UNKNOWN) {
			give_up(s, "property-multiple-notes",
				"more than one GNU property note in a PT_NOTE segment");
			return;
		}
		s->state = STATE_NONE;
		s->took_note = true;
		s->note_offset = (uint64_t)(mem - m->data) + v.offset;
		if (!descsz_ok(s, &v, word))
			return;
		do {
			r = read_one(s, &v, &off, &last_type, word, &acc);
			if (r == WALK_ABANDON || r == WALK_SKIP_NOTE)
				return;
		} while (r == WALK_NEXT && more_properties(&v, off));
	}
	if (acc.feature_1_and | acc.needed_1 | acc.isa_1_needed) {
		s->state = STATE_VALID;
		s->feature_1_and = acc.feature_1_and;
		s->needed_1 = acc.needed_1;
		s->isa_1_needed = acc.isa_1_needed;
	} else {
		s->state = STATE_NONE; /* as ld.so does, even when no note was there */
	}
}

void property_glibc_read(const struct elf_model *m, struct consumer_reading *r)
{
	unsigned word = m->elf_class == ELFCLASS64 ? 8 : 4;
	struct glibc_sim s = { .state = STATE_UNKNOWN };
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = m->phnum; i-- > 0;) {
		if (m->phdrs[i].p_type == PT_NOTE) {
			if (s.state == STATE_UNKNOWN)
				read_pt_note(m, &m->phdrs[i], word, &s);
			if (s.state != STATE_UNKNOWN)
				r->sees_note = true;
		}
	}
	r->faults = s.faults;
	r->reads_note = s.took_note;
	r->note_offset = s.note_offset;
	r->accepted = s.rule == NULL;
	r->rule = s.rule;
	snprintf(r->detail, sizeof(r->detail), "%s", s.detail);
	if (s.state == STATE_VALID) {
		r->has_feature_1_and = s.feature_1_and != 0;
		r->feature_1_and = s.feature_1_and;
		r->has_isa_1_needed = s.isa_1_needed != 0;
		r->isa_1_needed = s.isa_1_needed;
	}
}
