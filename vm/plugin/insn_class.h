/* Classify one x86 instruction by what CET cares about: calls, returns, indirect branches,
 * the notrack prefix and ENDBR.  Pure function of the bytes, so it is unit-tested on its own. */
#ifndef ELFCET_INSN_CLASS_H
#define ELFCET_INSN_CLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum insn_kind {
	INSN_OTHER = 0,
	INSN_CALL_DIRECT,   /* E8 rel: pushes a return address, target fixed */
	INSN_CALL_INDIRECT, /* FF /2 */
	INSN_JMP_INDIRECT,  /* FF /4 */
	INSN_RET,	    /* C3, C2 imm16 */
	INSN_ENDBR64,	    /* F3 0F 1E FA */
	INSN_ENDBR32,	    /* F3 0F 1E FB */
};

struct insn_class {
	enum insn_kind kind;
	bool notrack; /* 3E is the last segment prefix of an indirect CALL/JMP */
};

/* bits64: decode as 64-bit code (REX prefixes exist). */
struct insn_class insn_classify(const uint8_t *bytes, size_t len, bool bits64);

#endif
