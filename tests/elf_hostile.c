/* elf-hostile: writes the hostile inputs of issue 19 — sizes and counts a file cannot
 * back, missing or cut tables, headers pointing where they should not — either as a
 * patched copy of a real program or as a small file made from nothing.
 *
 *   elf-hostile set-dyn TAG VALUE IN OUT        a dynamic entry's value
 *   elf-hostile set-shdr NAME FIELD VALUE IN OUT    FIELD: size offset type addr
 *   elf-hostile set-phdr TYPE FIELD VALUE IN OUT    the first header of TYPE;
 *                                               FIELD: type offset vaddr filesz memsz
 *   elf-hostile no-sections IN OUT              e_shoff, e_shnum, e_shstrndx = 0
 *   elf-hostile interp-in-phdrs IN OUT          PT_GNU_STACK becomes a PT_NULL whose
 *                                               fields hold the interpreter path, and
 *                                               PT_INTERP points there
 *   elf-hostile interp-past-end IN OUT          PT_GNU_STACK becomes a PT_INTERP that
 *                                               starts at the end of the file
 *   elf-hostile relr-repeat SIZE OUT            a small ELF64 whose SIZE-byte RELR table
 *                                               relocates the same 63 words over and over
 *   elf-hostile eh-hdr-at-end OUT               a small ELF64 whose .eh_frame_hdr is the
 *                                               last 4 bytes, its size running past them
 *   elf-hostile eh-hdr-wrap OUT                 the same with a size that wraps
 *   elf-hostile dyn-spread COUNT IN OUT         COUNT copies of the first dynamic entry
 *                                               (a DT_NEEDED) put before the others, in
 *                                               spare DT_NULL slots the link reserved
 *                                               (ld --spare-dynamic-tags=COUNT): a long
 *                                               table that still loads and runs
 *
 * Numbers may be decimal or 0x-prefixed; TAG and TYPE are numbers too. */
#include "config.h"

#include "util/byteorder.h"

#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct image {
	unsigned char *b;
	size_t size;
	bool is64;
};

static void die(const char *what)
{
	fprintf(stderr, "elf-hostile: %s\n", what);
	exit(2);
}

static uint64_t num(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (!*s || *end)
		die("bad number");
	return v;
}

/* A field of the class's width at OFF, bounds-checked against the image. */
static uint64_t get(struct image *im, uint64_t off, unsigned width)
{
	if (off > im->size || width > im->size - off)
		die("a header lies outside the file");
	return width == 8   ? load_le64(im->b + off)
	       : width == 4 ? load_le32(im->b + off)
			    : (uint64_t)(im->b[off] | im->b[off + 1] << 8);
}

static void set(struct image *im, uint64_t off, unsigned width, uint64_t v)
{
	if (off > im->size || width > im->size - off)
		die("a header lies outside the file");
	if (width == 8)
		store_le64(im->b + off, v);
	else if (width == 4)
		store_le32(im->b + off, (uint32_t)v);
	else {
		im->b[off] = (unsigned char)v;
		im->b[off + 1] = (unsigned char)(v >> 8);
	}
}

static unsigned word(struct image *im)
{
	return im->is64 ? 8 : 4;
}

/* ELF header fields. */
static uint64_t phoff(struct image *im)
{
	return get(im, im->is64 ? 32 : 28, word(im));
}
static uint64_t shoff(struct image *im)
{
	return get(im, im->is64 ? 40 : 32, word(im));
}
static uint64_t phnum(struct image *im)
{
	return get(im, im->is64 ? 56 : 44, 2);
}
static uint64_t shnum(struct image *im)
{
	return get(im, im->is64 ? 60 : 48, 2);
}
static uint64_t shstrndx(struct image *im)
{
	return get(im, im->is64 ? 62 : 50, 2);
}

