/* Built with -fcf-protection=none: no ENDBR after the setjmp call. */
#include <setjmp.h>

static jmp_buf legacy_env;

__attribute__((noinline)) static void legacy_jump_back(int x)
{
	if (x > 0)
		longjmp(legacy_env, x);
}

int legacy_setjmp(int x)
{
	int r = setjmp(legacy_env);

	if (r)
		return r;
	legacy_jump_back(x);
	return 0;
}
