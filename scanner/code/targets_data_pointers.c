/* Code addresses kept in data. A position-dependent executable stores function pointers
 * without relocations: an aligned word in a data section that holds an address in an
 * executable section is the evidence (hand-written asm has no FDE and, stripped, no
 * symbol). Recovered jump tables are not function pointers and are left out, as are
 * words a dynamic relocation overwrites (a BIND_NOW GOT still holds lazy PLT slots).
 * The same walk finds vsyscall addresses kept in data.
 *
 * A word whose value merely falls in the code is no function pointer by itself: string
 * tails ("ing\0" is 0x676e69), UTF-16 text and counters do too. What a word needs, by
 * what its value is (issue 18, from python3.13, valgrind and GHC code of Debian 13):
 *   - a function start (symbol or FDE) or a PLT entry: nothing more;
 *   - inside the FDE or sized symbol of a function: an instruction start in the decoding
 *     from that function's start, and a place in a table of code addresses (the word
 *     before or after it holds one too: a dispatch table, a table of labels). A lone
 *     word pointing into the middle of a function was, in every case seen, a string or
 *     a number, never a pointer: compiled code takes mid-function addresses only in
 *     jump tables (recovered by the sweep) and computed-goto tables;
 *   - in Go's text (.gopclntab): an instruction start in the decoding from the entry of
 *     the Go function around it (Go's jump tables hold labels beside labels);
 *   - code nothing describes (stripped hand-written code, GHC's code after its info
 *     tables): kept, as before.
 * And in every case but the first, the word must not be text: a word of printable ASCII
 * (or NUL) whose first byte is printable, after a word that is mostly printable text
 * too, is the tail of a string; the same in UTF-16 (units below 0x100). A real pointer
 * in a table follows another pointer or a number, whose high bytes are zero. */
#include "config.h"

#include "code/targets.h"

#include "code/disasm.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* A word of data holding a code address: VALUE stored at ADDR. Sorted by value. */
struct pointer_word {
	uint64_t value, addr;
	uint64_t before, after; /* the words around it in its section (0 at its ends) */
	bool text;		/* the word continues a string (ASCII or UTF-16) */
	bool got;		/* a slot of .got: the address of a symbol the code takes */
};

struct pointer_words {
	struct pointer_word *w;
	size_t n, cap;
};

/* (.gopclntab: Go's table of its functions, offsets and its text start, which no branch
 * goes through) */
static const char *const skipped[] = { ".eh_frame", ".eh_frame_hdr", ".gcc_except_table",
				       ".dynamic",  ".got.plt",	     ".interp",
				       ".gopclntab" };

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

static bool printable(unsigned char b)
{
	return (b >= 0x20 && b < 0x7f) || b == '\t' || b == '\n' || b == '\r';
}

/* W bytes of ASCII text: each printable or NUL; how many are printable, or -1. */
static int ascii_run(const unsigned char *p, unsigned w)
{
	int n = 0;
	unsigned i;

	for (i = 0; i < w; i++) {
		if (printable(p[i]))
			n++;
		else if (p[i])
			return -1;
	}
	return n;
}

/* The same in UTF-16LE: units of one printable or NUL byte; how many are printable. */
static int utf16_run(const unsigned char *p, unsigned w)
{
	int n = 0;
	unsigned i;

	for (i = 0; i + 1 < w; i += 2) {
		if (p[i + 1])
			return -1;
		if (printable(p[i]))
			n++;
		else if (p[i])
			return -1;
	}
	return n;
}

/* Whether the word at P (W bytes, BEFORE bytes of the section before it) continues a
 * string: text itself, starting with a character, after a word at least half of whose
 * characters are printable. A pointer or number before it has zero high bytes. */
static bool string_tail(const unsigned char *p, size_t before, unsigned w)
{
	if (before < w)
		return false;
	if (printable(p[0]) && ascii_run(p, w) >= 0 && ascii_run(p - w, w) >= (int)(w / 2))
		return true;
	return printable(p[0]) && utf16_run(p, w) >= 0 &&
	       utf16_run(p - w, w) >= (int)(w / 4 ? w / 4 : 1);
}

static void scan_section(struct code_ctx *c, const GElf_Shdr *sh, bool pointers, bool got,
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
			size_t off = (size_t)(a - sh->sh_addr);
			struct pointer_word w = { v,  a, 0, 0, string_tail(p + off, off, c->word),
						  got };

			if (off >= c->word)
				w.before = elf_model_read_word(c->m, p + off - c->word);
			if (off + 2 * c->word <= sh->sh_size)
				w.after = elf_model_read_word(c->m, p + off + c->word);
			ARRAY_RESERVE(found->w, found->cap, found->n + 1);
			found->w[found->n++] = w;
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
	size_t lo = code_fdes_upto(c, addr);

	if (lo && addr - c->fdes[lo - 1].start < c->fdes[lo - 1].size)
		return c->fdes[lo - 1].start;
	lo = code_syms_upto(c, addr);
	if (lo && addr - c->syms[lo - 1].addr < c->syms[lo - 1].size)
		return c->syms[lo - 1].addr;
	return 0;
}

