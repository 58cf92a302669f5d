/* The code sweep. Decoding every instruction of /usr/bin with Capstone would take longer
 * than objdump; instead a byte scan of each function looks for what the checks care
 * about (tracked indirect jumps, vsyscall immediates, code addresses, returns-twice
 * calls, rets after stack games, CET opcodes, ENDBR bytes off a function start), and only
 * functions holding such bytes are decoded: measured from their start to find where the
 * instructions begin, and the last few instructions up to each such byte decoded in full
 * to confirm it. The checks each have a file of their own (sweep.h); this driver picks the
 * bytes, decodes around them and hands every decoded instruction to the checks. */
#include "config.h"

#include "code/code_sweep.h"
#include "code/sweep.h"

#include "code/targets.h"

#include "code/byte_scan.h"
#include "util/byteorder.h"
#include "code/disasm.h"
#include "code/insn_length.h"
#include "util/sort_address.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Decoding starts at the last known instruction boundary (the function start, or the end
 * of what was decoded for an earlier candidate) when that is at most KNOWN_REACH bytes
 * before a byte worth a look; farther away, RESYNC_WINDOW bytes before it. x86 decoding
 * usually falls into step with the real instructions within a few of them: this bounds
 * the work in the huge regions no symbol or FDE divides (GHC, Free Pascal, hand-written
 * code), at the price of a rare misreading there. */
#define KNOWN_REACH 8192
#define RESYNC_WINDOW 1024

/* ---- the byte scan ---------------------------------------------------------------- */
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
		if (sweep_code_ref_lea(c, p, i, n, addr))
			return true;
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
	if (c->m->e_type == ET_EXEC)
		return sweep_code_ref_absolute(c, p, i, n, addr);
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

/* Remembers the data address a lea d(%rip) at P[I] loads: the start of a table, which
 * another table of the function must not be read into. */
static void note_data_lea(struct sweep *s, const unsigned char *p, size_t i, size_t n)
{
	uint64_t v;

	if (!s->c->is64 || p[i] != 0x8d || i < 1 || (p[i - 1] & 0xf8) != 0x48 || i + 6 > n ||
	    (p[i + 1] & 0xc7) != 0x05)
		return;
	v = s->func_start + i + 6 + (uint64_t)(int64_t)(int32_t)load_le32(p + i + 2);
	if (code_range_of(s->c, v))
		return;
	ARRAY_RESERVE(s->leas, s->leas_cap, s->nleas + 1);
	s->leas[s->nleas++] = v;
}

static void on_byte(size_t at, void *ctx)
{
	struct sweep *s = ctx;

	note_data_lea(s, s->func_bytes, at, (size_t)(s->func_end - s->func_start));
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
	s->nleas = 0;
	byte_scan_run(&s->bytes, s->func_bytes, (size_t)(s->func_end - s->func_start), on_byte, s);
}

/* ---- the instruction checks ------------------------------------------------------- */

static const cs_x86 *detail_of(const struct decoded *di)
{
	return di->insn && di->insn->detail ? &di->insn->detail->x86 : NULL;
}

/* The number of a general-purpose register (0 for %rax ... 15 for %r15), or -1. */
int sweep_gpr_number(x86_reg r)
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

/* The register R is part of, numbered as sweep_gpr_number does, whatever part of it R
 * names (%r8d, %r8b, %sil, %ah), or -1. */
