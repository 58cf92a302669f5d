/* Tracked jump tables: the table an indirect jmp reads its target from, recognised from
 * the instructions before it, recorded for the data scan, and its case labels lacking
 * ENDBR reported when the jmp has no notrack prefix. */
#include "config.h"

#include "code/sweep.h"

#include "util/byteorder.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Table entries for a tracked jmp, or 0 when the dispatch is not a recognised table. */
struct table {
	uint64_t base;
	unsigned entry_size;
	bool relative;	       /* offsets from ORIGIN (PIC), else absolute addresses */
	bool unsigned_offsets; /* zero-extended (movzwl), not sign-extended */
	uint64_t origin;       /* BASE, or a label (computed gotos) on x86-64; the GOT on i386 */
	uint64_t count;	       /* 0: unknown, read while entries make sense */
};

static bool same_register(x86_reg a, x86_reg b)
{
	return a == b || (sweep_gpr_family(a) >= 0 && sweep_gpr_family(a) == sweep_gpr_family(b));
}

/* Whether R writes REG (its first operand). */
static bool writes_register(const struct recent *r, x86_reg reg)
{
	return r->nops >= 1 && r->op[0].type == X86_OP_REG && same_register(r->op[0].reg, reg) &&
	       r->id != X86_INS_CMP && r->id != X86_INS_TEST && r->id != X86_INS_PUSH;
}

/* Whether R ends the block the dispatch is in, looking back: what came before is
 * another path's. */
static bool ends_block(const struct recent *r)
{
	return r->id == X86_INS_JMP || r->id == X86_INS_CALL || r->id == X86_INS_RET || r->invalid;
}

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

/* The cmp $N,%reg that ends at END, read from the bytes when the history no longer
 * holds it (GCC puts more before a two-level dispatch than the history keeps): its
 * register (sweep_gpr_family's number) in *REG and N in *N. cmp $imm8 or $imm32 with a
 * register, or %al/%eax, with or without REX; it must start an instruction measured. */
static bool cmp_ending_at(const struct sweep *s, uint64_t end, int *reg, uint64_t *n)
{
	static const unsigned lengths[] = { 2, 3, 4, 5, 6, 7 };
	size_t i;

	for (i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		uint64_t at = end - lengths[i];
		const unsigned char *p;
		unsigned rex = 0, imm_size, len = lengths[i];

		if (end < s->func_start + len || !sweep_instruction_start(s, at))
			continue;
		p = s->func_bytes + (at - s->func_start);
		if (s->c->is64 && (p[0] & 0xf0) == 0x40) {
			rex = p[0];
			p++;
			len--;
		}
		if (p[0] == 0x3c || p[0] == 0x3d) { /* cmp $imm,%al / %eax */
			imm_size = p[0] == 0x3c ? 1 : 4;
			if (len != 1 + imm_size)
				continue;
			*reg = 0;
			*n = imm_size == 1 ? p[1] : load_le32(p + 1);
			return true;
		}
		if ((p[0] != 0x80 && p[0] != 0x81 && p[0] != 0x83) || (p[1] & 0xf8) != 0xf8)
			continue;
		imm_size = p[0] == 0x81 ? 4 : 1;
		if (len != 2 + imm_size)
			continue;
		*reg = (p[1] & 7) | (rex & 1 ? 8 : 0);
		/* without REX, byte registers 4-7 are %ah, %ch, %dh, %bh */
		if (p[0] == 0x80 && !rex && *reg >= 4)
			*reg -= 4;
		*n = imm_size == 4  ? load_le32(p + 2)
		     : p[0] == 0x83 ? (uint64_t)(int64_t)(int8_t)p[2]
				    : p[2];
		return true;
	}
	return false;
}

/* The bound of the table from a preceding cmp $N, reg; ja (moves allowed between), with
 * reg the index INDEX (any register or memory when INDEX is X86_REG_INVALID; with an
 * INDEX, the cmp may lie just before the history, read from the bytes). */
