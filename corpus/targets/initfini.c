/* DT_INIT and DT_FINI: linked with -Wl,-init=custom_init,-fini=custom_fini, so the loader
 * calls these (the CRT's _init and _fini are then nobody's target). */
#include "noendbr.h"

static volatile int counter;

NOENDBR void custom_init(void) { counter += 1; }
NOENDBR void custom_fini(void) { counter += 2; }

#ifndef NO_MAIN
int main(void) { return counter != 1; }
#endif
