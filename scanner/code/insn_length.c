/* Table-driven instruction lengths: prefixes, REX, the opcode (one byte or 0f and one
 * byte), ModRM with SIB and displacement, and the immediate. An opcode whose length or
 * validity depends on more than that is marked OTHER and left to Zydis. */
#include "config.h"

#include "code/insn_length.h"

#include <stdint.h>
#include <string.h>

/* What follows an opcode byte. */
enum {
	OTHER = 0, /* not covered: Zydis measures it */
	NONE = 1,  /* the opcode alone */
	M = 2,	   /* ModRM (with SIB, displacement) */
	IB = 4,	   /* an 8-bit immediate */
	IW = 8,	   /* a 16-bit immediate */
	IZ = 16,   /* 16 or 32 bits: 16 with a 66 prefix, unless REX.W */
	IV = 32,   /* mov $imm, %reg: IZ, or 64 bits with REX.W */
	MEM = 64,  /* ModRM must name memory (mod != 3), or the encoding is another */
	REG = 128, /* ModRM must name a register (mod == 3) */
};

#define MB (M | IB)
#define MZ (M | IZ)
#define MM (M | MEM)
#define MR (M | REG)

/* The one-byte opcodes. 40-4f are inc and dec in 32-bit mode, REX in 64-bit mode (read
 * before the table); the prefixes are read before it too; 8f, c6, c7, f6, f7, fe and ff
 * depend on ModRM's reg field (see reg_form). 63 is arpl or movsxd, ModRM either way.
 * The tables keep their rows of 16, one per high nibble: clang-format is off for them. */
/* clang-format off */
static const uint8_t one_byte[256] = {
	/* 00 */ M, M, M, M, IB, IZ, OTHER, OTHER, M, M, M, M, IB, IZ, OTHER, OTHER,
	/* 10 */ M, M, M, M, IB, IZ, OTHER, OTHER, M, M, M, M, IB, IZ, OTHER, OTHER,
	/* 20 */ M, M, M, M, IB, IZ, OTHER, OTHER, M, M, M, M, IB, IZ, OTHER, OTHER,
	/* 30 */ M, M, M, M, IB, IZ, OTHER, OTHER, M, M, M, M, IB, IZ, OTHER, OTHER,
	/* 40 */ NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE,
		 NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE,
	/* 50 */ NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE,
		 NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE,
	/* 60 */ OTHER, OTHER, OTHER, M, OTHER, OTHER, OTHER, OTHER, IZ, MZ, IB, MB,
		 OTHER, OTHER, OTHER, OTHER,
	/* 70 */ IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB, IB,
	/* 80 */ MB, MZ, OTHER, MB, M, M, M, M, M, M, M, M, OTHER, MM, OTHER, OTHER,
	/* 90 */ NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE, OTHER, OTHER,
		 OTHER, OTHER, OTHER, OTHER,
	/* a0 */ OTHER, OTHER, OTHER, OTHER, NONE, NONE, NONE, NONE, IB, IZ, NONE, NONE,
		 NONE, NONE, NONE, NONE,
	/* b0 */ IB, IB, IB, IB, IB, IB, IB, IB, IV, IV, IV, IV, IV, IV, IV, IV,
	/* c0 */ MB, MB, IW, NONE, OTHER, OTHER, OTHER, OTHER, OTHER, NONE, OTHER, OTHER,
		 NONE, IB, OTHER, OTHER,
	/* d0 */ M, M, M, M, OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, OTHER,
		 OTHER, OTHER, OTHER, OTHER,
	/* e0 */ OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, IZ, IZ, OTHER, IB,
		 OTHER, OTHER, OTHER, OTHER,
	/* f0 */ OTHER, OTHER, OTHER, OTHER, NONE, NONE, OTHER, OTHER, NONE, NONE, NONE, NONE,
		 NONE, NONE, OTHER, OTHER,
};