static uint64_t bound_from_history(const struct sweep *s, x86_reg index)
{
	size_t k, j;

	for (k = 0; k < s->nhist; k++) {
		const struct recent *jump = sweep_before(s, k), *r;

		if (jump->id != X86_INS_JA && jump->id != X86_INS_JAE)
			continue;
		for (j = k + 1; j < s->nhist && keeps_flags(sweep_before(s, j)); j++)
			;
		if (j >= s->nhist) {
			int reg;
			uint64_t n;

			if (index != X86_REG_INVALID &&
			    cmp_ending_at(s, sweep_before(s, s->nhist - 1)->addr, &reg, &n) &&
			    reg == sweep_gpr_family(index) && n < 4096)
				return n + (jump->id == X86_INS_JA);
			break;
		}
		r = sweep_before(s, j);
		if (r->id == X86_INS_CMP && r->nops == 2 && r->op[1].type == X86_OP_IMM &&
		    r->op[1].imm >= 0 && r->op[1].imm < 4096 &&
		    (index == X86_REG_INVALID ||
		     (r->op[0].type == X86_OP_REG && same_register(r->op[0].reg, index))))
			return (uint64_t)r->op[1].imm + (jump->id == X86_INS_JA);
	}
	return 0;
}

/* How far before the history a class table's cmp and ja are looked for, in instructions. */
#define BOUND_REACH 8

/* A cmp $N and its ja (or jae) just before the history, on any register: the bound of a
 * class table whose index GCC computed again after the check (glibc's vfprintf:
 * lea -0x20(%r8),%esi; cmp $0x5a,%sil; ja; movzbl %r8b,%edx; sub $0x20,%edx; ...), read
 * from the bytes of the instructions measured before the oldest one the history holds.
 * Trusted only where the classes it covers are dense (count_by_classes). */
