/* Returns-twice functions (setjmp and its kin, vfork, getcontext: the list is data in
 * rules/returns-twice.list): the second return comes through longjmp's tracked jmp, so
 * the instruction after each call must be ENDBR. This resolves where such calls land:
 * the function itself, its PLT entries, and the GOT slots of `call *slot`. */
#include "config.h"

#include "targets.h"

#include "rules.h"

#include <stdlib.h>
#include <string.h>

struct name_set {
	char *const *names;
	size_t count;
};

/* Called for every symbol of the file: the first letter rules out most at once. */
static bool listed(const struct name_set *set, const char *name)
{
	size_t i;

	for (i = 0; i < set->count; i++)
		if (set->names[i][0] == name[0] && strcmp(set->names[i], name) == 0)
			return true;
	return false;
}

static void add(struct code_ctx *c, uint64_t addr)
{
	uint64_t *n = realloc(c->returns_twice, (c->nreturns_twice + 1) * sizeof(*n));

	if (!n)
		abort();
	c->returns_twice = n;
	c->returns_twice[c->nreturns_twice++] = addr;
}

void targets_returns_twice_prepare(struct code_ctx *c)
{
	struct name_set set;
	size_t i;

	set.names = rules_list(c->rules, "returns-twice", &set.count);
	for (i = 0; i < c->nsyms; i++)
		if (listed(&set, c->syms[i].name))
			add(c, c->syms[i].addr);
	for (i = 0; i < c->slot_symbol.cap; i++)
		if (c->slot_symbol.keys[i] && listed(&set, c->slot_names[c->slot_symbol.values[i]]))
			add(c, c->slot_symbol.keys[i]);
	for (i = 0; i < c->plt_symbol.cap; i++)
		if (c->plt_symbol.keys[i] && listed(&set, c->slot_names[c->plt_symbol.values[i]]))
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
