/* init-array, fini-array, preinit-array: one function without ENDBR in each array, which
 * the loader (or libc, in a static program) calls through a pointer. A shared object
 * cannot have a preinit array. */
#include "noendbr.h"

static volatile int counter;

static NOENDBR void array_init(void) { counter += 1; }
static NOENDBR void array_fini(void) { counter += 2; }
__attribute__((section(".init_array"), used)) static void (*const init_entry)(void) =
	PLAIN_FN(array_init);
__attribute__((section(".fini_array"), used)) static void (*const fini_entry)(void) =
	PLAIN_FN(array_fini);

#ifndef NO_PREINIT
static NOENDBR void array_preinit(void) { counter += 4; }
__attribute__((section(".preinit_array"), used)) static void (*const preinit_entry)(void) =
	PLAIN_FN(array_preinit);
#endif

#ifndef NO_MAIN
int main(void) { return counter == 0; }
#endif