static uint64_t bound_before_history(const struct sweep *s)
{
	const struct recent *oldest;
	uint64_t at, n;
	int reg, i;

	if (!s->nhist)
		return 0;
	oldest = sweep_before(s, s->nhist - 1);
	at = oldest->addr;
	if (oldest->id == X86_INS_JA || oldest->id == X86_INS_JAE)
		return cmp_ending_at(s, at, &reg, &n) && n < 4096 ? n + (oldest->id == X86_INS_JA)
								  : 0;
	for (i = 0; i < BOUND_REACH; i++) {
		uint64_t prev = at;
		const unsigned char *p;
		size_t len;

		while (prev > s->func_start && at - prev < 15 &&
		       !sweep_instruction_start(s, --prev))
			;
		if (prev == at || !sweep_instruction_start(s, prev))
			return 0;
		p = s->func_bytes + (prev - s->func_start);
		len = (size_t)(at - prev);
		if ((len == 2 && (p[0] == 0x77 || p[0] == 0x73)) ||
		    (len == 6 && p[0] == 0x0f && (p[1] == 0x87 || p[1] == 0x83)))
			return cmp_ending_at(s, prev, &reg, &n) && n < 4096
				       ? n + (p[0] == 0x77 || p[1] == 0x87)
				       : 0;
		at = prev;
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
	const struct recent *r = sweep_before(s, k), *next;

	if (!loads_gotoff_entry(r, reg))
		return false;
	if (r->id == X86_INS_ADD)
		return r->op[1].base == reg;
	if (k == 0)
		return false;
	next = sweep_before(s, k - 1);
	return next->id == X86_INS_ADD && next->op[1].type == X86_OP_REG &&
	       next->op[1].reg == r->op[1].base;
}

/* How far back a table's lea is looked for when the history does not hold it. */
#define TABLE_LEA_REACH 512

/* A table of offsets read by the dispatch before jmp *%rX: in the same block, an entry
 * loaded from (%rB,%rI,W) and a register holding the address the offsets count from added
 * to it: movslq (%rB,%rI,4),%rX; add %rO,%rX (or the add the other way round), other
 * instructions in between. O is B itself for a switch (offsets from the table); for
 * computed gotos through label differences it holds a label (glibc's vfprintf:
 * goto *(&&base + table[class])), and entries may be 2, 4 or 8 bytes wide. */
struct offset_load {
	size_t k;	    /* how far back the load is */
	size_t origin_from; /* where the origin's writer is looked for */
	x86_reg base, index, origin;
	int64_t disp;
	unsigned width;
	bool unsigned_offsets;
};

/* Whether R loads an offset entry (%rB,%rI,W) into a register: movslq, movswq, movzwl, or
 * a mov of 8 bytes. */
static bool loads_offset_entry(const struct recent *r, struct offset_load *d)
{
	const struct operand *m = &r->op[1];

	if (r->nops != 2 || r->op[0].type != X86_OP_REG || m->type != X86_OP_MEM ||
	    m->base == X86_REG_INVALID || m->base == X86_REG_RIP || m->index == X86_REG_INVALID ||
	    m->scale != m->size)
		return false;
	if (!((r->id == X86_INS_MOVSXD && m->size == 4) ||
	      ((r->id == X86_INS_MOVSX || r->id == X86_INS_MOVZX) && m->size == 2) ||
	      (r->id == X86_INS_MOV && m->size == 8)))
		return false;
	d->base = m->base;
	d->index = m->index;
	d->disp = m->disp;
	d->width = m->size;
	d->unsigned_offsets = r->id == X86_INS_MOVZX;
	return true;
}

/* Whether the first writer of REG from K back is an offset entry load, filled in D. */
static bool offset_load_into(const struct sweep *s, size_t k, x86_reg reg, struct offset_load *d)
{
	for (; k < s->nhist; k++) {
		const struct recent *r = sweep_before(s, k);

		if (ends_block(r))
			return false;
		if (!writes_register(r, reg))
			continue;
		if (!loads_offset_entry(r, d))
			return false;
		d->k = k;
		return true;
	}
	return false;
}

static bool offset_dispatch(const struct sweep *s, x86_reg jmp_reg, struct offset_load *d)
{
	const struct recent *add = NULL;
	size_t k;

	for (k = 0; k < s->nhist && !add; k++) {
		const struct recent *r = sweep_before(s, k);

		if (ends_block(r))
			return false;
		if (writes_register(r, jmp_reg))
			add = r;
	}
	if (!add || add->id != X86_INS_ADD || add->nops != 2 || add->op[1].type != X86_OP_REG ||
	    same_register(add->op[1].reg, jmp_reg))
		return false;
	d->origin_from = k;
	if (offset_load_into(s, k, jmp_reg, d)) {
		d->origin = add->op[1].reg;
		return true;
	}
	if (offset_load_into(s, k, add->op[1].reg, d)) {
		d->origin = jmp_reg;
		return true;
	}
	return false;
}

/* The address the nearest lea disp(%rip),REG of the history from K back loads, or 0. */
static uint64_t lea_in_history(const struct sweep *s, size_t k, x86_reg reg)
{
	for (; k < s->nhist; k++) {
		const struct recent *r = sweep_before(s, k);

		if (r->id == X86_INS_LEA && r->nops == 2 && r->op[0].type == X86_OP_REG &&
		    r->op[0].reg == reg && r->op[1].type == X86_OP_MEM &&
		    r->op[1].base == X86_REG_RIP)
			return r->addr + r->size + (uint64_t)r->op[1].disp;
	}
	return 0;
}

/* The address a lea disp32(%rip),REG at least K instructions back loads: the first writer
 * of REG from there when the history holds one (0 when it is no such lea), else the
 * nearest such lea farther back (far_lea); CODE: whether that address must be code of the
 * function (a label) rather than data (a table). */
static uint64_t far_lea(const struct sweep *s, x86_reg reg, bool code);

static uint64_t register_lea(const struct sweep *s, size_t k, x86_reg reg, bool code)
{
	uint64_t v;

	for (; k < s->nhist; k++) {
		const struct recent *r = sweep_before(s, k);

		if (ends_block(r))
			break;
		if (!writes_register(r, reg))
			continue;
		if (r->id == X86_INS_LEA && r->nops == 2 && r->op[1].type == X86_OP_MEM &&
		    r->op[1].base == X86_REG_RIP && r->op[1].index == X86_REG_INVALID)
			return r->addr + r->size + (uint64_t)r->op[1].disp;
		return 0;
	}
	/* Set before the block (a loop's head): the lea the history still holds before
	 * it, or one farther back. */
	v = lea_in_history(s, k, reg);
	if (!v)
		return far_lea(s, reg, code);
	if (code)
		return v >= s->func_start && v < s->func_end ? v : 0;
	return code_range_of(s->c, v) ? 0 : v;
}

/* How many classes a bounded dispatch of the file found in the class table at TABLE, or
 * 0: the bound of a dispatch that checked the character on another path (glibc's
 * printf_positional), or whose check lies before what the history holds. */
static uint64_t learned_classes(const struct sweep *s, uint64_t table)
{
	size_t i;

	for (i = 0; i < s->nclass_counts; i++)
		if (s->class_counts[i].table == table)
			return s->class_counts[i].count;
	return 0;
}

static void learn_classes(struct sweep *s, uint64_t table, uint64_t count)
{
	size_t i;

	for (i = 0; i < s->nclass_counts; i++)
		if (s->class_counts[i].table == table) {
			if (count > s->class_counts[i].count)
				s->class_counts[i].count = count;
			return;
		}
	if (s->nclass_counts < CLASS_TABLES)
		s->class_counts[s->nclass_counts++] = (struct class_count){ table, count };
}

/* The entries of a table of offsets indexed by a class the code loaded from a table of
 * bytes (or words) first: movzbl (%rT,%rJ,1),%eI; ...; movslq (%rB,%rI,4),%rX (glibc's
 * printf: a character's class, then the state's label for the class). The bound before
 * the dispatch is the class table's (cmp $N,%rJ; ja); the offsets table holds the largest
 * class plus one entries. Sets *VIA_CLASSES when the index is such a class; returns 0
 * when the count is not known. */
static uint64_t count_by_classes(struct sweep *s, const struct offset_load *d, bool *via_classes)
{
	x86_reg index = d->index;
	size_t k;

	*via_classes = false;
	for (k = d->k + 1; k < s->nhist; k++) {
		const struct recent *r = sweep_before(s, k);
		const struct operand *m = &r->op[1];
		uint64_t classes, n, i, largest = 0;
		const unsigned char *bytes;
		unsigned char seen[4096 / 8];
		bool strict;

		if (ends_block(r))
			return 0;
		if (!writes_register(r, index))
			continue;
		/* mov %eax,%edx: the class is in the register moved */
		if (r->id == X86_INS_MOV && r->nops == 2 && m->type == X86_OP_REG) {
			index = m->reg;
			continue;
		}
		if (r->id != X86_INS_MOVZX || r->nops != 2 || m->type != X86_OP_MEM ||
		    (m->size != 1 && m->size != 2) || m->base == X86_REG_INVALID ||
		    m->base == X86_REG_RIP || m->index == X86_REG_INVALID || m->scale != m->size)
			return 0;
		*via_classes = true;
		classes = register_lea(s, k + 1, m->base, false);
		if (!classes)
			return 0;
		classes += (uint64_t)m->disp;
		n = bound_from_history(s, m->index);
		strict = n != 0;
		if (!n)
			n = bound_before_history(s);
		bytes = n ? elf_model_vaddr_bytes(s->c->m, classes, n * m->size) : NULL;
		if (!bytes)
			return learned_classes(s, classes);
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < n; i++) {
			uint64_t v = m->size == 1 ? bytes[i] : (uint64_t)load_le16(bytes + 2 * i);

			/* as many as a cmp bound may say: a class table of words is no larger */
			if (v >= 4096)
				return 0;
			if (v > largest)
				largest = v;
			seen[v / 8] |= (unsigned char)(1u << (v % 8));
		}
		/* A bound on another register is trusted where it covers every class from 0 to
		 * the largest: bytes past a class table are no such run. */
		for (i = 0; !strict && i <= largest; i++)
			if (!(seen[i / 8] & (1u << (i % 8))))
				return learned_classes(s, classes);
		learn_classes(s, classes, largest + 1);
		return largest + 1;
	}
	return 0;
}

