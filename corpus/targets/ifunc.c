/* irelative: an IFUNC whose resolver has no ENDBR; the loader (or a static program's
 * startup) calls the resolver through an IRELATIVE relocation. In a shared object the
 * IFUNC is hidden, so that it is not also an export. */
#include "noendbr.h"

static int twice_impl(int x) { return 2 * x; }
static NOENDBR void *resolve_twice(void) { return (void *)twice_impl; }
__attribute__((visibility("hidden"))) int twice(int) __attribute__((ifunc("resolve_twice")));

int run_twice(int x) { return twice(x); }

#ifndef NO_MAIN
int main(int argc, char **argv) { (void)argv; return run_twice(argc) != 2 * argc; }
#endif