/* The two-byte opcodes 0f xx. */
static const uint8_t two_byte[256] = {
	/* 00 */ OTHER, OTHER, OTHER, OTHER, OTHER, NONE, OTHER, OTHER, OTHER, OTHER, OTHER,
		 NONE, OTHER, OTHER, OTHER, OTHER,
	/* 10 */ M, M, M, MM, M, M, M, MM, OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, M, M,
	/* 20 */ OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, M, M, M, MM, M, M, M, M,
	/* 30 */ OTHER, NONE, OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, OTHER, OTHER,
		 OTHER, OTHER, OTHER, OTHER, OTHER,
	/* 40 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 50 */ MR, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 60 */ M, M, M, M, M, M, M, M, M, M, M, M, OTHER, OTHER, M, M,
	/* 70 */ MB, OTHER, OTHER, OTHER, M, M, M, NONE, OTHER, OTHER, OTHER, OTHER,
		 OTHER, OTHER, M, M,
	/* 80 */ IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ, IZ,
	/* 90 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* a0 */ OTHER, OTHER, NONE, M, MB, M, OTHER, OTHER, OTHER, OTHER, OTHER, M,
		 MB, M, OTHER, M,
	/* b0 */ M, M, OTHER, M, OTHER, OTHER, M, M, OTHER, OTHER, OTHER, M, M, M, M, M,
	/* c0 */ M, M, MB, MM, MB, OTHER, MB, OTHER, NONE, NONE, NONE, NONE,
		 NONE, NONE, NONE, NONE,
	/* d0 */ OTHER, M, M, M, M, M, OTHER, OTHER, M, M, M, M, M, M, M, M,
	/* e0 */ M, M, M, M, M, M, OTHER, OTHER, M, M, M, M, M, M, M, M,
	/* f0 */ OTHER, M, M, M, M, M, M, OTHER, M, M, M, M, M, M, M, OTHER,
};
/* clang-format on */

/* The 0f opcodes of SSE, where 66, f3 and f2 pick the instruction (movups, movss, movupd,
 * movsd) and a combination that names none is invalid. */
static bool is_sse(uint8_t op)
{
	return (op >= 0x10 && op <= 0x17) || (op >= 0x28 && op <= 0x2f) ||
	       (op >= 0x50 && op <= 0x7f) || (op >= 0xc2 && op <= 0xc7) || op >= 0xd0;
}

/* Whether the SSE opcode OP exists with an f3 (F3) or f2 prefix: the scalar and
 * conversion forms. */
static bool sse_takes_rep(uint8_t op, bool f3)
{
	static const uint8_t with_f3[] = { 0x10, 0x11, 0x12, 0x16, 0x2a, 0x2c, 0x2d, 0x51,
					   0x52, 0x53, 0x58, 0x59, 0x5a, 0x5b, 0x5c, 0x5d,
					   0x5e, 0x5f, 0x6f, 0x70, 0x7e, 0x7f, 0xc2 };
	static const uint8_t with_f2[] = { 0x10, 0x11, 0x12, 0x2a, 0x2c, 0x2d, 0x51, 0x58,
					   0x59, 0x5a, 0x5c, 0x5d, 0x5e, 0x5f, 0x70, 0xc2 };

	return f3 ? memchr(with_f3, op, sizeof(with_f3)) != NULL
		  : memchr(with_f2, op, sizeof(with_f2)) != NULL;
}

size_t modrm_operand_length(const unsigned char *p, size_t n)
{
	unsigned mod, rm;
	size_t len = 1;

	if (n < 1)
		return 0;
	mod = p[0] >> 6;
	rm = p[0] & 7;
	if (mod == 3)
		return 1;
	if (rm == 4) {
		if (n < 2)
			return 0;
		len++;
		if (mod == 0 && (p[1] & 7) == 5)
			len += 4;
	} else if (mod == 0 && rm == 5) {
		len += 4;
	}
	len += mod == 1 ? 1 : mod == 2 ? 4 : 0;
	return len <= n ? len : 0;
}