/* The address a lea of REG loads when the lea lies farther back than the history: GCC
 * hoists it out of a loop (glibc's vfprintf, ld.so, a computed goto's base label). The
 * nearest lea disp32(%rip),%rB within TABLE_LEA_REACH bytes before the oldest instruction
 * of the history, in the same function, from which the instruction lengths lead exactly
 * to that instruction, and whose address is data (a table: a lea of a code address is
 * something else, a label, a callback) or, with CODE, code of the function; 0 when there
 * is none. */
static uint64_t far_lea(const struct sweep *s, x86_reg reg, bool code)
{
	const struct recent *oldest = sweep_before(s, s->nhist ? s->nhist - 1 : 0);
	int b = sweep_gpr_number(reg);
	uint64_t lo, at;

	if (!s->nhist || b < 0 || oldest->addr < s->func_start + 7)
		return 0;
	lo = oldest->addr - s->func_start > TABLE_LEA_REACH ? oldest->addr - TABLE_LEA_REACH
							    : s->func_start;
	for (at = oldest->addr - 7;; at--) {
		const unsigned char *p = s->func_bytes + (at - s->func_start);

		if (p[0] == (0x48 | (b >= 8 ? 4 : 0)) && p[1] == 0x8d &&
		    p[2] == (0x05 | ((b & 7) << 3))) {
			uint64_t pos = at;

			while (pos < oldest->addr) {
				size_t len = disasm_length(&s->d,
							   s->func_bytes + (pos - s->func_start),
							   (size_t)(s->func_end - pos));

				if (!len)
					break;
				pos += len;
			}
			if (pos == oldest->addr) {
				uint64_t v = at + 7 + (uint64_t)(int64_t)(int32_t)load_le32(p + 3);

				if (code)
					return v >= s->func_start && v < s->func_end ? v : 0;
				return code_range_of(s->c, v) ? 0 : v;
			}
		}
		if (at == lo)
			return 0;
	}
}

