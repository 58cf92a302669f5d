/* ENDBR at every indirect-branch target the target passes found. */
#ifndef ELFCET_CHECK_ENDBR_H
#define ELFCET_CHECK_ENDBR_H

#include "code/code_context.h"

void check_endbr(struct code_ctx *c);

#endif
