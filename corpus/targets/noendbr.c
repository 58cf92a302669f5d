/*
 * Compiled with -fcf-protection=none: no ENDBR anywhere, so the return
 * from setjmp and the cases of the switch's tracked jump table lack it.
 */
#include <setjmp.h>

static jmp_buf jb;

#define HIDDEN __attribute__((visibility("hidden")))

volatile int sink;

HIDDEN int t_after_setjmp(void)
{
	if (setjmp(jb))
		return 1;
	return 0;
}

/* Distinct code in each case, so the compiler needs a jump table */
HIDDEN int t_switch(int x)
{
	switch (x) {
	case 0: sink = 11; break;
	case 1: sink += 23; break;
	case 2: sink -= 37; break;
	case 3: sink *= 41; break;
	case 4: sink ^= 53; break;
	case 5: sink |= 67; break;
	case 6: sink &= 79; break;
	case 7: sink <<= 3; break;
	default: return -1;
	}
	return sink;
}