/* Offsets of program header fields inside an entry. */
static uint64_t ph_field(struct image *im, const char *field)
{
	static const char *const names[] = { "type", "offset", "vaddr", "filesz", "memsz" };
	static const unsigned at64[] = { 0, 8, 16, 32, 40 }, at32[] = { 0, 4, 8, 16, 20 };
	size_t i;

	for (i = 0; i < 5; i++)
		if (strcmp(field, names[i]) == 0)
			return im->is64 ? at64[i] : at32[i];
	die("unknown program header field (type offset vaddr filesz memsz)");
	return 0;
}

static uint64_t phdr_at(struct image *im, size_t i)
{
	return phoff(im) + i * (im->is64 ? 56 : 32);
}

static uint64_t find_phdr(struct image *im, uint32_t type)
{
	size_t i;

	for (i = 0; i < phnum(im); i++)
		if (get(im, phdr_at(im, i), 4) == type)
			return phdr_at(im, i);
	die("no program header of that type");
	return 0;
}

static void set_phdr(struct image *im, uint64_t at, const char *field, uint64_t v)
{
	uint64_t f = ph_field(im, field);

	set(im, at + f, f == 0 ? 4 : word(im), v);
}

static uint64_t shdr_at(struct image *im, size_t i)
{
	return shoff(im) + i * (im->is64 ? 64 : 40);
}

static uint64_t find_section(struct image *im, const char *name)
{
	uint64_t str = shdr_at(im, shstrndx(im));
	uint64_t stroff = get(im, str + (im->is64 ? 24 : 16), word(im));
	size_t i;

	for (i = 1; i < shnum(im); i++) {
		uint64_t at = shdr_at(im, i), n = stroff + get(im, at, 4);

		if (n < im->size && strncmp((char *)im->b + n, name, im->size - n) == 0)
			return at;
	}
	die("no section of that name");
	return 0;
}

static void set_shdr(struct image *im, const char *name, const char *field, uint64_t v)
{
	uint64_t at = find_section(im, name);

	if (strcmp(field, "size") == 0)
		set(im, at + (im->is64 ? 32 : 20), word(im), v);
	else if (strcmp(field, "offset") == 0)
		set(im, at + (im->is64 ? 24 : 16), word(im), v);
	else if (strcmp(field, "type") == 0)
		set(im, at + 4, 4, v);
	else if (strcmp(field, "addr") == 0)
		set(im, at + (im->is64 ? 16 : 12), word(im), v);
	else
		die("unknown section header field (size offset type addr)");
}

static void set_dyn(struct image *im, int64_t tag, uint64_t v)
{
	uint64_t dyn = find_phdr(im, PT_DYNAMIC), off, size, i, w = word(im);

	off = get(im, dyn + ph_field(im, "offset"), w);
	size = get(im, dyn + ph_field(im, "filesz"), w);
	for (i = 0; i + 2 * w <= size; i += 2 * w) {
		uint64_t t = get(im, off + i, w);

		if (t == DT_NULL)
			break;
		if ((int64_t)(im->is64 ? t : (uint64_t)(int64_t)(int32_t)t) == tag) {
			set(im, off + i + w, w, v);
			return;
		}
	}
	die("no dynamic entry with that tag");
}

static void dyn_spread(struct image *im, uint64_t count)
{
	uint64_t dyn = find_phdr(im, PT_DYNAMIC), off, size, used, w = word(im), e = 2 * w, i;

	off = get(im, dyn + ph_field(im, "offset"), w);
	size = get(im, dyn + ph_field(im, "filesz"), w);
	get(im, off, w);
	if (size > im->size - off)
		die("the dynamic table lies outside the file");
	for (used = 0; used + e <= size && get(im, off + used, w) != DT_NULL; used += e)
		;
	if (used == 0 || used + e * (count + 1) > size)
		die("not enough spare dynamic entries (link with --spare-dynamic-tags)");
	for (i = 0; i < count * e; i++)
		if (im->b[off + used + e + i])
			die("the spare dynamic entries are not empty");
	memmove(im->b + off + count * e, im->b + off, used + e);
	for (i = 0; i < count; i++)
		memcpy(im->b + off + i * e, im->b + off + count * e, e);
}

