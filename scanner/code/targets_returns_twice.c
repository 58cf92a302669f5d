/* Returns-twice functions (setjmp and its kin, vfork, getcontext: the list is data in
 * rules/returns-twice.list): the second return comes through longjmp's tracked jmp, so
 * the instruction after each call must be ENDBR. This resolves where such calls land:
 * the function itself, its PLT entries, and the GOT slots of `call *slot`. */
#include "config.h"

#include "code/targets.h"

#include "rules.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static bool listed(const struct code_ctx *c, const char *name)
{
	return rules_list_contains(c->rules, "returns-twice", name);
}

static void add(struct code_ctx *c, uint64_t addr)
{
	ARRAY_RESERVE(c->returns_twice, c->returns_twice_cap, c->nreturns_twice + 1);
	c->returns_twice[c->nreturns_twice++] = addr;
}

void targets_returns_twice_prepare(struct code_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nsyms; i++)
		if (listed(c, c->syms[i].name))
			add(c, c->syms[i].addr);
	for (i = 0; i < c->slot_symbol.cap; i++)
		if (c->slot_symbol.keys[i] && listed(c, c->slot_names[c->slot_symbol.values[i]]))
			add(c, c->slot_symbol.keys[i]);
	for (i = 0; i < c->plt_symbol.cap; i++)
		if (c->plt_symbol.keys[i] && listed(c, c->slot_names[c->plt_symbol.values[i]]))
			add(c, c->plt_symbol.keys[i]);
}

bool targets_is_returns_twice(const struct code_ctx *c, uint64_t addr)
{
	size_t i;

	for (i = 0; i < c->nreturns_twice; i++)
		if (c->returns_twice[i] == addr)
			return true;
	return false;
}
