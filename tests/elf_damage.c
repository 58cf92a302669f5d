/* elf-damage: writes a copy of a marked ELF file with one thing wrong in its GNU property
 * note or its program headers, so the tests (and the VM runs) can check who rejects what.
 *
 *   elf-damage KIND IN OUT
 *
 * The input must carry a PT_GNU_PROPERTY note; kinds that reorder properties need two
 * (FEATURE_1_AND then ISA_1_NEEDED, as `ld -z ibt -z x86-64-baseline` writes them). */
#include "config.h"

#include "util/byteorder.h"
#include "elf/elf_model.h"
#include "property/property_note.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct image {
	unsigned char *bytes;
	size_t size;
	int elf_class;
	size_t phoff, phentsize, phnum;
	size_t note; /* file offset of the note in PT_GNU_PROPERTY */
	unsigned align;
};

static void die(const char *what)
{
	fprintf(stderr, "elf-damage: %s\n", what);
	exit(2);
}

/* Program header field access for both classes. */
static unsigned char *phdr(struct image *im, size_t i)
{
	return im->bytes + im->phoff + i * im->phentsize;
}

static uint32_t ph_type(struct image *im, size_t i)
{
	return load_le32(phdr(im, i));
}

static uint64_t ph_offset(struct image *im, size_t i)
{
	return im->elf_class == 64 ? load_le64(phdr(im, i) + 8) : load_le32(phdr(im, i) + 4);
}

static uint64_t ph_vaddr(struct image *im, size_t i)
{
	return im->elf_class == 64 ? load_le64(phdr(im, i) + 16) : load_le32(phdr(im, i) + 8);
}

static void ph_set_vaddr(struct image *im, size_t i, uint64_t v)
{
	if (im->elf_class == 64)
		store_le64(phdr(im, i) + 16, v);
	else
		store_le32(phdr(im, i) + 8, (uint32_t)v);
}

static void ph_set_type(struct image *im, size_t i, uint32_t type)
{
	store_le32(phdr(im, i), type);
}

static void ph_set_filesz(struct image *im, size_t i, uint64_t v)
{
	if (im->elf_class == 64)
		store_le64(phdr(im, i) + 32, v);
	else
		store_le32(phdr(im, i) + 16, (uint32_t)v);
}

static void ph_set_align(struct image *im, size_t i, uint64_t v)
{
	if (im->elf_class == 64)
		store_le64(phdr(im, i) + 48, v);
	else
		store_le32(phdr(im, i) + 28, (uint32_t)v);
}

static size_t find_phdr(struct image *im, uint32_t type)
{
	size_t i;

	for (i = 0; i < im->phnum; i++)
		if (ph_type(im, i) == type)
			return i;
	die("no such program header");
	return 0;
}

/* The PT_NOTE that starts where PT_GNU_PROPERTY does. */
static size_t find_covering_note(struct image *im)
{
	size_t i;

	for (i = 0; i < im->phnum; i++)
		if (ph_type(im, i) == PT_NOTE && ph_offset(im, i) == im->note)
			return i;
	die("no PT_NOTE starts at the property note");
	return 0;
}

static unsigned char *property(struct image *im, unsigned index)
{
	unsigned char *desc = im->bytes + im->note + 16;
	uint32_t descsz = load_le32(im->bytes + im->note + 4);
	size_t off = 0;

	while (index--) {
		off += 8 + ((load_le32(desc + off + 4) + im->align - 1) & ~(im->align - 1));
		if (off + 8 > descsz)
			die("the note has too few properties for this kind");
	}
	return desc + off;
}

