/* plt (ibt-non-ibt-plt): a program calling libc lazily through a PLT without ENDBR. Built
 * without -z ibt: the unmarked CRT objects make ld choose the plain PLT. The -z now twin
 * binds everything at load time and has no such finding.
 * code-ref: a position-dependent program takes fputs' address as its PLT entry (mov $fputs,
 * the canonical address) and calls through it: the PLT entry has no ENDBR, either way.
 * (PIE loads it from the GOT: no PLT entry, no finding.) */
#include <stdio.h>

int main(void)
{
	int (*volatile put)(const char *, FILE *) = fputs;

	puts("lazy");
	return put("taken\n", stdout) < 0;
}
