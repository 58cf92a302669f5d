/* The code sweep. Decoding every instruction of /usr/bin with Capstone would take longer
 * than objdump; instead a byte scan of each function looks for what the checks care
 * about (tracked indirect jumps, vsyscall immediates, code addresses, returns-twice
 * calls, rets after stack games, CET opcodes, ENDBR bytes off a function start), and only
 * functions holding such bytes are decoded: measured from their start to find where the
 * instructions begin, and the last few instructions up to each such byte decoded in full
 * to confirm it. */
#include "config.h"

#include "code/code_sweep.h"

#include "code/targets.h"

#include "code/byte_scan.h"
#include "util/byteorder.h"
#include "code/disasm.h"
#include "code/insn_length.h"
#include "util/sort_address.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define HISTORY 8

/* The part of an operand the checks look at. */
struct operand {
	x86_op_type type;
	x86_reg reg;	     /* X86_OP_REG */
	int64_t imm;	     /* X86_OP_IMM */
	x86_reg base, index; /* X86_OP_MEM */
	int64_t disp;
	int scale;
};

/* What the instruction checks remember of the instructions before the current one. */
struct recent {
	uint64_t addr;
	size_t size;
	unsigned id;
	uint8_t nops;
	bool invalid; /* no instruction at all: data read as code */
	struct operand op[2];
};

/* A register or memory operand that holds a vsyscall address, and where it was put. */
struct vsys_holder {
	struct operand where;
	uint64_t value, at;
};

/* How many holders are followed at once, and over how many instructions after the last
 * one was loaded: a vsyscall address is called a few instructions after it is loaded
 * (mov $0xffffffffff600400,%rax; xor %edi,%edi; call *%rax). */
#define VSYS_HOLDERS 4
#define VSYS_REACH 16

struct sweep {
	struct code_ctx *c;
	struct disasm d;
	uint64_t func_start, func_end;
	const unsigned char *func_bytes; /* the code of [func_start, func_end) */
	unsigned char *starts_bitmap;	 /* instruction starts in [func_start, func_end) */
	struct recent ring[HISTORY];	 /* the last instructions, newest at ring[head] */
	size_t head, nhist;
	char cet_used[96]; /* shadow-stack instructions seen in this function */
	uint64_t cet_first;
	struct vsys_holder holders[VSYS_HOLDERS]; /* registers and slots holding a vsyscall address */
	size_t nholders;
	unsigned vsys_left;	/* instructions still decoded to see where they go */
	struct byte_scan bytes; /* finds the bytes worth_decoding_at looks at */
	size_t *cands;		/* offsets worth a look in the current function */
	size_t ncands, cands_cap;
};

/* Decoding starts at the last known instruction boundary (the function start, or the end
 * of what was decoded for an earlier candidate) when that is at most KNOWN_REACH bytes
 * before a byte worth a look; farther away, RESYNC_WINDOW bytes before it. x86 decoding
 * usually falls into step with the real instructions within a few of them: this bounds
 * the work in the huge regions no symbol or FDE divides (GHC, Free Pascal, hand-written
 * code), at the price of a rare misreading there. */
#define KNOWN_REACH 8192
#define RESYNC_WINDOW 1024

/* ---- the byte scan ---------------------------------------------------------------- */

static bool exec_address(const struct code_ctx *c, uint64_t v)
{
	return code_range_of(c, v) != NULL;
}

/* How far before a ret the byte scan looks for a move into %rsp: the check reads up to
 * four instructions back (six pops and a mov with SIB and disp32 fit). */
#define RSP_WRITE_REACH 24

/* Whether the ret at P[I] follows a push, a store to (%rsp), or a write of %rsp with only
 * pops in between: the shapes the shadow-stack checks look for. */
static bool ret_after_stack_game(const unsigned char *p, size_t i)
{
	size_t k = i, pops = 0, j;

	/* 0f 50-57 are SSE instructions and 0f 94 is sete: no push or xchg there */
	if (k >= 1 && p[k - 1] >= 0x50 && p[k - 1] <= 0x57 && !(k >= 2 && p[k - 2] == 0x0f))
		return true; /* push %reg */
	if ((k >= 2 && p[k - 2] == 0x6a) || (k >= 5 && p[k - 5] == 0x68))
		return true; /* push $imm */
	if (k >= 3 && p[k - 1] == 0x24 && (p[k - 2] & 0xc7) == 0x04 && p[k - 3] == 0x89)
		return true; /* mov %reg,(%rsp) */
	while (k >= 1 && pops < 6 && p[k - 1] >= 0x58 && p[k - 1] <= 0x5f &&
	       (p[k - 1] != 0x5c || (k >= 2 && p[k - 2] == 0x41))) {
		k -= k >= 2 && p[k - 2] == 0x41 ? 2 : 1; /* pop %reg */
		pops++;
	}
	if (k >= 1 && (p[k - 1] == 0x5c || p[k - 1] == 0x94) &&
	    !(k >= 2 && (p[k - 2] == 0x41 || p[k - 2] == 0x0f)))
		return true; /* pop %rsp, xchg %rax,%rsp */
	/* A register or memory word moved into %rsp right before, behind pops, or a few
	 * instructions earlier (Go's stack switches: mov %rsi,%rsp; mov %eax,0x20(%rsp);
	 * pop %rbp; ret). Not mov %rbp,%rsp (89 ec, 8b e5): that restores the frame. */
	for (j = i >= RSP_WRITE_REACH ? i - RSP_WRITE_REACH : 0; j + 1 < i; j++) {
		uint8_t rex;

		if ((p[j] & 0xfd) != 0x89) /* neither 89 nor 8b */
			continue;
		/* REX.B (89) or REX.R (8b) would make the register %r12, not %rsp */
		rex = j >= 1 && (p[j - 1] & 0xf0) == 0x40 ? p[j - 1] : 0;
		if ((p[j] == 0x89 && (p[j + 1] & 0xc7) == 0xc4 && p[j + 1] != 0xec && !(rex & 1)) ||
		    (p[j] == 0x8b && (p[j + 1] & 0x38) == 0x20 && p[j + 1] != 0xe5 && !(rex & 4)))
			return true;
	}
	return false;
}

/* Whether a defined global symbol of any type names ADDR: an assembler's global label
 * (NOTYPE) that is no function start is still a place code can take and jump to. */
static bool global_label_at(const struct code_ctx *c, uint64_t addr)
{
	const struct elf_model *m = c->m;
	size_t lo =
		records_below(m->symbols_by_addr, m->nsymbols, sizeof(*m->symbols_by_addr), addr);

	for (; lo < m->nsymbols && m->symbols_by_addr[lo].value == addr; lo++) {
		const struct elf_symbol *sym = &m->symbols_by_addr[lo];

		if (sym->shndx != SHN_UNDEF && sym->bind != STB_LOCAL &&
		    (sym->type == STT_NOTYPE || sym->type == STT_FUNC))
			return true;
	}
	return false;
}

/* Whether the instruction at P (N bytes) is a cmp (39, 3b, or 81/83 /7, REX allowed):
 * an address loaded right before it is a bound being compared with, not one jumped to
 * (qemu: lea safe_syscall_start(%rip),%rdx; cmp %rax,%rdx). */
static bool is_cmp(const unsigned char *p, size_t n)
{
	size_t k = n && (p[0] & 0xf0) == 0x40 ? 1 : 0;

	if (k >= n)
		return false;
	return p[k] == 0x39 || p[k] == 0x3b ||
	       ((p[k] == 0x81 || p[k] == 0x83) && k + 1 < n && ((p[k + 1] >> 3) & 7) == 7);
}