/* The group opcodes whose ModRM reg field picks the instruction: their form, or OTHER. */
static uint8_t reg_form(uint8_t op, uint8_t modrm)
{
	unsigned reg = (modrm >> 3) & 7;
	bool memory = (modrm >> 6) != 3;

	switch (op) {
	case 0x8f: /* pop r/m; reg != 0 is AMD's XOP */
		return reg == 0 ? M : OTHER;
	case 0xc6: /* mov $imm8, r/m */
		return reg == 0 ? MB : OTHER;
	case 0xc7: /* mov $imm32, r/m */
		return reg == 0 ? MZ : OTHER;
	case 0xf6: /* test $imm8 (/0), not, neg, mul, imul, div, idiv */
		return reg == 0 ? MB : reg == 1 ? OTHER : M;
	case 0xf7:
		return reg == 0 ? MZ : reg == 1 ? OTHER : M;
	case 0xfe: /* inc, dec */
		return reg <= 1 ? M : OTHER;
	case 0xff: /* inc, dec, call, far call, jmp, far jmp, push */
		if (reg == 7 || ((reg == 3 || reg == 5) && !memory))
			return OTHER;
		return M;
	default:
		return OTHER;
	}
}

static bool is_legacy_prefix(uint8_t b)
{
	return b == 0x66 || b == 0x67 || b == 0xf2 || b == 0xf3 || b == 0x2e || b == 0x3e ||
	       b == 0x26 || b == 0x36 || b == 0x64 || b == 0x65;
}

size_t quick_length(const unsigned char *p, size_t n, bool is64)
{
	size_t i = 0, mlen, imm = 0;
	bool opsize16 = false, rexw = false, f3 = false, f2 = false;
	uint8_t op, form;

	while (i < n && i < 4 && is_legacy_prefix(p[i])) {
		opsize16 |= p[i] == 0x66;
		f3 |= p[i] == 0xf3;
		f2 |= p[i] == 0xf2;
		if (p[i] == 0x67 && !is64)
			return 0; /* 16-bit addressing */
		i++;
	}
	if (i >= n || i == 4)
		return 0;
	if (is64 && (p[i] & 0xf0) == 0x40) {
		rexw = p[i] & 8;
		if (++i >= n)
			return 0;
	}
	op = p[i++];
	if (op == 0x0f) {
		if (i >= n)
			return 0;
		op = p[i++];
		form = two_byte[op];
		/* jcc rel16 with 66 in 32-bit mode; in 64-bit mode CPUs differ */
		if ((op & 0xf0) == 0x80 && opsize16)
			return 0;
		if (is_sse(op) && (f3 || f2) && (opsize16 || (f3 && f2) || !sse_takes_rep(op, f3)))
			return 0;
	} else {
		form = one_byte[op];
		if (op == 0x8f || op == 0xc6 || op == 0xc7 || op == 0xf6 || op == 0xf7 ||
		    op == 0xfe || op == 0xff) {
			if (i >= n)
				return 0;
			form = reg_form(op, p[i]);
		}
		if ((op == 0xe8 || op == 0xe9) && opsize16)
			return 0;
		if (is64 && op >= 0x40 && op <= 0x4f)
			return 0; /* a second REX: the first one is ignored */
	}
	if (form == OTHER)
		return 0;
	if (form & M) {
		if (i >= n)
			return 0;
		if (((form & MEM) && (p[i] >> 6) == 3) || ((form & REG) && (p[i] >> 6) != 3))
			return 0;
		mlen = modrm_operand_length(p + i, n - i);
		if (!mlen)
			return 0;
		i += mlen;
	}
	if (form & IB)
		imm = 1;
	else if (form & IW)
		imm = 2;
	else if (form & IZ)
		imm = opsize16 && !rexw ? 2 : 4;
	else if (form & IV)
		imm = rexw ? 8 : opsize16 ? 2 : 4;
	i += imm;
	return i <= n && i <= 15 ? i : 0;
}
