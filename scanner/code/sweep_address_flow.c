/* Where a code address the code forms goes: lea label(%rip),%reg followed over the next
 * instructions. Hand-written assembly without CFI, and stripped Go, take the addresses of
 * functions no FDE or symbol names (x86inc kernels stored into a codec's context, Go
 * closures), so the function starts alone miss them; what makes such an address a target
 * is where it goes: stored, passed to a call, or branched to. An address compared with
 * first, offset, read through or dropped is a bound or a table base, no target. */
#include "config.h"

#include "code/sweep.h"

/* How many instructions after the lea are followed: a compiler stores or passes the
 * address within a few; farther, what the register holds is anyone's guess. */
#define FLOW_REACH 12

/* How far back from a label the instruction starts are measured from a known start
 * (the function's), else from a window before it, in which x86 decoding falls into step
 * (as the sweep does, code_sweep.c). */
#define START_KNOWN_REACH 8192
#define START_RESYNC_WINDOW 1024

struct flow {
	uint32_t held; /* general registers holding the address (bit 0: %rax) */
	bool target;   /* stored, passed or branched to */
	bool used;     /* compared with, offset, read through, dropped */
	bool done;     /* the chain ended: control left, or no register holds it */
	struct disasm *d;
};

/* Bits of %rdi, %rsi, %rdx, %rcx, %r8, %r9: the System V argument registers. */
#define ARGUMENT_REGS ((1u << 7) | (1u << 6) | (1u << 2) | (1u << 1) | (1u << 8) | (1u << 9))

static uint32_t reg_bit(x86_reg r)
{
	int n = sweep_gpr_number(r);

	return n < 0 ? 0 : 1u << n;
}

static bool is_vector_reg(x86_reg r)
{
	return (r >= X86_REG_XMM0 && r <= X86_REG_XMM31) ||
	       (r >= X86_REG_YMM0 && r <= X86_REG_YMM31) ||
	       (r >= X86_REG_ZMM0 && r <= X86_REG_ZMM31);
}

static bool in_group(const cs_insn *insn, uint8_t group)
{
	uint8_t i;

	for (i = 0; i < insn->detail->groups_count; i++)
		if (insn->detail->groups[i] == group)
			return true;
	return false;
}

static bool reads_held(const cs_x86_op *op, uint32_t held)
{
	if (op->type == X86_OP_REG)
		return (op->access & CS_AC_READ) && (reg_bit(op->reg) & held);
	if (op->type == X86_OP_MEM)
		return (reg_bit(op->mem.base) | reg_bit(op->mem.index)) & held;
	return false;
}

/* A control transfer: the chain ends here, a target if it goes through the address. */
static void on_branch(struct flow *f, const cs_insn *insn, const cs_x86 *x)
{
	const cs_x86_op *op = &x->operands[0];

	f->done = true;
	if (insn->id != X86_INS_JMP && insn->id != X86_INS_CALL)
		return; /* ret, and the like */
	if (x->op_count == 1 && op->type == X86_OP_REG && (reg_bit(op->reg) & f->held))
		f->target = true;
	else if (x->op_count == 1 && op->type == X86_OP_IMM && insn->id == X86_INS_CALL &&
		 (f->held & ARGUMENT_REGS))
		f->target = true; /* an argument of the call */
	else if (x->op_count == 1 && reads_held(op, f->held))
		f->used = true; /* jmp *table(%reg): the address is a table's base */
}

static void on_flow_insn(const struct decoded *di, void *ctx)
{
	struct flow *f = ctx;
	const cs_insn *insn = di->insn;
	const cs_x86 *x;
	bool reads = false, reads_reg = false, to_vector = false;
	uint32_t written = 0;
	uint8_t i;

	if (f->done)
		return;
	if (!insn || !insn->detail) {
		/* An EVEX instruction Capstone 4 cannot read (AVX-512 kernels between the
		 * lea of their continuation and the jmp to it) writes no general register
		 * the code keeps an address in; anything else: stop guessing. */
		if (!(di->size > 4 && di->bytes[0] == 0x62 && f->d->is64))
			f->done = true;
		return;
	}
	x = &insn->detail->x86;
	if (insn->id == X86_INS_JMP || insn->id == X86_INS_CALL || in_group(insn, CS_GRP_RET) ||
	    insn->id == X86_INS_UD2 || insn->id == X86_INS_HLT || insn->id == X86_INS_INT3) {
		on_branch(f, insn, x);
		return;
	}
	if (in_group(insn, CS_GRP_JUMP))
		return; /* a conditional jump: both ways go on */
	for (i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];

		if (reads_held(op, f->held)) {
			reads = true;
			reads_reg |= op->type == X86_OP_REG;
		}
		if (op->type == X86_OP_REG && (op->access & CS_AC_WRITE)) {
			written |= reg_bit(op->reg);
			to_vector |= is_vector_reg(op->reg);
		}
	}
	if (insn->id == X86_INS_PUSH && reads_reg) {
		f->target = f->done = true;
		return;
	}
	/* xor %eax,%eax and the like: the register is zeroed, not read */
	if ((insn->id == X86_INS_XOR || insn->id == X86_INS_SUB) && x->op_count == 2 &&
	    x->operands[0].type == X86_OP_REG && x->operands[1].type == X86_OP_REG &&
	    reg_bit(x->operands[0].reg) == reg_bit(x->operands[1].reg))
		reads = reads_reg = false;
	/* Compared with first: a bound (qemu's safe_syscall_start, whose address its signal
	 * handler then writes into the interrupted context, which sigreturn resumes, no
	 * branch), whatever is done with it after. */
	if (insn->id == X86_INS_CMP || insn->id == X86_INS_TEST) {
		f->used |= reads;
		f->done |= reads;
		return;
	}
	/* mov %reg,mem (and into a vector register, which a store of the pair follows):
	 * stored. mov %reg,%reg2: a copy, followed too. */
	if ((insn->id == X86_INS_MOV || insn->id == X86_INS_MOVQ) && x->op_count == 2 &&
	    x->operands[1].type == X86_OP_REG && (reg_bit(x->operands[1].reg) & f->held)) {
		if (x->operands[0].type == X86_OP_MEM || to_vector) {
			f->target = f->done = true;
			return;
		}
		f->held |= written;
		return;
	}
	if (reads_reg && to_vector) { /* pinsrq, vmovq...: into a vector to be stored */
		f->target = f->done = true;
		return;
	}
	f->used |= reads;
	f->held &= ~written;
	if (!f->held) {
		f->done = true;
		f->used = true; /* overwritten unused (lea f,%rax; lea g,%rax): none */
	}
}

