/* Return hazards for the shadow stack: a ret after push (a jump through the stack), after
 * a write of the return slot, or after the stack pointer was replaced (a pivot); a return
 * through pop and jmp. */
#include "config.h"

#include "code/sweep.h"

/* How far before a ret the byte scan looks for a move into %rsp: the check reads up to
 * HISTORY instructions back, and a fiber switch reloads six registers from the other
 * stack between the move and its ret (ruby's coroutine_transfer: 39 bytes). */
#define RSP_WRITE_REACH 48

/* Whether the ret at P[I] follows a push, a store to (%rsp), or a write of %rsp with only
 * pops in between: the shapes the shadow-stack checks look for. */
bool ret_after_stack_game(const unsigned char *p, size_t i)
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

/* Whether the function copies %rsp into REG (mov %rsp,%reg in either encoding, or
 * lea disp(%rsp),%reg) before address END. Moving REG back into %rsp is then the end of
 * an alloca or a realignment (ld.so's _dl_runtime_resolve saves %rsp in %rbx, aligns, and
 * restores it): the same stack, not another one. */
static bool rsp_saved_in(const struct sweep *s, x86_reg reg, uint64_t end)
{
	const unsigned char *p = s->func_bytes;
	int n = sweep_gpr_number(reg);
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

/* How far back rsp_saved_in_slot and rsp_pushed look for the save: hand-written
 * functions with no symbol or FDE make regions of hundreds of kilobytes, and one of
 * x265's AVX-512 kernels restores its %rsp 90 KB after saving it. */
#define SLOT_STORE_REACH (1u << 20)

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

/* How many instructions after a copy of %rsp into a register rsp_pushed looks for the
 * push of that register (libvpx: mov %rsp,%rax; and; lea; push %rax). */
#define COPY_PUSH_REACH 6

/* Whether the code at P[I] (N bytes on) pushes general register REG within
 * COPY_PUSH_REACH instructions, measured from I. */
static bool pushes_soon(const struct sweep *s, const unsigned char *p, size_t i, size_t n, int reg)
{
	int k;

	for (k = 0; k < COPY_PUSH_REACH && i < n; k++) {
		size_t len = disasm_length(&s->d, p + i, n - i);
		bool rex_b = p[i] == 0x41;

		if (!len)
			return false;
		if (len == 1u + rex_b && p[i + rex_b] == (0x50 | (reg & 7)) && rex_b == (reg >= 8))
			return true;
		i += len;
	}
	return false;
}

/* Whether the function pushed the stack pointer or a copy of it before END: push %rsp
 * (54) at an instruction start the sweep measured, the stack pointer saved at the top of
 * the stack, where a frame pointer set next keeps it (push %rsp; mov %rsp,%rbp;
 * and $-32,%rsp ... mov %rbp,%rsp; pop %rsp; 54 alone is a common byte inside other
 * instructions); or mov %rsp,%reg and a push of that register a few instructions later
 * (libvpx's stack alignment: mov %rsp,%rax; and $-16,%rsp; lea -8(%rsp),%rsp; push %rax
 * ... add $0x100,%rsp; pop %rsp; ret), found by its bytes as rsp_saved_in_slot does:
 * hand-written kernels are long, and the sweep measures only around its candidates. */
static bool rsp_pushed(const struct sweep *s, uint64_t end)
{
	const unsigned char *p = s->func_bytes;
	size_t len = (size_t)(end - s->func_start), i;

	for (i = len > SLOT_STORE_REACH ? len - SLOT_STORE_REACH : 0; i < len; i++) {
		if (p[i] == 0x54 && sweep_instruction_start(s, s->func_start + i))
			return true;
		/* REX.W 89 /r (11 100 reg) or 8b /r (11 reg 100): mov %rsp,%reg */
		if (s->c->is64 && i + 3 <= len && (p[i] & 0xfa) == 0x48 &&
		    ((p[i + 1] == 0x89 && (p[i + 2] & 0xf8) == 0xe0 && !(p[i] & 4)) ||
		     (p[i + 1] == 0x8b && (p[i + 2] & 0xc7) == 0xc4 && !(p[i] & 1)))) {
			int reg = p[i + 1] == 0x89 ? (p[i + 2] & 7) | (p[i] & 1 ? 8 : 0)
						   : ((p[i + 2] >> 3) & 7) | (p[i] & 4 ? 8 : 0);

			if (reg != 4 && pushes_soon(s, p, i + 3, len, reg))
				return true;
		}
	}
	return false;
}

/* How far before the write of %rsp rsp_switched_back reads: Go's systemstack switches
 * 41 bytes before it switches back. */
#define SWITCH_BACK_REACH 256

/* Whether the instruction at P (N bytes) loads %rsp from a register or memory:
 * REX.W 8b /r with reg %rsp, or REX.W 89 /r with r/m %rsp (mod 11); not from the frame
 * pointer (mov %rbp,%rsp: 89 ec, 8b e5), which restores the frame. */
static bool loads_rsp(const unsigned char *p, size_t n)
{
	return n >= 3 && (p[0] & 0xf8) == 0x48 && p[2] != 0xec && p[2] != 0xe5 &&
	       ((p[1] == 0x8b && (p[2] & 0x38) == 0x20 && !(p[0] & 4)) ||
		(p[1] == 0x89 && (p[2] & 0xc7) == 0xc4 && !(p[0] & 1)));
}

/* Whether the instruction at P (N bytes) is a call: e8 rel32, or ff /2. */
static bool is_call(const unsigned char *p, size_t n)
{
	if (n >= 1 && (p[0] & 0xf0) == 0x40)
		p++, n--;
	return (n >= 1 && p[0] == 0xe8) || (n >= 2 && p[0] == 0xff && (p[1] & 0x38) == 0x10);
}

/* Whether the write of %rsp at AT goes back to the stack the function entered with: an
 * earlier load of %rsp switched to another stack, and a call ran there (Go's
 * systemstack: mov 0x38(%rdx),%rsp; call *%rdi; ... mov 0x38(%rax),%rsp; pop %rbp;
 * ret). The ret then returns where its call came from, as the shadow stack expects. */
static bool rsp_switched_back(const struct sweep *s, uint64_t at)
{
	const unsigned char *p = s->func_bytes;
	size_t end = (size_t)(at - s->func_start), i;
	bool switched = false, called = false;

	if (!s->c->is64)
		return false;
	/* From the first instruction start the sweep measured in reach (Go's functions
	 * have no FDE: the sweep's "function" is often its whole text); the walk must
	 * land on AT, or it is out of step. */
	for (i = end > SWITCH_BACK_REACH ? end - SWITCH_BACK_REACH : 0;
	     i < end && !sweep_instruction_start(s, s->func_start + i); i++)
		;
	while (i < end) {
		size_t len = disasm_length(&s->d, p + i, end - i);

		if (!len)
			return false;
		if (loads_rsp(p + i, len))
			switched = true;
		else if (switched && is_call(p + i, len))
			called = true;
		i += len;
	}
	return called && i == end;
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
		/* (mov %rbp,%rsp is restores_frame(), which check_ret stops at first; a
		 * write of %esp alone in 64-bit code is data read as code, as for xchg) */
		return d->type == X86_OP_REG && is_class_rsp(s, d->reg) &&
		       !(src->type == X86_OP_REG && rsp_saved_in(s, src->reg, r->addr)) &&
		       !(src->type == X86_OP_MEM && is_rsp(src->base) &&
			 src->index == X86_REG_INVALID &&
			 rsp_saved_in_slot(s, src->disp, r->addr)) &&
		       !rsp_switched_back(s, r->addr);
	case X86_INS_POP:
		/* pop %rsp loads (%rsp): a restore when a copy of %rsp was put there
		 * (libjpeg-turbo's SIMD epilogue: mov %rbp,%rsp; pop %rsp; pop %rbp; ret) */
		return d->type == X86_OP_REG && is_rsp(d->reg) &&
		       !rsp_saved_in_slot(s, 0, r->addr) && !rsp_pushed(s, r->addr);
	default:
		return false;
	}
}

