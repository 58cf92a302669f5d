/* Unit tests of the ELF index (scanner/elf/elf_model.c) and the raw header codec
 * (scanner/elf/elf_header.c), held to independent readings: the codec's field offsets to
 * <elf.h>'s structures, its round trip to the bytes it read; the model's symbols,
 * sections and header offsets to a walk of this test program's own file through libelf
 * directly. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "elf/elf_header.h"
#include "elf/elf_model.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Every field the codec edits lies where <elf.h> puts it. */
static void test_field_offsets(void **state)
{
	(void)state;
	assert_int_equal(elf_field_offset(ELF_E_PHOFF, true), offsetof(Elf64_Ehdr, e_phoff));
	assert_int_equal(elf_field_offset(ELF_E_PHOFF, false), offsetof(Elf32_Ehdr, e_phoff));
	assert_int_equal(elf_field_offset(ELF_E_SHOFF, true), offsetof(Elf64_Ehdr, e_shoff));
	assert_int_equal(elf_field_offset(ELF_E_SHOFF, false), offsetof(Elf32_Ehdr, e_shoff));
	assert_int_equal(elf_field_offset(ELF_E_PHNUM, true), offsetof(Elf64_Ehdr, e_phnum));
	assert_int_equal(elf_field_offset(ELF_E_PHNUM, false), offsetof(Elf32_Ehdr, e_phnum));
	assert_int_equal(elf_field_offset(ELF_E_SHNUM, true), offsetof(Elf64_Ehdr, e_shnum));
	assert_int_equal(elf_field_offset(ELF_E_SHNUM, false), offsetof(Elf32_Ehdr, e_shnum));
	assert_int_equal(elf_field_offset(ELF_P_OFFSET, true), offsetof(Elf64_Phdr, p_offset));
	assert_int_equal(elf_field_offset(ELF_P_OFFSET, false), offsetof(Elf32_Phdr, p_offset));
	assert_int_equal(elf_field_offset(ELF_P_VADDR, true), offsetof(Elf64_Phdr, p_vaddr));
	assert_int_equal(elf_field_offset(ELF_P_VADDR, false), offsetof(Elf32_Phdr, p_vaddr));
	assert_int_equal(elf_field_offset(ELF_P_PADDR, true), offsetof(Elf64_Phdr, p_paddr));
	assert_int_equal(elf_field_offset(ELF_P_PADDR, false), offsetof(Elf32_Phdr, p_paddr));
	assert_int_equal(elf_field_offset(ELF_P_FILESZ, true), offsetof(Elf64_Phdr, p_filesz));
	assert_int_equal(elf_field_offset(ELF_P_FILESZ, false), offsetof(Elf32_Phdr, p_filesz));
	assert_int_equal(elf_field_offset(ELF_P_MEMSZ, true), offsetof(Elf64_Phdr, p_memsz));
	assert_int_equal(elf_field_offset(ELF_P_MEMSZ, false), offsetof(Elf32_Phdr, p_memsz));
	assert_int_equal(elf_field_offset(ELF_SH_TYPE, true), offsetof(Elf64_Shdr, sh_type));
	assert_int_equal(elf_field_offset(ELF_SH_TYPE, false), offsetof(Elf32_Shdr, sh_type));
	assert_int_equal(elf_field_offset(ELF_SH_SIZE, true), offsetof(Elf64_Shdr, sh_size));
	assert_int_equal(elf_field_offset(ELF_SH_SIZE, false), offsetof(Elf32_Shdr, sh_size));
}

/* Distinct bytes in every position, so a field read from the wrong place shows. */
static void fill_pattern(unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + 1);
}

/* Decoding then encoding gives back the bytes; decoding agrees with the host structure
 * (x86 is little-endian, as the files elfcet reads are). */
