/* The ELF model: one mapped x86 ELF file and the views of it every analysis needs.
 *
 * The file is mapped read-only once; libelf reads it from that mapping, and the analyses
 * read bytes straight from it through the bounds-checked helpers below, so a damaged file
 * can never make an analysis read outside the mapping. */
#ifndef ELFCET_ELF_MODEL_H
#define ELFCET_ELF_MODEL_H

#include "util/byteorder.h"
#include "util/error.h"

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum elf_open_status {
	ELF_OPEN_OK,
	ELF_OPEN_NOT_ELF,     /* no ELF magic: skipped silently inside directories */
	ELF_OPEN_SKIPPED,     /* a valid ELF file elfcet does not audit (other machine, ET_REL) */
	ELF_OPEN_ERROR,       /* unreadable or damaged: the message says why */
};

/* What kind of program or library the file is, as a packager would call it. */
enum elf_kind {
	ELF_KIND_EXEC,        /* ET_EXEC with an interpreter */
	ELF_KIND_STATIC,      /* ET_EXEC without an interpreter */
	ELF_KIND_PIE,         /* ET_DYN with an interpreter */
	ELF_KIND_STATIC_PIE,  /* ET_DYN without an interpreter, DF_1_PIE set */
	ELF_KIND_SHARED,      /* ET_DYN without an interpreter: a library or ld.so itself */
};

/* One section header, read when the file is opened. */
struct elf_section {
	Elf_Scn *scn;
	GElf_Shdr sh;
	const char *name;             /* NULL when the name cannot be read */
};

struct elf_model {
	const char *path;
	const unsigned char *data;    /* the whole file, mapped read-only or in memory */
	unsigned char *owned;         /* the copy elf_model_open_copy read, freed on close */
	size_t size;
	Elf *elf;
	int elf_class;                /* ELFCLASS32 or ELFCLASS64 */
	uint16_t machine;             /* EM_386 or EM_X86_64 */
	uint16_t e_type;              /* ET_EXEC or ET_DYN */
	enum elf_kind kind;
	uint64_t entry;
	GElf_Phdr *phdrs;
	size_t phnum;
	size_t shnum;                 /* 0 when the section header table is absent or unusable */
	size_t shstrndx;
	struct elf_section *sections; /* the readable headers after the null section, in order */
	size_t nsections;
	const char *interp;           /* NUL-terminated inside the mapping, or NULL */
	bool has_dynamic;
};

/* Opens PATH. On anything but ELF_OPEN_OK the model holds nothing to close and ERR (if
 * not NULL) says why in a few words, without the path. */
enum elf_open_status elf_model_open(struct elf_model *m, const char *path,
				    struct elfcet_error *err);
/* The same over SIZE bytes at DATA, which the caller keeps alive and unchanged until
 * elf_model_close; NAME is only for messages. */
enum elf_open_status elf_model_open_memory(struct elf_model *m, const char *name,
					   const unsigned char *data, size_t size,
					   struct elfcet_error *err);
/* Opens PATH from a copy read into memory: nothing maps the file, so another process
 * truncating it cannot raise SIGBUS (elfcet mark reads files this way). */
enum elf_open_status elf_model_open_copy(struct elf_model *m, const char *path,
					 struct elfcet_error *err);
void elf_model_close(struct elf_model *m);

/* Pointer to LEN bytes at file offset OFF, or NULL when they are not all in the file. */
const unsigned char *elf_model_file_bytes(const struct elf_model *m, uint64_t off,
					  uint64_t len);

/* File offset of virtual address VADDR through the PT_LOAD that maps it from the file,
 * with the number of file-backed bytes available from there; false when none does. */
bool elf_model_vaddr_to_offset(const struct elf_model *m, uint64_t vaddr, uint64_t *off,
			       uint64_t *avail);

/* Pointer to LEN file-backed bytes at VADDR, or NULL. */
const unsigned char *elf_model_vaddr_bytes(const struct elf_model *m, uint64_t vaddr,
					   uint64_t len);

/* True when VADDR lies in an executable PT_LOAD (what the CPU could branch to). */
bool elf_model_vaddr_is_exec(const struct elf_model *m, uint64_t vaddr);

/* The first section named NAME, or NULL. */
const struct elf_section *elf_model_section_named(const struct elf_model *m, const char *name);

/* The first program header of type TYPE, or NULL. */
const GElf_Phdr *elf_model_find_phdr(const struct elf_model *m, uint32_t type);

/* Value of dynamic tag TAG from PT_DYNAMIC; false when absent. */
bool elf_model_dynamic_value(const struct elf_model *m, int64_t tag, uint64_t *value);

/* Reads an unsigned word of the file's class and byte order (little-endian x86 only).
 * Inline: the data scan calls it for every word of every data section. */
static inline uint64_t elf_model_read_word(const struct elf_model *m, const unsigned char *p)
{
	return m->elf_class == ELFCLASS64 ? load_le64(p) : load_le32(p);
}

const char *elf_kind_name(enum elf_kind kind);
const char *elf_machine_name(uint16_t machine);

#endif