static bool is_rbp(x86_reg r)
{
	return r == X86_REG_RBP || r == X86_REG_EBP;
}

/* leave, mov %rbp,%rsp, or lea disp(%rbp),%rsp: the stack pointer taken back from the
 * frame pointer (gcc's epilogue after a variable-length array, lea -0x28(%rbp),%rsp,
 * follows the array's own mov -0x60(%rbp),%rsp). */
static bool restores_frame(const struct recent *r)
{
	return r->id == X86_INS_LEAVE ||
	       (r->id == X86_INS_MOV && r->nops == 2 && r->op[0].type == X86_OP_REG &&
		is_rsp(r->op[0].reg) && r->op[1].type == X86_OP_REG && is_rbp(r->op[1].reg)) ||
	       (r->id == X86_INS_LEA && r->nops == 2 && r->op[0].type == X86_OP_REG &&
		is_rsp(r->op[0].reg) && r->op[1].type == X86_OP_MEM && is_rbp(r->op[1].base) &&
		r->op[1].index == X86_REG_INVALID);
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
	const struct recent *push = sweep_before(s, 0);
	size_t k;

	if (push->nops != 1 || push->op[0].type != X86_OP_REG)
		return false;
	for (k = 1; k < s->nhist; k++) {
		const struct recent *r = sweep_before(s, k);

		if (r->id == X86_INS_POP)
			return r->nops == 1 && r->op[0].type == X86_OP_REG &&
			       sweep_gpr_number(r->op[0].reg) ==
				       sweep_gpr_number(push->op[0].reg) &&
			       sweep_gpr_number(push->op[0].reg) >= 0;
		if (r->id == X86_INS_CALL || r->id == X86_INS_JMP || r->id == X86_INS_RET ||
		    r->id == X86_INS_PUSH || r->id == X86_INS_INVALID)
			return false;
		/* the register written (or %rsp moved by more than a lea can say) */
		if (r->nops >= 1 && r->op[0].type == X86_OP_REG &&
		    sweep_gpr_number(r->op[0].reg) == sweep_gpr_number(push->op[0].reg) &&
		    r->id != X86_INS_CMP && r->id != X86_INS_TEST)
			return false;
	}
	return false;
}

