/* code-ref: code takes a function's address (lea f(%rip) / mov $f / push $f) and the
 * function is later called through it. hooked is stored to a global, passed is passed as
 * an argument. */
#include "noendbr.h"

static volatile int counter;
void (*volatile hook)(void);

static NOENDBR void hooked(void) { counter += 1; }
static NOENDBR void passed(void) { counter += 2; }

__attribute__((noinline)) void call_it(void (*f)(void)) { f(); }

int run_coderef(void)
{
	hook = PLAIN_FN(hooked);
	hook();
	call_it(PLAIN_FN(passed));
	return counter;
}

#ifndef NO_MAIN
int main(void) { return run_coderef() != 3; }
#endif
