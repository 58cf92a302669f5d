/* The code sweep: decodes every function holding something worth a look and finds
 * code references, returns-twice call sites, tracked jump tables, vsyscall calls,
 * shadow-stack hazards, CET instructions and stray ENDBR bytes. */
#ifndef ELFCET_CODE_SWEEP_H
#define ELFCET_CODE_SWEEP_H

#include "code/code_context.h"

void code_sweep(struct code_ctx *c);

#endif
