/* The GNU property note of a file: where it is, what it says, and how each consumer
 * (the kernel's ELF loader, glibc's ld.so) reads it. */
#ifndef ELFCET_PROPERTY_NOTE_H
#define ELFCET_PROPERTY_NOTE_H

#include "elf/elf_model.h"
#include "property/consumer_reading.h"
#include "problem.h"
#include "util/error.h"

#include <stdbool.h>
#include <stdint.h>

struct rule_set;

enum property_source {
	PROPERTY_SOURCE_NONE,
	PROPERTY_SOURCE_PT_GNU_PROPERTY,
	PROPERTY_SOURCE_PT_NOTE, /* in a PT_NOTE only: the kernel never sees it */
	PROPERTY_SOURCE_SECTION, /* in a section only: no loader sees it */
};

struct gnu_property {
	uint32_t type;
	uint32_t datasz;
	uint64_t value; /* for 4- and 8-byte properties */
	bool has_value;
};

#define PROPERTY_MAX 32

/* The note as written in the file, decoded as far as its bounds allow. */
struct property_note {
	enum property_source source;
	uint64_t container_offset; /* file offset and size of the segment or section */
	uint64_t container_size;
	uint64_t note_offset; /* file offset of the GNU property note header */
	uint32_t descsz;
	unsigned align; /* 8 for ELF64, 4 for ELF32 */
	unsigned notes; /* GNU property notes in the container */
	size_t count;
	struct gnu_property props[PROPERTY_MAX];
	bool complete; /* every property decoded */
	bool has_feature_1_and, has_isa_1_needed;
	uint32_t feature_1_and, isa_1_needed;
};

struct property_report {
	struct property_note note;
	struct consumer_reading kernel; /* fs/binfmt_elf.c parse_elf_properties() with CET */
	struct consumer_reading glibc;	/* a CET-enabled glibc 2.36 ld.so */
	bool kernel_reads_interpreter;	/* the kernel reads PT_INTERP's note, not this one */
	bool kernel_reads_own_note;	/* property_kernel_reads_own_note() */
};

/* Finds and decodes the note; false when the file has none anywhere. */
bool property_note_find(const struct elf_model *m, struct property_note *note);

/* True when the kernel may read this file's own note at exec: a program without an
 * interpreter, or a shared object that needs nothing (ld.so itself). A library with
 * DT_NEEDED, or a program with PT_INTERP, is only ever read by ld.so. */
bool property_kernel_reads_own_note(const struct elf_model *m);

/* True when FEATURE_1_AND BITS is what ld.so reads (GLIBC) and what the kernel reads
 * (KERNEL), the latter only when KERNEL_READS_OWN_NOTE. */
bool property_loaders_read(bool kernel_reads_own_note, const struct consumer_reading *kernel,
			   const struct consumer_reading *glibc, uint32_t bits);

/* The kernel's reading: its PT_GNU_PROPERTY parser, step by step. */
void property_kernel_read(const struct elf_model *m, struct consumer_reading *r);

/* glibc 2.36's reading: PT_NOTE segments only, program headers scanned backwards. */
void property_glibc_read(const struct elf_model *m, struct consumer_reading *r);

/* All of the above, with every problem added to PROBLEMS (severities from RULES). */
void property_check(const struct elf_model *m, const struct rule_set *rules,
		    struct property_report *rep, struct problem_list *problems);

/* FEATURE_1_AND of PATH as written in its note; *PRESENT false when it has none.
 * 0 on success; -1 with a one-line message naming the file in ERR. */
int property_read_feature_1_and(const char *path, uint32_t *bits, bool *present,
				struct elfcet_error *err);

const char *property_source_name(enum property_source s);

#endif
