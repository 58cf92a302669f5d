/* plt (ibt-non-ibt-plt): a program calling libc lazily through a PLT without ENDBR. Built
 * without -z ibt: the unmarked CRT objects make ld choose the plain PLT. The -z now twin
 * binds everything at load time and has no such finding. */
#include <stdio.h>

int main(void)
{
	puts("lazy");
	return 0;
}
