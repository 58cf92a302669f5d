/* shstk_main: push-ret, then (with an argument) a corrupted return address. */
#include <stdio.h>

int push_ret_jump(void);
void corrupt_return(void);

int main(int argc, char **argv)
{
	(void)argv;
	printf("%d\n", push_ret_jump());
	fflush(stdout);
	if (argc > 1)
		corrupt_return();
	return 0;
}