void sweep_check_ret(struct sweep *s, const struct decoded *di)
{
	struct code_ctx *c = s->c;
	size_t k;

	/* A function that has read or moved the shadow stack itself (rdssp, incssp,
	 * rstorssp...) before this ret picks its returns by it: glibc's setcontext and
	 * swapcontext restore the target's shadow stack, then switch %rsp and push;ret. */
	if (!s->nhist || s->cet_used[0])
		return;
	/* Bytes that are no instruction just before: this is data read as code (tables
	 * in .text, GHC's info tables), not a ret anything reaches. */
	for (k = 0; k < s->nhist && k < 4; k++)
		if (sweep_before(s, k)->invalid)
			return;
	if (sweep_before(s, 0)->id == X86_INS_PUSH && !pushes_back_popped(s)) {
		code_finding(c, "shstk-ret-as-jump", di->addr, "code-ref",
			     "push then ret: a jump through the stack, which the shadow stack "
			     "refuses (the return address is not the one CALL pushed)");
		return;
	}
	if (stores_to_return_slot(sweep_before(s, 0))) {
		code_finding(c, "shstk-return-slot-write", di->addr, "code-ref",
			     "the return address is overwritten (mov to (%%rsp)) just before "
			     "ret: the shadow stack still holds the original");
		return;
	}
	for (k = 0; k < s->nhist; k++) {
		/* A call returned here, or the frame pointer put the stack pointer back:
		 * whatever %rsp held before does not reach this ret. */
		/* Nor does anything before a jmp or ret: another path, or another
		 * function. */
		if (sweep_before(s, k)->id == X86_INS_CALL || restores_frame(sweep_before(s, k)) ||
		    sweep_before(s, k)->id == X86_INS_JMP || sweep_before(s, k)->id == X86_INS_RET)
			break;
		if (writes_rsp(s, sweep_before(s, k))) {
			code_finding(c, "shstk-stack-pivot", di->addr, "code-ref",
				     "the stack pointer is replaced at 0x%llx before this ret: "
				     "the return address comes from another stack",
				     (unsigned long long)sweep_before(s, k)->addr);
			return;
		}
	}
}

void sweep_check_pop_jmp(struct sweep *s, const struct decoded *di, const cs_x86 *x)
{
	const struct recent *prev = s->nhist ? sweep_before(s, 0) : NULL;

	/* Not when the function has read or moved the shadow stack itself first: libgcc's
	 * unwinder pops the frames it unwinds off the shadow stack (incssp) before
	 * mov %rcx,%rsp; pop %rcx; jmp *%rcx; glibc's vfork child, seeing one (rdssp),
	 * jumps back through the popped return address on purpose. */
	if (x->operands[0].type == X86_OP_REG && prev && prev->id == X86_INS_POP &&
	    prev->nops == 1 && prev->op[0].type == X86_OP_REG &&
	    prev->op[0].reg == x->operands[0].reg && !s->cet_used[0])
		code_finding(s->c, "shstk-pop-jmp", di->addr, "code-ref",
			     "return through pop and jmp: the shadow stack keeps the entry CALL "
			     "pushed, and the next ret no longer matches");
}
