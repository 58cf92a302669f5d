/* The code audit: indirect-branch targets and whether they have ENDBR, tracked jump
 * tables, vsyscall use, shadow-stack hazards, stray ENDBR bytes. */
#ifndef ELFCET_CODE_AUDIT_H
#define ELFCET_CODE_AUDIT_H

#include "elf/elf_model.h"
#include "problem.h"

struct rule_set;

void code_audit(const struct elf_model *m, const struct rule_set *rules, struct finding_list *out);

#endif
