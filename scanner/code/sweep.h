/* The code sweep's parts: the driver (code_sweep.c) decodes the functions worth a look and
 * hands each instruction to the checks, one file each: return hazards (sweep_returns.c),
 * jump tables (sweep_jump_tables.c), vsyscall calls (sweep_vsyscall.c), stray ENDBR
 * (sweep_stray_endbr.c) and code addresses taken (sweep_code_refs.c). Internal to the
 * sweep: the rest of the scanner sees code_sweep.h only. */
#ifndef ELFCET_SWEEP_H
#define ELFCET_SWEEP_H

#include "code/byte_scan.h"
#include "code/code_context.h"
#include "code/disasm.h"

/* The instructions the checks see before the current one: a fiber switch moves %rsp
 * nine instructions before its ret (sweep_returns.c). */
#define HISTORY 12

/* The part of an operand the checks look at. */
struct operand {
	x86_op_type type;
	x86_reg reg;	     /* X86_OP_REG */
	int64_t imm;	     /* X86_OP_IMM */
	x86_reg base, index; /* X86_OP_MEM */
	int64_t disp;
	int scale;
	uint8_t size; /* bytes read or written */
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

/* A table of classes (glibc's printf: a character's class, then a label per class in the
 * table of each state) and how many classes a bounded dispatch of the file found in it:
 * the count of its dispatches whose own bound is out of sight. */
#define CLASS_TABLES 8
struct class_count {
	uint64_t table, count;
};

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
	uint64_t *leas; /* data addresses the function's lea d(%rip) load: tables */
	size_t nleas, leas_cap;
	struct class_count class_counts[CLASS_TABLES]; /* the file's class tables */
	size_t nclass_counts;
	bool starts_contiguous;	 /* starts_bitmap holds every start up to the current insn */
	uint64_t measured_ahead; /* where sweep_measure_ahead stopped (a start), or 0 */
};

/* The K-th instruction before the current one (0: the previous one). */
static inline const struct recent *sweep_before(const struct sweep *s, size_t k)
{
	return &s->ring[(s->head + HISTORY - (k % HISTORY)) % HISTORY];
}

static inline bool is_rsp(x86_reg r)
{
	return r == X86_REG_RSP || r == X86_REG_ESP;
}

/* The number of a general-purpose register (0 for %rax ... 15 for %r15), or -1. */
int sweep_gpr_number(x86_reg r);
/* The same for any part of a register: %r8d, %r8w and %r8b are 8. */
int sweep_gpr_family(x86_reg r);

/* Marks the instruction starts from FROM (a start) until past TO. */
void sweep_measure_ahead(struct sweep *s, uint64_t from, uint64_t to);

/* Whether byte offset ADDR of the swept function starts an instruction decoded so far. */
bool sweep_instruction_start(const struct sweep *s, uint64_t addr);

/* Return hazards (sweep_returns.c). Whether the ret at P[I] follows a push, a store to
 * (%rsp), or a write of %rsp with only pops in between: worth decoding. */
bool ret_after_stack_game(const unsigned char *p, size_t i);
/* The shadow-stack findings at a ret, and at a jmp *%reg right after a pop of it. */
void sweep_check_ret(struct sweep *s, const struct decoded *di);
void sweep_check_pop_jmp(struct sweep *s, const struct decoded *di, const cs_x86 *x);

/* Jump tables (sweep_jump_tables.c): the table of an indirect jmp, recorded, and its
 * labels lacking ENDBR reported when the jmp is TRACKED. */
void sweep_check_jump_table(struct sweep *s, const struct decoded *di, const cs_x86 *x,
			    bool tracked);

/* vsyscall calls (sweep_vsyscall.c): follows vsyscall addresses to a call or jmp; called
 * after the instruction is remembered. */
void sweep_check_vsyscall(struct sweep *s, const struct decoded *di, const cs_x86 *x);

/* Stray ENDBR (sweep_stray_endbr.c): ENDBR bytes in [FROM, N) of the function's bytes P
 * that are no instruction start. */
void sweep_check_stray_endbr(struct sweep *s, const unsigned char *p, size_t from, size_t n);

/* Code addresses taken (sweep_code_refs.c), read from the bytes at P[I] (N bytes, the
 * function at ADDR): lea func(%rip) or lea func@GOTOFF(%reg) at the 0x8d, and in a
 * position-dependent file push/mov of an absolute code address. */
bool exec_address(const struct code_ctx *c, uint64_t v);
/* Returns whether the lea is worth decoding: its address is code but no function start,
 * and sweep_check_code_ref_flow decides by where the address goes. */
bool sweep_code_ref_lea(struct code_ctx *c, const unsigned char *p, size_t i, size_t n,
			uint64_t addr);
/* At a decoded lea label(%rip),%reg (64-bit) whose label is code but no function start
 * or PLT entry: a target when the label is an instruction start the address of which
 * is stored, passed or branched to, or a global label not only compared or offset. The
 * same for mov $label,%reg in a position-dependent program. */
void sweep_check_code_ref_flow(struct sweep *s, const struct decoded *di, const cs_x86 *x);
/* In a position-dependent file: push/mov of an absolute code address at P[I]; returns
 * whether a mov $imm32,%reg of other code is worth decoding (sweep_check_code_ref_flow
 * then follows the register). */
bool sweep_code_ref_absolute(struct code_ctx *c, const unsigned char *p, size_t i, size_t n,
			     uint64_t addr);

/* Where a code address goes (sweep_address_flow.c). */
enum address_use {
	ADDRESS_UNKNOWN,    /* no use seen in reach */
	ADDRESS_TARGET,	    /* stored, passed to a call, branched to */
	ADDRESS_NOT_TARGET, /* only compared with, offset, or read through */
};
/* What the code from AFTER (an instruction start of the swept function) does with the
 * address register REG holds. Decodes with the sweep's decoder: call it last. */
enum address_use sweep_address_use(struct sweep *s, uint64_t after, x86_reg reg);
/* Whether ADDR starts an instruction, measured from its function's start (or, far from
 * one, from a window before it). */
bool sweep_code_instruction_start(struct sweep *s, uint64_t addr);
/* The same, and ADDR starts a block only a branch reaches: 16-aligned, after padding, or
 * after a ret, jmp, ud2, hlt, int3 or nop. An immediate of a position-dependent program
 * is as often a number; one that lands on an instruction start mid-run is a number. */
bool sweep_code_block_start(struct sweep *s, uint64_t addr);

#endif
