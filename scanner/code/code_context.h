/* What the code audit knows about one file while it runs: where the code is, the
 * function starts (symbols and .eh_frame), the relocated words, the PLT, and the
 * indirect-branch targets found so far. Built once per file by code_audit(). */
#ifndef ELFCET_CODE_CONTEXT_H
#define ELFCET_CODE_CONTEXT_H

#include "code/go_pclntab.h"
#include "elf/elf_model.h"
#include "problem.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rule_set;

/* An executable range: a SHF_EXECINSTR section, or a PF_X segment when there are none. */
struct exec_range {
	uint64_t addr, size;
	const unsigned char *bytes; /* file bytes, size long */
	const char *name;	    /* section name, or "" */
};

struct code_symbol {
	uint64_t addr, size;
	const char *name; /* in the file's string table */
	bool global;
};

struct fde_info {
	uint64_t start, size;
	uint64_t lsda; /* 0 when the function has no LSDA */
};

/* An address-keyed map (open addressing) from a word's address to a value. */
struct addr_map {
	uint64_t *keys, *values;
	size_t cap, count;
};

/* A half-open address range, e.g. a recovered jump table. */
struct addr_range {
	uint64_t start, end;
};

/* Why an address is an indirect-branch target, strongest first: a target found several
 * ways is reported under the strongest. */
enum evidence {
	VIA_ENTRY,
	VIA_INIT,
	VIA_FINI,
	VIA_PREINIT_ARRAY,
	VIA_INIT_ARRAY,
	VIA_FINI_ARRAY,
	VIA_EXPORT,
	VIA_IRELATIVE,
	VIA_PLT,
	VIA_RELOC,
	VIA_LANDING_PAD,
	VIA_RETURNS_TWICE,
	VIA_CODE_REF,
	VIA_DATA_POINTER,
};

/* The name reports give VIA: "entry", "init-array", "code-ref", ... */
const char *evidence_name(enum evidence via);

struct target {
	uint64_t addr;
	uint64_t from; /* where the evidence is (an address), or 0 */
	enum evidence via;
};

struct code_ctx {
	const struct elf_model *m;
	const struct rule_set *rules;
	struct finding_list *out;
	const char *severity_rule; /* the rule code_finding last looked up, */
	enum severity severity;	   /* and its severity */
	bool is64;
	unsigned word; /* 8 or 4 */
	bool bind_now;
	uint64_t got; /* _GLOBAL_OFFSET_TABLE_, which i386 PIC code addresses from; 0 if none */

	struct exec_range *ranges;
	size_t nranges;
	uint64_t code_first, code_last; /* every range lies in [code_first, code_last] */
	struct code_symbol *syms;	/* sorted by address */
	size_t nsyms;
	struct fde_info *fdes; /* sorted by start */
	size_t nfdes;
	struct go_functions go; /* Go's functions (.gopclntab), when the file has Go code */
	uint64_t *starts;	/* function starts: symbols, FDEs, range starts; sorted */
	size_t nstarts;

	struct addr_map relocated;   /* word address -> value after RELATIVE/RELR relocation */
	struct addr_map rewritten;   /* words other dynamic relocations overwrite (GOT slots) */
	struct addr_map slot_symbol; /* GOT slot address -> index of its symbol name below */
	const char **slot_names;
	size_t nslot_names, slot_names_cap;
	struct addr_map plt_symbol; /* PLT entry address -> index into slot_names */

	struct target *targets;
	size_t ntargets, targets_cap;
	struct addr_range *tables; /* recovered jump tables (excluded from the data scan) */
	size_t ntables, tables_cap;
	uint64_t *returns_twice; /* addresses that reach a returns-twice function */
	size_t nreturns_twice, returns_twice_cap;
};

/* Code ranges, symbols, FDEs, function starts: the skeleton every analysis needs. */
void code_ctx_init(struct code_ctx *c, const struct elf_model *m, const struct rule_set *rules,
		   struct finding_list *out);
void code_ctx_free(struct code_ctx *c);

const struct exec_range *code_range_of(const struct code_ctx *c, uint64_t addr);
/* File bytes at ADDR inside an executable range, with how many follow. */
const unsigned char *code_bytes(const struct code_ctx *c, uint64_t addr, size_t *avail);
bool code_is_function_start(const struct code_ctx *c, uint64_t addr);
/* Whether ADDR is the entry of a Go function in Go's own table (.gopclntab). */
bool code_is_go_entry(const struct code_ctx *c, uint64_t addr);
/* The last function start at or below ADDR (0 when none). */
uint64_t code_function_start(const struct code_ctx *c, uint64_t addr);
/* The first function start above ADDR, or the end of ADDR's range. */
uint64_t code_function_end(const struct code_ctx *c, uint64_t addr);
/* How many FDEs (sorted by start) and symbols (sorted by address) begin at or below
 * ADDR: the last such one is at index n - 1. */
size_t code_fdes_upto(const struct code_ctx *c, uint64_t addr);
size_t code_syms_upto(const struct code_ctx *c, uint64_t addr);
/* "name", "name+0x1c", or "sub_4011a0" when no symbol covers ADDR. */
void code_symbol_name(const struct code_ctx *c, uint64_t addr, char *buf, size_t len);
/* Address of the defined symbol NAME, or 0. */
uint64_t code_symbol_addr(const struct code_ctx *c, const char *name);

/* A word of the file's class at ADDR as it is after relocation (RELATIVE, RELR), or the
 * file's own bytes; false when ADDR is not file-backed. */
bool code_read_word(const struct code_ctx *c, uint64_t addr, uint64_t *value);

/* The findings sink every pass reports to: into the context's finding list, named after
 * the symbol at ADDR. */
/* A finding with the rule's severity from the catalogue. */
void code_finding(struct code_ctx *c, const char *rule, uint64_t addr, const char *via,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The same with the message as it is. */
void code_finding_text(struct code_ctx *c, const char *rule, uint64_t addr, const char *via,
		       const char *message);

void code_add_target(struct code_ctx *c, uint64_t addr, enum evidence via, uint64_t from);
void code_add_table(struct code_ctx *c, uint64_t start, uint64_t end);
/* Sorts and merges the recovered jump tables for code_in_table: code_sweep does it once
 * it has found them all. */
void code_index_tables(struct code_ctx *c);
bool code_in_table(const struct code_ctx *c, uint64_t addr);

/* The legacy vsyscall page: a CET kernel does not emulate it. */
#define VSYSCALL_PAGE 0xffffffffff600000ull
#define VSYSCALL_PAGE_END (VSYSCALL_PAGE + 0x1000)
/* What a vsyscall address calls: "gettimeofday", "time", "getcpu". */
const char *vsyscall_name(uint64_t addr);
/* Whether ADDR is one of the page's three entry points (0x000, 0x400, 0x800 into it). */
bool is_vsyscall_entry(uint64_t addr);

void addr_map_put(struct addr_map *map, uint64_t key, uint64_t value);
bool addr_map_get(const struct addr_map *map, uint64_t key, uint64_t *value);
void addr_map_free(struct addr_map *map);

#endif