/* An address the code computes or loads (lea, mov $imm32, push $imm32; the next
 * instruction at NEXT, LEFT bytes): when it is exactly a function start or a PLT entry
 * (a position-dependent program's canonical address of an imported function), the code
 * takes that address; a global label that is neither counts too, unless the next
 * instruction only compares with it. */
static void code_address_taken(struct code_ctx *c, uint64_t v, uint64_t evidence,
			       const unsigned char *next, size_t left)
{
	uint64_t name;

	if (!exec_address(c, v))
		return;
	if (code_is_function_start(c, v) || addr_map_get(&c->plt_symbol, v, &name) ||
	    (global_label_at(c, v) && !is_cmp(next, left)))
		code_add_target(c, v, VIA_CODE_REF, evidence);
}

/* How far after mov $end,%reg the byte scan looks for the sub $start,%reg that makes it
 * a size (a few instructions GCC schedules between). */
#define SIZE_SUB_REACH 32

/* Whether, in the SIZE_SUB_REACH bytes from P[FROM], the code subtracts a code address
 * from register REG (0-15): sub $imm32,%reg (81 /5, or 2d for %eax/%rax). Then the mov
 * of a code address into REG before it computes a size (mov $end,%r12d;
 * sub $start,%r12), not an address taken. */
static bool subtracts_code_address(const struct code_ctx *c, const unsigned char *p, size_t from,
				   size_t n, int reg)
{
	size_t j, end = from + SIZE_SUB_REACH < n ? from + SIZE_SUB_REACH : n;

	for (j = from; j + 5 <= end; j++) {
		size_t k = j;
		int rexb = 0;

		if (c->is64 && (p[k] & 0xf0) == 0x40) {
			rexb = p[k] & 1;
			k++;
		}
		if (k + 5 <= n && p[k] == 0x2d && reg == 0 && !rexb &&
		    exec_address(c, load_le32(p + k + 1)))
			return true;
		if (k + 6 <= n && p[k] == 0x81 && (p[k + 1] & 0xf8) == 0xe8 &&
		    ((p[k + 1] & 7) | (rexb << 3)) == reg && exec_address(c, load_le32(p + k + 2)))
			return true;
	}
	return false;
}

static bool worth_decoding_at(struct code_ctx *c, const unsigned char *p, size_t i, size_t n,
			      uint64_t addr)
{
	uint8_t b = p[i];

	switch (b) {
	case 0xff:
		/* jmp *table(,%reg,N) and jmp *%reg without notrack: table dispatches
		 * (and pop; jmp, which the shadow-stack check wants either way). With
		 * notrack too in a position-dependent file: its absolute table is no list
		 * of function pointers for the data scan. */
		if (i + 2 < n && p[i + 1] == 0x24 && (p[i + 2] & 7) == 5 &&
		    (!(i >= 1 && p[i - 1] == 0x3e) || c->m->e_type == ET_EXEC))
			return true;
		if (i + 1 < n && (p[i + 1] & 0xf8) == 0xe0) {
			size_t k = i >= 1 && (p[i - 1] & 0xf0) == 0x40 ? i - 1 : i;

			if (!(k >= 1 && p[k - 1] == 0x3e))
				return true;
			if (k >= 2 && p[k - 2] >= 0x58 && p[k - 2] <= 0x5f)
				return true;
		}
		/* call *slot(%rip) of a returns-twice function */
		if (c->nreturns_twice && c->is64 && i + 6 <= n && p[i + 1] == 0x15 &&
		    targets_is_returns_twice(
			    c, addr + i + 6 + (uint64_t)(int64_t)(int32_t)load_le32(p + i + 2)))
			code_add_target(c, addr + i + 6, VIA_RETURNS_TWICE, addr + i);
		break;
	case 0x60: /* the vsyscall page, as an imm32 or imm64 */
		if (c->is64 && i >= 1 && i + 1 < n && p[i + 1] == 0xff && p[i - 1] <= 0x0f)
			return true;
		break;
	case 0x8d: /* lea func(%rip), %r64: the function's address is taken */
		if (c->is64 && i >= 1 && (p[i - 1] & 0xf8) == 0x48 && i + 6 <= n &&
		    (p[i + 1] & 0xc7) == 0x05) {
			code_address_taken(c,
					   addr + i + 6 +
						   (uint64_t)(int64_t)(int32_t)load_le32(p + i + 2),
					   addr + i - 1, p + i + 6, n - i - 6);
		}
		/* i386 PIC: lea func@GOTOFF(%reg), %r32, the register holding the GOT */
		if (!c->is64 && c->got && i + 6 <= n && (p[i + 1] >> 6) == 2 &&
		    (p[i + 1] & 7) != 4) {
			code_address_taken(c,
					   (c->got +
					    (uint64_t)(int64_t)(int32_t)load_le32(p + i + 2)) &
						   0xffffffffull,
					   addr + i, p + i + 6, n - i - 6);
		}
		break;
	case 0xe8: /* call rel32 of a returns-twice function: the next insn is a target */
		if (c->nreturns_twice && i + 5 <= n) {
			uint64_t t =
				addr + i + 5 + (uint64_t)(int64_t)(int32_t)load_le32(p + i + 1);

			if (!c->is64)
				t &= 0xffffffffu;
			if (targets_is_returns_twice(c, t))
				code_add_target(c, addr + i + 5, VIA_RETURNS_TWICE, addr + i);
		}
		break;
	case 0xc3:
	case 0xc2:
		return ret_after_stack_game(p, i);
	case 0xf3: /* ENDBR off a function start, and the CET instructions */
		if (i + 3 < n && p[i + 1] == 0x0f) {
			/* The other class's ENDBR is a NOP here, no landing pad: ENDBR32
			 * (f3 0f 1e fb) in 64-bit code and ENDBR64 in 32-bit code. */
			if (p[i + 2] == 0x1e && (p[i + 3] == 0xfa || p[i + 3] == 0xfb))
				return is_endbr(p + i, n - i, c->is64) &&
				       !code_is_function_start(c, addr + i);
			if (p[i + 2] == 0x1e || p[i + 2] == 0xae || p[i + 2] == 0x01)
				return p[i + 2] != 0xae || ((p[i + 3] & 0xf8) == 0xe8) ||
				       ((p[i + 3] >> 6) != 3 && ((p[i + 3] >> 3) & 7) == 6);
		}
		if (i + 4 < n && (p[i + 1] & 0xf0) == 0x40 && p[i + 2] == 0x0f &&
		    (p[i + 3] == 0x1e || p[i + 3] == 0xae))
			return true;
		break;
	case 0x38: /* wrss / wruss: 0f 38 f6/f5 */
		if (i >= 1 && p[i - 1] == 0x0f && i + 1 < n &&
		    (p[i + 1] == 0xf6 || p[i + 1] == 0xf5))
			return true;
		break;
	default:
		break;
	}
	/* Position-dependent code names functions by absolute address: mov $func, %reg
	 * (b8+r), push $func, and mov $func to a register or to memory (c7 /0: a
	 * function pointer stored to a variable or to an argument slot on the stack). */
	if (c->m->e_type == ET_EXEC && i + 5 <= n && b == 0x68)
		code_address_taken(c, load_le32(p + i + 1), addr + i, p + i + 5, n - i - 5);
	if (c->m->e_type == ET_EXEC && i + 5 <= n && b >= 0xb8 && b <= 0xbf &&
	    exec_address(c, load_le32(p + i + 1))) {
		int rexb = c->is64 && i >= 1 && (p[i - 1] & 0xf0) == 0x40 ? p[i - 1] & 1 : 0;

		if (!subtracts_code_address(c, p, i + 5, n, (b & 7) | (rexb << 3)))
			code_address_taken(c, load_le32(p + i + 1), addr + i, p + i + 5, n - i - 5);
	}
	if (c->m->e_type == ET_EXEC && b == 0xc7 && i + 2 < n && ((p[i + 1] >> 3) & 7) == 0) {
		size_t operand = modrm_operand_length(p + i + 1, n - i - 1);
		size_t at = i + 1 + operand;
		int rexb = c->is64 && i >= 1 && (p[i - 1] & 0xf0) == 0x40 ? p[i - 1] & 1 : 0;

		/* mov $imm32,%reg (mod 3) followed by a sub: a size, as above */
		if (operand && at + 4 <= n && exec_address(c, load_le32(p + at)) &&
		    !((p[i + 1] >> 6) == 3 &&
		      subtracts_code_address(c, p, at + 4, n, (p[i + 1] & 7) | (rexb << 3))))
			code_address_taken(c, load_le32(p + at), addr + i, p + at + 4, n - at - 4);
	}
	return false;
}

