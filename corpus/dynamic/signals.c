/* Signal handlers: synchronous (raise) and timer-driven (SIGALRM from setitimer, arriving
 * anywhere, including between a branch and its target). Handlers return through the
 * restorer and rt_sigreturn; no violation. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t usr1, alarms;

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

__attribute__((noinline)) static unsigned work(unsigned x, int depth)
{
	return depth == 0 ? x * 2654435761u : work(x + 1, depth - 1) ^ x;
}

int main(void)
{
	struct sigaction sa;
	unsigned (*volatile fp)(unsigned, int) = work;
	unsigned acc = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	for (int i = 0; i < 20; i++) {
		raise(SIGUSR1);
		acc += fp((unsigned)i, 8);
	}
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	while (alarms < 20)
		for (int i = 0; i < 1000; i++)
			acc += fp((unsigned)i, 16);
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	printf("usr1 %d alarms>=20 %d\n", (int)usr1, alarms >= 20);
	return acc == 1; /* keep acc alive */
}
