/* An indirect call to an assembly function that has no ENDBR: an ibt violation at main. */
#include <stdio.h>

int no_endbr_func(int x);

static int with_endbr(int x)
{
	return x * 2;
}

int main(void)
{
	int (*volatile fp)(int) = with_endbr;
	int r = fp(20);

	fp = no_endbr_func;
	r += fp(1);
	printf("%d\n", r);
	return 0;
}
