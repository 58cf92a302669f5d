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

/* Whether the code at P is a signal restorer: the rt_sigreturn (or, on i386, sigreturn)
 * system call the kernel makes a signal handler return into. Its address is taken, for
 * sa_restorer, but it is reached by the handler's ret, never by an indirect branch, so
 * IBT asks no ENDBR of it. Recognised by its code, so stripped files are no different. */
static bool is_signal_restorer(const unsigned char *p, size_t n, bool is64)
{
	/* mov $15,%rax; syscall  /  mov $15,%eax; syscall */
	static const unsigned char rt64[] = { 0x48, 0xc7, 0xc0, 0x0f, 0, 0, 0, 0x0f, 0x05 };
	static const unsigned char rt64_short[] = { 0xb8, 0x0f, 0, 0, 0, 0x0f, 0x05 };
	/* mov $173,%eax; int $0x80  /  pop %eax; mov $119,%eax; int $0x80 */
	static const unsigned char rt32[] = { 0xb8, 0xad, 0, 0, 0, 0xcd, 0x80 };
	static const unsigned char old32[] = { 0x58, 0xb8, 0x77, 0, 0, 0, 0xcd, 0x80 };

#define STARTS_WITH(code) (n >= sizeof(code) && memcmp(p, code, sizeof(code)) == 0)
	if (is64)
		return STARTS_WITH(rt64) || STARTS_WITH(rt64_short);
	return STARTS_WITH(rt32) || STARTS_WITH(old32);
#undef STARTS_WITH
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
		if (!p || is_endbr(p, avail, c->is64) || is_signal_restorer(p, avail, c->is64))
			continue;
		if (t->from)
			snprintf(from, sizeof(from), " (evidence at 0x%llx)",
				 (unsigned long long)t->from);
		code_finding(c, "ibt-missing-endbr", t->addr, t->via,
			     "%s%s, but it does not start with %s", evidence_text(t->via), from,
			     c->is64 ? "ENDBR64" : "ENDBR32");
	}
}
