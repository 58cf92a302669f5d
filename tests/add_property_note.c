/* add-property-note: writes a copy of an ELF64 x86-64 file that has no GNU property note
 * (such as Debian 12's ld.so) with one added, so the VM runs can check how the kernel
 * reads an interpreter's note before `elfcet mark` exists.
 *
 *   add-property-note FEATURE_1_AND ISA_1_NEEDED IN OUT
 *
 * The note (x86_feature_1_and, then x86_isa_1_needed, as `ld -z ibt -z x86-64-baseline`
 * writes them) goes into the zero padding after the file contents of the first PT_LOAD,
 * which is extended to cover it, so the note is mapped as glibc expects; the file's
 * PT_NOTE program header becomes the PT_GNU_PROPERTY that describes it. Nothing else
 * moves: the file's code and data stay byte for byte. The helper refuses any file
 * where this is not possible. */
#include "config.h"

#include "util/byteorder.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NOTE_SIZE 48 /* header 12 + "GNU\0" + two 16-byte properties */

static void die(const char *path, const char *what)
{
	fprintf(stderr, "add-property-note: %s: %s\n", path, what);
	exit(2);
}

static unsigned long parse_value(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v > 0xffffffffUL)
		die(s, "not a 32-bit value");
	return v;
}

static unsigned char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	struct stat sb;
	unsigned char *bytes;

	if (!f || fstat(fileno(f), &sb) != 0)
		die(path, strerror(errno));
	bytes = malloc((size_t)sb.st_size);
	if (!bytes || fread(bytes, 1, (size_t)sb.st_size, f) != (size_t)sb.st_size)
		die(path, "cannot read the file");
	fclose(f);
	*size = (size_t)sb.st_size;
	return bytes;
}

int main(int argc, char **argv)
{
	unsigned char *b, *ph, *load = NULL, *note_ph = NULL, *note;
	unsigned long feature, isa;
	size_t size, phoff, phentsize, phnum, i;
	uint64_t end, at, next_offset = UINT64_MAX;
	struct stat sb;
	FILE *out;

	if (argc != 5) {
		fprintf(stderr, "usage: add-property-note FEATURE_1_AND ISA_1_NEEDED IN OUT\n");
		return 2;
	}
	feature = parse_value(argv[1]);
	isa = parse_value(argv[2]);
	b = read_file(argv[3], &size);
	if (size < sizeof(Elf64_Ehdr) || memcmp(b, ELFMAG, SELFMAG) != 0 ||
	    b[EI_CLASS] != ELFCLASS64 || (load_le32(b + 18) & 0xffff) != EM_X86_64)
		die(argv[3], "not an ELF64 x86-64 file");
	phoff = load_le64(b + 32);
	phentsize = load_le32(b + 54) & 0xffff;
	phnum = load_le32(b + 56) & 0xffff;
	if (phentsize != sizeof(Elf64_Phdr) || phoff > size || phnum * phentsize > size - phoff)
		die(argv[3], "bad program header table");

	for (i = 0; i < phnum; i++) {
		ph = b + phoff + i * phentsize;
		switch (load_le32(ph)) {
		case PT_GNU_PROPERTY:
			die(argv[3], "already has PT_GNU_PROPERTY");
			break;
		case PT_NOTE:
			if (!note_ph)
				note_ph = ph;
			break;
		case PT_LOAD:
			if (!load)
				load = ph;
			else if (load_le64(ph + 8) < next_offset)
				next_offset = load_le64(ph + 8);
			break;
		}
	}
	if (!load || !note_ph)
		die(argv[3], "needs a PT_LOAD and a PT_NOTE to reuse");
	/* p_offset 8, p_vaddr 16, p_paddr 24, p_filesz 32, p_memsz 40, p_align 48 */
	if (load_le64(load + 32) != load_le64(load + 40))
		die(argv[3], "the first PT_LOAD has a .bss: no padding to use");
	end = load_le64(load + 8) + load_le64(load + 32);
	at = (end + 7) & ~(uint64_t)7;
	/* The padding must be zeros, in the same page, before the next segment's bytes. */
	if (at + NOTE_SIZE > next_offset || at + NOTE_SIZE > size ||
	    ((at + NOTE_SIZE - 1) >> 12) != ((end - 1) >> 12))
		die(argv[3], "no room after the first PT_LOAD");
	for (i = end; i < at + NOTE_SIZE; i++)
		if (b[i])
			die(argv[3], "the padding after the first PT_LOAD is not zero");

	note = b + at;
	store_le32(note, 4);	  /* n_namesz */
	store_le32(note + 4, 32); /* n_descsz: two properties */
	store_le32(note + 8, NT_GNU_PROPERTY_TYPE_0);
	memcpy(note + 12, "GNU", 4);
	store_le32(note + 16, GNU_PROPERTY_X86_FEATURE_1_AND);
	store_le32(note + 20, 4);
	store_le32(note + 24, (uint32_t)feature);
	store_le32(note + 32, GNU_PROPERTY_X86_ISA_1_NEEDED);
	store_le32(note + 36, 4);
	store_le32(note + 40, (uint32_t)isa);

	store_le64(load + 32, at + NOTE_SIZE - load_le64(load + 8));
	store_le64(load + 40, at + NOTE_SIZE - load_le64(load + 8));
	store_le32(note_ph, PT_GNU_PROPERTY);
	store_le32(note_ph + 4, PF_R);
	store_le64(note_ph + 8, at);
	store_le64(note_ph + 16, load_le64(load + 16) + (at - load_le64(load + 8)));
	store_le64(note_ph + 24, load_le64(load + 24) + (at - load_le64(load + 8)));
	store_le64(note_ph + 32, NOTE_SIZE);
	store_le64(note_ph + 40, NOTE_SIZE);
	store_le64(note_ph + 48, 8);

	out = fopen(argv[4], "wb");
	if (!out || fwrite(b, 1, size, out) != size || fclose(out) != 0)
		die(argv[4], "cannot write the output");
	if (stat(argv[3], &sb) == 0)
		chmod(argv[4], sb.st_mode & 07777);
	free(b);
	return 0;
}