/* Whether an instruction after the K-th one back writes REG (its first operand). */
static bool written_since(const struct sweep *s, size_t k, x86_reg reg)
{
	size_t j;

	for (j = 0; j < k; j++) {
		if (writes_register(sweep_before(s, j), reg))
			return true;
	}
	return false;
}

/* Whether an instruction after the K-th one back reads memory at REG plus an index (REG
 * the base, or the index of a byte offset: GCC -O0's mov (%rdx,%rax,1),%eax): a table at
 * REG being indexed. */
static bool indexed_since(const struct sweep *s, size_t k, x86_reg reg)
{
	size_t j, o;

	for (j = 0; j < k; j++) {
		const struct recent *r = sweep_before(s, j);

		for (o = 0; o < r->nops; o++)
			if (r->op[o].type == X86_OP_MEM && r->op[o].index != X86_REG_INVALID &&
			    (same_register(r->op[o].base, reg) ||
			     same_register(r->op[o].index, reg)))
				return true;
	}
	return false;
}

/* Whether an instruction after the K-th one back adds REG into JMP_REG. */
static bool added_since(const struct sweep *s, size_t k, x86_reg reg, x86_reg jmp_reg)
{
	size_t j;

	for (j = 0; j < k; j++) {
		const struct recent *r = sweep_before(s, j);

		if (r->id == X86_INS_ADD && r->nops == 2 && r->op[0].type == X86_OP_REG &&
		    r->op[1].type == X86_OP_REG && same_register(r->op[0].reg, jmp_reg) &&
		    same_register(r->op[1].reg, reg))
			return true;
	}
	return false;
}