static void test_round_trip(void **state)
{
	unsigned char bytes[64], again[64];
	Elf64_Phdr ph;
	Elf64_Shdr sh;
	Elf32_Phdr ph32;
	Elf32_Shdr sh32;

	(void)state;
	fill_pattern(bytes, sizeof(bytes));
	elf_phdr_decode(bytes, true, &ph);
	assert_memory_equal(&ph, bytes, sizeof(Elf64_Phdr));
	elf_phdr_encode(again, true, &ph);
	assert_memory_equal(again, bytes, sizeof(Elf64_Phdr));
	elf_shdr_decode(bytes, true, &sh);
	assert_memory_equal(&sh, bytes, sizeof(Elf64_Shdr));
	elf_shdr_encode(again, true, &sh);
	assert_memory_equal(again, bytes, sizeof(Elf64_Shdr));

	memcpy(&ph32, bytes, sizeof(ph32));
	elf_phdr_decode(bytes, false, &ph);
	assert_int_equal(ph.p_type, ph32.p_type);
	assert_int_equal(ph.p_flags, ph32.p_flags);
	assert_int_equal(ph.p_offset, ph32.p_offset);
	assert_int_equal(ph.p_vaddr, ph32.p_vaddr);
	assert_int_equal(ph.p_filesz, ph32.p_filesz);
	assert_int_equal(ph.p_align, ph32.p_align);
	elf_phdr_encode(again, false, &ph);
	assert_memory_equal(again, bytes, sizeof(Elf32_Phdr));
	memcpy(&sh32, bytes, sizeof(sh32));
	elf_shdr_decode(bytes, false, &sh);
	assert_int_equal(sh.sh_flags, sh32.sh_flags);
	assert_int_equal(sh.sh_offset, sh32.sh_offset);
	assert_int_equal(sh.sh_link, sh32.sh_link);
	assert_int_equal(sh.sh_entsize, sh32.sh_entsize);
	elf_shdr_encode(again, false, &sh);
	assert_memory_equal(again, bytes, sizeof(Elf32_Shdr));
}

struct opened {
	struct elf_model m;
	Elf *direct; /* the same file through libelf, as the oracle */
	int fd;
};

static void open_self(struct opened *o)
{
	struct elfcet_error msg;

	assert_int_equal(elf_model_open(&o->m, "/proc/self/exe", &msg), ELF_OPEN_OK);
	o->fd = open("/proc/self/exe", O_RDONLY);
	assert_true(o->fd >= 0);
	o->direct = elf_begin(o->fd, ELF_C_READ, NULL);
	assert_non_null(o->direct);
}

static void close_self(struct opened *o)
{
	elf_end(o->direct);
	close(o->fd);
	elf_model_close(&o->m);
}

/* Each section's index and header offset, and the lookups by index and by address. */
static void test_sections(void **state)
{
	struct opened o;
	GElf_Ehdr eh;
	size_t i;

	(void)state;
	open_self(&o);
	assert_non_null(gelf_getehdr(o.direct, &eh));
	assert_int_equal(o.m.phoff, eh.e_phoff);
	assert_int_equal(o.m.shoff, eh.e_shoff);
	assert_int_equal(elf_model_phdr_offset(&o.m, 2), eh.e_phoff + 2 * eh.e_phentsize);
	assert_true(o.m.nsections > 10);
	for (i = 0; i < o.m.nsections; i++) {
		const struct elf_section *sec = &o.m.sections[i];
		const unsigned char *raw;
		GElf_Shdr sh;

		assert_int_equal(sec->index, elf_ndxscn(sec->scn));
		assert_ptr_equal(elf_model_section_by_index(&o.m, sec->index), sec);
		raw = elf_model_file_bytes(&o.m, sec->header_offset, sizeof(Elf64_Shdr));
		assert_non_null(raw);
		elf_shdr_decode(raw, true, &sh);
		assert_memory_equal(&sh, &sec->sh, sizeof(sh));
		if ((sh.sh_flags & SHF_ALLOC) && sh.sh_size && sh.sh_type != SHT_NOBITS) {
			const struct elf_section *at;

			at = elf_model_section_at(&o.m, sh.sh_addr + sh.sh_size - 1, NULL);

			assert_non_null(at);
			/* The first holder in header order; a later one only behind an overlap. */
			assert_true(at <= sec);
		}
	}
	assert_null(elf_model_section_by_index(&o.m, 0));
	assert_null(elf_model_section_at(&o.m, 0, NULL));
	close_self(&o);
}

/* The symbols: every entry of every table, in table order, and the sorted copy. */
static void test_symbols(void **state)
{
	const struct elf_section *sec = NULL;
	bool found_self = false;
	struct opened o;
	size_t k = 0, i;

	(void)state;
	open_self(&o);
	while ((sec = elf_model_next_section(&o.m, sec, SHT_SYMTAB)) != NULL) {
		Elf_Data *d = elf_getdata(elf_getscn(o.direct, sec->index), NULL);
		size_t n = sec->sh.sh_size / sec->sh.sh_entsize;

		assert_non_null(d);
		for (i = 1; i < n; i++) {
			const struct elf_symbol *s;
			GElf_Sym sym;

			assert_non_null(gelf_getsym(d, (int)i, &sym));
			/* The tables come in header order: skip the DYNSYM before this one. */
			while (k < o.m.nsymbols && o.m.symbols[k].table != sec)
				k++;
			assert_true(k < o.m.nsymbols);
			s = &o.m.symbols[k++];
			assert_int_equal(s->index, i);
			assert_int_equal(s->value, sym.st_value);
			assert_int_equal(s->size, sym.st_size);
			assert_int_equal(s->shndx, sym.st_shndx);
			assert_int_equal(s->type, GELF_ST_TYPE(sym.st_info));
			assert_string_equal(s->name,
					    elf_strptr(o.direct, sec->sh.sh_link, sym.st_name));
			if (strcmp(s->name, "test_symbols") == 0) {
				found_self = true;
				assert_int_equal(s->type, STT_FUNC);
				assert_string_equal(
					elf_model_section_at(&o.m, s->value, NULL)->name, ".text");
			}
		}
	}
	assert_true(found_self);
	for (i = 1; i < o.m.nsymbols; i++)
		assert_true(o.m.symbols_by_addr[i - 1].value <= o.m.symbols_by_addr[i].value);
	close_self(&o);
}