enum address_use sweep_address_use(struct sweep *s, uint64_t after, x86_reg reg)
{
	struct flow f = { .held = reg_bit(reg), .d = &s->d };
	size_t at, n = (size_t)(s->func_end - s->func_start), k;

	if (!f.held || after < s->func_start || after >= s->func_end)
		return ADDRESS_UNKNOWN;
	at = (size_t)(after - s->func_start);
	for (k = 0; k < FLOW_REACH && !f.done && at < n; k++)
		at += disasm_walk(&s->d, s->func_bytes + at, n - at, s->func_start + at, 1,
				  on_flow_insn, &f);
	if (f.target)
		return ADDRESS_TARGET;
	return f.used ? ADDRESS_NOT_TARGET : ADDRESS_UNKNOWN;
}

/* Whether the instruction at P (N bytes) ends a straight run of code, after which
 * only a branch arrives: ret, jmp, ud2, hlt, int3, or a nop of padding. */
static bool ends_run(const unsigned char *p, size_t n)
{
	while (n > 1 && ((*p & 0xf0) == 0x40 || *p == 0x66 || *p == 0x2e || *p == 0x3e ||
			 *p == 0xf2 || *p == 0xf3))
		p++, n--; /* REX, operand size, segment, bnd and rep prefixes */
	switch (p[0]) {
	case 0xc3:
	case 0xc2:
	case 0xe9:
	case 0xeb:
	case 0xcc:
	case 0xf4:
	case 0x90:
		return true;
	case 0x0f:
		return n >= 2 && (p[1] == 0x0b || p[1] == 0x1f); /* ud2, nopl */
	case 0xff:
		return n >= 2 && ((p[1] >> 3) & 7) >= 4 && ((p[1] >> 3) & 7) <= 5; /* jmp * */
	default:
		return false;
	}
}

/* Decodes from the start of ADDR's function (or a resync window before it) up to ADDR.
 * True when an instruction starts at ADDR; then *BYTES is the code from that start, *STOP
 * ADDR's offset in it and *PREV the offset of the instruction before ADDR (SIZE_MAX after
 * zero padding or when there is none). */
static bool walk_to(struct sweep *s, uint64_t addr, const unsigned char **bytes, size_t *stop,
		    size_t *prev)
{
	const struct exec_range *r = code_range_of(s->c, addr);
	uint64_t from = code_function_start(s->c, addr);
	const unsigned char *p;
	size_t avail, at = 0;

	*prev = SIZE_MAX;
	if (!r)
		return false;
	if (!from || from < r->addr || addr - from > START_KNOWN_REACH)
		from = addr - r->addr > START_RESYNC_WINDOW ? addr - START_RESYNC_WINDOW : r->addr;
	p = code_bytes(s->c, from, &avail);
	if (!p)
		return false;
	*bytes = p;
	*stop = (size_t)(addr - from);
	while (at < *stop && at < avail) {
		size_t len;

		if (p[at] == 0 && at + 1 < avail && p[at + 1] == 0) { /* zero padding */
			while (at < *stop && p[at] == 0)
				at++;
			*prev = SIZE_MAX;
			continue;
		}
		len = disasm_length(&s->d, p + at, avail - at);
		*prev = at;
		at += len ? len : 1;
	}
	return at == *stop;
}

bool sweep_code_block_start(struct sweep *s, uint64_t addr)
{
	const unsigned char *p;
	size_t stop, prev;

	if (!walk_to(s, addr, &p, &stop, &prev))
		return false;
	return addr % 16 == 0 || prev == SIZE_MAX || ends_run(p + prev, stop - prev);
}

bool sweep_code_instruction_start(struct sweep *s, uint64_t addr)
{
	const unsigned char *p;
	size_t stop, prev;

	return walk_to(s, addr, &p, &stop, &prev);
}