/* The bytes after FIRST without which worth_decoding_at(FIRST) returns false at once,
 * into NEXT; 0 when any byte may follow. 0xff and 0x8d were half of the code's
 * first-byte hits (0xff mostly in negative displacements and immediates), and few of
 * them are the jmp, call or lea the checks want. Keep in step with worth_decoding_at. */
static uint8_t next_bytes_wanted(const struct code_ctx *c, uint8_t first,
				 struct byte_pattern next[BYTE_SCAN_MAX_NEXT])
{
	uint8_t n = 0;

	switch (first) {
	case 0xff:
		next[n++] = (struct byte_pattern){ 0xff, 0x24 }; /* jmp *table(,%reg,N) */
		next[n++] = (struct byte_pattern){ 0xf8, 0xe0 }; /* jmp *%reg */
		if (c->nreturns_twice && c->is64)
			next[n++] = (struct byte_pattern){ 0xff, 0x15 }; /* call *slot(%rip) */
		break;
	case 0x8d:
		if (c->is64)
			next[n++] = (struct byte_pattern){ 0xc7, 0x05 }; /* lea d(%rip) */
		else
			next[n++] = (struct byte_pattern){ 0xc0, 0x80 }; /* lea d32(%reg) */
		break;
	default:
		break;
	}
	return n;
}

/* The bytes worth_decoding_at can accept in C's code. The scan reads every byte of the
 * code, most of them none of these. */
static void set_wanted_bytes(const struct code_ctx *c, struct byte_scan_spec *spec)
{
	static const uint8_t always[] = { 0xff, 0xc3, 0xc2, 0xf3, 0x38 };
	size_t i;

	memset(spec, 0, sizeof(*spec));
	for (i = 0; i < sizeof(always); i++)
		spec->first[always[i]] = true;
	spec->first[0x8d] = c->is64 || c->got; /* lea of a function's address */
	spec->first[0x60] = c->is64;	       /* the vsyscall page */
	spec->first[0xe8] = c->nreturns_twice; /* call rel32 */
	if (c->m->e_type == ET_EXEC) {	       /* absolute function addresses */
		for (i = 0xb8; i <= 0xbf; i++)
			spec->first[i] = true;
		spec->first[0x68] = spec->first[0xc7] = true;
	}
	for (i = 0; i < 256; i++)
		if (spec->first[i])
			spec->nnext[i] = next_bytes_wanted(c, (uint8_t)i, spec->next[i]);
}

static void add_candidate(struct sweep *s, size_t i)
{
	ARRAY_RESERVE(s->cands, s->cands_cap, s->ncands + 1);
	s->cands[s->ncands++] = i;
}

static void on_byte(size_t at, void *ctx)
{
	struct sweep *s = ctx;

	if (worth_decoding_at(s->c, s->func_bytes, at, (size_t)(s->func_end - s->func_start),
			      s->func_start))
		add_candidate(s, at);
}

/* Scans a function's bytes for offsets worth decoding, taking the evidence the bytes
 * alone make certain (a lea of a function's address, a call to setjmp: the opcode, ModRM
 * and a target that is exactly a function start or a returns-twice entry do not occur by
 * chance inside other instructions). */
static void find_candidates(struct sweep *s)
{
	s->ncands = 0;
	byte_scan_run(&s->bytes, s->func_bytes, (size_t)(s->func_end - s->func_start), on_byte, s);
}

/* ---- the instruction checks ------------------------------------------------------- */

/* The K-th instruction before the current one (0: the previous one). */
static const struct recent *before(const struct sweep *s, size_t k)
{
	return &s->ring[(s->head + HISTORY - (k % HISTORY)) % HISTORY];
}

static bool is_rsp(x86_reg r)
{
	return r == X86_REG_RSP || r == X86_REG_ESP;
}

static const cs_x86 *detail_of(const struct decoded *di)
{
	return di->insn && di->insn->detail ? &di->insn->detail->x86 : NULL;
}

/* The number of a general-purpose register (0 for %rax ... 15 for %r15), or -1. */
static int gpr_number(x86_reg r)
{
	static const x86_reg r64[] = { X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RBX,
				       X86_REG_RSP, X86_REG_RBP, X86_REG_RSI, X86_REG_RDI,
				       X86_REG_R8,  X86_REG_R9,	 X86_REG_R10, X86_REG_R11,
				       X86_REG_R12, X86_REG_R13, X86_REG_R14, X86_REG_R15 };
	static const x86_reg r32[] = { X86_REG_EAX, X86_REG_ECX, X86_REG_EDX, X86_REG_EBX,
				       X86_REG_ESP, X86_REG_EBP, X86_REG_ESI, X86_REG_EDI };
	int i;

	for (i = 0; i < 16; i++)
		if (r64[i] == r)
			return i;
	for (i = 0; i < 8; i++)
		if (r32[i] == r)
			return i;
	return -1;
}

/* Whether the function copies %rsp into REG (mov %rsp,%reg in either encoding, or
 * lea disp(%rsp),%reg) before address END. Moving REG back into %rsp is then the end of
 * an alloca or a realignment (ld.so's _dl_runtime_resolve saves %rsp in %rbx, aligns, and
 * restores it): the same stack, not another one. */
static bool rsp_saved_in(const struct sweep *s, x86_reg reg, uint64_t end)
{
	const unsigned char *p = s->func_bytes;
	int n = gpr_number(reg);
	size_t i, len = (size_t)(end - s->func_start);
	uint8_t store_modrm, load_modrm;

	if (n < 0)
		return false;
	store_modrm = (uint8_t)(0xe0 | (n & 7));       /* 89 /r: mov %rsp,%reg */
	load_modrm = (uint8_t)(0xc4 | ((n & 7) << 3)); /* 8b /r: the same, reversed */
	for (i = 0; i + 2 < len; i++) {
		bool lea = p[i] == 0x8d && (p[i + 1] & 0x3f) == (uint8_t)(((n & 7) << 3) | 4) &&
			   (p[i + 1] >> 6) != 0 && (p[i + 1] >> 6) != 3 && p[i + 2] == 0x24;

		if (!((p[i] == 0x89 && p[i + 1] == store_modrm) ||
		      (p[i] == 0x8b && p[i + 1] == load_modrm) || lea))
			continue;
		if (!s->c->is64)
			return true;
		/* REX.W, with REX.B (89) or REX.R (8b, lea) saying whether REG is r8-r15 */
		if (i >= 1 && (p[i - 1] & 0xf8) == 0x48 &&
		    !!(p[i - 1] & (p[i] == 0x89 ? 1 : 4)) == (n >= 8))
			return true;
	}
	return false;
}

/* How far back rsp_saved_in_slot looks for the store: hand-written functions with no
 * symbol or FDE make regions of hundreds of kilobytes. */
#define SLOT_STORE_REACH 65536

