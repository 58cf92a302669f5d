/* ENDBR at every indirect-branch target: each target address is looked at once, under
 * its strongest evidence. */
#include "config.h"

#include "code/check_endbr.h"

#include "code/disasm.h"
#include "util/sort_address.h"
#include "util/text_build.h"

#include <stdlib.h>
#include <string.h>

static const char *evidence_text(enum evidence via)
{
	static const char *const texts[] = {
		[VIA_ENTRY] = "the entry point, which ld.so reaches by an indirect jump",
		[VIA_INIT] = "DT_INIT, called by ld.so through a pointer",
		[VIA_FINI] = "DT_FINI, called by ld.so through a pointer",
		[VIA_PREINIT_ARRAY] = "a DT_PREINIT_ARRAY entry, called through a pointer",
		[VIA_INIT_ARRAY] = "an init_array entry, called through a pointer",
		[VIA_FINI_ARRAY] = "a fini_array entry, called through a pointer",
		[VIA_EXPORT] = "an exported function, reached through PLTs and pointers",
		[VIA_IRELATIVE] = "an IFUNC resolver, called by the loader through a pointer",
		[VIA_PLT] =
			"a PLT entry, reached by the tracked jmp *GOT or as a canonical address",
		[VIA_RELOC] = "a code address a dynamic relocation stores in memory",
		[VIA_LANDING_PAD] = "a C++ landing pad, entered by the unwinder's tracked jmp",
		[VIA_RETURNS_TWICE] =
			"the return point of a returns-twice call, reached again by longjmp",
		[VIA_CODE_REF] = "a function whose address the code takes",
		[VIA_DATA_POINTER] = "a code address stored in data",
	};

	return texts[via];
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

/* Of the targets at T[0]'s address (the first *RUN of the N from T), the one with the
 * strongest evidence; the first found among equals. */
static const struct target *strongest(const struct target *t, size_t n, size_t *run)
{
	const struct target *best = t;
	size_t i;

	for (i = 1; i < n && t[i].addr == t->addr; i++)
		if (t[i].via < best->via)
			best = &t[i];
	*run = i;
	return best;
}

void check_endbr(struct code_ctx *c)
{
	size_t i, run;

	sort_by_address(c->targets, c->ntargets, sizeof(*c->targets));
	for (i = 0; i < c->ntargets; i += run) {
		const struct target *t = strongest(c->targets + i, c->ntargets - i, &run);
		const unsigned char *p;
		struct text_build msg;
		char message[160];
		size_t avail;

		p = code_bytes(c, t->addr, &avail);
		if (!p || is_endbr(p, avail, c->is64) || is_signal_restorer(p, avail, c->is64))
			continue;
		text_start(&msg, message, sizeof(message));
		text_str(&msg, evidence_text(t->via));
		if (t->from) {
			text_str(&msg, " (evidence at 0x");
			text_hex(&msg, t->from);
			text_str(&msg, ")");
		}
		text_str(&msg, ", but it does not start with ");
		text_str(&msg, c->is64 ? "ENDBR64" : "ENDBR32");
		code_finding_text(c, "ibt-missing-endbr", t->addr, evidence_name(t->via), message);
	}
}