int sweep_gpr_family(x86_reg r)
{
	static const x86_reg names[][16] = {
		{ X86_REG_RAX, X86_REG_RCX, X86_REG_RDX, X86_REG_RBX, X86_REG_RSP, X86_REG_RBP,
		  X86_REG_RSI, X86_REG_RDI, X86_REG_R8, X86_REG_R9, X86_REG_R10, X86_REG_R11,
		  X86_REG_R12, X86_REG_R13, X86_REG_R14, X86_REG_R15 },
		{ X86_REG_EAX, X86_REG_ECX, X86_REG_EDX, X86_REG_EBX, X86_REG_ESP, X86_REG_EBP,
		  X86_REG_ESI, X86_REG_EDI, X86_REG_R8D, X86_REG_R9D, X86_REG_R10D, X86_REG_R11D,
		  X86_REG_R12D, X86_REG_R13D, X86_REG_R14D, X86_REG_R15D },
		{ X86_REG_AX, X86_REG_CX, X86_REG_DX, X86_REG_BX, X86_REG_SP, X86_REG_BP,
		  X86_REG_SI, X86_REG_DI, X86_REG_R8W, X86_REG_R9W, X86_REG_R10W, X86_REG_R11W,
		  X86_REG_R12W, X86_REG_R13W, X86_REG_R14W, X86_REG_R15W },
		{ X86_REG_AL, X86_REG_CL, X86_REG_DL, X86_REG_BL, X86_REG_SPL, X86_REG_BPL,
		  X86_REG_SIL, X86_REG_DIL, X86_REG_R8B, X86_REG_R9B, X86_REG_R10B, X86_REG_R11B,
		  X86_REG_R12B, X86_REG_R13B, X86_REG_R14B, X86_REG_R15B },
	};
	static const x86_reg high[] = { X86_REG_AH, X86_REG_CH, X86_REG_DH, X86_REG_BH };
	size_t w, i;

	if (r == X86_REG_INVALID)
		return -1;
	for (w = 0; w < sizeof(names) / sizeof(names[0]); w++)
		for (i = 0; i < 16; i++)
			if (names[w][i] == r)
				return (int)i;
	for (i = 0; i < 4; i++)
		if (high[i] == r)
			return (int)i;
	return -1;
}

static bool is_notrack(const cs_x86 *x)
{
	return x->prefix[1] == 0x3e;
}

static void check_indirect_jmp(struct sweep *s, const struct decoded *di, const cs_x86 *x)
{
	if (x->op_count != 1 || x->operands[0].type == X86_OP_IMM)
		return;
	sweep_check_pop_jmp(s, di, x);
	sweep_check_jump_table(s, di, x, !is_notrack(x));
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

		r->op[i] = (struct operand){ op->type,	    op->reg,	   op->imm,
					     op->mem.base,  op->mem.index, op->mem.disp,
					     op->mem.scale, op->size };
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
			sweep_check_ret(s, di);
			break;
		default:
			break;
		}
	}
	remember(s, di);
	if (x)
		sweep_check_vsyscall(s, di, x);
	if (s->vsys_left)
		s->vsys_left--;
	/* Last: it decodes ahead with the same decoder, which X points into. */
	if (x && s->c->is64 &&
	    (di->insn->id == X86_INS_LEA ||
	     (di->insn->id == X86_INS_MOV && s->c->m->e_type == ET_EXEC)))
		sweep_check_code_ref_flow(s, di, x);
}

void sweep_measure_ahead(struct sweep *s, uint64_t from, uint64_t to)
{
	const unsigned char *p = s->func_bytes;
	size_t n = (size_t)(s->func_end - s->func_start), at, stop;

	if (s->measured_ahead > from)
		from = s->measured_ahead;
	at = (size_t)(from - s->func_start);
	stop = (size_t)(to - s->func_start);
	while (at <= stop && at < n) {
		size_t len;

		if (p[at] == 0 && at + 1 < n && p[at + 1] == 0) { /* as in measure_up_to */
			while (at < n && p[at] == 0)
				at++;
			continue;
		}
		len = disasm_length(&s->d, p + at, n - at);
		mark_start(s, at);
		at += len ? len : 1;
	}
	s->measured_ahead = s->func_start + at;
}

bool sweep_instruction_start(const struct sweep *s, uint64_t addr)
{
	uint64_t off = addr - s->func_start;

	return (s->starts_bitmap[off / 8] >> (off % 8)) & 1;
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
	size_t k, done = 0, contiguous_end = 0;

	s->starts_bitmap = xcalloc(n / 8 + 1, 1);
	s->measured_ahead = 0;
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
		s->starts_contiguous = from == contiguous_end;
		end = window + disasm_walk(&s->d, p + window, n - window, s->func_start + window,
					   limit - window, on_instruction, s);
		/* A vsyscall address just loaded: follow it to a call, one instruction at
		 * a time, for a few instructions. */
		while (s->nholders && s->vsys_left && end < n)
			end += disasm_walk(&s->d, p + end, n - end, s->func_start + end, 1,
					   on_instruction, s);
		sweep_check_stray_endbr(s, p, from, end < n ? end : n);
		if (s->starts_contiguous)
			contiguous_end = end;
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
	free(s.leas);
	code_index_tables(c);
}
