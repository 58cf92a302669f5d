/* export: a function other objects reach through their PLT or a pointer. Built as a
 * shared object (every default-visibility function exported) and as an executable that
 * exports just api_noendbr (--export-dynamic-symbol). */
#include "noendbr.h"

NOENDBR int api_noendbr(int x) { return x + 1; }
int api_ok(int x) { return x * 3; }
__attribute__((visibility("hidden"))) NOENDBR int hidden_noendbr(int x) { return x - 1; }

#ifndef NO_MAIN
int main(int argc, char **argv)
{
	(void)argv;
	return api_noendbr(argc) + api_ok(argc) + hidden_noendbr(argc) == 0;
}
#endif
