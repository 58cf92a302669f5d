/* Code addresses kept in data. A position-dependent executable stores function pointers
 * without relocations: an aligned word in a data section that holds an address in an
 * executable section is the evidence (hand-written asm has no FDE and, stripped, no
 * symbol). Recovered jump tables are not function pointers and are left out, as are
 * words a dynamic relocation overwrites (a BIND_NOW GOT still holds lazy PLT slots).
 * The same walk finds vsyscall addresses kept in data.
 *
 * A word whose value merely falls in the code is no function pointer by itself: string
 * tails ("ing\0" is 0x676e69), UTF-16 tables and counters do too. The value must be a
 * function start (symbol or FDE), a PLT entry, or at least an instruction start in the
 * decoding from the start of the FDE or sized symbol whose extent holds it; where none
 * does (stripped hand-written code, GHC's code after its info tables), the word is kept
 * as before. */
#include "config.h"

#include "code/targets.h"

#include "code/disasm.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* A word of data holding a code address: VALUE stored at ADDR. Sorted by value. */
struct pointer_word {
	uint64_t value, addr;
};

struct pointer_words {
	struct pointer_word *w;
	size_t n, cap;
};

static const char *const skipped[] = { ".eh_frame", ".eh_frame_hdr", ".gcc_except_table",
				       ".dynamic",  ".got.plt",	     ".interp" };

static bool scanned(const char *name, const GElf_Shdr *sh)
{
	size_t i;

	if (!(sh->sh_flags & SHF_ALLOC) || (sh->sh_flags & SHF_EXECINSTR) ||
	    (sh->sh_type != SHT_PROGBITS && sh->sh_type != SHT_INIT_ARRAY &&
	     sh->sh_type != SHT_FINI_ARRAY && sh->sh_type != SHT_PREINIT_ARRAY))
		return false;
	for (i = 0; i < sizeof(skipped) / sizeof(skipped[0]); i++)
		if (strcmp(name, skipped[i]) == 0)
			return false;
	return strncmp(name, ".note", 5) != 0;
}

/* Only the three entry points: other words of the page's range are no pointer anyone
 * calls (bytes of a GPU fatbin, a page bound kept for a comparison). */
static void vsyscall_word(struct code_ctx *c, uint64_t a, uint64_t v)
{
	if (!is_vsyscall_entry(v))
		return;
	code_finding(c, "vsyscall-data", a, "data-pointer",
		     "data word holds vsyscall address 0x%llx (%s), which a CET kernel does "
		     "not emulate",
		     (unsigned long long)v, vsyscall_name(v));
}

/* The vsyscall words of a section that holds no code pointers worth a look. Their top
 * six bytes are 60 ff ff ff ff ff: memmem finds them far faster than a loop over every
 * word of data. */
static void scan_vsyscall_words(struct code_ctx *c, const GElf_Shdr *sh, const unsigned char *p)
{
	static const unsigned char top[] = { 0x60, 0xff, 0xff, 0xff, 0xff, 0xff };
	const unsigned char *q = p + 2, *end = p + sh->sh_size;

	while (q < end && (q = memmem(q, (size_t)(end - q), top, sizeof(top))) != NULL) {
		uint64_t a = sh->sh_addr + (uint64_t)(q - 2 - p);

		if (q - 2 >= p && a % 8 == 0)
			vsyscall_word(c, a, elf_model_read_word(c->m, q - 2));
		q++;
	}
}

static void scan_section(struct code_ctx *c, const GElf_Shdr *sh, bool pointers,
			 struct pointer_words *found)
{
	const unsigned char *p = elf_model_file_bytes(c->m, sh->sh_offset, sh->sh_size);
	uint64_t start = (sh->sh_addr + c->word - 1) & ~(uint64_t)(c->word - 1), a;

	if (!p)
		return;
	if (!pointers) {
		if (c->is64)
			scan_vsyscall_words(c, sh, p);
		return;
	}
	for (a = start; a + c->word <= sh->sh_addr + sh->sh_size; a += c->word) {
		uint64_t v = elf_model_read_word(c->m, p + (a - sh->sh_addr));

		if (c->is64 && v >= VSYSCALL_PAGE && v < VSYSCALL_PAGE_END) {
			vsyscall_word(c, a, v);
			continue;
		}
		if (code_range_of(c, v) && !code_in_table(c, a) &&
		    !addr_map_get(&c->rewritten, a, &v)) {
			ARRAY_RESERVE(found->w, found->cap, found->n + 1);
			found->w[found->n++] = (struct pointer_word){ v, a };
		}
	}
}

static int by_value(const void *a, const void *b)
{
	const struct pointer_word *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The start of the FDE, or else of the sized function symbol, whose extent holds ADDR;
 * 0 when none does (code between functions, or code nothing describes, such as GHC's,
 * whose entry code follows its info tables). */
static uint64_t enclosing_start(const struct code_ctx *c, uint64_t addr)
{
	size_t lo = 0, hi = c->nfdes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->fdes[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr - c->fdes[lo - 1].start < c->fdes[lo - 1].size)
		return c->fdes[lo - 1].start;
	lo = 0;
	hi = c->nsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr - c->syms[lo - 1].addr < c->syms[lo - 1].size)
		return c->syms[lo - 1].addr;
	return 0;
}

/* Walks the words in value order, measuring instructions forward from the enclosing
 * function's start once per function, and adds each word the evidence allows. */
static void add_pointer_targets(struct code_ctx *c, struct pointer_words *found)
{
	struct disasm d;
	bool opened = false;
	uint64_t func = 0, at = 0;
	size_t i;
	uint64_t dummy;

	qsort(found->w, found->n, sizeof(*found->w), by_value);
	for (i = 0; i < found->n; i++) {
		uint64_t v = found->w[i].value, start;
		const unsigned char *p;
		size_t avail;

		if (code_is_function_start(c, v) || addr_map_get(&c->plt_symbol, v, &dummy)) {
			code_add_target(c, v, VIA_DATA_POINTER, found->w[i].addr);
			continue;
		}
		start = enclosing_start(c, v);
		if (!start) {
			code_add_target(c, v, VIA_DATA_POINTER, found->w[i].addr);
			continue;
		}
		if (!opened && !(opened = disasm_open(&d, c->is64)))
			return;
		if (start != func) {
			func = start;
			at = start;
		}
		/* Measure up to V; AT stays at the first instruction start >= V for the
		 * next word of this function. */
		while (at < v && (p = code_bytes(c, at, &avail)) != NULL) {
			size_t len = disasm_length(&d, p, avail);

			at += len ? len : 1;
		}
		if (at == v)
			code_add_target(c, v, VIA_DATA_POINTER, found->w[i].addr);
	}
	if (opened)
		disasm_close(&d);
}

void targets_data_pointers(struct code_ctx *c)
{
	/* Position-independent files relocate every stored code address: the reloc
	 * module has them all. */
	bool pointers = c->m->e_type == ET_EXEC;
	const struct elf_section *sec;
	struct pointer_words found = { NULL, 0, 0 };

	for (sec = c->m->sections; sec < c->m->sections + c->m->nsections; sec++) {
		const GElf_Shdr sh = sec->sh;
		const char *name = sec->name;

		if (name && scanned(name, &sh))
			scan_section(c, &sh, pointers, &found);
	}
	if (found.n)
		add_pointer_targets(c, &found);
	free(found.w);
}
