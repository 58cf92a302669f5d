/* An object's marking as the kernel reads it: the last PT_GNU_PROPERTY, through the
 * scanner's libelf-free header codec and kernel note reader, so that the plugin and
 * `elfcet audit` agree on every file (a note the kernel would reject marks nothing). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "object_marking.h"

#include "elf/elf_header.h"
#include "property/kernel_note.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The marking of the SIZE bytes at FILE, an ELF object of either class. */
static uint32_t marking_of(const unsigned char *file, size_t size)
{
	struct consumer_reading r;
	struct elf_raw_ehdr eh;
	Elf64_Phdr ph, last = { .p_type = PT_NULL };
	size_t i;

	if (size < EI_NIDENT || memcmp(file, ELFMAG, SELFMAG) != 0 ||
	    (file[EI_CLASS] != ELFCLASS32 && file[EI_CLASS] != ELFCLASS64) ||
	    size < elf_ehdr_size(file[EI_CLASS] == ELFCLASS64))
		return 0;
	elf_ehdr_decode(file, &eh);
	if (eh.phentsize != elf_phdr_size(eh.is64) || eh.phoff > size ||
	    (uint64_t)eh.phnum * eh.phentsize > size - eh.phoff)
		return 0;
	for (i = 0; i < eh.phnum; i++) {
		elf_phdr_decode(file + eh.phoff + i * eh.phentsize, eh.is64, &ph);
		if (ph.p_type == PT_GNU_PROPERTY)
			last = ph;
	}
	if (last.p_type != PT_GNU_PROPERTY)
		return 0;
	kernel_note_read(file, size, last.p_offset, last.p_filesz, eh.is64 ? 8 : 4, &r);
	return r.accepted && r.has_feature_1_and ? r.feature_1_and : 0;
}

uint32_t object_marking_read(const char *path)
{
	const unsigned char *map;
	struct stat st;
	uint32_t bits;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return 0;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return 0;
	bits = marking_of(map, (size_t)st.st_size);
	munmap((void *)map, (size_t)st.st_size);
	return bits;
}
