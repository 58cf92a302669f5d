/* setjmp/longjmp and signals: a SIGUSR1 handler (entered by the kernel, returns through
 * the signal frame), siglongjmp out of a SIGALRM handler (unwinds the shadow stack past
 * the handler's frames), a longjmp across nested calls, and qsort calling back into the
 * program. Prints "sigjmp ok". */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static sigjmp_buf alarm_jump;
static jmp_buf deep_jump;
static volatile sig_atomic_t usr1_seen;

static void on_usr1(int sig) { usr1_seen = sig; }
static void on_alarm(int sig) { siglongjmp(alarm_jump, sig); }

static int compare(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static volatile int levels;

/* Dives DEPTH calls deep, then longjmps out of all of them at once. gcc 12 calls a
 * recursion whose only way out is a noreturn call infinite. */
#pragma GCC diagnostic ignored "-Winfinite-recursion"
static void __attribute__((noipa)) dive(int depth)
{
	if (depth <= 0)
		longjmp(deep_jump, 7);
	levels = levels + 1;
	dive(depth - 1);
	levels = levels - 1; /* after the call: no tail call, each level keeps its return */
}

int main(void)
{
	int table[] = { 5, 3, 9, 1, 7 };

	signal(SIGUSR1, on_usr1);
	raise(SIGUSR1);
	if (usr1_seen != SIGUSR1)
		return 1;

	signal(SIGALRM, on_alarm);
	if (sigsetjmp(alarm_jump, 1) == 0) {
		alarm(1);
		for (;;)
			pause();
	}

	if (setjmp(deep_jump) == 0)
		dive(50);
	if (levels != 50)
		return 1;

	qsort(table, 5, sizeof table[0], compare);
	if (table[0] != 1 || table[4] != 9)
		return 1;
	puts("sigjmp ok");
	return 0;
}
