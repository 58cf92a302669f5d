/* ENDBR at every indirect-branch target: each target address is looked at once, under
 * its strongest evidence. */
#include "config.h"

#include "targets.h"

#include "disasm.h"

#include <stdlib.h>
#include <string.h>

/* Evidence, strongest first: what the report names as the reason for a target. */
static const char *const evidence_order[] = {
	"entry", "init", "fini", "preinit-array", "init-array", "fini-array", "export",
	"irelative", "plt", "reloc", "landing-pad", "returns-twice", "code-ref", "data-pointer",
};

static int rank(const char *via)
{
	size_t i;

	for (i = 0; i < sizeof(evidence_order) / sizeof(evidence_order[0]); i++)
		if (strcmp(via, evidence_order[i]) == 0)
			return (int)i;
	return (int)i;
}

static int target_compare(const void *a, const void *b)
{
	const struct target *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->rank - y->rank;
}

static const char *evidence_text(const char *via)
{
	static const struct {
		const char *via, *text;
	} texts[] = {
		{ "entry", "the entry point, which ld.so reaches by an indirect jump" },
		{ "init", "DT_INIT, called by ld.so through a pointer" },
		{ "fini", "DT_FINI, called by ld.so through a pointer" },
		{ "preinit-array", "a DT_PREINIT_ARRAY entry, called through a pointer" },
		{ "init-array", "an init_array entry, called through a pointer" },
		{ "fini-array", "a fini_array entry, called through a pointer" },
		{ "export", "an exported function, reached through PLTs and pointers" },
		{ "irelative", "an IFUNC resolver, called by the loader through a pointer" },
		{ "plt", "a PLT entry, reached by the tracked jmp *GOT or as a canonical address" },
		{ "reloc", "a code address a dynamic relocation stores in memory" },
		{ "landing-pad", "a C++ landing pad, entered by the unwinder's tracked jmp" },
		{ "returns-twice", "the return point of a returns-twice call, reached again by longjmp" },
		{ "code-ref", "a function whose address the code takes" },
		{ "data-pointer", "a code address stored in data" },
	};
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (strcmp(via, texts[i].via) == 0)
			return texts[i].text;
	return via;
}

void check_endbr(struct code_ctx *c)
{
	size_t i;

	for (i = 0; i < c->ntargets; i++)
		c->targets[i].rank = rank(c->targets[i].via);
	if (c->ntargets)
		qsort(c->targets, c->ntargets, sizeof(*c->targets), target_compare);
	for (i = 0; i < c->ntargets; i++) {
		const struct target *t = &c->targets[i];
		const unsigned char *p;
		char from[48] = "";
		size_t avail;

		if (i && c->targets[i - 1].addr == t->addr)
			continue;
		p = code_bytes(c, t->addr, &avail);
		if (!p || is_endbr(p, avail, c->is64))
			continue;
		if (t->from)
			snprintf(from, sizeof(from), " (evidence at 0x%llx)",
				 (unsigned long long)t->from);
		code_finding(c, "ibt-missing-endbr", t->addr, t->via,
			     "%s%s, but it does not start with %s", evidence_text(t->via), from,
			     c->is64 ? "ENDBR64" : "ENDBR32");
	}
}