/* Whether the function stored a copy of %rsp into DISP(%rsp) before END: mov %rsp,%reg
 * ... mov %reg,DISP(%rsp) (x86inc's stack alignment in dav1d and FFmpeg, Go's
 * asmcgocall). Loading %rsp from that slot then puts the stack pointer back on the
 * same stack. */
static bool rsp_saved_in_slot(const struct sweep *s, int64_t disp, uint64_t end)
{
	static const x86_reg r64[] = { X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RBX,
				       X86_REG_RSP, X86_REG_RBP, X86_REG_RSI, X86_REG_RDI,
				       X86_REG_R8,  X86_REG_R9,	 X86_REG_R10, X86_REG_R11,
				       X86_REG_R12, X86_REG_R13, X86_REG_R14, X86_REG_R15 };
	const unsigned char *p = s->func_bytes;
	size_t len = (size_t)(end - s->func_start), i, dlen;
	uint8_t mod;

	if (!s->c->is64)
		return false;
	if (disp == 0)
		mod = 0, dlen = 0;
	else if (disp >= -128 && disp < 128)
		mod = 1, dlen = 1;
	else if (disp >= INT32_MIN && disp <= INT32_MAX)
		mod = 2, dlen = 4;
	else
		return false;
	/* REX.W 89 ModRM(mod, reg, 100) SIB 24 disp */
	for (i = len > SLOT_STORE_REACH ? len - SLOT_STORE_REACH : 0; i + 4 + dlen <= len; i++) {
		int n;

		if ((p[i] & 0xfb) != 0x48 || p[i + 1] != 0x89 || (p[i + 2] >> 6) != mod ||
		    (p[i + 2] & 7) != 4 || p[i + 3] != 0x24)
			continue;
		if ((dlen == 1 && (int8_t)p[i + 4] != disp) ||
		    (dlen == 4 && (int32_t)load_le32(p + i + 4) != disp))
			continue;
		n = ((p[i + 2] >> 3) & 7) | (p[i] & 4 ? 8 : 0);
		if (n != 4 && rsp_saved_in(s, r64[n], s->func_start + i))
			return true;
	}
	return false;
}

/* %rsp as a stack pointer of the file's class. In 64-bit code a write of %esp alone
 * (xchg %eax,%esp: 94) truncates the stack pointer to 32 bits: no compiler writes it,
 * and 94 c3 are bytes of data read as code (GHC's info tables, tables in .text). */
static bool is_class_rsp(const struct sweep *s, x86_reg r)
{
	return s->c->is64 ? r == X86_REG_RSP : r == X86_REG_ESP;
}

static bool writes_rsp(const struct sweep *s, const struct recent *r)
{
	const struct operand *d = &r->op[0], *src = &r->op[1];

	if (r->nops < 1)
		return false;
	if (r->id == X86_INS_XCHG)
		return (d->type == X86_OP_REG && is_class_rsp(s, d->reg)) ||
		       (r->nops > 1 && src->type == X86_OP_REG && is_class_rsp(s, src->reg));
	switch (r->id) {
	case X86_INS_MOV:
		/* (mov %rbp,%rsp is restores_frame(), which check_ret stops at first) */
		return d->type == X86_OP_REG && is_rsp(d->reg) &&
		       !(src->type == X86_OP_REG && rsp_saved_in(s, src->reg, r->addr)) &&
		       !(src->type == X86_OP_MEM && is_rsp(src->base) &&
			 src->index == X86_REG_INVALID && rsp_saved_in_slot(s, src->disp, r->addr));
	case X86_INS_POP:
		return d->type == X86_OP_REG && is_rsp(d->reg);
	default:
		return false;
	}
}

/* leave, or mov %rbp,%rsp: the stack pointer taken back from the frame pointer. */
static bool restores_frame(const struct recent *r)
{
	return r->id == X86_INS_LEAVE ||
	       (r->id == X86_INS_MOV && r->nops == 2 && r->op[0].type == X86_OP_REG &&
		is_rsp(r->op[0].reg) && r->op[1].type == X86_OP_REG &&
		(r->op[1].reg == X86_REG_RBP || r->op[1].reg == X86_REG_EBP));
}

static bool stores_to_return_slot(const struct recent *r)
{
	const struct operand *d = &r->op[0];

	return r->id == X86_INS_MOV && r->nops == 2 && d->type == X86_OP_MEM && is_rsp(d->base) &&
	       d->index == X86_REG_INVALID && d->disp == 0;
}

/* Whether the push before this ret puts back what a pop of the same register took off
 * earlier, with the register untouched in between: pop %r10; lea (%rsp,%rcx,8),%rsp;
 * push %r10; ret (node's builtins drop their arguments so) returns to the address CALL
 * pushed, which the shadow stack holds. */
static bool pushes_back_popped(const struct sweep *s)
{
	const struct recent *push = before(s, 0);
	size_t k;

	if (push->nops != 1 || push->op[0].type != X86_OP_REG)
		return false;
	for (k = 1; k < s->nhist; k++) {
		const struct recent *r = before(s, k);

		if (r->id == X86_INS_POP)
			return r->nops == 1 && r->op[0].type == X86_OP_REG &&
			       gpr_number(r->op[0].reg) == gpr_number(push->op[0].reg) &&
			       gpr_number(push->op[0].reg) >= 0;
		if (r->id == X86_INS_CALL || r->id == X86_INS_JMP || r->id == X86_INS_RET ||
		    r->id == X86_INS_PUSH || r->id == X86_INS_INVALID)
			return false;
		/* the register written (or %rsp moved by more than a lea can say) */
		if (r->nops >= 1 && r->op[0].type == X86_OP_REG &&
		    gpr_number(r->op[0].reg) == gpr_number(push->op[0].reg) &&
		    r->id != X86_INS_CMP && r->id != X86_INS_TEST)
			return false;
	}
	return false;
}

static void check_ret(struct sweep *s, const struct decoded *di)
{
	struct code_ctx *c = s->c;
	size_t k;

	if (!s->nhist)
		return;
	/* Bytes that are no instruction just before: this is data read as code (tables
	 * in .text, GHC's info tables), not a ret anything reaches. */
	for (k = 0; k < s->nhist && k < 4; k++)
		if (before(s, k)->invalid)
			return;
	if (before(s, 0)->id == X86_INS_PUSH && !pushes_back_popped(s)) {
		code_finding(c, "shstk-ret-as-jump", di->addr, "code-ref",
			     "push then ret: a jump through the stack, which the shadow stack "
			     "refuses (the return address is not the one CALL pushed)");
		return;
	}
	if (stores_to_return_slot(before(s, 0))) {
		code_finding(c, "shstk-return-slot-write", di->addr, "code-ref",
			     "the return address is overwritten (mov to (%%rsp)) just before "
			     "ret: the shadow stack still holds the original");
		return;
	}
	for (k = 0; k < s->nhist && k < 4; k++) {
		/* A call returned here, or the frame pointer put the stack pointer back:
		 * whatever %rsp held before does not reach this ret. */
		/* Nor does anything before a jmp or ret: another path, or another
		 * function. */
		if (before(s, k)->id == X86_INS_CALL || restores_frame(before(s, k)) ||
		    before(s, k)->id == X86_INS_JMP || before(s, k)->id == X86_INS_RET)
			break;
		if (writes_rsp(s, before(s, k))) {
			code_finding(c, "shstk-stack-pivot", di->addr, "code-ref",
				     "the stack pointer is replaced at 0x%llx before this ret: "
				     "the return address comes from another stack",
				     (unsigned long long)before(s, k)->addr);
			return;
		}
	}
}

