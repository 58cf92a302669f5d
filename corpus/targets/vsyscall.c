/* vsyscall-call and vsyscall-data: code that calls the legacy vsyscall page's time(), once
 * with the address in a register and once through a stack slot, and a pointer to its
 * gettimeofday() kept in data. A CET kernel emulates neither. What calls nothing is no
 * finding: the page compared (qemu and valgrind check their guests' addresses so), passed
 * as an argument, and a word of data in the page that is no entry point. */
#include <stddef.h>

typedef long (*vtime_fn)(long *);
typedef int (*vgtod_fn)(void *, void *);

vgtod_fn volatile vgettimeofday = (vgtod_fn)0xffffffffff600000UL;
unsigned long volatile vsyscall_page_last = 0xffffffffff600fffUL;
unsigned long volatile noted;

__attribute__((noinline)) void note_address(unsigned long a, unsigned long b)
{
	noted = a + b;
}

__attribute__((noinline)) int in_vsyscall_page(unsigned long a)
{
	if ((a & ~0xfffUL) == 0xffffffffff600000UL || a == 0xffffffffff600800UL) {
		note_address(a, 0xffffffffff600400UL);
		return 1;
	}
	return 0;
}

__attribute__((noinline)) long vtime_through_slot(void)
{
	vtime_fn volatile slot = (vtime_fn)0xffffffffff600400UL;

	return slot(NULL);
}

int main(int argc, char **argv)
{
	if (in_vsyscall_page((unsigned long)argv))
		return 2;
	if (argc > 5) /* never, unless asked: the host kernel may not emulate it either */
		return (int)((vtime_fn)0xffffffffff600400UL)(NULL) + vgettimeofday(NULL, NULL) +
		       (int)vtime_through_slot();
	return 0;
}
