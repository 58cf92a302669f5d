/* A program that prints one line: the corpus checks it still runs after marking. */
#include <stdio.h>

int main(void)
{
	puts("hello from the elfcet corpus");
	return 0;
}
