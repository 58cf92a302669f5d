/* The system-mode cases, one per run (argv[1]); no libc, so that the window holds nothing
 * but this code and every address is the link-time one (static, non-PIE).
 *   fnptr     an indirect call to an assembly function without ENDBR: one ibt violation
 *   loop      400000 tracked indirect calls and returns under the timer interrupt: none
 *   pagefault the first call into a page never touched, through a pointer: none
 *   pushret   push; ret: one shstk violation
 *   signal    a SIGUSR1 handler entered by the kernel, returning through its restorer: none */
#include <stddef.h>

int no_endbr_func(int x);
int push_ret_jump(void);

static long sys3(long n, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

static long sys4(long n, long a, long b, long c, long d)
{
	long ret;
	register long r10 __asm__("r10") = d;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

__attribute__((noinline)) static int twice(int x)
{
	return 2 * x;
}

/* Alone in a 64 KiB window of its own, beyond the kernel's fault-around of the pages
 * used before it: the call through the pointer page-faults on its target. */
__attribute__((noinline, aligned(65536), section(".text.far"))) int far_function(int x)
{
	return x + 3;
}

static volatile int usr1_seen;

static void on_usr1(int sig)
{
	usr1_seen = sig;
}

void restore_rt(void); /* sys_start.S: mov $15,%rax; syscall */

struct kernel_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask;
};

static int streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

int cases_main(int argc, char **argv)
{
	int (*volatile fp)(int) = twice;
	int r = 0;

	if (argc < 2)
		return 2;
	if (streq(argv[1], "fnptr")) {
		fp = no_endbr_func;
		r = fp(1) == 2 ? 0 : 1;
	} else if (streq(argv[1], "loop")) {
		for (int i = 0; i < 400000; i++)
			r += fp(i) & 1;
	} else if (streq(argv[1], "pagefault")) {
		fp = far_function;
		r = fp(1) == 4 ? 0 : 1;
	} else if (streq(argv[1], "pushret")) {
		r = push_ret_jump() == 7 ? 0 : 1;
	} else if (streq(argv[1], "signal")) {
		struct kernel_sigaction sa = { on_usr1, 0x04000000 /* SA_RESTORER */, restore_rt, 0 };
		sys4(13, 10 /* SIGUSR1 */, (long)&sa, 0, 8);     /* rt_sigaction */
		sys3(62, sys3(39, 0, 0, 0), 10, 0);              /* kill(getpid(), SIGUSR1) */
		r = usr1_seen == 10 ? 0 : 1;
	} else {
		r = 2;
	}
	return r;
}