static void interp_in_phdrs(struct image *im)
{
	uint64_t interp = find_phdr(im, PT_INTERP), stack = find_phdr(im, PT_GNU_STACK);
	uint64_t from = get(im, interp + ph_field(im, "offset"), word(im));
	uint64_t len = get(im, interp + ph_field(im, "filesz"), word(im)), at = stack + 4;

	if (len > (im->is64 ? 52u : 28u) || from + len > im->size)
		die("the interpreter path does not fit in a program header");
	set_phdr(im, stack, "type", PT_NULL);
	memset(im->b + at, 0, im->is64 ? 52 : 28);
	memcpy(im->b + at, im->b + from, len);
	/* The first PT_LOAD maps offset 0 at vaddr 0 in the PIEs this is made from. */
	set_phdr(im, interp, "offset", at);
	set_phdr(im, interp, "vaddr", at);
}

static void interp_past_end(struct image *im)
{
	uint64_t stack = find_phdr(im, PT_GNU_STACK);

	set_phdr(im, stack, "type", PT_INTERP);
	set_phdr(im, stack, "offset", im->size);
	set_phdr(im, stack, "vaddr", im->size);
	set_phdr(im, stack, "filesz", 0x1c);
	set_phdr(im, stack, "memsz", 0x1c);
}

/* A small ELF64 PIE image: header, program headers, then SIZE bytes of body at BODY. */
static void synthetic(struct image *im, size_t nph, size_t body)
{
	im->is64 = true;
	im->size = 64 + nph * 56 + body;
	im->b = calloc(1, im->size);
	if (!im->b)
		die("out of memory");
	memcpy(im->b, ELFMAG, SELFMAG);
	im->b[EI_CLASS] = ELFCLASS64;
	im->b[EI_DATA] = ELFDATA2LSB;
	im->b[EI_VERSION] = EV_CURRENT;
	set(im, 16, 2, ET_DYN);
	set(im, 18, 2, EM_X86_64);
	set(im, 20, 4, EV_CURRENT);
	set(im, 32, 8, 64);
	set(im, 52, 2, 64);
	set(im, 54, 2, 56);
	set(im, 56, 2, nph);
	set(im, 58, 2, 64);
}

static void synth_phdr(struct image *im, size_t i, uint32_t type, uint32_t flags, uint64_t off,
		       uint64_t vaddr, uint64_t filesz)
{
	uint64_t at = 64 + i * 56;

	set(im, at, 4, type);
	set(im, at + 4, 4, flags);
	set(im, at + 8, 8, off);
	set(im, at + 16, 8, vaddr);
	set(im, at + 24, 8, vaddr);
	set(im, at + 32, 8, filesz);
	set(im, at + 40, 8, filesz);
	set(im, at + 48, 8, type == PT_LOAD ? 0x1000 : 8);
}

/* PT_LOAD over the file at 0x10000 (executable, so the relocated words look like code
 * pointers), PT_DYNAMIC with DT_RELR; the table alternates an address entry and an
 * all-ones bitmap over the same words. */
static void relr_repeat(struct image *im, size_t table)
{
	const uint64_t base = 0x10000;
	size_t head = 64 + 2 * 56, dyn = head, tab = head + 48, i;

	synthetic(im, 2, 48 + table);
	synth_phdr(im, 0, PT_LOAD, PF_R | PF_X, 0, base, im->size);
	synth_phdr(im, 1, PT_DYNAMIC, PF_R, dyn, base + dyn, 48);
	set(im, dyn, 8, 36); /* DT_RELR */
	set(im, dyn + 8, 8, base + tab);
	set(im, dyn + 16, 8, 35); /* DT_RELRSZ */
	set(im, dyn + 24, 8, table);
	for (i = 0; i + 16 <= table; i += 16) {
		set(im, tab + i, 8, base + tab);
		set(im, tab + i + 8, 8, ~0ull);
	}
}

/* One PT_LOAD over the file; PT_GNU_EH_FRAME at its last 4 bytes (version 1, a pcrel
 * sdata4 pointer to .eh_frame that the file does not hold) with FILESZ. */
