/* Discovering indirect-branch targets: one module per source a loader or a program uses.
 * Each adds to the context's target list with the evidence kind ("via") and where the
 * evidence is; check_endbr() then looks at every target once. */
#ifndef ELFCET_TARGETS_H
#define ELFCET_TARGETS_H

#include "code/code_context.h"

/* Dynamic relocations: RELATIVE/RELR (also remembered as relocated words), _64/_32 and
 * GLOB_DAT of local code, JUMP_SLOT lazy PLT slots unless BIND_NOW, IRELATIVE resolvers.
 * Also names every GOT slot after its symbol. Runs first: the others read relocated words. */
void targets_relocs(struct code_ctx *c);
/* The entry point of a dynamically linked executable; DT_INIT, DT_FINI and the arrays. */
void targets_entry(struct code_ctx *c);
/* Exported FUNC and IFUNC symbols of .dynsym. */
void targets_exports(struct code_ctx *c);
/* .plt.sec entries; names each PLT entry after its GOT slot; a non-IBT lazy PLT. */
void targets_plt(struct code_ctx *c);
/* Landing pads of .gcc_except_table, through each FDE's LSDA. */
void targets_landing_pads(struct code_ctx *c);
/* Where calls to returns-twice functions (rules/returns-twice.list) can land. */
void targets_returns_twice_prepare(struct code_ctx *c);
bool targets_is_returns_twice(const struct code_ctx *c, uint64_t addr);
/* Code addresses stored in data without a relocation (ET_EXEC only), and vsyscall
 * addresses stored in data. Runs after the code sweep, which finds the jump tables. */
void targets_data_pointers(struct code_ctx *c);

#endif