/* The end of the last FDE or sized symbol that ends at or below ADDR, or 0. */
static uint64_t previous_end(const struct code_ctx *c, uint64_t addr)
{
	uint64_t end = 0;
	size_t lo = code_fdes_upto(c, addr);

	if (lo && c->fdes[lo - 1].start + c->fdes[lo - 1].size <= addr)
		end = c->fdes[lo - 1].start + c->fdes[lo - 1].size;
	lo = code_syms_upto(c, addr);
	if (lo && c->syms[lo - 1].size && c->syms[lo - 1].addr + c->syms[lo - 1].size <= addr &&
	    c->syms[lo - 1].addr + c->syms[lo - 1].size > end)
		end = c->syms[lo - 1].addr + c->syms[lo - 1].size;
	return end;
}

/* One instruction of padding: a nop of any length (0x90, 0f 1f), int3, or zero bytes. */
static bool padding_insn(const unsigned char *p, size_t len)
{
	size_t i = 0;

	if (len && p[0] == 0xcc)
		return len == 1;
	while (i < len && p[i] == 0)
		i++;
	if (i == len)
		return true;
	i = 0;
	while (i < len && (p[i] == 0x66 || p[i] == 0x2e || p[i] == 0x3e || p[i] == 0x26 ||
			   p[i] == 0x64 || p[i] == 0x65 || p[i] == 0xf2 || p[i] == 0xf3))
		i++;
	if (i < len && p[i] == 0x90)
		return i + 1 == len;
	return i + 1 < len && p[i] == 0x0f && p[i + 1] == 0x1f;
}

/* Whether V lies in the padding after the function ending at GAP: every instruction
 * from GAP to the next function start a nop, int3 or zeros (GCC's alignment between
 * functions, where a string tail or a number often points). */
static bool in_padding(struct code_ctx *c, struct disasm *d, uint64_t gap, uint64_t v)
{
	uint64_t next = code_function_end(c, v), at = gap;
	const unsigned char *p;
	size_t avail;

	if (!gap || next <= v || next - gap > 256)
		return false;
	while (at < next && (p = code_bytes(c, at, &avail)) != NULL) {
		size_t len = disasm_length(d, p, avail);

		if (!len || !padding_insn(p, len))
			return false;
		at += len;
	}
	return at == next;
}

/* A function start or a PLT entry. */
static bool function_value(const struct code_ctx *c, uint64_t v)
{
	uint64_t dummy;

	return code_is_function_start(c, v) || addr_map_get(&c->plt_symbol, v, &dummy);
}

/* Whether a word pointing inside a function has a pointer's company: a .got slot, or a
 * word next to it holding a function start (a dispatch table that also holds a label).
 * A table of labels of one function alone is a jump or computed-goto table, the jump
 * table checks' business; one the sweep did not recover was, in what Debian 13 shows,
 * a table of bounds compared with (valgrind's blksys_* labels), never branched to. */
static bool pointer_company(const struct code_ctx *c, const struct pointer_word *w)
{
	return w->got || (w->before && function_value(c, w->before)) ||
	       (w->after && function_value(c, w->after));
}

/* Walks the words in value order, measuring instructions forward from the enclosing
 * function's start once per function, and adds each word the evidence allows (see the
 * head of this file). */
/* The entry of the Go function V lies in (Go's table, .gopclntab), or 0 when V is not
 * in Go's text. */
static uint64_t go_entry_upto(const struct code_ctx *c, uint64_t v)
{
	size_t lo = 0, hi = c->go.nentries;

	if (!c->go.nentries || !c->go.end || v < c->go.entries[0] || v >= c->go.end)
		return 0;
	while (hi - lo > 1) { /* the last entry <= V */
		size_t mid = lo + (hi - lo) / 2;

		if (c->go.entries[mid] <= v)
			lo = mid;
		else
			hi = mid;
	}
	return c->go.entries[lo];
}

static void add_pointer_targets(struct code_ctx *c, struct pointer_words *found)
{
	struct disasm d;
	bool opened = false;
	uint64_t func = 0, at = 0;
	size_t i;

	qsort(found->w, found->n, sizeof(*found->w), by_value);
	for (i = 0; i < found->n; i++) {
		uint64_t v = found->w[i].value, start, go;
		const unsigned char *p;
		size_t avail;

		if (function_value(c, v)) {
			code_add_target(c, v, VIA_DATA_POINTER, found->w[i].addr);
			continue;
		}
		if (found->w[i].text)
			continue;
		if (!opened && !(opened = disasm_open(&d, c->is64)))
			return;
		/* Go's text: its table gives the function around V, whose decoding V
		 * must be an instruction start of (restic's words such as 0x480000 are
		 * numbers that fall there); Go's own jump tables, words beside labels,
		 * need no function pointer beside them */
		go = go_entry_upto(c, v);
		start = go ? go : enclosing_start(c, v);
		if (!start) {
			if (!in_padding(c, &d, previous_end(c, v), v))
				code_add_target(c, v, VIA_DATA_POINTER, found->w[i].addr);
			continue;
		}
		if (!go && !pointer_company(c, &found->w[i]))
			continue;
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
			scan_section(c, &sh, pointers, strcmp(name, ".got") == 0, &found);
	}
	if (found.n)
		add_pointer_targets(c, &found);
	free(found.w);
}