/* Whether the history loads JMP_REG from one rip-relative word with no index (into
 * *ENTRY): a table entry the compiler knew the index of (gold, glibc's res_query). */
static bool single_entry_load(const struct sweep *s, x86_reg jmp_reg, uint64_t *entry)
{
	size_t k;

	for (k = 0; k < s->nhist; k++) {
		const struct recent *r = sweep_before(s, k);

		if ((r->id == X86_INS_MOVSXD || r->id == X86_INS_MOV) && r->nops == 2 &&
		    r->op[0].type == X86_OP_REG && same_register(r->op[0].reg, jmp_reg) &&
		    r->op[1].type == X86_OP_MEM && r->op[1].base == X86_REG_RIP &&
		    r->op[1].index == X86_REG_INVALID) {
			*entry = r->addr + r->size + (uint64_t)r->op[1].disp;
			return true;
		}
	}
	return false;
}

static bool recognise_table(struct sweep *s, const cs_x86 *x, struct table *t)
{
	const cs_x86_op *op = &x->operands[0];
	struct offset_load d;
	size_t k;

	memset(t, 0, sizeof(*t));
	if (op->type == X86_OP_MEM && op->mem.base == X86_REG_INVALID &&
	    op->mem.index != X86_REG_INVALID && (unsigned)op->mem.scale == s->c->word) {
		t->base = (uint64_t)op->mem.disp & (s->c->is64 ? ~0ull : 0xffffffffull);
		t->entry_size = s->c->word;
		t->count = bound_from_history(s, X86_REG_INVALID);
		return true;
	}
	if (op->type != X86_OP_REG)
		return false;
	/* lea table(%rip),%rB; movslq (%rB,%rI,4),%rX; add %rO,%rX; jmp *%rX, with %rO
	 * the table (%rB) or a lea label(%rip),%rO of its own; either lea may lie farther
	 * back than the history. The bound is the index's, or, when the index is a class
	 * read from a table of bytes, the largest class's. */
	if (s->c->is64 && offset_dispatch(s, op->reg, &d)) {
		uint64_t base = register_lea(s, d.k + 1, d.base, false), origin = 0;
		bool via_classes, from_table = same_register(d.origin, d.base);

		if (base)
			origin = from_table ? base : register_lea(s, d.origin_from, d.origin, true);
		if (base && origin && !code_range_of(s->c, base)) {
			t->base = base;
			t->origin = origin;
			t->entry_size = d.width;
			t->unsigned_offsets = d.unsigned_offsets;
			t->relative = true;
			t->count = count_by_classes(s, &d, &via_classes);
			if (!via_classes)
				t->count = bound_from_history(s, X86_REG_INVALID);
			/* Entry 0 is at the displacement when the bound counts from it; without
			 * a bound the index may be negative (gmp's mod_34lsub1) or start high
			 * (Free Pascal's case ranges, x86inc's widths): the table is read from
			 * the address the lea gives, while its words are labels. */
			if (t->count)
				t->base += (uint64_t)d.disp;
			/* Offsets from a label, without a bound: the tables of the next
			 * function follow, offsets from its own label that land anywhere
			 * in this one. Not read at all rather than read into them. */
			return t->count || from_table;
		}
	}
	/* Any other shape ending in jmp *%rX: the nearest lea table(%rip) of the same block
	 * whose register is indexed (movslq (%rB,%rI,4)), added into %rX or is %rX; a lea
	 * of another table is passed over. Not one before a jmp, call or ret: that is
	 * another path's (a notrack dispatch, then a tail call through a context pointer).
	 * A lea of code is no table: when its register is the one jumped through (Go's
	 * lea fn(%rip),%rax; jmp *%rax), the code jumps to fn. */
	for (k = 0; k < s->nhist; k++) {
		const struct recent *r = sweep_before(s, k);

		if (r->id == X86_INS_JMP || r->id == X86_INS_CALL || r->id == X86_INS_RET)
			break;
		if (r->id == X86_INS_LEA && r->nops == 2 && r->op[1].type == X86_OP_MEM &&
		    r->op[1].base == X86_REG_RIP) {
			uint64_t base = r->addr + r->size + (uint64_t)r->op[1].disp;

			if (code_range_of(s->c, base)) {
				if (same_register(r->op[0].reg, op->reg) &&
				    !written_since(s, k, op->reg))
					code_add_target(s->c, base, VIA_CODE_REF, r->addr);
				continue;
			}
			if (!indexed_since(s, k, r->op[0].reg) &&
			    !same_register(r->op[0].reg, op->reg) &&
			    !added_since(s, k, r->op[0].reg, op->reg))
				continue;
			t->base = base;
			t->origin = t->base;
			t->entry_size = 4;
			t->relative = true;
			t->count = bound_from_history(s, X86_REG_INVALID);
			/* movslq table+N(%rip),%rX; lea table(%rip),%rO; add %rO,%rX: one entry,
			 * the index known to the compiler */
			if (single_entry_load(s, op->reg, &t->base))
				t->count = 1;
			return true;
		}
	}
	/* i386 PIC, with %rG holding _GLOBAL_OFFSET_TABLE_ and entries GOT-relative:
	 * add table@GOTOFF(%rG,%rI,4),%rG; jmp *%rG (gcc, clang), or
	 * mov table@GOTOFF(%rG,%rI,4),%rX; add %rG,%rX; jmp *%rX. */
	for (k = 0; !s->c->is64 && s->c->got && k < s->nhist && k < 3; k++) {
		const struct recent *r = sweep_before(s, k);

		if (gotoff_dispatch(s, k, op->reg)) {
			t->base = (s->c->got + (uint64_t)r->op[1].disp) & 0xffffffffull;
			t->origin = s->c->got;
			t->entry_size = 4;
			t->relative = true;
			t->count = bound_from_history(s, X86_REG_INVALID);
			return true;
		}
	}
	return false;
}

