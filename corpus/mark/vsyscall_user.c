/* A program that calls the vsyscall page's time(): a CET kernel does not emulate it, so
 * neither IBT nor SHSTK may be marked. */
#include <stdio.h>
#include <time.h>

typedef time_t (*vtime_fn)(time_t *);

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) { /* only when asked: the host kernel may not emulate it either */
		vtime_fn vtime = (vtime_fn)0xffffffffff600400UL;

		printf("%ld\n", (long)vtime(NULL));
	}
	puts("vsyscall user");
	return 0;
}