static void eh_hdr_at_end(struct image *im, uint64_t filesz)
{
	const uint64_t base = 0x10000;

	synthetic(im, 2, 16);
	synth_phdr(im, 0, PT_LOAD, PF_R | PF_X, 0, base, im->size);
	synth_phdr(im, 1, PT_GNU_EH_FRAME, PF_R, im->size - 4, base + im->size - 4, filesz);
	im->b[im->size - 4] = 1;
	im->b[im->size - 3] = 0x1b; /* DW_EH_PE_pcrel | DW_EH_PE_sdata4 */
	im->b[im->size - 2] = 0x03;
	im->b[im->size - 1] = 0x3b;
}

static void load(struct image *im, const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 64 || fseek(f, 0, SEEK_SET))
		die("cannot read the input");
	im->size = (size_t)n;
	im->b = malloc(im->size);
	if (!im->b || fread(im->b, 1, im->size, f) != im->size)
		die("cannot read the input");
	fclose(f);
	if (memcmp(im->b, ELFMAG, SELFMAG) != 0)
		die("the input is not ELF");
	im->is64 = im->b[EI_CLASS] == ELFCLASS64;
}

static void save(struct image *im, const char *path, const char *mode_from)
{
	FILE *out = fopen(path, "wb");
	struct stat sb;

	if (!out || fwrite(im->b, 1, im->size, out) != im->size || fclose(out) != 0)
		die("cannot write the output");
	chmod(path, mode_from && stat(mode_from, &sb) == 0 ? sb.st_mode & 07777 : 0755);
	free(im->b);
}

int main(int argc, char **argv)
{
	struct image im = { 0 };
	const char *op = argc > 1 ? argv[1] : "";

	if (strcmp(op, "relr-repeat") == 0 && argc == 4) {
		relr_repeat(&im, (size_t)num(argv[2]));
		save(&im, argv[3], NULL);
	} else if (strcmp(op, "eh-hdr-at-end") == 0 && argc == 3) {
		eh_hdr_at_end(&im, 0x100);
		save(&im, argv[2], NULL);
	} else if (strcmp(op, "eh-hdr-wrap") == 0 && argc == 3) {
		eh_hdr_at_end(&im, ~0ull - 8);
		save(&im, argv[2], NULL);
	} else if (strcmp(op, "set-dyn") == 0 && argc == 6) {
		load(&im, argv[4]);
		set_dyn(&im, (int64_t)num(argv[2]), num(argv[3]));
		save(&im, argv[5], argv[4]);
	} else if (strcmp(op, "set-shdr") == 0 && argc == 7) {
		load(&im, argv[5]);
		set_shdr(&im, argv[2], argv[3], num(argv[4]));
		save(&im, argv[6], argv[5]);
	} else if (strcmp(op, "set-phdr") == 0 && argc == 7) {
		load(&im, argv[5]);
		set_phdr(&im, find_phdr(&im, (uint32_t)num(argv[2])), argv[3], num(argv[4]));
		save(&im, argv[6], argv[5]);
	} else if (strcmp(op, "dyn-spread") == 0 && argc == 5) {
		load(&im, argv[3]);
		dyn_spread(&im, num(argv[2]));
		save(&im, argv[4], argv[3]);
	} else if (strcmp(op, "no-sections") == 0 && argc == 4) {
		load(&im, argv[2]);
		set(&im, im.is64 ? 40 : 32, word(&im), 0);
		set(&im, im.is64 ? 60 : 48, 2, 0);
		set(&im, im.is64 ? 62 : 50, 2, 0);
		save(&im, argv[3], argv[2]);
	} else if (strcmp(op, "interp-in-phdrs") == 0 && argc == 4) {
		load(&im, argv[2]);
		interp_in_phdrs(&im);
		save(&im, argv[3], argv[2]);
	} else if (strcmp(op, "interp-past-end") == 0 && argc == 4) {
		load(&im, argv[2]);
		interp_past_end(&im);
		save(&im, argv[3], argv[2]);
	} else {
		die("usage: see the comment at the top of tests/elf_hostile.c");
	}
	return 0;
}
