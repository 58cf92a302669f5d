/* Decoding instructions: Capstone for the x86 instruction set, and our own recognition of
 * the CET instructions Debian 12's Capstone 4.0.2 cannot decode (RDSSP, WRSS, WRUSS,
 * RSTORSSP, SAVEPREVSSP, SETSSBSY, CLRSSBSY) or misreads (INCSSP shows as lfence).
 * Capstone decodes 11-14 MB of code a second, no faster than objdump; walking a function
 * only to find where its instructions start measures them instead, from tables
 * (insn_length.h) or, for what they leave, with Zydis's minimal mode (about 60 MB/s),
 * and Capstone decodes the few instructions the checks read. */
#ifndef ELFCET_DISASM_H
#define ELFCET_DISASM_H

#include <Zydis/Decoder.h>
#include <capstone/capstone.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cet_insn_kind {
	CET_NONE,
	CET_ENDBR64,
	CET_ENDBR32,
	CET_RDSSP,
	CET_INCSSP,
	CET_WRSS,
	CET_WRUSS,
	CET_RSTORSSP,
	CET_SAVEPREVSSP,
	CET_SETSSBSY,
	CET_CLRSSBSY,
};

/* Recognises a CET instruction at P (N bytes available); returns its length, or 0. */
size_t cet_insn_decode(const unsigned char *p, size_t n, bool is64, enum cet_insn_kind *kind);
const char *cet_insn_name(enum cet_insn_kind kind);

/* True when P holds ENDBR64 (ENDBR32 when !IS64). */
bool is_endbr(const unsigned char *p, size_t n, bool is64);

struct disasm {
	csh handle;
	cs_insn *insn;
	ZydisDecoder lengths;
	bool is64;
	bool ok;
};

bool disasm_open(struct disasm *d, bool is64);
void disasm_close(struct disasm *d);

/* Length of the instruction at P (N bytes available), or 0 when the bytes are none:
 * Zydis's answer, from the tables where they have one. */
size_t disasm_length(const struct disasm *d, const unsigned char *p, size_t n);

/* One decoded instruction of a walk: Capstone's (with detail), or a CET one of ours. */
struct decoded {
	uint64_t addr;
	size_t size;
	const unsigned char *bytes;
	const cs_insn *insn; /* NULL for a CET instruction or an undecodable byte */
	enum cet_insn_kind cet;
};

/* Decodes the instructions of BYTES (N bytes at ADDR) that start before offset LIMIT, in
 * order, and calls FN for each. Lengths are Zydis's: an instruction Capstone cannot read
 * or measures otherwise is passed with insn NULL and cet CET_NONE, an undecodable byte as
 * a 1-byte one. Returns the offset after the last one. */
size_t disasm_walk(struct disasm *d, const unsigned char *bytes, size_t n, uint64_t addr,
		   size_t limit, void (*fn)(const struct decoded *di, void *ctx), void *ctx);

#endif
