/* The raw ELF header codec: each field at its offset in each class. */
#include "config.h"

#include "elf/elf_header.h"

#include "util/byteorder.h"

/* A word: 8 bytes in ELF64, 4 in ELF32. */
static uint64_t load_word(const unsigned char *p, bool is64)
{
	return is64 ? load_le64(p) : load_le32(p);
}

size_t elf_field_offset(enum elf_field field, bool is64)
{
	switch (field) {
	case ELF_E_PHOFF:
		return is64 ? 32 : 28;
	case ELF_E_SHOFF:
		return is64 ? 40 : 32;
	case ELF_E_PHNUM:
		return is64 ? 56 : 44;
	case ELF_E_SHNUM:
		return is64 ? 60 : 48;
	case ELF_P_OFFSET:
		return is64 ? 8 : 4;
	case ELF_P_VADDR:
		return is64 ? 16 : 8;
	case ELF_P_PADDR:
		return is64 ? 24 : 12;
	case ELF_P_FILESZ:
		return is64 ? 32 : 16;
	case ELF_P_MEMSZ:
		return is64 ? 40 : 20;
	case ELF_SH_TYPE:
		return 4;
	case ELF_SH_SIZE:
		return is64 ? 32 : 20;
	}
	return 0;
}

void elf_ehdr_decode(const unsigned char *p, struct elf_raw_ehdr *eh)
{
	eh->is64 = p[EI_CLASS] == ELFCLASS64;
	if (eh->is64) {
		eh->phoff = load_le64(p + 32);
		eh->shoff = load_le64(p + 40);
		eh->phentsize = load_le16(p + 54);
		eh->phnum = load_le16(p + 56);
		eh->shentsize = load_le16(p + 58);
		eh->shnum = load_le16(p + 60);
		eh->shstrndx = load_le16(p + 62);
	} else {
		eh->phoff = load_le32(p + 28);
		eh->shoff = load_le32(p + 32);
		eh->phentsize = load_le16(p + 42);
		eh->phnum = load_le16(p + 44);
		eh->shentsize = load_le16(p + 46);
		eh->shnum = load_le16(p + 48);
		eh->shstrndx = load_le16(p + 50);
	}
}

void elf_phdr_decode(const unsigned char *p, bool is64, Elf64_Phdr *ph)
{
	ph->p_type = load_le32(p);
	if (is64) {
		ph->p_flags = load_le32(p + 4);
		ph->p_offset = load_le64(p + 8);
		ph->p_vaddr = load_le64(p + 16);
		ph->p_paddr = load_le64(p + 24);
		ph->p_filesz = load_le64(p + 32);
		ph->p_memsz = load_le64(p + 40);
		ph->p_align = load_le64(p + 48);
	} else {
		ph->p_offset = load_le32(p + 4);
		ph->p_vaddr = load_le32(p + 8);
		ph->p_paddr = load_le32(p + 12);
		ph->p_filesz = load_le32(p + 16);
		ph->p_memsz = load_le32(p + 20);
		ph->p_flags = load_le32(p + 24);
		ph->p_align = load_le32(p + 28);
	}
}

void elf_phdr_encode(unsigned char *p, bool is64, const Elf64_Phdr *ph)
{
	store_le32(p, ph->p_type);
	if (is64) {
		store_le32(p + 4, ph->p_flags);
		store_le64(p + 8, ph->p_offset);
		store_le64(p + 16, ph->p_vaddr);
		store_le64(p + 24, ph->p_paddr);
		store_le64(p + 32, ph->p_filesz);
		store_le64(p + 40, ph->p_memsz);
		store_le64(p + 48, ph->p_align);
	} else {
		store_le32(p + 4, (uint32_t)ph->p_offset);
		store_le32(p + 8, (uint32_t)ph->p_vaddr);
		store_le32(p + 12, (uint32_t)ph->p_paddr);
		store_le32(p + 16, (uint32_t)ph->p_filesz);
		store_le32(p + 20, (uint32_t)ph->p_memsz);
		store_le32(p + 24, ph->p_flags);
		store_le32(p + 28, (uint32_t)ph->p_align);
	}
}

