/* A table of function pointers in data: in a position-independent file each entry has a
 * RELATIVE relocation (reloc); in a position-dependent one it is a bare address in data
 * (data-pointer). The code never names the functions, only the table. */
#include "noendbr.h"

static NOENDBR int op_inc(int x) { return x + 1; }
static NOENDBR int op_dec(int x) { return x - 1; }
static int (*const ops[])(int) = { PLAIN_INT_FN(op_inc), PLAIN_INT_FN(op_dec) };
volatile int which;

int run_op(int x) { return ops[which & 1](x); }

#ifndef NO_MAIN
int main(int argc, char **argv) { (void)argv; return run_op(argc) == 0; }
#endif
