/*
 * One function per source of indirect-branch targets, each built without
 * ENDBR (nocf_check) and reached through that source alone; everything
 * else is built with -fcf-protection and has ENDBR.
 */
#include <stdio.h>
#include <stdlib.h>

#define NO_ENDBR __attribute__((nocf_check, noinline, used))

/* init-array, fini-array: called by ld.so through the arrays */
NO_ENDBR static void t_init_array(void) { }
NO_ENDBR static void t_fini_array(void) { }
__attribute__((section(".init_array"), used)) static void (*init_p)(void) = (void (*)(void))t_init_array;
__attribute__((section(".fini_array"), used)) static void (*fini_p)(void) = (void (*)(void))t_fini_array;

/* data: a function pointer in initialised data (reloc in PIE, plain word otherwise) */
NO_ENDBR static int t_data(int x) { return x + 1; }
int (*volatile data_p)(int) = (int (*)(int))t_data;

/* code reference: the address is taken in code (LEA / mov $imm) */
NO_ENDBR static int t_code_ref(int x) { return x + 2; }

/* preinit-array: executables only */
NO_ENDBR static void t_preinit_array(void) { }
__attribute__((section(".preinit_array"), used)) static void (*preinit_p)(void) =
	(void (*)(void))t_preinit_array;

/* Built without any ENDBR (noendbr.c): a setjmp call, a switch table */
int t_after_setjmp(void);
int t_switch(int x);

/*
 * IFUNC: the resolver is called by ld.so through a pointer.  clang 14 calls
 * an IFUNC directly in i386 PIE, which ld refuses: -DNO_IFUNC there.
 */
#ifndef NO_IFUNC
static int impl(void) { return 3; }
NO_ENDBR static int (*t_resolver(void))(void) { return impl; }
__attribute__((visibility("hidden"))) int ifunc_fn(void) __attribute__((ifunc("t_resolver")));
#else
static int ifunc_fn(void) { return 3; }
#endif

/* exported: reached through .dynsym by another object (built with -rdynamic) */
NO_ENDBR int t_export(int x) { return x * 2; }

int main(int argc, char **argv)
{
	int (*volatile f)(int) = (int (*)(int))t_code_ref;

	(void)argv;
	printf("%d %d %d %d %d %d\n", data_p(argc), f(argc), t_after_setjmp(),
	       ifunc_fn(), t_export(argc), t_switch(argc));
	return 0;
}
