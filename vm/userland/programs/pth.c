/* GNU Pth (Debian 12's libpth20, rebuilt by vm/userland/package-build): on Linux its
 * machine contexts are makecontext()/swapcontext() ("mcsc", chosen by its configure),
 * so every Pth thread and every pth_uctx gets its context from glibc's makecontext(),
 * which under a CET glibc asks the kernel for a shadow stack of its own
 * (arch_prctl ARCH_X86_CET_ALLOC_SHSTK, 0x3004) when the shadow stack is on, and each
 * switch is a swapcontext() that moves the shadow-stack pointer too.
 * Two user contexts pass a counter back and forth; then three Pth threads take turns
 * under a mutex and condition variable, and are joined. Prints "pth ok" or what went
 * wrong. */
#include <pth.h>
#include <stdio.h>

static pth_uctx_t main_uctx, worker_uctx;
static volatile long ticks;

static void worker(void *arg)
{
	long step = (long)arg;

	for (int i = 0; i < 50; i++) {
		ticks += step;
		pth_uctx_switch(worker_uctx, main_uctx);
	}
}

static pth_mutex_t lock = PTH_MUTEX_INIT;
static pth_cond_t turn_changed = PTH_COND_INIT;
static int turn, rounds;

static void *taker(void *arg)
{
	long me = (long)arg;

	for (int i = 0; i < 20; i++) {
		pth_mutex_acquire(&lock, FALSE, NULL);
		while (turn != me)
			pth_cond_await(&turn_changed, &lock, NULL);
		rounds++;
		turn = (turn + 1) % 3;
		pth_cond_notify(&turn_changed, TRUE);
		pth_mutex_release(&lock);
	}
	return (void *)(me + 100);
}

int main(void)
{
	if (!pth_init()) {
		puts("pth FAIL: pth_init");
		return 1;
	}
	if (!pth_uctx_create(&main_uctx) || !pth_uctx_create(&worker_uctx) ||
	    !pth_uctx_make(worker_uctx, NULL, 64 * 1024, NULL, worker, (void *)3L, main_uctx)) {
		puts("pth FAIL: pth_uctx_make");
		return 1;
	}
	for (int i = 0; i < 50; i++)
		pth_uctx_switch(main_uctx, worker_uctx);
	pth_uctx_destroy(worker_uctx);
	pth_uctx_destroy(main_uctx);

	pth_t threads[3];
	for (long i = 0; i < 3; i++) {
		threads[i] = pth_spawn(PTH_ATTR_DEFAULT, taker, (void *)i);
		if (threads[i] == NULL) {
			puts("pth FAIL: pth_spawn");
			return 1;
		}
	}
	for (long i = 0; i < 3; i++) {
		void *value = NULL;
		if (!pth_join(threads[i], &value) || value != (void *)(i + 100)) {
			printf("pth FAIL: pth_join %ld\n", i);
			return 1;
		}
	}
	if (ticks != 150 || rounds != 60) {
		printf("pth FAIL: ticks %ld rounds %d\n", ticks, rounds);
		return 1;
	}
	pth_kill();
	puts("pth ok");
	return 0;
}
