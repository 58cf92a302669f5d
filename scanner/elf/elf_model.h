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
	ELF_OPEN_NOT_ELF, /* no ELF magic: skipped silently inside directories */
	ELF_OPEN_SKIPPED, /* a valid ELF file elfcet does not audit (other machine, ET_REL) */
	ELF_OPEN_ERROR,	  /* unreadable or damaged: the message says why */
};

/* What kind of program or library the file is, as a packager would call it. */
enum elf_kind {
	ELF_KIND_EXEC,	     /* ET_EXEC with an interpreter */
	ELF_KIND_STATIC,     /* ET_EXEC without an interpreter */
	ELF_KIND_PIE,	     /* ET_DYN with an interpreter */
	ELF_KIND_STATIC_PIE, /* ET_DYN without an interpreter, DF_1_PIE set */
	ELF_KIND_SHARED,     /* ET_DYN without an interpreter: a library or ld.so itself */
};

/* One section header, read when the file is opened. */
struct elf_section {
	Elf_Scn *scn;
	GElf_Shdr sh;
	const char *name;	/* NULL when the name cannot be read */
	size_t index;		/* in the section header table */
	uint64_t header_offset; /* file offset of the header: e_shoff + index * e_shentsize */
};

/* One entry of a symbol table (SHT_SYMTAB or SHT_DYNSYM), decoded when the file is
 * opened so that no analysis walks the tables through libelf again. */
struct elf_symbol {
	uint64_t value; /* first: sort_by_address orders by it */
	uint64_t size;
	const char *name;		 /* NULL when the name cannot be read */
	const struct elf_section *table; /* the table holding it */
	uint32_t index;			 /* its index in that table */
	uint16_t shndx;			 /* st_shndx */
	unsigned char type, bind, visibility;
};

/* One entry of the dynamic table before DT_NULL, decoded when the file is opened. */
struct elf_dynamic_entry {
	int64_t tag;
	uint64_t value;
	uint64_t value_at; /* file offset of the value (mark moves some) */
};

struct elf_model {
	const char *path;
	const unsigned char *data; /* the whole file, mapped read-only or in memory */
	unsigned char *owned;	   /* the copy elf_model_open_copy read, freed on close */
	size_t size;
	Elf *elf;
	int elf_class;	  /* ELFCLASS32 or ELFCLASS64 */
	uint16_t machine; /* EM_386 or EM_X86_64 */
	uint16_t e_type;  /* ET_EXEC or ET_DYN */
	enum elf_kind kind;
	uint64_t entry;
	GElf_Phdr *phdrs;
	size_t phnum;
	uint64_t phoff, shoff; /* e_phoff and e_shoff: where the header tables lie */
	uint16_t phentsize, shentsize;
	size_t shnum; /* 0 when the section header table is absent or unusable */
	size_t shstrndx;
	struct elf_section *sections; /* the readable headers after the null section, in order */
	size_t nsections;
	struct elf_symbol *symbols; /* every table's entries but the null one, in table order */
	size_t nsymbols;
	struct elf_symbol *symbols_by_addr; /* the same, by value (table order within a value) */
	const char *interp;		    /* NUL-terminated inside the mapping, or NULL */
	bool has_dynamic;
	/* PT_DYNAMIC's entries up to DT_NULL, in table order, and the same by tag (table
	 * order within a tag): the analyses look tags up inside loops over PLT entries and
	 * relocations, so no lookup may walk the table again. */
	struct elf_dynamic_entry *dynamic, *dynamic_by_tag;
	size_t ndynamic;
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
const unsigned char *elf_model_file_bytes(const struct elf_model *m, uint64_t off, uint64_t len);

/* File offset of virtual address VADDR through the PT_LOAD that maps it from the file,
 * with the number of file-backed bytes available from there; false when none does. */
bool elf_model_vaddr_to_offset(const struct elf_model *m, uint64_t vaddr, uint64_t *off,
			       uint64_t *avail);

/* Pointer to LEN file-backed bytes at VADDR, or NULL. */
const unsigned char *elf_model_vaddr_bytes(const struct elf_model *m, uint64_t vaddr, uint64_t len);

/* True when VADDR lies in an executable PT_LOAD (what the CPU could branch to). */
bool elf_model_vaddr_is_exec(const struct elf_model *m, uint64_t vaddr);

/* The first section named NAME, or NULL. */
const struct elf_section *elf_model_section_named(const struct elf_model *m, const char *name);

/* The next section after PREV (NULL: the first) of type TYPE, or NULL. */
const struct elf_section *elf_model_next_section(const struct elf_model *m,
						 const struct elf_section *prev, uint32_t type);

/* The next allocated section after PREV (NULL: the first) whose addresses hold ADDR, in
 * header order, or NULL. Sections may overlap (.tbss lies over what follows it), so a
 * caller that wants a kind of section asks again after each one it refuses. */
const struct elf_section *elf_model_section_at(const struct elf_model *m, uint64_t addr,
					       const struct elf_section *prev);

/* The section with header table index NDX, or NULL when it is absent or unreadable. */
const struct elf_section *elf_model_section_by_index(const struct elf_model *m, size_t ndx);

/* File offset of program header I. */
static inline uint64_t elf_model_phdr_offset(const struct elf_model *m, size_t i)
{
	return m->phoff + (uint64_t)i * m->phentsize;
}

/* The first program header of type TYPE, or NULL. */
const GElf_Phdr *elf_model_find_phdr(const struct elf_model *m, uint32_t type);

/* Gives PT_DYNAMIC's entry *I (0 to start) from the index and advances *I: false at
 * DT_NULL or at the end. VALUE_AT, when not NULL, gets the file offset of the entry's
 * value (mark moves it). */
bool elf_model_dynamic_next(const struct elf_model *m, size_t *i, int64_t *tag, uint64_t *value,
			    uint64_t *value_at);

/* Value of the first dynamic entry with tag TAG; false when absent. A binary search of
 * the index: the table is never read again. */
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
