/* A threaded workload: four threads each sum a table through a function pointer chosen at
 * run time, so every thread makes indirect calls (IBT) and returns (shadow stack) on its
 * own stack. Prints "threads ok" when all sums are right. */
#include <pthread.h>
#include <stdio.h>

typedef long (*step_fn)(long, long);

static long add(long a, long b) { return a + b; }
static long add_twice(long a, long b) { return a + 2 * b; }

struct job {
	step_fn step;
	long sum;
};

static void *worker(void *arg)
{
	struct job *job = arg;

	for (long i = 1; i <= 1000; i++)
		job->sum = job->step(job->sum, i);
	return NULL;
}

int main(void)
{
	struct job jobs[4];
	pthread_t threads[4];

	for (int i = 0; i < 4; i++) {
		jobs[i] = (struct job){ i % 2 ? add_twice : add, 0 };
		if (pthread_create(&threads[i], NULL, worker, &jobs[i]) != 0) {
			perror("pthread_create");
			return 1;
		}
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(threads[i], NULL);
		if (jobs[i].sum != (i % 2 ? 1001000 : 500500)) {
			printf("thread %d: sum %ld\n", i, jobs[i].sum);
			return 1;
		}
	}
	puts("threads ok");
	return 0;
}
