#include <stdio.h>

int dispatch(int n);
int dispatch_notrack(int n);

int main(int argc, char **argv)
{
	(void)argv;
	int sum = 0;

	for (int i = 0; i < 4; i++)
		sum += dispatch_notrack(i & 1);
	if (argc > 1) /* only when asked: the tracked table */
		for (int i = 0; i < 4; i++)
			sum += dispatch(i & 1);
	printf("%d\n", sum);
	return 0;
}
