/* Unit tests of the reader of Go's function table (scanner/code/go_pclntab.c), on ELF
 * files built here byte by byte after the layout of the Go runtime's pcHeader and functab
 * (Go 1.18 and later): a table it must read, and damaged ones (a function count or a table
 * offset past the section, entries out of order, an unknown magic, a section past the end
 * of the file) it must refuse without reading outside the file. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "code/go_pclntab.h"
#include "elf/elf_model.h"

#include <elf.h>
#include <string.h>

#define TABLE_OFFSET 128
#define FILE_SIZE 1024
#define SHDR_OFFSET 640

struct table {
	uint32_t magic;
	unsigned ptr_size;
	uint64_t nfunc, text_start, pcln_offset;
	uint32_t entries[8]; /* entry offsets; the last one given is the end of the text */
	size_t nentries;
	uint64_t section_size; /* 0: up to the section headers */
};

static void put(unsigned char *p, uint64_t v, unsigned size)
{
	unsigned i;

	for (i = 0; i < size; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* An ELF64 file holding .shstrtab and .gopclntab (T) only, into BUF. */
static void build(unsigned char *buf, const struct table *t)
{
	static const char names[] = "\0.shstrtab\0.gopclntab";
	Elf64_Ehdr eh = { 0 };
	Elf64_Shdr sh[3] = { { 0 } };
	unsigned char *p = buf + TABLE_OFFSET;
	unsigned w = t->ptr_size;
	size_t i;

	memset(buf, 0, FILE_SIZE);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof(eh);
	eh.e_shoff = SHDR_OFFSET;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 3;
	eh.e_shstrndx = 1;
	memcpy(buf, &eh, sizeof(eh));
	memcpy(buf + 64, names, sizeof(names));
	sh[1] = (Elf64_Shdr){ .sh_name = 1,
			      .sh_type = SHT_STRTAB,
			      .sh_offset = 64,
			      .sh_size = sizeof(names),
			      .sh_addralign = 1 };
	sh[2] = (Elf64_Shdr){ .sh_name = 11,
			      .sh_type = SHT_PROGBITS,
			      .sh_flags = SHF_ALLOC,
			      .sh_addr = 0x600000 + TABLE_OFFSET,
			      .sh_offset = TABLE_OFFSET,
			      .sh_size = t->section_size ? t->section_size
							 : SHDR_OFFSET - TABLE_OFFSET,
			      .sh_addralign = 32 };
	memcpy(buf + SHDR_OFFSET, sh, sizeof(sh));

	put(p, t->magic, 4);
	p[6] = 1; /* minLC */
	p[7] = (unsigned char)w;
	put(p + 8, t->nfunc, w);
	put(p + 8 + 2 * w, t->text_start, w);
	put(p + 8 + 7 * w, t->pcln_offset, w);
	for (i = 0; i < t->nentries; i++)
		put(p + t->pcln_offset + 8 * i, t->entries[i], 4);
}

static bool read_table(const struct table *t, uint64_t text_start, struct go_functions *g)
{
	static unsigned char buf[FILE_SIZE];
	struct elf_model m;
	bool ok;

	build(buf, t);
	assert_int_equal(elf_model_open_memory(&m, "test", buf, sizeof(buf), NULL), ELF_OPEN_OK);
	ok = go_pclntab_read(&m, text_start, g);
	elf_model_close(&m);
	return ok;
}

static const struct table go120 = {
	.magic = 0xfffffff1,
	.ptr_size = 8,
	.nfunc = 3,
	.text_start = 0x401000,
	.pcln_offset = 0x60,
	.entries = { 0, 0x20, 0x40, 0x60 },
	.nentries = 4,
};

static void test_reads_entries_and_end(void **state)
{
	struct go_functions g;

	(void)state;
	assert_true(read_table(&go120, 0x400000, &g));
	assert_int_equal(g.nentries, 3);
	assert_int_equal(g.entries[0], 0x401000);
	assert_int_equal(g.entries[1], 0x401020);
	assert_int_equal(g.entries[2], 0x401040);
	assert_int_equal(g.end, 0x401060);
	go_functions_free(&g);
}

/* A position-independent program's table leaves textStart to a relocation. */
static void test_relocated_text_start(void **state)
{
	struct table t = go120;
	struct go_functions g;

	(void)state;
	t.text_start = 0;
	assert_true(read_table(&t, 0x1000, &g));
	assert_int_equal(g.entries[1], 0x1020);
	assert_int_equal(g.end, 0x1060);
	go_functions_free(&g);
}

/* Go 1.18's magic, and 32-bit words (GOARCH=386). */
static void test_go118_and_386(void **state)
{
	struct table t = go120;
	struct go_functions g;

	(void)state;
	t.magic = 0xfffffff0;
	t.ptr_size = 4;
	assert_true(read_table(&t, 0, &g));
	assert_int_equal(g.nentries, 3);
	assert_int_equal(g.end, 0x401060);
	go_functions_free(&g);
}

static void assert_refused(const struct table *t)
{
	struct go_functions g;

	assert_false(read_table(t, 0x400000, &g));
	assert_null(g.entries);
	assert_int_equal(g.nentries, 0);
	assert_int_equal(g.end, 0);
}

/* nfunc + 1 pairs must fit in the section after pclnOffset. */
static void test_refuses_counts_past_the_section(void **state)
{
	struct table t = go120;

	(void)state;
	t.nfunc = (SHDR_OFFSET - TABLE_OFFSET - 0x60) / 8; /* one pair short */
	assert_refused(&t);
	t.nfunc = (uint64_t)1 << 60;
	assert_refused(&t);
	t.nfunc = UINT64_MAX;
	assert_refused(&t);
	t = go120;
	t.pcln_offset = SHDR_OFFSET; /* past the section */
	assert_refused(&t);
	t.pcln_offset = UINT64_MAX - 3;
	assert_refused(&t);
}

static void test_refuses_what_it_does_not_know(void **state)
{
	struct table t = go120;

	(void)state;
	t.magic = 0xfffffffa; /* Go 1.16: another layout */
	assert_refused(&t);
	t = go120;
	t.ptr_size = 2;
	assert_refused(&t);
	t = go120;
	t.entries[2] = 0x10; /* out of order */
	assert_refused(&t);
	t = go120;
	t.section_size = 40; /* shorter than the header */
	assert_refused(&t);
	t = go120;
	t.section_size = 1 << 20; /* past the end of the file */
	assert_refused(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_entries_and_end),
		cmocka_unit_test(test_relocated_text_start),
		cmocka_unit_test(test_go118_and_386),
		cmocka_unit_test(test_refuses_counts_past_the_section),
		cmocka_unit_test(test_refuses_what_it_does_not_know),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
