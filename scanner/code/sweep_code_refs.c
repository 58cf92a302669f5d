/* Code addresses taken, read from the bytes: lea of a function's address, and in
 * position-dependent code its absolute address pushed, moved to a register or stored. */
#include "config.h"

#include "code/sweep.h"

#include "util/byteorder.h"
#include "code/insn_length.h"
#include "util/sort_address.h"

bool exec_address(const struct code_ctx *c, uint64_t v)
{
	return code_range_of(c, v) != NULL;
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

/* The entry point of a file the kernel starts (no interpreter: a static program, ld.so
 * itself) is entered by exec, not by a branch; its address taken in its own code is
 * AT_ENTRY's default (glibc's ld.so stores its _start so) or a comparison with it. */
static bool kernel_entry(const struct code_ctx *c, uint64_t v)
{
	return !c->m->interp && c->m->entry && v == c->m->entry;
}

static bool is_function_or_plt(const struct code_ctx *c, uint64_t v)
{
	uint64_t name;

	return code_is_function_start(c, v) || addr_map_get(&c->plt_symbol, v, &name);
}

/* An address the code computes or loads (lea, mov $imm32, push $imm32; the next
 * instruction at NEXT, LEFT bytes): when it is exactly a function start or a PLT entry
 * (a position-dependent program's canonical address of an imported function), the code
 * takes that address; a global label that is neither counts too, unless the next
 * instruction only compares with it. */
static void code_address_taken(struct code_ctx *c, uint64_t v, uint64_t evidence,
			       const unsigned char *next, size_t left)
{
	if (!exec_address(c, v) || kernel_entry(c, v))
		return;
	if (is_function_or_plt(c, v) || (global_label_at(c, v) && !is_cmp(next, left)))
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

bool sweep_code_ref_lea(struct code_ctx *c, const unsigned char *p, size_t i, size_t n,
			uint64_t addr)
{
	/* 64-bit: a function start or PLT entry at once (the opcode, ModRM and such a
	 * target do not occur by chance); other code is decoded, and its flow decides. */
	if (c->is64 && i >= 1 && (p[i - 1] & 0xf8) == 0x48 && i + 6 <= n &&
	    (p[i + 1] & 0xc7) == 0x05) {
		uint64_t v = addr + i + 6 + (uint64_t)(int64_t)(int32_t)load_le32(p + i + 2);

		if (!exec_address(c, v) || kernel_entry(c, v))
			return false;
		if (is_function_or_plt(c, v)) {
			code_add_target(c, v, VIA_CODE_REF, addr + i - 1);
			return false;
		}
		return true;
	}
	/* i386 PIC: lea func@GOTOFF(%reg), %r32, the register holding the GOT */
	if (!c->is64 && c->got && i + 6 <= n && (p[i + 1] >> 6) == 2 && (p[i + 1] & 7) != 4) {
		code_address_taken(c,
				   (c->got + (uint64_t)(int64_t)(int32_t)load_le32(p + i + 2)) &
					   0xffffffffull,
				   addr + i, p + i + 6, n - i - 6);
	}
	return false;
}

/* Whether ADDR lies inside a function an FDE describes (past its start): compiled code
 * whose labels no immediate names (node's V8 passes opcodes such as 0xc00118 that land
 * there); the labels immediates name are in hand-written code without CFI. */
static bool inside_fde(const struct code_ctx *c, uint64_t addr)
{
	size_t k = code_fdes_upto(c, addr);

	return k && addr - c->fdes[k - 1].start < c->fdes[k - 1].size;
}

/* At a decoded mov $imm,%reg of a position-dependent program whose immediate is code but
 * no function start, PLT entry or global label (those count by their bytes alone,
 * sweep_code_ref_absolute): a target when the immediate starts a block of code
 * (sweep_code_block_start: node's and busybox's numbers land on instruction starts
 * too) and is stored, passed or branched to (valgrind's mov $label,%rdi; call). */
static void check_code_ref_immediate(struct sweep *s, const struct decoded *di, const cs_x86 *x)
{
	const cs_x86_op *dst = &x->operands[0], *src = &x->operands[1];
	uint64_t v;

	if (x->op_count != 2 || dst->type != X86_OP_REG || src->type != X86_OP_IMM ||
	    src->imm <= 0 || src->imm > UINT32_MAX)
		return;
	v = (uint64_t)src->imm;
	if (!exec_address(s->c, v) || is_function_or_plt(s->c, v) || kernel_entry(s->c, v) ||
	    global_label_at(s->c, v) || inside_fde(s->c, v))
		return;
	if (sweep_address_use(s, di->addr + di->size, dst->reg) == ADDRESS_TARGET &&
	    sweep_code_block_start(s, v))
		code_add_target(s->c, v, VIA_CODE_REF, di->addr);
}

void sweep_check_code_ref_flow(struct sweep *s, const struct decoded *di, const cs_x86 *x)
{
	const cs_x86_op *dst = &x->operands[0], *src = &x->operands[1];
	enum address_use use;
	uint64_t v;

	if (di->insn->id == X86_INS_MOV) {
		check_code_ref_immediate(s, di, x);
		return;
	}
	if (x->op_count != 2 || dst->type != X86_OP_REG || src->type != X86_OP_MEM ||
	    src->mem.base != X86_REG_RIP || src->mem.index != X86_REG_INVALID)
		return;
	/* lea 0(%rip): the code reads its own position (V8 and valgrind keep it for a
	 * stack walk), no branch goes there */
	if (!src->mem.disp)
		return;
	v = di->addr + di->size + (uint64_t)src->mem.disp;
	if (!exec_address(s->c, v) || is_function_or_plt(s->c, v) || kernel_entry(s->c, v))
		return;
	use = sweep_address_use(s, di->addr + di->size, dst->reg);
	if (use == ADDRESS_NOT_TARGET)
		return;
	/* A global label or a Go function's entry is a place code is meant to reach: a
	 * target unless only compared with, offset or dropped; other code when stored,
	 * passed or jumped to */
	if (global_label_at(s->c, v) || code_is_go_entry(s->c, v) ||
	    (use == ADDRESS_TARGET && sweep_code_instruction_start(s, v)))
		code_add_target(s->c, v, VIA_CODE_REF, di->addr);
}

bool sweep_code_ref_absolute(struct code_ctx *c, const unsigned char *p, size_t i, size_t n,
			     uint64_t addr)
{
	uint8_t b = p[i];
	bool decode = false;

	/* Position-dependent code (the caller checks) names functions by absolute
	 * address: mov $func, %reg (b8+r), push $func, and mov $func to a register or to
	 * memory (c7 /0: a function pointer stored to a variable or to an argument slot
	 * on the stack). */
	if (i + 5 <= n && b == 0x68)
		code_address_taken(c, load_le32(p + i + 1), addr + i, p + i + 5, n - i - 5);
	if (i + 5 <= n && b >= 0xb8 && b <= 0xbf && exec_address(c, load_le32(p + i + 1))) {
		int rexb = c->is64 && i >= 1 && (p[i - 1] & 0xf0) == 0x40 ? p[i - 1] & 1 : 0;
		uint64_t v = load_le32(p + i + 1);

		if (!subtracts_code_address(c, p, i + 5, n, (b & 7) | (rexb << 3))) {
			code_address_taken(c, v, addr + i, p + i + 5, n - i - 5);
			/* other code: the flow of the register decides, decoded */
			decode = c->is64 && !is_function_or_plt(c, v) && !global_label_at(c, v) &&
				 !kernel_entry(c, v);
		}
	}
	if (b == 0xc7 && i + 2 < n && ((p[i + 1] >> 3) & 7) == 0) {
		size_t operand = modrm_operand_length(p + i + 1, n - i - 1);
		size_t at = i + 1 + operand;
		int rexb = c->is64 && i >= 1 && (p[i - 1] & 0xf0) == 0x40 ? p[i - 1] & 1 : 0;

		/* mov $imm32,%reg (mod 3) followed by a sub: a size, as above */
		if (operand && at + 4 <= n && exec_address(c, load_le32(p + at)) &&
		    !((p[i + 1] >> 6) == 3 &&
		      subtracts_code_address(c, p, at + 4, n, (p[i + 1] & 7) | (rexb << 3)))) {
			uint64_t v = load_le32(p + at);

			code_address_taken(c, v, addr + i, p + at + 4, n - at - 4);
			/* mov $label,%rdi (48 c7 c7): into a register, followed as above */
			decode |= c->is64 && (p[i + 1] >> 6) == 3 && !is_function_or_plt(c, v) &&
				  !global_label_at(c, v) && !kernel_entry(c, v);
		}
	}
	return decode;
}
