/* returns-twice: legacy code (setjmp_legacy.c, built without -fcf-protection) calls
 * setjmp; longjmp comes back to the instruction after that call with a tracked jmp, and
 * that instruction has no ENDBR. This file, built with CET, does the same and is fine. */
#include <setjmp.h>

int legacy_setjmp(int x);
static jmp_buf env;

__attribute__((noinline)) static void jump_back(int x)
{
	if (x > 0)
		longjmp(env, x);
}

__attribute__((noinline)) static int cet_setjmp(int x)
{
	int r = setjmp(env);

	if (r)
		return r;
	jump_back(x);
	return 0;
}

int main(int argc, char **argv)
{
	(void)argv;
	return cet_setjmp(argc) + legacy_setjmp(argc) != 2 * argc;
}