/* An entry of a table of offsets, WIDTH bytes at E, sign- or zero-extended. */
static uint64_t offset_entry(const unsigned char *e, unsigned width, bool unsigned_offsets)
{
	switch (width) {
	case 2:
		return unsigned_offsets ? load_le16(e) : (uint64_t)(int64_t)(int16_t)load_le16(e);
	case 8:
		return load_le64(e);
	default:
		return (uint64_t)(int64_t)(int32_t)load_le32(e);
	}
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts N labels and drops repeats; returns how many are left. */
static uint64_t sort_unique(uint64_t *labels, uint64_t n)
{
	uint64_t i, out = 0;

	qsort(labels, n, sizeof(*labels), compare_u64);
	for (i = 0; i < n; i++)
		if (!out || labels[i] != labels[out - 1])
			labels[out++] = labels[i];
	return out;
}

/* Every label lacking ENDBR (sorted, each once), on the finding just added: a CPU with
 * IBT faults at whichever one the jmp takes, so a verifier must know them all. */
static void attach_labels(struct code_ctx *c, const uint64_t *labels, uint64_t n)
{
	size_t cap = (size_t)n * 20 + 1, used = 0;
	char *text = xmalloc(cap);
	uint64_t i;

	text[0] = '\0';
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(text + used, cap - used, "%s0x%llx", used ? " " : "",
					 (unsigned long long)labels[i]);
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

/* Whether LABEL, in the swept function, starts an instruction: a word of a table that
 * points inside one is no label. Labels before the jmp are known when the function was
 * measured from its start without a gap; those after it are measured now, from the jmp
 * on. */
static bool label_is_instruction(struct sweep *s, const struct decoded *di, uint64_t label)
{
	if (label < s->func_start || label >= s->func_end)
		return true; /* the cold part: not measured here */
	if (label < di->addr)
		return !s->starts_contiguous || sweep_instruction_start(s, label);
	if (label < di->addr + di->size)
		return false;
	sweep_measure_ahead(s, di->addr + di->size, label);
	return sweep_instruction_start(s, label);
}

/* The nearest address after BASE that a lea of the function loads and that is no code:
 * where the next table starts, which an unbounded table must not run into. */
static uint64_t next_table_start(const struct sweep *s, uint64_t base)
{
	uint64_t next = UINT64_MAX;
	size_t k;

	for (k = 0; k < s->nleas; k++)
		if (s->leas[k] > base && s->leas[k] < next)
			next = s->leas[k];
	return next;
}

/* A notrack jmp needs no ENDBR at its labels: its table is only recorded. The table is
 * read up to its bound (the cmp/ja before the jmp); without one, while its words are
 * labels of the function that start instructions, and not into the next table. */
void sweep_check_jump_table(struct sweep *s, const struct decoded *di, const cs_x86 *x,
			    bool tracked)
{
	struct code_ctx *c = s->c;
	uint64_t i, limit, lacking = 0, entries = 0, nlabels = 0, end;
	uint64_t *labels = NULL, *lacking_labels = NULL;
	char list[160] = "";
	size_t used = 0, labels_cap = 0, lacking_cap = 0;
	struct table t;
	struct label_parts parts;

	if (!recognise_table(s, x, &t))
		return;
	memset(&parts, 0, sizeof(parts));
	limit = t.count ? t.count : 512;
	end = t.count ? UINT64_MAX : next_table_start(s, t.base);
	for (i = 0; i < limit && t.base + (i + 1) * t.entry_size <= end; i++) {
		const unsigned char *e =
			elf_model_vaddr_bytes(c->m, t.base + i * t.entry_size, t.entry_size);
		uint64_t label, v;
		size_t avail;
		const unsigned char *code;

		if (!e)
			break;
		if (t.relative) {
			label = t.origin + offset_entry(e, t.entry_size, t.unsigned_offsets);
			if (!c->is64)
				label &= 0xffffffffull;
		} else if (code_read_word(c, t.base + i * t.entry_size, &v)) {
			label = v;
		} else {
			break;
		}
		/* Without a bound, the table ends where its entries stop pointing into the
		 * function, hot or cold part. A word that points inside an instruction is
		 * no label: x86inc's tables are indexed from a base some entries before
		 * them (tzcnt of a width of at least 4), whose first words belong to the
		 * table before. */
		if (!label_in_function(s, label, &parts)) {
			if (t.count)
				continue;
			break;
		}
		if (!label_is_instruction(s, di, label))
			continue;
		entries = i + 1;
		ARRAY_RESERVE(labels, labels_cap, nlabels + 1);
		labels[nlabels++] = label;
		code = code_bytes(c, label, &avail);
		if (code && !is_endbr(code, avail, c->is64)) {
			/* Grown as labels are found, not sized by the bound the code claims. */
			ARRAY_RESERVE(lacking_labels, lacking_cap, lacking + 1);
			lacking_labels[lacking++] = label;
		}
	}
	if (!nlabels) {
		free(labels);
		free(lacking_labels);
		return;
	}
	code_add_table(c, t.base, t.base + (t.count ? t.count : entries) * t.entry_size);
	nlabels = sort_unique(labels, nlabels);
	lacking = lacking ? sort_unique(lacking_labels, lacking) : 0;
	if (lacking && tracked) {
		for (i = 0; i < lacking && i < 6; i++) {
			int n = snprintf(list + used, sizeof(list) - used, "%s0x%llx",
					 i ? ", " : "", (unsigned long long)lacking_labels[i]);

			if (n > 0 && (size_t)n < sizeof(list) - used)
				used += (size_t)n;
		}
		code_finding(c, "ibt-tracked-jump-table", di->addr, "jump-table",
			     "tracked jmp (no notrack prefix) through a table of %llu case label(s) "
			     "at 0x%llx: %llu lack ENDBR: %s%s",
			     (unsigned long long)nlabels, (unsigned long long)t.base,
			     (unsigned long long)lacking, list, lacking > 6 ? ", ..." : "");
		attach_labels(c, lacking_labels, lacking);
	}
	free(labels);
	free(lacking_labels);
}
