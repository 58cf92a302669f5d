/* setjmp in main, longjmp from two frames down. The target after setjmp has ENDBR
 * (gcc -fcf-protection puts one after calls to returns-twice functions): IBT is clean.
 * The frames skipped stay on the shadow stack, so main's own return goes to a deeper
 * entry: shstk-unwind, as glibc 2.36's longjmp does not use INCSSP when RDSSP reads 0. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;

__attribute__((noinline)) static void inner(int n)
{
	if (n > 0)
		longjmp(env, n);
}

__attribute__((noinline)) static void outer(int n)
{
	inner(n);
	puts("not reached");
}

int main(void)
{
	volatile int rounds = 0;

	if (setjmp(env) < 3)
		outer(++rounds);
	printf("rounds %d\n", rounds);
	return 0;
}