void elf_shdr_decode(const unsigned char *p, bool is64, Elf64_Shdr *sh)
{
	sh->sh_name = load_le32(p);
	sh->sh_type = load_le32(p + 4);
	if (is64) {
		sh->sh_flags = load_le64(p + 8);
		sh->sh_addr = load_le64(p + 16);
		sh->sh_offset = load_le64(p + 24);
		sh->sh_size = load_le64(p + 32);
		sh->sh_link = load_le32(p + 40);
		sh->sh_info = load_le32(p + 44);
		sh->sh_addralign = load_le64(p + 48);
		sh->sh_entsize = load_le64(p + 56);
	} else {
		sh->sh_flags = load_le32(p + 8);
		sh->sh_addr = load_le32(p + 12);
		sh->sh_offset = load_le32(p + 16);
		sh->sh_size = load_le32(p + 20);
		sh->sh_link = load_le32(p + 24);
		sh->sh_info = load_le32(p + 28);
		sh->sh_addralign = load_le32(p + 32);
		sh->sh_entsize = load_le32(p + 36);
	}
}

void elf_shdr_encode(unsigned char *p, bool is64, const Elf64_Shdr *sh)
{
	store_le32(p, sh->sh_name);
	store_le32(p + 4, sh->sh_type);
	if (is64) {
		store_le64(p + 8, sh->sh_flags);
		store_le64(p + 16, sh->sh_addr);
		store_le64(p + 24, sh->sh_offset);
		store_le64(p + 32, sh->sh_size);
		store_le32(p + 40, sh->sh_link);
		store_le32(p + 44, sh->sh_info);
		store_le64(p + 48, sh->sh_addralign);
		store_le64(p + 56, sh->sh_entsize);
	} else {
		store_le32(p + 8, (uint32_t)sh->sh_flags);
		store_le32(p + 12, (uint32_t)sh->sh_addr);
		store_le32(p + 16, (uint32_t)sh->sh_offset);
		store_le32(p + 20, (uint32_t)sh->sh_size);
		store_le32(p + 24, sh->sh_link);
		store_le32(p + 28, sh->sh_info);
		store_le32(p + 32, (uint32_t)sh->sh_addralign);
		store_le32(p + 36, (uint32_t)sh->sh_entsize);
	}
}

void elf_dyn_decode(const unsigned char *p, bool is64, int64_t *tag, uint64_t *value)
{
	*tag = is64 ? (int64_t)load_le64(p) : (int32_t)load_le32(p);
	*value = load_word(p + (is64 ? 8 : 4), is64);
}

void elf_sym_decode_place(const unsigned char *p, bool is64, uint64_t *value, uint16_t *shndx)
{
	*value = is64 ? load_le64(p + 8) : load_le32(p + 4);
	*shndx = load_le16(p + (is64 ? 6 : 14));
}

void elf_put_word(unsigned char *p, bool is64, uint64_t v)
{
	if (is64)
		store_le64(p, v);
	else
		store_le32(p, (uint32_t)v);
}

void elf_put_half(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)(v & 0xff);
	p[1] = (unsigned char)(v >> 8);
}

const char *elf_segment_type_name(uint32_t type)
{
	switch (type) {
	case PT_LOAD:
		return "PT_LOAD";
	case PT_DYNAMIC:
		return "PT_DYNAMIC";
	case PT_INTERP:
		return "PT_INTERP";
	case PT_NOTE:
		return "PT_NOTE";
	case PT_PHDR:
		return "PT_PHDR";
	case PT_TLS:
		return "PT_TLS";
	case PT_GNU_EH_FRAME:
		return "PT_GNU_EH_FRAME";
	case PT_GNU_PROPERTY:
		return "PT_GNU_PROPERTY";
	case PT_GNU_RELRO:
		return "PT_GNU_RELRO";
	default:
		return "segment";
	}
}