/* Table entries for a tracked jmp, or 0 when the dispatch is not a recognised table. */
struct table {
	uint64_t base;
	unsigned entry_size;
	bool relative;	 /* int32 offsets from ORIGIN (PIC), else absolute addresses */
	uint64_t origin; /* BASE on x86-64; _GLOBAL_OFFSET_TABLE_ on i386 */
	uint64_t count;	 /* 0: unknown, read while entries make sense */
};

/* Whether R leaves the flags as they were: the moves GCC schedules between a cmp and
 * its ja (cmpl $0x1b,(%rdx); mov %rdi,%r13; mov %rdx,%r12; ja). */
static bool keeps_flags(const struct recent *r)
{
	switch (r->id) {
	case X86_INS_MOV:
	case X86_INS_MOVZX:
	case X86_INS_MOVSX:
	case X86_INS_MOVSXD:
	case X86_INS_LEA:
		return true;
	default:
		return false;
	}
}

/* The bound of the table from a preceding cmp $N, reg; ja (moves allowed between). */
static uint64_t bound_from_history(const struct sweep *s)
{
	size_t k, j;

	for (k = 0; k + 1 < s->nhist; k++) {
		const struct recent *jump = before(s, k), *r;

		if (jump->id != X86_INS_JA && jump->id != X86_INS_JAE)
			continue;
		for (j = k + 1; j < s->nhist && keeps_flags(before(s, j)); j++)
			;
		if (j >= s->nhist)
			break;
		r = before(s, j);
		if (r->id == X86_INS_CMP && r->nops == 2 && r->op[1].type == X86_OP_IMM &&
		    r->op[1].imm >= 0 && r->op[1].imm < 4096)
			return (uint64_t)r->op[1].imm + (jump->id == X86_INS_JA);
	}
	return 0;
}

/* R puts a 4-byte table entry into REG: add or mov table@GOTOFF(%rG,%rI,4),REG. */
static bool loads_gotoff_entry(const struct recent *r, x86_reg reg)
{
	return (r->id == X86_INS_ADD || r->id == X86_INS_MOV) && r->nops == 2 &&
	       r->op[0].type == X86_OP_REG && r->op[0].reg == reg && r->op[1].type == X86_OP_MEM &&
	       r->op[1].base != X86_REG_INVALID && r->op[1].index != X86_REG_INVALID &&
	       r->op[1].scale == 4;
}

/* Whether the instruction K back starts an i386 PIC dispatch into REG: either
 * add table@GOTOFF(%rG,%rI,4),%rG (REG is %rG, the entry added to the GOT in place), or
 * mov table@GOTOFF(%rG,%rI,4),REG followed by add %rG,REG. */
static bool gotoff_dispatch(const struct sweep *s, size_t k, x86_reg reg)
{
	const struct recent *r = before(s, k), *next;

	if (!loads_gotoff_entry(r, reg))
		return false;
	if (r->id == X86_INS_ADD)
		return r->op[1].base == reg;
	if (k == 0)
		return false;
	next = before(s, k - 1);
	return next->id == X86_INS_ADD && next->op[1].type == X86_OP_REG &&
	       next->op[1].reg == r->op[1].base;
}

/* How far back a table's lea is looked for when the history does not hold it. */
#define TABLE_LEA_REACH 512

/* The dispatch of a relative table in the two instructions before the jmp:
 * movslq (%rB,%rI,4),%rX; add %rO,%rX, then jmp *%rX (JMP_REG). B and O are the registers holding
 * the table and the address its offsets count from: the same one (GCC's usual code), or
 * two (glibc's vfprintf: offsets from a code label). */
static bool relative_dispatch(const struct sweep *s, x86_reg jmp_reg, x86_reg *b, x86_reg *o)
{
	const struct recent *add = before(s, 0), *load = before(s, 1);

	if (s->nhist < 2 || add->id != X86_INS_ADD || add->nops != 2 ||
	    add->op[0].type != X86_OP_REG || add->op[0].reg != jmp_reg ||
	    add->op[1].type != X86_OP_REG || load->id != X86_INS_MOVSXD || load->nops != 2 ||
	    load->op[1].type != X86_OP_MEM || load->op[1].base == X86_REG_INVALID ||
	    load->op[1].scale != 4 || load->op[1].disp != 0 || load->op[0].type != X86_OP_REG ||
	    load->op[0].reg != add->op[0].reg)
		return false;
	*b = load->op[1].base;
	*o = add->op[1].reg;
	return true;
}

/* The address the nearest lea disp(%rip),REG of the history loads, or 0. */
static uint64_t lea_in_history(const struct sweep *s, x86_reg reg)
{
	size_t k;

	for (k = 0; k < s->nhist; k++) {
		const struct recent *r = before(s, k);

		if (r->id == X86_INS_LEA && r->nops == 2 && r->op[0].type == X86_OP_REG &&
		    r->op[0].reg == reg && r->op[1].type == X86_OP_MEM &&
		    r->op[1].base == X86_REG_RIP)
			return r->addr + r->size + (uint64_t)r->op[1].disp;
	}
	return 0;
}

/* The table base when the lea table(%rip),%rB lies farther back than the history: GCC
 * hoists it out of a loop (glibc's vfprintf, ld.so). The nearest lea disp32(%rip),%rB
 * within TABLE_LEA_REACH bytes before the movslq, in the same function, from which the
 * instruction lengths lead exactly to the movslq, and whose address is not code; 0 when
 * there is none. */
static uint64_t far_table_lea(const struct sweep *s, x86_reg reg)
{
	const struct recent *load = before(s, 1);
	int b = gpr_number(reg);
	uint64_t lo, at;

	if (b < 0 || load->addr < s->func_start + 7)
		return 0;
	lo = load->addr - s->func_start > TABLE_LEA_REACH ? load->addr - TABLE_LEA_REACH
							  : s->func_start;
	for (at = load->addr - 7;; at--) {
		const unsigned char *p = s->func_bytes + (at - s->func_start);

		if (p[0] == (0x48 | (b >= 8 ? 4 : 0)) && p[1] == 0x8d &&
		    p[2] == (0x05 | ((b & 7) << 3))) {
			uint64_t pos = at;

			while (pos < load->addr) {
				size_t len = disasm_length(&s->d,
							   s->func_bytes + (pos - s->func_start),
							   (size_t)(s->func_end - pos));

				if (!len)
					break;
				pos += len;
			}
			if (pos == load->addr) {
				uint64_t base =
					at + 7 + (uint64_t)(int64_t)(int32_t)load_le32(p + 3);

				/* A table lies in data: a lea of a code address is something
				 * else (a label, a callback). */
				return code_range_of(s->c, base) ? 0 : base;
			}
		}
		if (at == lo)
			return 0;
	}
}

