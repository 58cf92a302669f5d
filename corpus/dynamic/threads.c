/* Four threads calling through pointers and recursing; thread 2 also calls an assembly
 * function without ENDBR through a pointer: one ibt violation, in worker. Each thread has
 * its own shadow stack: no shstk violation. */
#include <pthread.h>
#include <stdio.h>

int no_endbr_func(int x);

__attribute__((noinline)) static int depth(int n)
{
	return n == 0 ? 0 : 1 + depth(n - 1);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	int (*volatile fp)(int) = depth;
	long sum = 0;

	for (int i = 0; i < 2000; i++)
		sum += fp(i % 50);
	if (id == 2) {
		fp = no_endbr_func;
		sum += fp(1);
	}
	return (void *)sum;
}

int main(void)
{
	pthread_t t[4];
	long total = 0;

	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 4; i++) {
		void *r;
		pthread_join(t[i], &r);
		total += (long)r;
	}
	printf("%ld\n", total);
	return 0;
}
