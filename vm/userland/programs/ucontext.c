/* makecontext/swapcontext: two coroutines that pass control back and forth. A CET glibc
 * gives each context made by makecontext() a shadow stack of its own (arch_prctl
 * ARCH_X86_CET_ALLOC_SHSTK, 0x3004) when the shadow stack is on. Prints "ucontext ok". */
#include <stdio.h>
#include <ucontext.h>

static ucontext_t main_context, coroutine_context;
static int rounds;

static void coroutine(int step)
{
	for (int i = 0; i < 3; i++) {
		rounds += step;
		swapcontext(&coroutine_context, &main_context);
	}
}

int main(void)
{
	static char stack[64 * 1024];

	getcontext(&coroutine_context);
	coroutine_context.uc_stack.ss_sp = stack;
	coroutine_context.uc_stack.ss_size = sizeof stack;
	coroutine_context.uc_link = &main_context;
	makecontext(&coroutine_context, (void (*)(void))coroutine, 1, 2);
	for (int i = 0; i < 4; i++)
		swapcontext(&main_context, &coroutine_context);
	if (rounds != 6) {
		printf("rounds %d\n", rounds);
		return 1;
	}
	puts("ucontext ok");
	return 0;
}