static bool recognise_table(const struct sweep *s, const cs_x86 *x, struct table *t)
{
	const cs_x86_op *op = &x->operands[0];
	x86_reg b, o;
	size_t k;

	memset(t, 0, sizeof(*t));
	if (op->type == X86_OP_MEM && op->mem.base == X86_REG_INVALID &&
	    op->mem.index != X86_REG_INVALID && (unsigned)op->mem.scale == s->c->word) {
		t->base = (uint64_t)op->mem.disp & (s->c->is64 ? ~0ull : 0xffffffffull);
		t->entry_size = s->c->word;
		t->count = bound_from_history(s);
		return true;
	}
	if (op->type != X86_OP_REG)
		return false;
	/* lea table(%rip),%rB; movslq (%rB,%rI,4),%rX; add %rO,%rX; jmp *%rX, with %rO
	 * the table (%rB) or a lea origin(%rip),%rO of its own; the table's lea may lie
	 * farther back than the history (then only with a bound: the register might have
	 * changed in between). */
	if (s->c->is64 && relative_dispatch(s, op->reg, &b, &o)) {
		uint64_t base = lea_in_history(s, b), origin;

		t->count = bound_from_history(s);
		if (!base && t->count)
			base = far_table_lea(s, b);
		origin = o == b ? base : lea_in_history(s, o);
		if (base && origin && !code_range_of(s->c, base)) {
			t->base = base;
			t->origin = origin;
			t->entry_size = 4;
			t->relative = true;
			return true;
		}
		t->count = 0;
	}
	/* Any other shape ending in jmp *%rX: the nearest lea table(%rip). */
	for (k = 0; k < s->nhist; k++) {
		const struct recent *r = before(s, k);

		if (r->id == X86_INS_LEA && r->nops == 2 && r->op[1].type == X86_OP_MEM &&
		    r->op[1].base == X86_REG_RIP) {
			t->base = r->addr + r->size + (uint64_t)r->op[1].disp;
			t->origin = t->base;
			t->entry_size = 4;
			t->relative = true;
			t->count = bound_from_history(s);
			return true;
		}
	}
	/* i386 PIC, with %rG holding _GLOBAL_OFFSET_TABLE_ and entries GOT-relative:
	 * add table@GOTOFF(%rG,%rI,4),%rG; jmp *%rG (gcc, clang), or
	 * mov table@GOTOFF(%rG,%rI,4),%rX; add %rG,%rX; jmp *%rX. */
	for (k = 0; !s->c->is64 && s->c->got && k < s->nhist && k < 3; k++) {
		const struct recent *r = before(s, k);

		if (gotoff_dispatch(s, k, op->reg)) {
			t->base = (s->c->got + (uint64_t)r->op[1].disp) & 0xffffffffull;
			t->origin = s->c->got;
			t->entry_size = 4;
			t->relative = true;
			t->count = bound_from_history(s);
			return true;
		}
	}
	return false;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every label lacking ENDBR, once each, in address order, on the finding just added: a
 * CPU with IBT faults at whichever one the jmp takes, so a verifier must know them all. */
static void attach_labels(struct code_ctx *c, uint64_t *labels, uint64_t n)
{
	size_t cap = (size_t)n * 20 + 1, used = 0;
	char *text = xmalloc(cap);
	uint64_t i;

	text[0] = '\0';
	qsort(labels, n, sizeof(*labels), compare_u64);
	for (i = 0; i < n; i++) {
		if (i && labels[i] == labels[i - 1])
			continue;
		used += (size_t)snprintf(text + used, cap - used, "%s0x%llx", used ? " " : "",
					 (unsigned long long)labels[i]);
	}
	c->out->items[c->out->count - 1].labels = text_arena_copy(&c->out->texts, text);
	free(text);
}

/* Whether the code of [FROM, FROM_END) jumps (jmp or jcc rel32) into [TO, TO_END). The
 * part of a function GCC moves to .text.unlikely (hot/cold splitting) has its own FDE and
 * looks like another function: the two parts jump into each other. Read from the bytes: a
 * false match needs an e9 or 0f 8x whose displacement lands exactly in the other part. */
static bool jumps_into(const struct code_ctx *c, uint64_t from, uint64_t from_end, uint64_t to,
		       uint64_t to_end)
{
	size_t n, i;
	const unsigned char *p = code_bytes(c, from, &n);

	if (!p)
		return false;
	if (n > from_end - from)
		n = (size_t)(from_end - from);
	for (i = 0; i + 5 <= n; i++) {
		size_t len;
		uint64_t dest;

		if (p[i] == 0xe9)
			len = 5;
		else if (p[i] == 0x0f && i + 6 <= n && (p[i + 1] & 0xf0) == 0x80)
			len = 6;
		else
			continue;
		dest = from + i + len + (uint64_t)(int64_t)(int32_t)load_le32(p + i + len - 4);
		if (!c->is64)
			dest &= 0xffffffffull;
		if (dest >= to && dest < to_end)
			return true;
	}
	return false;
}

/* The parts of other functions a table's labels were checked against: the part
 * accepted as the function's cold part, and the last few rejected, so that a table
 * whose labels keep landing in the same parts reads each part's code once. */
#define REJECTED_PARTS 8
struct label_parts {
	struct addr_range cold;
	struct addr_range rejected[REJECTED_PARTS];
	size_t next_rejected;
};

/* GCC's cold parts are small; a larger part is another function, not read through. */
#define COLD_PART_MAX 65536

/* Whether LABEL belongs to the function being swept: in its body, or in its cold part. */
static bool label_in_function(const struct sweep *s, uint64_t label, struct label_parts *lp)
{
	uint64_t start, end;
	size_t k;

	if (label >= s->func_start && label < s->func_end)
		return true;
	if (label >= lp->cold.start && label < lp->cold.end)
		return true;
	for (k = 0; k < REJECTED_PARTS; k++)
		if (label >= lp->rejected[k].start && label < lp->rejected[k].end)
			return false;
	if (!code_range_of(s->c, label) || !(start = code_function_start(s->c, label)))
		return false;
	end = code_function_end(s->c, label);
	if (end - start > COLD_PART_MAX ||
	    (!jumps_into(s->c, s->func_start, s->func_end, start, end) &&
	     !jumps_into(s->c, start, end, s->func_start, s->func_end))) {
		lp->rejected[lp->next_rejected++ % REJECTED_PARTS] =
			(struct addr_range){ start, end };
		return false;
	}
	lp->cold = (struct addr_range){ start, end };
	return true;
}

/* A notrack jmp needs no ENDBR at its labels: its table is only recorded. */
static void check_jump_table(struct sweep *s, const struct decoded *di, const cs_x86 *x,
			     bool tracked)
{
	struct code_ctx *c = s->c;
	uint64_t i, limit, lacking = 0, entries = 0;
	uint64_t *lacking_labels = NULL;
	char list[160] = "";
	size_t used = 0, lacking_cap = 0;
	struct table t;
	struct label_parts parts;

	if (!recognise_table(s, x, &t))
		return;
	memset(&parts, 0, sizeof(parts));
	limit = t.count ? t.count : 512;
	for (i = 0; i < limit; i++) {
		const unsigned char *e =
			elf_model_vaddr_bytes(c->m, t.base + i * t.entry_size, t.entry_size);
		uint64_t label, v;
		size_t avail;
		const unsigned char *code;

		if (!e)
			break;
		if (t.relative) {
			label = t.origin + (uint64_t)(int64_t)(int32_t)load_le32(e);
			if (!c->is64)
				label &= 0xffffffffull;
		} else if (code_read_word(c, t.base + i * t.entry_size, &v)) {
			label = v;
		} else {
			break;
		}
		/* Without a bound, the table ends where its entries stop pointing into the
		 * function, hot or cold part. */
		if (!label_in_function(s, label, &parts)) {
			if (t.count)
				continue;
			break;
		}
		entries++;
		code = code_bytes(c, label, &avail);
		if (code && !is_endbr(code, avail, c->is64)) {
			if (lacking < 6) {
				int n = snprintf(list + used, sizeof(list) - used, "%s0x%llx",
						 lacking ? ", " : "", (unsigned long long)label);

				if (n > 0 && (size_t)n < sizeof(list) - used)
					used += (size_t)n;
			}
			/* Grown as labels are found, not sized by the bound the code claims. */
			ARRAY_RESERVE(lacking_labels, lacking_cap, lacking + 1);
			lacking_labels[lacking++] = label;
		}
	}
	if (!entries)
		return;
	code_add_table(c, t.base, t.base + (t.count ? t.count : entries) * t.entry_size);
	if (lacking && tracked) {
		code_finding(c, "ibt-tracked-jump-table", di->addr, "jump-table",
			     "tracked jmp (no notrack prefix) through a %llu-entry table at 0x%llx: "
			     "%llu case label(s) lack ENDBR: %s%s",
			     (unsigned long long)entries, (unsigned long long)t.base,
			     (unsigned long long)lacking, list, lacking > 6 ? ", ..." : "");
		attach_labels(c, lacking_labels, lacking);
	}
	free(lacking_labels);
}

static bool is_notrack(const cs_x86 *x)
{
	return x->prefix[1] == 0x3e;
}

static void check_indirect_jmp(struct sweep *s, const struct decoded *di, const cs_x86 *x)
{
	const struct recent *prev = s->nhist ? before(s, 0) : NULL;

	if (x->op_count != 1 || x->operands[0].type == X86_OP_IMM)
		return;
	/* Not when the function has moved the shadow stack itself with incssp first:
	 * libgcc's unwinder pops the frames it unwinds off the shadow stack before
	 * mov %rcx,%rsp; pop %rcx; jmp *%rcx. */
	if (x->operands[0].type == X86_OP_REG && prev && prev->id == X86_INS_POP &&
	    prev->nops == 1 && prev->op[0].type == X86_OP_REG &&
	    prev->op[0].reg == x->operands[0].reg && !strstr(s->cet_used, "incssp"))
		code_finding(s->c, "shstk-pop-jmp", di->addr, "code-ref",
			     "return through pop and jmp: the shadow stack keeps the entry CALL "
			     "pushed, and the next ret no longer matches");
	check_jump_table(s, di, x, !is_notrack(x));
}

static bool in_vsyscall_page(uint64_t v)
{
	return v >= VSYSCALL_PAGE && v < VSYSCALL_PAGE_END;
}

static bool same_operand(const struct operand *a, const struct operand *b)
{
	if (a->type != b->type)
		return false;
	if (a->type == X86_OP_REG)
		return a->reg == b->reg ||
		       (gpr_number(a->reg) >= 0 && gpr_number(a->reg) == gpr_number(b->reg));
	return a->type == X86_OP_MEM && a->base == b->base && a->index == b->index &&
	       a->disp == b->disp && a->scale == b->scale;
}

static struct vsys_holder *holder_of(struct sweep *s, const struct operand *op)
{
	size_t i;

	for (i = 0; i < s->nholders; i++)
		if (same_operand(&s->holders[i].where, op))
			return &s->holders[i];
	return NULL;
}

static void forget_holder(struct sweep *s, const struct operand *op)
{
	struct vsys_holder *h = holder_of(s, op);

	if (h)
		*h = s->holders[--s->nholders];
}

static void add_holder(struct sweep *s, const struct operand *where, uint64_t value, uint64_t at)
{
	struct vsys_holder *h = holder_of(s, where);

	if (!h) {
		if (s->nholders == VSYS_HOLDERS)
			return;
		h = &s->holders[s->nholders++];
	}
	*h = (struct vsys_holder){ *where, value, at };
	s->vsys_left = VSYS_REACH;
}

static void vsyscall_called(struct sweep *s, const struct decoded *di, uint64_t v, uint64_t at)
{
	if (at == di->addr)
		code_finding(s->c, "vsyscall-call", di->addr, "code-ref",
			     "calls vsyscall address 0x%llx (%s), which a CET kernel does not "
			     "emulate: the call dies with SIGSEGV",
			     (unsigned long long)v, vsyscall_name(v));
	else
		code_finding(s->c, "vsyscall-call", di->addr, "code-ref",
			     "calls vsyscall address 0x%llx (%s), loaded at 0x%llx, which a CET "
			     "kernel does not emulate: the call dies with SIGSEGV",
			     (unsigned long long)v, vsyscall_name(v), (unsigned long long)at);
}

/* vsyscall use: an address in the vsyscall page that reaches the target of a call or
 * jmp, directly or through the register or memory slot it was moved into. Compared
 * (qemu, valgrind), passed as an argument or stored away, it calls nothing. */
static void check_vsyscall(struct sweep *s, const struct decoded *di, const cs_x86 *x)
{
	const struct recent *r = &s->ring[s->head]; /* this instruction, remembered */
	unsigned id = di->insn->id;
	struct vsys_holder *h;

	if (!s->c->is64)
		return;
	if ((id == X86_INS_CALL || id == X86_INS_JMP) && x->op_count == 1) {
		if (r->op[0].type == X86_OP_IMM && in_vsyscall_page((uint64_t)r->op[0].imm))
			vsyscall_called(s, di, (uint64_t)r->op[0].imm, di->addr);
		else if ((h = holder_of(s, &r->op[0])) != NULL)
			vsyscall_called(s, di, h->value, h->at);
	}
	if (id == X86_INS_CALL || id == X86_INS_JMP || id == X86_INS_RET) {
		s->nholders = 0; /* the registers are another function's now */
		return;
	}
	if (!s->nholders && !(r->nops == 2 && r->op[1].type == X86_OP_IMM))
		return;
	if (r->nops == 2 && (id == X86_INS_MOV || id == X86_INS_MOVABS) &&
	    (r->op[0].type == X86_OP_REG || r->op[0].type == X86_OP_MEM)) {
		if (r->op[1].type == X86_OP_IMM && in_vsyscall_page((uint64_t)r->op[1].imm)) {
			add_holder(s, &r->op[0], (uint64_t)r->op[1].imm, di->addr);
			return;
		}
		if ((h = holder_of(s, &r->op[1])) != NULL) {
			struct vsys_holder copy = *h;

			add_holder(s, &r->op[0], copy.value, copy.at);
			return;
		}
	}
	/* Anything else written over a holder: cmp, test and push write no operand. */
	if (r->nops >= 1 && id != X86_INS_CMP && id != X86_INS_TEST && id != X86_INS_PUSH)
		forget_holder(s, &r->op[0]);
}

static void remember(struct sweep *s, const struct decoded *di)
{
	const cs_x86 *x = detail_of(di);
	struct recent *r;
	uint8_t i;

	s->head = (s->head + 1) % HISTORY;
	r = &s->ring[s->head];
	memset(r, 0, sizeof(*r));
	r->addr = di->addr;
	r->size = di->size;
	r->id = di->insn ? di->insn->id : X86_INS_INVALID;
	/* Neither Capstone nor Zydis nor our CET decoder reads it (Zydis does read the
	 * EVEX Capstone 4 cannot) */
	r->invalid = !di->insn && di->cet == CET_NONE &&
		     !disasm_length(&s->d, di->bytes, (size_t)(s->func_end - di->addr));
	for (i = 0; x && i < x->op_count && i < 2; i++) {
		const cs_x86_op *op = &x->operands[i];

		r->op[i] = (struct operand){ op->type,	   op->reg,	  op->imm,
					     op->mem.base, op->mem.index, op->mem.disp,
					     op->mem.scale };
		if (op->type == X86_OP_IMM)
			r->op[i].reg = X86_REG_INVALID;
		r->nops = i + 1;
	}
	if (s->nhist < HISTORY)
		s->nhist++;
}

static void note_cet_instruction(struct sweep *s, const struct decoded *di)
{
	const char *name = cet_insn_name(di->cet);

	if (!s->cet_used[0])
		s->cet_first = di->addr;
	if (!strstr(s->cet_used, name) &&
	    strlen(s->cet_used) + strlen(name) + 3 < sizeof(s->cet_used)) {
		if (s->cet_used[0])
			strcat(s->cet_used, ", ");
		strcat(s->cet_used, name);
	}
}

static void mark_start(struct sweep *s, size_t off)
{
	s->starts_bitmap[off / 8] |= (unsigned char)(1u << (off % 8));
}

static void on_instruction(const struct decoded *di, void *ctx)
{
	struct sweep *s = ctx;
	const cs_x86 *x = detail_of(di);

	mark_start(s, di->addr - s->func_start);
	if (di->cet != CET_NONE && di->cet != CET_ENDBR64 && di->cet != CET_ENDBR32)
		note_cet_instruction(s, di);
	if (x) {
		switch (di->insn->id) {
		case X86_INS_JMP:
			check_indirect_jmp(s, di, x);
			break;
		case X86_INS_RET:
			check_ret(s, di);
			break;
		default:
			break;
		}
	}
	remember(s, di);
	if (x)
		check_vsyscall(s, di, x);
	if (s->vsys_left)
		s->vsys_left--;
}

static bool instruction_start(const struct sweep *s, uint64_t addr)
{
	uint64_t off = addr - s->func_start;

	return (s->starts_bitmap[off / 8] >> (off % 8)) & 1;
}

/* ENDBR bytes that are not an instruction of their own: a landing pad IBT cannot stop.
 * Only the ENDBR of the file's class lands an indirect branch: in 64-bit mode ENDBR32 is a
 * NOP the CPU does not accept as a landing pad, and ENDBR64 in 32-bit mode likewise. */
static void check_stray_endbr(struct sweep *s, const unsigned char *p, size_t from, size_t n)
{
	const unsigned char *f3;
	size_t i;

	for (i = from; i + 4 <= n; i++) {
		f3 = memchr(p + i, 0xf3, n - 3 - i); /* every ENDBR starts so */
		if (!f3)
			break;
		i = (size_t)(f3 - p);
		if (!is_endbr(p + i, n - i, s->c->is64))
			continue;
		if (!instruction_start(s, s->func_start + i))
			code_finding(s->c, "endbr-stray", s->func_start + i, "code-ref",
				     "ENDBR bytes inside another instruction: an indirect branch "
				     "may land there and IBT will not stop it");
	}
}

/* Measures the instructions from FROM up to byte CAND, marking where each starts, and
 * returns the start of the HISTORY instructions before the one at CAND: the checks there
 * read those, so only they need Capstone's full decoding. */
static size_t measure_up_to(struct sweep *s, const unsigned char *p, size_t n, size_t from,
			    size_t cand)
{
	size_t last[HISTORY + 1], count = 0, at = from, keep;

	while (at < cand) {
		size_t len;

		/* Zero padding (00 00 is add %al,(%rax), which no compiler emits): the code
		 * resumes at the next byte that is not 0, and decoding on through the zeros
		 * reads the next instruction's bytes as others (00 00 00 48 8b 47 50 c3,
		 * mov 0x50(%rdi),%rax; ret, as push %r8; ret). */
		if (p[at] == 0 && at + 1 < n && p[at + 1] == 0) {
			while (at < cand && p[at] == 0)
				at++;
			count = 0;
			from = at;
			continue;
		}
		len = disasm_length(&s->d, p + at, n - at);

		last[count++ % (HISTORY + 1)] = at;
		mark_start(s, at);
		at += len ? len : 1;
	}
	keep = at > cand ? HISTORY + 1 : HISTORY; /* the last one measured may hold CAND */
	return count <= keep ? from : last[(count - keep) % (HISTORY + 1)];
}

/* Decodes the function around its candidates: from its start, or from RESYNC_WINDOW
 * bytes before a candidate far from the last decoded instruction, to just past it. */
static void decode_function(struct sweep *s, const unsigned char *p, size_t n)
{
	size_t k, done = 0;

	s->starts_bitmap = xcalloc(n / 8 + 1, 1);
	s->nhist = 0;
	s->nholders = 0;
	s->vsys_left = 0;
	s->cet_used[0] = '\0';
	for (k = 0; k < s->ncands; k++) {
		size_t cand = s->cands[k], from = done, window, limit, end;

		if (cand < done)
			continue;
		if (cand - done > KNOWN_REACH)
			from = cand - RESYNC_WINDOW;
		window = measure_up_to(s, p, n, from, cand);
		if (window > done) {
			s->nhist = 0; /* what came before is not remembered */
			s->nholders = 0;
		}
		limit = cand + 1 < n ? cand + 1 : n;
		end = window + disasm_walk(&s->d, p + window, n - window, s->func_start + window,
					   limit - window, on_instruction, s);
		/* A vsyscall address just loaded: follow it to a call, one instruction at
		 * a time, for a few instructions. */
		while (s->nholders && s->vsys_left && end < n)
			end += disasm_walk(&s->d, p + end, n - end, s->func_start + end, 1,
					   on_instruction, s);
		check_stray_endbr(s, p, from, end < n ? end : n);
		done = end;
	}
	if (s->cet_used[0])
		code_finding(s->c, "shstk-aware-instruction", s->cet_first, "code-ref",
			     "uses shadow-stack instructions (%s): this code manages the "
			     "shadow stack itself",
			     s->cet_used);
	free(s->starts_bitmap);
	s->starts_bitmap = NULL;
}

/* The data objects (symbols of type OBJECT with a size) inside the code, in address
 * order: tables an assembler put in .text (OpenSSL's K256 in node), whose bytes are no
 * instructions. Their symbols are the only sign: a stripped file has none. */
static struct addr_range *objects_in_code(const struct code_ctx *c, size_t *count)
{
	const struct elf_symbol *sym;
	struct addr_range *out = NULL;
	size_t cap = 0;

	*count = 0;
	for (sym = c->m->symbols_by_addr; sym < c->m->symbols_by_addr + c->m->nsymbols; sym++) {
		if (sym->type != STT_OBJECT || !sym->size || sym->shndx == SHN_UNDEF ||
		    !code_range_of(c, sym->value))
			continue;
		if (*count && sym->value < out[*count - 1].end) { /* overlapping: merged */
			if (sym->value + sym->size > out[*count - 1].end)
				out[*count - 1].end = sym->value + sym->size;
			continue;
		}
		ARRAY_RESERVE(out, cap, *count + 1);
		out[(*count)++] = (struct addr_range){ sym->value, sym->value + sym->size };
	}
	return out;
}

void code_sweep(struct code_ctx *c)
{
	struct sweep s = { .c = c };
	struct byte_scan_spec spec;
	size_t r, nobjects, next_object = 0;
	struct addr_range *objects = objects_in_code(c, &nobjects);

	if (!c->nranges || !disasm_open(&s.d, c->is64))
		return;
	set_wanted_bytes(c, &spec);
	if (!byte_scan_prepare(&s.bytes, &spec))
		abort(); /* next_bytes_wanted gives two values patterns, four fit */
	for (r = 0; r < c->nranges; r++) {
		const struct exec_range *range = &c->ranges[r];
		uint64_t at = range->addr, end = range->addr + range->size;

		next_object = 0; /* the ranges need not be in address order */

		while (at < end) {
			uint64_t fend = code_function_end(c, at);
			const unsigned char *p;
			size_t n;

			/* Overlapping sections: the function may end in another range, whose
			 * bytes are not these. */
			if (fend > end)
				fend = end;
			/* Data objects are skipped, and end the code before them. */
			while (next_object < nobjects && objects[next_object].end <= at)
				next_object++;
			if (next_object < nobjects && objects[next_object].start <= at) {
				at = objects[next_object].end < end ? objects[next_object].end
								    : end;
				continue;
			}
			if (next_object < nobjects && objects[next_object].start < fend)
				fend = objects[next_object].start;
			p = range->bytes + (at - range->addr);
			n = (size_t)(fend - at);

			if (fend <= at)
				break;
			s.func_start = at;
			s.func_end = fend;
			s.func_bytes = p;
			find_candidates(&s);
			if (s.ncands)
				decode_function(&s, p, n);
			at = fend;
		}
	}
	disasm_close(&s.d);
	free(objects);
	free(s.cands);
	code_index_tables(c);
}
