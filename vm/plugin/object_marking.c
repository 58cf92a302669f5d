#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "object_marking.h"

#include <elf.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef NT_GNU_PROPERTY_TYPE_0
#define NT_GNU_PROPERTY_TYPE_0 5
#endif
#define PROPERTY_X86_FEATURE_1_AND 0xc0000002u

static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Walk one note segment [p, p+size) looking for the feature property. */
static uint32_t scan_notes(const uint8_t *p, size_t size, size_t align)
{
	size_t off = 0;
	while (off + 12 <= size) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		size_t name_off = off + 12;
		size_t desc_off = name_off + align_up(namesz, 4);
		if (desc_off > size || descsz > size - desc_off)
			return 0;
		if (type == NT_GNU_PROPERTY_TYPE_0 && namesz == 4 && memcmp(p + name_off, "GNU", 4) == 0) {
			size_t q = 0;
			while (q + 8 <= descsz) {
				uint32_t pr_type, pr_size;
				memcpy(&pr_type, p + desc_off + q, 4);
				memcpy(&pr_size, p + desc_off + q + 4, 4);
				if (pr_size > descsz - q - 8)
					return 0;
				if (pr_type == PROPERTY_X86_FEATURE_1_AND && pr_size == 4) {
					uint32_t bits;
					memcpy(&bits, p + desc_off + q + 8, 4);
					return bits;
				}
				q += 8 + align_up(pr_size, align);
			}
		}
		off = desc_off + align_up(descsz, align);
	}
	return 0;
}

uint32_t object_marking_read(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	struct stat st;
	uint32_t bits = 0;
	if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(Elf32_Ehdr)) {
		close(fd);
		return 0;
	}
	size_t size = (size_t)st.st_size;
	const uint8_t *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return 0;
	if (memcmp(map, ELFMAG, SELFMAG) != 0)
		goto out;

	bool is64 = map[EI_CLASS] == ELFCLASS64;
	uint64_t phoff;
	unsigned phnum, phentsize;
	if (is64) {
		const Elf64_Ehdr *eh = (const void *)map;
		if (size < sizeof(*eh))
			goto out;
		phoff = eh->e_phoff, phnum = eh->e_phnum, phentsize = eh->e_phentsize;
		if (phentsize != sizeof(Elf64_Phdr))
			goto out;
	} else {
		const Elf32_Ehdr *eh = (const void *)map;
		phoff = eh->e_phoff, phnum = eh->e_phnum, phentsize = eh->e_phentsize;
		if (phentsize != sizeof(Elf32_Phdr))
			goto out;
	}
	if (phoff > size || (uint64_t)phnum * phentsize > size - phoff)
		goto out;

	for (unsigned i = 0; i < phnum && bits == 0; i++) {
		uint32_t type;
		uint64_t offset, filesz, align;
		if (is64) {
			Elf64_Phdr ph;
			memcpy(&ph, map + phoff + (uint64_t)i * phentsize, sizeof(ph));
			type = ph.p_type, offset = ph.p_offset, filesz = ph.p_filesz, align = ph.p_align;
		} else {
			Elf32_Phdr ph;
			memcpy(&ph, map + phoff + (uint64_t)i * phentsize, sizeof(ph));
			type = ph.p_type, offset = ph.p_offset, filesz = ph.p_filesz, align = ph.p_align;
		}
		if (type != PT_NOTE || offset > size || filesz > size - offset)
			continue;
		/* Property notes are 8-aligned in ELF64 and 4-aligned in ELF32. */
		size_t note_align = is64 ? 8 : 4;
		if (align != note_align)
			continue;
		bits = scan_notes(map + offset, filesz, note_align);
	}
out:
	munmap((void *)map, size);
	return bits;
}