/* The dynamic walk stops at DT_NULL and gives each value's file offset. */
static void test_dynamic(void **state)
{
	struct opened o;
	uint64_t v, at, direct;
	size_t i = 0, n = 0;
	int64_t tag;

	(void)state;
	open_self(&o);
	while (elf_model_dynamic_next(&o.m, &i, &tag, &v, &at)) {
		const unsigned char *p = elf_model_file_bytes(&o.m, at, 8);

		assert_non_null(p);
		memcpy(&direct, p, 8);
		assert_int_equal(direct, v);
		assert_true(tag != DT_NULL);
		n++;
	}
	assert_int_equal(i, n);
	assert_true(n > 5);
	assert_true(elf_model_dynamic_value(&o.m, DT_NEEDED, &v));
	close_self(&o);
}

/* The dynamic entries, as libelf reads the SHT_DYNAMIC section up to DT_NULL. */
static size_t direct_dynamic(Elf *e, GElf_Dyn *out, size_t max)
{
	Elf_Scn *scn = NULL;
	size_t n = 0;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Dyn dyn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC)
			continue;
		d = elf_getdata(scn, NULL);
		while (d && n < max && gelf_getdyn(d, (int)n, &dyn) && dyn.d_tag != DT_NULL)
			out[n++] = dyn;
		break;
	}
	return n;
}

/* Every tag's lookup gives its first entry's value, as libelf reads them. */
static void assert_lookups(const struct elf_model *m, const GElf_Dyn *dyn, size_t n)
{
	size_t i, j;
	uint64_t v;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && dyn[j].d_tag != dyn[i].d_tag; j++)
			;
		assert_true(elf_model_dynamic_value(m, dyn[i].d_tag, &v));
		assert_int_equal(v, dyn[j].d_un.d_val);
	}
	assert_false(elf_model_dynamic_value(m, 0x6ffffe00, &v));
	assert_false(elf_model_dynamic_value(m, -1, &v));
}

/* Dynamic lookups come from the index made when the file was opened, never from another
 * walk of the table: the audit looks DT_PLTGOT up for each PLT entry (issue 35: 7.2
 * billion instructions, 80% of them in table walks, for a program with 8,000 PLT entries
 * and 8,000 dynamic entries). Shown here by wiping the table in the image after opening
 * (which the model's callers never do): the lookups and the walk do not change. */
static void test_dynamic_index(void **state)
{
	static GElf_Dyn dyn[512];
	struct elfcet_error msg;
	const GElf_Phdr *ph;
	struct opened o;
	struct elf_model mem;
	unsigned char *copy;
	uint64_t v, at;
	size_t n, k = 0;
	int64_t tag;
	off_t size;

	(void)state;
	open_self(&o);
	n = direct_dynamic(o.direct, dyn, 512);
	assert_true(n > 5);
	size = lseek(o.fd, 0, SEEK_END);
	copy = malloc((size_t)size);
	assert_non_null(copy);
	assert_int_equal(pread(o.fd, copy, (size_t)size, 0), size);
	assert_int_equal(elf_model_open_memory(&mem, "self", copy, (size_t)size, &msg),
			 ELF_OPEN_OK);
	while (elf_model_dynamic_next(&mem, &k, &tag, &v, &at))
		;
	assert_int_equal(k, n);
	assert_lookups(&mem, dyn, n);

	ph = elf_model_find_phdr(&mem, PT_DYNAMIC);
	assert_non_null(ph);
	memset(copy + ph->p_offset, 0xff, ph->p_filesz);
	assert_lookups(&mem, dyn, n);
	k = 0;
	while (elf_model_dynamic_next(&mem, &k, &tag, &v, &at)) {
		assert_int_equal(tag, dyn[k - 1].d_tag);
		assert_int_equal(v, dyn[k - 1].d_un.d_val);
		assert_int_equal(at, ph->p_offset + (k - 1) * sizeof(Elf64_Dyn) + 8);
	}
	assert_int_equal(k, n);
	elf_model_close(&mem);
	free(copy);
	close_self(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_offsets), cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_sections),      cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_dynamic),	      cmocka_unit_test(test_dynamic_index),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
