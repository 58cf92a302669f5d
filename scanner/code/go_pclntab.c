/* Our own reader of Go's pclntab header and function table (the layout of the Go
 * runtime's pcHeader and functab since Go 1.18; no C library reads it): the magic, the
 * pointer size, the number of functions, the text start, the offset of the function
 * table, and then one (entry offset, data offset) pair of 32-bit words per function and
 * one more whose entry offset is the end of the text. */
#include "config.h"

#include "code/go_pclntab.h"

#include "util/byteorder.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define GO_118_MAGIC 0xfffffff0u
#define GO_120_MAGIC 0xfffffff1u

/* pcHeader: magic (4), pad (2), minLC (1), ptrSize (1), then pointer-size words:
 * nfunc, nfiles, textStart, funcnameOffset, cuOffset, filetabOffset, pctabOffset,
 * pclnOffset. */
enum { WORD_NFUNC = 0, WORD_TEXT_START = 2, WORD_PCLN_OFFSET = 7, HEADER_WORDS = 8 };

static uint64_t header_word(const unsigned char *p, unsigned ptr_size, unsigned k)
{
	const unsigned char *w = p + 8 + (size_t)k * ptr_size;

	return ptr_size == 8 ? load_le64(w) : load_le32(w);
}

bool go_pclntab_read(const struct elf_model *m, uint64_t text_start, struct go_functions *out)
{
	const struct elf_section *sec = elf_model_section_named(m, ".gopclntab");
	const unsigned char *p;
	uint64_t size, nfunc, table, base;
	uint32_t magic;
	unsigned ptr_size;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!sec || sec->sh.sh_type == SHT_NOBITS || sec->sh.sh_size < 8)
		return false;
	size = sec->sh.sh_size;
	p = elf_model_file_bytes(m, sec->sh.sh_offset, size);
	if (!p)
		return false;
	magic = load_le32(p);
	ptr_size = p[7];
	if ((magic != GO_118_MAGIC && magic != GO_120_MAGIC) || p[4] || p[5] ||
	    (ptr_size != 4 && ptr_size != 8) || size < 8 + (uint64_t)HEADER_WORDS * ptr_size)
		return false;
	nfunc = header_word(p, ptr_size, WORD_NFUNC);
	table = header_word(p, ptr_size, WORD_PCLN_OFFSET);
	base = header_word(p, ptr_size, WORD_TEXT_START);
	if (!base) /* a position-independent program: relocated at load time */
		base = text_start;
	/* nfunc + 1 pairs of 32-bit words must fit in the section */
	if (table > size || nfunc >= (size - table) / 8)
		return false;
	out->entries = xcalloc(nfunc ? nfunc : 1, sizeof(*out->entries));
	for (i = 0; i < nfunc; i++) {
		uint64_t entry = base + load_le32(p + table + i * 8);

		/* the table is in address order; anything else is not a table we know */
		if (out->nentries && entry < out->entries[out->nentries - 1]) {
			go_functions_free(out);
			return false;
		}
		out->entries[out->nentries++] = entry;
	}
	out->end = base + load_le32(p + table + nfunc * 8);
	return true;
}

void go_functions_free(struct go_functions *g)
{
	free(g->entries);
	memset(g, 0, sizeof(*g));
}
