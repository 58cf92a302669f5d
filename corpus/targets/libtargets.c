/*
 * A shared library with one function per source of targets a library has,
 * each without ENDBR; the rest is built with -fcf-protection.
 */
#define NO_ENDBR __attribute__((nocf_check, noinline, used))

/* exported: other objects call it through their PLT/GOT */
NO_ENDBR int lib_export(int x) { return x + 5; }

/* a pointer to a local function in data: a RELATIVE relocation */
NO_ENDBR static int lib_data(int x) { return x * 7; }
int (*lib_ptr)(int) = (int (*)(int))lib_data;

/* a constructor */
NO_ENDBR static void lib_ctor(void) { }
__attribute__((section(".init_array"), used)) static void (*ctor_p)(void) =
	(void (*)(void))lib_ctor;
