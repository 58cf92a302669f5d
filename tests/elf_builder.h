/* Building small synthetic ELF files for unit tests: an ELF header, a PT_LOAD over the
 * whole file, and a GNU property note under PT_GNU_PROPERTY and/or PT_NOTE, with every
 * field a test may want to get wrong exposed. */
#ifndef ELFCET_TESTS_ELF_BUILDER_H
#define ELFCET_TESTS_ELF_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct test_property {
	uint32_t type;
	uint32_t datasz;
	uint64_t value; /* written little-endian in min(datasz, 8) bytes */
};

struct test_note {
	uint32_t namesz;  /* 0: 4 */
	const char *name; /* NULL: "GNU" */
	uint32_t type;	  /* 0: NT_GNU_PROPERTY_TYPE_0 */
	int64_t descsz;	  /* -1: computed from the properties */
	size_t count;
	struct test_property props[8];
};

struct test_elf {
	int elf_class; /* 32 or 64 */
	bool has_interp;
	bool pt_gnu_property;	     /* a PT_GNU_PROPERTY over the notes */
	bool pt_note;		     /* a PT_NOTE over the notes */
	uint64_t gnu_property_align; /* 0: the word size */
	uint64_t note_align;	     /* 0: the word size */
	int64_t gnu_property_filesz; /* -1: the notes' size */
	size_t nnotes;
	struct test_note notes[3];
};

/* Writes the described file to a new temporary file and returns its path (free it and
 * unlink it when done). */
char *test_elf_write(const struct test_elf *spec);

/* A property note holding FEATURE_1_AND = F1 and ISA_1_NEEDED = ISA, as gcc + ld make. */
struct test_elf test_elf_default(int elf_class, uint32_t f1, uint32_t isa);

#endif
