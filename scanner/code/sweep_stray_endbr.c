/* Stray ENDBR: the bytes of an ENDBR inside another instruction. */
#include "config.h"

#include "code/sweep.h"

#include <string.h>

/* ENDBR bytes that are not an instruction of their own: a landing pad IBT cannot stop.
 * Only the ENDBR of the file's class lands an indirect branch: in 64-bit mode ENDBR32 is a
 * NOP the CPU does not accept as a landing pad, and ENDBR64 in 32-bit mode likewise. */
void sweep_check_stray_endbr(struct sweep *s, const unsigned char *p, size_t from, size_t n)
{
	const unsigned char *f3;
	size_t i;

	for (i = from; i + 4 <= n; i++) {
		f3 = memchr(p + i, 0xf3, n - 3 - i); /* every ENDBR starts so */
		if (!f3)
			break;
		i = (size_t)(f3 - p);
		if (!is_endbr(p + i, n - i, s->c->is64))
			continue;
		if (!sweep_instruction_start(s, s->func_start + i))
			code_finding(s->c, "endbr-stray", s->func_start + i, "code-ref",
				     "ENDBR bytes inside another instruction: an indirect branch "
				     "may land there and IBT will not stop it");
	}
}
