/* The raw ELF headers (Ehdr, Phdr, Shdr, Dyn) of both classes, little-endian, as bytes.
 *
 * libelf reads headers but cannot rewrite one field of a file in place, which is what
 * `elfcet mark` does; this codec is the one place that knows each field's offset. It
 * needs only <elf.h>, so the QEMU plugin (which must not link libelf) can use it too. */
#ifndef ELFCET_ELF_HEADER_H
#define ELFCET_ELF_HEADER_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The ELF header fields that locate the two header tables. */
struct elf_raw_ehdr {
	bool is64;
	uint64_t phoff, shoff;
	uint16_t phentsize, phnum, shentsize, shnum, shstrndx;
};

/* Fields rewritten one at a time: their offsets come from elf_field_offset. */
enum elf_field {
	ELF_E_PHOFF,
	ELF_E_SHOFF,
	ELF_E_PHNUM,
	ELF_E_SHNUM,
	ELF_P_OFFSET,
	ELF_P_VADDR,
	ELF_P_PADDR,
	ELF_P_FILESZ,
	ELF_P_MEMSZ,
	ELF_SH_TYPE,
	ELF_SH_SIZE,
};

/* Byte offset of FIELD inside its header, for the class IS64. */
size_t elf_field_offset(enum elf_field field, bool is64);

static inline size_t elf_ehdr_size(bool is64)
{
	return is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
}

static inline size_t elf_phdr_size(bool is64)
{
	return is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
}

static inline size_t elf_shdr_size(bool is64)
{
	return is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
}

static inline size_t elf_sym_size(bool is64)
{
	return is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
}

/* P holds at least elf_ehdr_size(IS64) bytes; the class comes from its e_ident. */
void elf_ehdr_decode(const unsigned char *p, struct elf_raw_ehdr *eh);

/* Headers of either class in the 64-bit structures (as gelf.h's GElf_* are). */
void elf_phdr_decode(const unsigned char *p, bool is64, Elf64_Phdr *ph);
void elf_phdr_encode(unsigned char *p, bool is64, const Elf64_Phdr *ph);
void elf_shdr_decode(const unsigned char *p, bool is64, Elf64_Shdr *sh);
void elf_shdr_encode(unsigned char *p, bool is64, const Elf64_Shdr *sh);

/* "PT_DYNAMIC", "PT_NOTE"...: a program header's type for messages ("segment" for the
 * types messages have no need to name). */
const char *elf_segment_type_name(uint32_t type);
/* A dynamic entry: the tag is signed in both classes. */
void elf_dyn_decode(const unsigned char *p, bool is64, int64_t *tag, uint64_t *value);
/* A symbol's st_value and st_shndx, the fields mark moves and follows. */
void elf_sym_decode_place(const unsigned char *p, bool is64, uint64_t *value, uint16_t *shndx);

/* Writes V as a word (8 or 4 bytes) or a half (2 bytes) of the class at P. */
void elf_put_word(unsigned char *p, bool is64, uint64_t v);
void elf_put_half(unsigned char *p, uint16_t v);

#endif