static void damage(struct image *im, const char *kind)
{
	unsigned char *note = im->bytes + im->note;

	if (strcmp(kind, "unsorted") == 0) {
		unsigned char a[16];
		unsigned char *p0 = property(im, 0), *p1 = property(im, 1);

		if (im->align != 8)
			die("unsorted needs an ELF64 note");
		memcpy(a, p0, 16);
		memcpy(p0, p1, 16);
		memcpy(p1, a, 16);
	} else if (strcmp(kind, "duplicate") == 0) {
		store_le32(property(im, 1), load_le32(property(im, 0)));
	} else if (strcmp(kind, "feature-size") == 0) {
		store_le32(property(im, 0) + 4, 8);
	} else if (strcmp(kind, "bad-name") == 0) {
		note[14] = 'X';
	} else if (strcmp(kind, "bad-type") == 0) {
		store_le32(note + 8, 1);
	} else if (strcmp(kind, "descsz-overrun") == 0) {
		store_le32(note + 4, 0x100);
	} else if (strcmp(kind, "datasz-overrun") == 0) {
		store_le32(property(im, 1) + 4, 0x100);
	} else if (strcmp(kind, "padding-overrun") == 0) {
		store_le32(note + 4, load_le32(note + 4) - 4);
	} else if (strcmp(kind, "header-short") == 0) {
		store_le32(note + 4, (uint32_t)(property(im, 1) - (note + 16)) + 4);
	} else if (strcmp(kind, "too-large") == 0) {
		ph_set_filesz(im, find_phdr(im, PT_GNU_PROPERTY), 2048);
	} else if (strcmp(kind, "truncated") == 0) {
		ph_set_filesz(im, find_phdr(im, PT_GNU_PROPERTY), 8);
	} else if (strcmp(kind, "misaligned") == 0) {
		ph_set_align(im, find_covering_note(im), 4);
		ph_set_align(im, find_phdr(im, PT_GNU_PROPERTY), 4);
	} else if (strcmp(kind, "pt-note-only") == 0) {
		ph_set_type(im, find_phdr(im, PT_GNU_PROPERTY), PT_NULL);
	} else if (strcmp(kind, "pt-note-elsewhere") == 0) {
		/* The note's PT_NOTE maps, in memory, the file's other notes instead. */
		size_t own = find_covering_note(im), i;

		for (i = 0; i < im->phnum; i++)
			if (i != own && ph_type(im, i) == PT_NOTE)
				break;
		if (i == im->phnum)
			die("pt-note-elsewhere needs a second PT_NOTE");
		ph_set_vaddr(im, own, ph_vaddr(im, i));
	} else if (strcmp(kind, "section-only") == 0) {
		ph_set_type(im, find_covering_note(im), PT_NULL);
		ph_set_type(im, find_phdr(im, PT_GNU_PROPERTY), PT_NULL);
	} else {
		die("unknown kind (unsorted duplicate feature-size bad-name bad-type "
		    "descsz-overrun datasz-overrun padding-overrun header-short too-large "
		    "truncated misaligned pt-note-only pt-note-elsewhere section-only)");
	}
}

static void load(struct image *im, const char *path)
{
	struct property_note pn;
	struct elf_model m;
	struct elfcet_error msg;

	if (elf_model_open(&m, path, &msg) != ELF_OPEN_OK) {
		fprintf(stderr, "elf-damage: %s: %s\n", path, msg.text);
		exit(2);
	}
	if (!property_note_find(&m, &pn) || pn.source != PROPERTY_SOURCE_PT_GNU_PROPERTY)
		die("the input has no note in PT_GNU_PROPERTY");
	im->size = m.size;
	im->bytes = malloc(m.size);
	if (!im->bytes)
		die("out of memory");
	memcpy(im->bytes, m.data, m.size);
	im->elf_class = m.elf_class == ELFCLASS64 ? 64 : 32;
	im->phnum = m.phnum;
	im->note = pn.note_offset;
	im->align = pn.align;
	if (im->elf_class == 64) {
		im->phoff = load_le64(im->bytes + 32);
		im->phentsize = load_le32(im->bytes + 54) & 0xffff;
	} else {
		im->phoff = load_le32(im->bytes + 28);
		im->phentsize = load_le32(im->bytes + 42) & 0xffff;
	}
	elf_model_close(&m);
}

int main(int argc, char **argv)
{
	struct image im = { 0 };
	struct stat sb;
	FILE *out;

	if (argc != 4)
		die("usage: elf-damage KIND IN OUT");
	load(&im, argv[2]);
	damage(&im, argv[1]);
	out = fopen(argv[3], "wb");
	if (!out || fwrite(im.bytes, 1, im.size, out) != im.size || fclose(out) != 0)
		die("cannot write the output");
	if (stat(argv[2], &sb) == 0)
		chmod(argv[3], sb.st_mode & 07777);
	free(im.bytes);
	return 0;
}
