/* i386 under qemu-i386: ENDBR32 is what a tracked branch must land on. */
#include <stdio.h>

int no_endbr32(int x);
int push_ret32(void);

int main(void)
{
	int (*volatile fp)(int) = no_endbr32;

	printf("%d %d\n", fp(1), push_ret32());
	return 0;
}
