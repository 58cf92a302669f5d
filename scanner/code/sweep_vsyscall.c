/* vsyscall calls: an address in the vsyscall page followed from where it is loaded to a
 * call or jmp through it. */
#include "config.h"

#include "code/sweep.h"

static bool in_vsyscall_page(uint64_t v)
{
	return v >= VSYSCALL_PAGE && v < VSYSCALL_PAGE_END;
}

static bool same_operand(const struct operand *a, const struct operand *b)
{
	if (a->type != b->type)
		return false;
	if (a->type == X86_OP_REG)
		return a->reg == b->reg || (sweep_gpr_number(a->reg) >= 0 &&
					    sweep_gpr_number(a->reg) == sweep_gpr_number(b->reg));
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
void sweep_check_vsyscall(struct sweep *s, const struct decoded *di, const cs_x86 *x)
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
