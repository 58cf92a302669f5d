/* Nothing but the C runtime: under IBT, only the CRT entries ld.so and libc reach. */
#include <stdio.h>

int main(void)
{
	puts("hello");
	return 0;
}
