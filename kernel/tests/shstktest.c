// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest tests of the shadow-stack half of the elfcet CET series.  Runs
 * as /tests/shstktest after cettest, with the same JSON lines on stdout:
 *   {"test":NAME,"result":"pass"|"fail"|"skip","detail":TEXT}
 *
 * The program is linked with -z shstk, so on a CPU with shadow stacks the
 * kernel starts it with one and the hw.* checks run (modelled on what
 * upstream's selftests/x86/test_shadow_stack.c covers); elsewhere they
 * skip with the reason.  Everything else checks the ABI the kernel offers
 * on any CPU: the errors of map_shadow_stack(), the new arch_prctl and
 * ptrace calls, the boot line, and that fork, threads, copy-on-write and
 * mprotect() of ordinary memory behave as before under the new page-table
 * bookkeeping.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest_check.h"

#define ARCH_X86_CET_STATUS	0x3001
#define ARCH_X86_CET_DISABLE	0x3002
#define ARCH_X86_CET_LOCK	0x3003
#define ARCH_X86_CET_ALLOC_SHSTK	0x3004
#define ARCH_X86_CET_WRSS	0x3010
#define ARCH_X86_CET_UNLOCK	0x3011
#define PTRACE_ARCH_PRCTL_REQ	30
#define NT_X86_CET		0x203
#define NT_X86_SHSTK		0x204
#define NR_map_shadow_stack	453
#define SHADOW_STACK_SET_TOKEN	1UL
#define FEATURE_SHSTK		2UL
#define SEGV_CPERR_CODE		10
/* TASK_SIZE_MAX with 4-level paging (these kernels have no X86_5LEVEL) */
#define USER_TOP		0x7ffffffff000UL

static int cet_kernel;		/* the series with CONFIG_X86_CET */
static int cpu_shstk;		/* this program runs with a shadow stack */

static long map_shadow_stack(unsigned long addr, unsigned long size, unsigned long flags)
{
	return syscall(NR_map_shadow_stack, addr, size, flags);
}

/*
 * How many mappings of process pid (0: this one) have "ss" in their smaps
 * VmFlags; with want, *found says whether one of them starts there (other
 * shadow stacks, such as those map_shadow_stack() made, may lie below the
 * task's own).
 */
static int smaps_shadow_stacks(pid_t pid, unsigned long want, int *found)
{
	char line[512], path[64];
	unsigned long lo = 0, hi, cur = 0;
	int n = 0;
	FILE *f;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/smaps", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/smaps");
	f = fopen(path, "r");

	if (found)
		*found = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			cur = lo;
		} else if (!strncmp(line, "VmFlags:", 8) && strstr(line, " ss")) {
			n++;
			if (found && cur == want)
				*found = 1;
		}
	}
	if (f)
		fclose(f);
	return n;
}

/* The boot line and no_user_shstk */
static void test_boot_line(void)
{
	static char log[1 << 17];
	char cmdline[1024] = "";
	FILE *f;
	int n;

	if (!cet_kernel)
		return;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);
	if (n < 0) {
		report("shstk.boot_line", "fail", "klogctl: %s", strerror(errno));
		return;
	}
	log[n] = '\0';
	f = fopen("/proc/cmdline", "r");
	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = '\0';
		fclose(f);
	}
	int disabled = strstr(cmdline, "no_user_shstk") != NULL;
	const char *want = disabled ? "user shadow stack: off (disabled by no_user_shstk)" :
			   cpu_shstk ? "user shadow stack: available" :
			   "user shadow stack: off (not supported by the CPU)";
	check(disabled ? "shstk.boot.no_user_shstk" : "shstk.boot_line",
	      strstr(log, want) != NULL, "expected log line '%s'", want);
	check("shstk.cpuinfo", cpuinfo_has_flag("user_shstk") == cpu_shstk,
	      "user_shstk in /proc/cpuinfo must match what the kernel enabled (%d)",
	      cpu_shstk);
}

/* This program's own reading of its -z shstk note and its features */
static void test_status(void)
{
	char elf[256], thr[256];
	uint64_t st[3] = { 9, 9, 9 };
	long r;

	if (!cet_kernel)
		return;
	status_field("/proc/self/status", "x86_Elf_features", elf, sizeof(elf));
	check("shstk.note_read", !strcmp(elf, "0x2 shstk from=executable"),
	      "x86_Elf_features='%s', expected '0x2 shstk from=executable'", elf);
	status_field("/proc/self/status", "x86_Thread_features", thr, sizeof(thr));
	r = arch_prctl(ARCH_X86_CET_STATUS, (unsigned long)st);
	if (cpu_shstk) {
		struct rlimit rl;
		unsigned long want;

		getrlimit(RLIMIT_STACK, &rl);
		want = rl.rlim_cur < (4UL << 30) ? rl.rlim_cur : 4UL << 30;
		want = (want + 4095) & ~4095UL;
		check("hw.shstk.enabled_at_exec", r == 0 && (st[0] & FEATURE_SHSTK) &&
		      st[1] && st[2] == want && !strcmp(thr, "shstk"),
		      "STATUS r=%ld {%#llx, %#llx, %#llx}, size expected %#lx, features '%s'",
		      r, (unsigned long long)st[0], (unsigned long long)st[1],
		      (unsigned long long)st[2], want, thr);
		return;
	}
	check("shstk.not_enabled_without_cpu", r == 0 && !st[0] && !st[1] && !st[2] &&
	      thr[0] == '\0', "STATUS r=%ld {%#llx, %#llx, %#llx}, features '%s'", r,
	      (unsigned long long)st[0], (unsigned long long)st[1],
	      (unsigned long long)st[2], thr);
	check("shstk.smaps_no_ss", smaps_shadow_stacks(0, 0, NULL) == 0,
	      "no mapping may be a shadow stack");
}

/* map_shadow_stack(): argument errors first, then EOPNOTSUPP or ENOSYS */
static void test_map_shadow_stack(void)
{
	struct { const char *name; unsigned long addr, size, flags; } bad[] = {
		{ "shstk.map.bad_flags", 0, 4096, 2 },
		{ "shstk.map.zero_size", 0, 0, 0 },
		{ "shstk.map.size_not_8_aligned", 0, 12, 0 },
		{ "shstk.map.addr_not_page_aligned", 0x10001000UL + 8, 4096, 0 },
		/* its restore token would hold TASK_SIZE_MAX, no user SSP */
		{ "shstk.map.token_at_user_top", USER_TOP - 4096, 4096, SHADOW_STACK_SET_TOKEN },
	};
	long r;
	int err;

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		r = map_shadow_stack(bad[i].addr, bad[i].size, bad[i].flags);
		err = errno;
		check_failed_with(bad[i].name, r, err, cet_kernel ? EINVAL : ENOSYS);
		if (r > 0)	/* wrongly mapped: leave the address free */
			munmap((void *)r, bad[i].size);
	}
	if (cpu_shstk)
		return;		/* the hw.* checks map real ones */
	errno = 0;
	r = map_shadow_stack(0, 4096, SHADOW_STACK_SET_TOKEN);
	err = errno;
	check_failed_with(cet_kernel ? "shstk.map.no_cpu_eopnotsupp" : "shstk.map.enosys",
		    r, err, cet_kernel ? EOPNOTSUPP : ENOSYS);
}

/*
 * Whether the kernel has CONFIG_CHECKPOINT_RESTORE, which ARCH_X86_CET_UNLOCK
 * needs (v3, as upstream's ARCH_SHSTK_UNLOCK): asked of a part of the kernel
 * the series does not touch, prctl(PR_SET_MM, PR_SET_MM_MAP_SIZE), which only
 * that option serves (EINVAL without it, for root too).
 */
static int checkpoint_restore_configured(void)
{
	unsigned int size = 0;

	return prctl(PR_SET_MM, PR_SET_MM_MAP_SIZE, (unsigned long)&size, 0, 0) == 0 && size > 0;
}

/* ARCH_X86_CET_WRSS and ARCH_X86_CET_UNLOCK from the task itself */
static void test_arch_prctl(void)
{
	int unlock_exists = cet_kernel && checkpoint_restore_configured();
	long r;
	int err;

	errno = 0;
	r = arch_prctl(ARCH_X86_CET_WRSS, 2);
	err = errno;
	check_failed_with("shstk.prctl.wrss_bad_arg", r, err, EINVAL);
	if (!cpu_shstk) {
		errno = 0;
		r = arch_prctl(ARCH_X86_CET_WRSS, 1);
		err = errno;
		check_failed_with("shstk.prctl.wrss_no_cpu", r, err,
			    cet_kernel ? EOPNOTSUPP : EINVAL);
	}
	errno = 0;
	r = arch_prctl(ARCH_X86_CET_UNLOCK, 1);
	err = errno;
	check_failed_with("shstk.prctl.unlock_bad_arg", r, err, EINVAL);
	errno = 0;
	r = arch_prctl(ARCH_X86_CET_UNLOCK, 0);
	err = errno;
	check_failed_with("shstk.prctl.unlock_self_refused", r, err,
			  unlock_exists ? EPERM : EINVAL);

	/*
	 * 0x3005-0x3007 were the legacy-bitmap calls of the out-of-tree CET
	 * series; v1 had UNLOCK at 0x3005 (EPERM here).  They must be unknown
	 * calls on every kernel.  0x3004 is ALLOC_SHSTK (next check).
	 */
	long r5, r6, r7;
	int e5, e6, e7;

	errno = 0;
	r5 = arch_prctl(0x3005, 0);
	e5 = errno;
	errno = 0;
	r6 = arch_prctl(0x3006, 0);
	e6 = errno;
	errno = 0;
	r7 = arch_prctl(0x3007, 0);
	e7 = errno;
	check("shstk.prctl.old_numbers_unused", r5 == -1 && e5 == EINVAL && r6 == -1 &&
	      e6 == EINVAL && r7 == -1 && e7 == EINVAL,
	      "0x3005: %ld (%s), 0x3006: %ld (%s), 0x3007: %ld (%s), all must be EINVAL", r5,
	      r5 == -1 ? strerrorname_np(e5) : "-", r6, r6 == -1 ? strerrorname_np(e6) : "-",
	      r7, r7 == -1 ? strerrorname_np(e7) : "-");

	/*
	 * ARCH_X86_CET_ALLOC_SHSTK, glibc 2.36's makecontext() call: the u64
	 * size is read first (EFAULT), checked (EINVAL: 0, not a multiple of
	 * 8), then EOPNOTSUPP without CPU support; kernels without the series
	 * or with CET off know no such call (EINVAL).  With a shadow stack the
	 * call succeeds (hw.shstk.alloc_shstk checks what it made).
	 */
	uint64_t sz0 = 0, sz12 = 12, szok = 1024;
	long rf, r0, r12, rok;
	int ef, e0, e12, eok;
	int want_fault = cet_kernel ? EFAULT : EINVAL;
	int want_ok = cet_kernel ? EOPNOTSUPP : EINVAL;

	errno = 0;
	rf = arch_prctl(ARCH_X86_CET_ALLOC_SHSTK, 8);
	ef = errno;
	errno = 0;
	r0 = arch_prctl(ARCH_X86_CET_ALLOC_SHSTK, (unsigned long)&sz0);
	e0 = errno;
	errno = 0;
	r12 = arch_prctl(ARCH_X86_CET_ALLOC_SHSTK, (unsigned long)&sz12);
	e12 = errno;
	errno = 0;
	rok = arch_prctl(ARCH_X86_CET_ALLOC_SHSTK, (unsigned long)&szok);
	eok = errno;
	if (cpu_shstk && rok == 0)
		munmap((void *)szok, 4096);
	check("shstk.prctl.alloc_shstk_args",
	      rf == -1 && ef == want_fault && r0 == -1 && e0 == EINVAL && r12 == -1 &&
		      e12 == EINVAL && (cpu_shstk ? rok == 0 : rok == -1 && eok == want_ok),
	      "unreadable u64: %ld (%s, want %s); size 0: %ld (%s); size 12: %ld (%s); "
	      "size 1024: %ld (%s, want %s)", rf, rf == -1 ? strerrorname_np(ef) : "-",
	      strerrorname_np(want_fault), r0, r0 == -1 ? strerrorname_np(e0) : "-", r12,
	      r12 == -1 ? strerrorname_np(e12) : "-", rok, rok == -1 ? strerrorname_np(eok) : "-",
	      cpu_shstk ? "success" : strerrorname_np(want_ok));
}

/* A child stopped under ptrace, for the ptrace checks */
static pid_t stopped_child(void)
{
	int ws;
	pid_t pid = fork();

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		_exit(0);
	}
	waitpid(pid, &ws, 0);
	return pid;
}

static void end_child(pid_t pid)
{
	int ws;

	kill(pid, SIGKILL);
	waitpid(pid, &ws, 0);
}

/* NT_X86_SHSTK and the ptrace-only unlock, on a child without CET */
static void test_ptrace(void)
{
	uint64_t ssp = 7;
	struct iovec iov = { &ssp, sizeof(ssp) };
	pid_t pid;
	long r;
	int err;

	if (cpu_shstk)
		return;		/* hw.shstk.ptrace_ssp covers a child with one */
	pid = stopped_child();
	errno = 0;
	r = ptrace(PTRACE_GETREGSET, pid, (void *)NT_X86_SHSTK, &iov);
	err = errno;
	check_failed_with(cet_kernel ? "shstk.ptrace.regset_enodev" : "shstk.ptrace.regset_unknown",
		    r, err, cet_kernel ? ENODEV : EINVAL);
	errno = 0;
	r = ptrace(PTRACE_ARCH_PRCTL_REQ, pid, (void *)0, (void *)ARCH_X86_CET_UNLOCK);
	err = errno;
	check_failed_with("shstk.ptrace.unlock_no_cpu", r, err,
			  cet_kernel && checkpoint_restore_configured() ? EOPNOTSUPP : EINVAL);
	end_child(pid);
}

static void *thread_fn(void *arg)
{
	uint64_t st[3] = { 0, 0, 0 };

	arch_prctl(ARCH_X86_CET_STATUS, (unsigned long)st);
	*(uint64_t *)arg = st[1];
	return NULL;
}

/*
 * Ordinary memory through fork(), copy-on-write, mprotect() and threads:
 * with the series the Dirty bit of a read-only page moves to a software
 * bit and back, which must not change what programs see.
 */
static void test_ordinary_memory(void)
{
	char *p = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t thread_base = 1;
	pthread_t t;
	int ws, ok;
	pid_t pid;

	if (p == MAP_FAILED) {
		report("memory.cow_mprotect", "fail", "mmap: %s", strerror(errno));
		return;
	}
	strcpy(p, "parent");
	p[4096] = 1;
	ok = !mprotect(p, 2 * 4096, PROT_READ) && !strcmp(p, "parent") &&
	     !mprotect(p, 2 * 4096, PROT_READ | PROT_WRITE);
	strcpy(p + 8, "again");
	pid = fork();
	if (pid == 0) {
		/* The child's write copies the page; the parent must not see it */
		strcpy(p, "child");
		_exit(strcmp(p, "child") || strcmp(p + 8, "again") ? 1 : 0);
	}
	waitpid(pid, &ws, 0);
	check("memory.cow_mprotect", ok && WIFEXITED(ws) && WEXITSTATUS(ws) == 0 &&
	      !strcmp(p, "parent") && !strcmp(p + 8, "again") && p[4096] == 1,
	      "mprotect round trip %s, child status %#x, parent sees '%s'",
	      ok ? "ok" : "failed", ws, p);
	munmap(p, 2 * 4096);

	ok = !pthread_create(&t, NULL, thread_fn, &thread_base) && !pthread_join(t, NULL);
	if (cpu_shstk) {
		uint64_t st[3];

		arch_prctl(ARCH_X86_CET_STATUS, (unsigned long)st);
		check("hw.shstk.thread_own_stack", ok && thread_base && thread_base != st[1],
		      "thread shadow stack %#llx, main %#llx",
		      (unsigned long long)thread_base, (unsigned long long)st[1]);
	} else {
		check("shstk.thread_without", ok && thread_base == 0,
		      "a thread of a task without shadow stack has none (base %#llx)",
		      (unsigned long long)thread_base);
	}
}

/*
 * A MAP_SHARED file page through fork(), mprotect() round trips and
 * msync(): its Dirty bit moves to SavedDirty when Write goes and back when
 * Write returns, and a write made before, during or after that must reach
 * the file.  Anonymous memory cannot show a lost Dirty bit; a shared file
 * page is where losing one loses data (issue 16, bug 5).
 */
static const struct {
	size_t off;
	const char *text;
} shared_writes[] = {
	{ 0, "parent, before fork" },
	{ 4096, "parent, second page" },
	{ 100, "child, before its mprotect" },
	{ 200, "child, after its mprotect round trip" },
	{ 300, "parent, after its mprotect round trip" },
	{ 4096 + 100, "parent, second page again" },
};

static void shared_write(char *p, unsigned int i)
{
	strcpy(p + shared_writes[i].off, shared_writes[i].text);
}

static int shared_has(const char *p, unsigned int first, unsigned int end)
{
	for (unsigned int i = first; i < end; i++)
		if (strcmp(p + shared_writes[i].off, shared_writes[i].text))
			return 0;
	return 1;
}

static void test_shared_file(void)
{
	static const char path[] = "/tmp/shstktest-shared";
	static char buf[2 * 4096];
	const char *step = "open";
	int fd, ws = -1;
	long n = -1;
	char *p;
	pid_t pid;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, sizeof(buf))) {
		report("memory.shared_file_dirty", "fail", "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	p = mmap(NULL, sizeof(buf), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		report("memory.shared_file_dirty", "fail", "mmap: %s", strerror(errno));
		close(fd);
		unlink(path);
		return;
	}
	shared_write(p, 0);
	shared_write(p, 1);
	step = "fork";
	pid = fork();
	if (pid == 0) {
		/* Shared, not copied: the parent sees every write of the child */
		shared_write(p, 2);
		if (mprotect(p, sizeof(buf), PROT_READ) || !shared_has(p, 0, 3) ||
		    mprotect(p, sizeof(buf), PROT_READ | PROT_WRITE))
			_exit(1);
		shared_write(p, 3);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws) || WEXITSTATUS(ws))
		goto out;
	step = "the parent's view after the child";
	if (!shared_has(p, 0, 4))
		goto out;
	step = "mprotect(PROT_READ)";
	if (mprotect(p, sizeof(buf), PROT_READ) || !shared_has(p, 0, 4))
		goto out;
	step = "mprotect(PROT_READ | PROT_WRITE)";
	if (mprotect(p, sizeof(buf), PROT_READ | PROT_WRITE))
		goto out;
	shared_write(p, 4);
	shared_write(p, 5);
	step = "msync";
	if (msync(p, sizeof(buf), MS_SYNC))
		goto out;
	step = "munmap";
	if (munmap(p, sizeof(buf)))
		goto out;
	p = MAP_FAILED;
	step = "pread";
	n = pread(fd, buf, sizeof(buf), 0);
	if (n != (long)sizeof(buf))
		goto out;
	step = "the file's contents";
	if (!shared_has(buf, 0, 6))
		goto out;
	step = NULL;
out:
	check("memory.shared_file_dirty", !step,
	      "write, fork (the child writes and round-trips mprotect), mprotect "
	      "PROT_READ and back, write, msync, munmap, pread: %s%s (child status %#x, "
	      "pread %ld)", step ? "failed at " : "all writes in the file",
	      step ? step : "", ws, n);
	if (p != MAP_FAILED)
		munmap(p, sizeof(buf));
	close(fd);
	unlink(path);
}

/* --- CET hardware only ---------------------------------------------------- */

static inline __attribute__((always_inline)) unsigned long rdssp(void)
{
	unsigned long ssp = 0;

	asm volatile("rdsspq %0" : "+r"(ssp));
	return ssp;
}

/*
 * Return to an address the shadow stack does not hold: #CP near-ret with
 * a shadow stack, SIGILL (the ud2) without.
 */
void smash_return(void);
asm(".pushsection .text\n"
    ".globl smash_return\n"
    "smash_return:\n\t"
    "endbr64\n\t"
    "lea 1f(%rip), %rax\n\t"
    "mov %rax, (%rsp)\n\t"
    "ret\n"
    "1:\tud2\n"
    ".popsection");

/*
 * Run fn(arg) in a traced child: its exit status, or minus the signal of
 * the fault it stopped for (*si and *regs, when given, then hold its
 * siginfo and registers at that stop).
 */
static int child_status_regs(void (*fn)(void *), void *arg, siginfo_t *si,
			     struct user_regs_struct *regs)
{
	int ws;
	pid_t pid = fork();

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		fn(arg);
		_exit(0);
	}
	waitpid(pid, &ws, 0);
	pass_signals_until_fault(pid, &ws);
	if (WIFSTOPPED(ws)) {
		int sig = WSTOPSIG(ws);

		if (si)
			ptrace(PTRACE_GETSIGINFO, pid, NULL, si);
		if (regs)
			ptrace(PTRACE_GETREGS, pid, NULL, regs);
		kill(pid, SIGKILL);
		waitpid(pid, &ws, 0);
		return -sig;
	}
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

static int child_status(void (*fn)(void *), void *arg, siginfo_t *si)
{
	return child_status_regs(fn, arg, si, NULL);
}

static void do_smash(void *arg)
{
	(void)arg;
	smash_return();
}

static void do_store(void *arg)
{
	*(volatile unsigned long *)arg = 0;
}

static void wrss(volatile uint64_t *p, uint64_t val)
{
	asm volatile("wrssq %0, (%1)" : : "r"(val), "r"(p) : "memory");
}

/*
 * WRSS into a shadow stack, MADV_DONTNEED, WRSS again: the page comes
 * back empty, and the second WRSS must fault in a shadow-stack page again
 * (the read in between maps the zero page, so it is a copy-on-write).
 * The boot-test kernels are tinyconfig, without CONFIG_ADVISE_SYSCALLS:
 * there madvise() is ENOSYS and the page is dropped by unmapping the
 * stack and mapping it again at the same address, which leads to the
 * same faults.  The child exits 0 (madvise), 1 (remapped), or with the
 * number of the step that went wrong.
 */
static void do_wrss_refault(void *arg)
{
	volatile uint64_t *p = arg;
	int how = 0;

	if (arch_prctl(ARCH_X86_CET_WRSS, 1))
		_exit(2);
	wrss(p, 0x1111);
	if (*p != 0x1111)
		_exit(3);
	if (madvise((void *)p, 4096, MADV_DONTNEED)) {
		if (errno != ENOSYS || munmap((void *)p, 4096) ||
		    map_shadow_stack((unsigned long)p, 4096, 0) != (long)p)
			_exit(errno < 100 ? 100 + errno : 4);
		how = 1;
	}
	if (*p != 0)
		_exit(5);
	wrss(p, 0x2222);
	if (*p != 0x2222)
		_exit(6);
	_exit(how);
}

/* A write through /proc/self/mem (a FOLL_FORCE GUP write) */
static int proc_mem_write(volatile uint64_t *p, uint64_t val)
{
	int fd = open("/proc/self/mem", O_RDWR);
	long n = fd < 0 ? -1 : pwrite(fd, &val, sizeof(val), (off_t)(uintptr_t)p);

	if (fd >= 0)
		close(fd);
	return n == sizeof(val) ? 0 : -1;
}

/* After fork: the child's /proc/self/mem write copies the page */
static void do_proc_mem_write(void *arg)
{
	volatile uint64_t *p = arg;

	if (proc_mem_write(p, 0x3333))
		_exit(2);
	if (*p != 0x3333)
		_exit(3);
}

static volatile unsigned long handler_ssp;

static void on_signal(int sig)
{
	(void)sig;
	handler_ssp = rdssp();
}

/*
 * The signal token.  At delivery the kernel pushes to the shadow stack the
 * interrupted shadow-stack pointer with bit 63 set (upstream's format),
 * then the restorer: in the handler the restorer is at the SSP and the
 * token right above it.  v1 pushed an architectural restore token there
 * (the pointer with bit 0 set), which RSTORSSP accepts.
 */
#define SIGNAL_TOKEN_BIT	(1ULL << 63)

static volatile uint64_t token_seen, token_addr_seen;

static void token_handler(int sig)
{
	unsigned long ssp = rdssp();

	(void)sig;
	token_addr_seen = ssp + 8;
	token_seen = *(volatile uint64_t *)(ssp + 8);
}

/* Exit the whole process at once, without a CALL or RET */
static void __attribute__((noreturn)) raw_exit_group(int code)
{
	asm volatile("syscall" : : "a"(231), "D"(code) : "rcx", "r11", "memory");
	__builtin_unreachable();
}

/*
 * Another thread's RSTORSSP onto the signal token while the handler runs:
 * it must raise #CP (the child exits 10, the si_code of its SIGSEGV); 42
 * means RSTORSSP took the token and moved that thread onto the interrupted
 * shadow stack.
 */
static volatile unsigned long rstorssp_target;

static void segv_exit_code(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	raw_exit_group(si->si_code == SEGV_CPERR_CODE ? 10 : 11);
}

static void *rstorssp_thread(void *arg)
{
	(void)arg;
	for (long spins = 0; !rstorssp_target; spins++) {
		if (spins > 100000)
			raw_exit_group(5);
		sched_yield();
	}
	asm volatile("rstorssp (%0)" : : "r"(rstorssp_target) : "memory");
	raw_exit_group(42);
}

static void rstorssp_handler(int sig)
{
	(void)sig;
	rstorssp_target = rdssp() + 8;
	for (long spins = 0; spins < 100000; spins++)
		sched_yield();
	raw_exit_group(4);
}

static void do_rstorssp_token(void *arg)
{
	struct sigaction segv = { .sa_sigaction = segv_exit_code, .sa_flags = SA_SIGINFO };
	pthread_t t;

	(void)arg;
	sigaction(SIGSEGV, &segv, NULL);
	signal(SIGUSR1, rstorssp_handler);
	if (pthread_create(&t, NULL, rstorssp_thread, NULL))
		_exit(3);
	raise(SIGUSR1);
	_exit(6);
}

/*
 * sigreturn with fpstate NULL (no FPU state to restore) must work for a
 * task with a shadow stack: nothing of the shadow stack is in the frame.
 * The child exits 0 when it came back with its SSP, 3 with another.
 */
static void null_fpstate_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	(void)si;
	uc->uc_mcontext.fpregs = NULL;
}

static void do_null_fpstate(void *arg)
{
	struct sigaction sa = { .sa_sigaction = null_fpstate_handler, .sa_flags = SA_SIGINFO };
	unsigned long before = rdssp();

	(void)arg;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	_exit(rdssp() == before ? 0 : 3);
}

/*
 * Forged tokens: with WRSS the handler rewrites the token, and sigreturn
 * must then fail (SIGSEGV with SI_KERNEL, as for any bad frame): an odd
 * pointer with bit 63 (bug 2 of issue 16), or v1's restore token.
 */
enum forgery { FORGE_ODD_SSP, FORGE_RESTORE_TOKEN };

static volatile int forgery;

static void forge_handler(int sig)
{
	unsigned long ssp = rdssp();
	volatile uint64_t *token = (volatile uint64_t *)(ssp + 8);

	(void)sig;
	if (forgery == FORGE_ODD_SSP)
		wrss(token, (ssp + 16 + 1) | SIGNAL_TOKEN_BIT);
	else
		wrss(token, (ssp + 16) | 1);
}

static void do_forged_sigreturn(void *arg)
{
	forgery = (int)(long)arg;
	if (arch_prctl(ARCH_X86_CET_WRSS, 1))
		_exit(2);
	signal(SIGUSR1, forge_handler);
	raise(SIGUSR1);
	_exit(0);	/* only if the forged token was taken */
}

/*
 * A sigreturn with no signal delivered: a copy of a real frame, taken in
 * a handler that then returned normally, is handed to rt_sigreturn again.
 * The shadow stack holds a return address where the token was, so it
 * must fail.
 */
static struct {
	uint64_t pretcode;
	ucontext_t uc;
	siginfo_t info;
} __attribute__((aligned(16))) replay_frame;
static uint8_t replay_fpu[8192 + 64] __attribute__((aligned(64)));

static void copy_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	const uint8_t *fp = (const uint8_t *)uc->uc_mcontext.fpregs;
	const uint32_t *sw = (const uint32_t *)(fp + 464);	/* fpx_sw_bytes */
	size_t size = sw[0] == 0x46505853 ? sw[1] : 512;	/* extended_size */

	(void)sig;
	if (size > sizeof(replay_fpu) - 64)
		_exit(4);
	memcpy(&replay_frame.uc, uc, sizeof(*uc));
	memcpy(&replay_frame.info, si, sizeof(*si));
	memcpy(replay_fpu + 64, fp, size);
	replay_frame.uc.uc_mcontext.fpregs = (fpregset_t)(replay_fpu + 64);
}

/* rt_sigreturn reads the frame at the stack pointer minus 8 */
static void __attribute__((noreturn)) rt_sigreturn_at(void *uc)
{
	asm volatile("mov %0, %%rsp\n\t"
		     "mov $15, %%eax\n\t"
		     "syscall\n\t"
		     "ud2"
		     : : "r"(uc) : "memory");
	__builtin_unreachable();
}

static void do_replayed_sigreturn(void *arg)
{
	struct sigaction sa = { .sa_sigaction = copy_handler, .sa_flags = SA_SIGINFO };

	(void)arg;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	rt_sigreturn_at(&replay_frame.uc);
}

/*
 * rt_sigreturn with a frame built from nothing (no signal ever delivered):
 * valid segments, a stack, fpstate NULL, and an instruction pointer that
 * would exit 0.  With a shadow stack it must fail cleanly: SIGSEGV with
 * SI_KERNEL, no oops.
 */
static uint64_t scratch_stack[1024] __attribute__((aligned(16)));

static void landed(void)
{
	raw_exit_group(0);
}

static void do_scratch_sigreturn(void *arg)
{
	/* The control: without its shadow stack the same frame is taken */
	if (arg && arch_prctl(ARCH_X86_CET_DISABLE, FEATURE_SHSTK))
		_exit(2);
	memset(&replay_frame, 0, sizeof(replay_frame));
	replay_frame.uc.uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)landed;
	replay_frame.uc.uc_mcontext.gregs[REG_RSP] = (greg_t)(uintptr_t)&scratch_stack[1000];
	replay_frame.uc.uc_mcontext.gregs[REG_CSGSFS] = 0x33 | (0x2bLL << 48);
	replay_frame.uc.uc_mcontext.fpregs = NULL;
	rt_sigreturn_at(&replay_frame.uc);
}

/*
 * A restorer chosen so that delivery would make a restore token: the
 * restorer lands at ssp - 16, where (ssp - 8) | 1 is a valid one, onto
 * which any thread could RSTORSSP.  The kernel must refuse that frame.
 * arg NULL asks for that value, non-NULL for (ssp + 8) | 1, as odd and
 * as useless but no token.  The handler exits 42 when the entry at
 * ssp - 16 is a restore token, 43 when it is not; 3 and 4: set-up.
 */
struct kernel_sigaction64 {
	void (*handler)(int);
	unsigned long flags;
	unsigned long restorer;
	uint64_t mask;
};

static volatile unsigned long restorer_ssp;

static void restorer_token_handler(int sig)
{
	unsigned long ssp = restorer_ssp;

	(void)sig;
	raw_exit_group(*(volatile uint64_t *)(ssp - 16) == ((ssp - 8) | 1) ? 42 : 43);
}

static void do_restorer_token(void *arg)
{
	struct kernel_sigaction64 ka = { restorer_token_handler, 0x04000000 /* SA_RESTORER */, 0, 0 };
	long pid = getpid(), tid = gettid(), r;
	/* The SSP of this frame: tgkill below is a SYSCALL, not a CALL */
	unsigned long ssp = rdssp();

	ka.restorer = arg ? (ssp + 8) | 1 : (ssp - 8) | 1;
	restorer_ssp = ssp;
	if (syscall(SYS_rt_sigaction, SIGUSR1, &ka, NULL, 8))
		raw_exit_group(3);
	asm volatile("syscall"
		     : "=a"(r)
		     : "0"(SYS_tgkill), "D"(pid), "S"(tid), "d"(SIGUSR1)
		     : "rcx", "r11", "memory");
	raw_exit_group(4);
}

static void test_signal_frames(void)
{
	static const struct {
		const char *name;
		void (*fn)(void *);
		long arg;
	} forged[] = {
		{ "hw.shstk.sigreturn_odd_ssp", do_forged_sigreturn, FORGE_ODD_SSP },
		{ "hw.shstk.sigreturn_restore_token", do_forged_sigreturn, FORGE_RESTORE_TOKEN },
		{ "hw.shstk.sigreturn_replayed", do_replayed_sigreturn, 0 },
	};
	siginfo_t si = { 0 };
	int r;

	signal(SIGUSR1, token_handler);
	raise(SIGUSR1);
	check("hw.shstk.signal_token", token_seen == ((token_addr_seen + 8) | SIGNAL_TOKEN_BIT),
	      "token %#llx at %#llx (want the address above it with bit 63)",
	      (unsigned long long)token_seen, (unsigned long long)token_addr_seen);

	r = child_status(do_rstorssp_token, NULL, &si);
	check("hw.shstk.signal_token_rstorssp", r == 10,
	      "child %d (10: #CP, SEGV_CPERR; 42: RSTORSSP took the signal token; "
	      "11 another SIGSEGV; 3-6 set-up)", r);

	si.si_signo = 0;
	r = child_status(do_null_fpstate, NULL, &si);
	check("hw.shstk.sigreturn_fpstate_null", r == 0,
	      "child %d, signal %d code %#x (0: returned with its SSP; 3: another SSP)", r,
	      si.si_signo, si.si_code);

	for (unsigned int i = 0; i < sizeof(forged) / sizeof(forged[0]); i++) {
		memset(&si, 0, sizeof(si));
		r = child_status(forged[i].fn, (void *)forged[i].arg, &si);
		check(forged[i].name, r == -SIGSEGV && si.si_code == SI_KERNEL,
		      "child %d, signal %d code %#x (SIGSEGV with SI_KERNEL expected)", r,
		      si.si_signo, si.si_code);
	}

	memset(&si, 0, sizeof(si));
	r = child_status(do_restorer_token, NULL, &si);
	int odd = child_status(do_restorer_token, (void *)1L, NULL);

	check("hw.shstk.restorer_token_refused",
	      r == -SIGSEGV && si.si_code == SI_KERNEL && odd == 43,
	      "sa_restorer (ssp - 8) | 1: child %d, signal %d code %#x (SIGSEGV with SI_KERNEL "
	      "expected; 42: delivered, the restorer made a restore token); (ssp + 8) | 1: "
	      "child %d (43 expected: delivered, no token)",
	      r, si.si_signo, si.si_code, odd);

	memset(&si, 0, sizeof(si));
	r = child_status(do_scratch_sigreturn, NULL, &si);
	int control = child_status(do_scratch_sigreturn, (void *)1L, NULL);

	check("hw.shstk.sigreturn_no_signal", r == -SIGSEGV && si.si_code == SI_KERNEL &&
	      control == 0,
	      "child %d, signal %d code %#x (SIGSEGV with SI_KERNEL expected); the same "
	      "frame after ARCH_X86_CET_DISABLE: child %d (0 expected)", r, si.si_signo,
	      si.si_code, control);
}

/* The page a userfaultfd handler fills, and the handler thread */
struct uffd_job {
	int fd;
	long copied;
};

static void *uffd_handler(void *arg)
{
	struct uffd_job *job = arg;
	static char page[4096] __attribute__((aligned(4096)));
	struct pollfd pfd = { .fd = job->fd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&pfd, 1, 5000) != 1 || read(job->fd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return NULL;
	struct uffdio_copy copy = {
		.dst = msg.arg.pagefault.address & ~4095ULL,
		.src = (unsigned long)page, .len = 4096,
	};
	job->copied = ioctl(job->fd, UFFDIO_COPY, &copy) ? -errno : (long)copy.copy;
	return NULL;
}

/*
 * UFFDIO_COPY into a shadow stack must install a shadow-stack entry, not
 * an ordinary writable one: a read through the handler works, a MOV to the
 * page still faults.
 */
static void test_userfaultfd(void)
{
	long ss = map_shadow_stack(0, 4096, 0);
	int fd = syscall(SYS_userfaultfd, O_CLOEXEC);
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffd_job job = { .fd = fd, .copied = 0 };
	siginfo_t si = { 0 };
	pthread_t t;
	int r;

	if (fd < 0) {
		report("hw.shstk.userfaultfd", "skip", "no userfaultfd in this kernel (%s)",
		       strerror(errno));
		munmap((void *)ss, 4096);
		return;
	}
	reg.range.start = ss;
	reg.range.len = 4096;
	if (ss <= 0 || ioctl(fd, UFFDIO_API, &api) || ioctl(fd, UFFDIO_REGISTER, &reg) ||
	    pthread_create(&t, NULL, uffd_handler, &job)) {
		report("hw.shstk.userfaultfd", "fail", "set-up: shadow stack %#lx, %s", ss,
		       strerror(errno));
		close(fd);
		return;
	}
	unsigned long first = *(volatile unsigned long *)ss;	/* faults to the handler */

	pthread_join(t, NULL);
	r = child_status(do_store, (void *)ss, &si);
	check("hw.shstk.userfaultfd", job.copied == 4096 && first == 0 && r < 0 &&
	      si.si_signo == SIGSEGV,
	      "UFFDIO_COPY %ld, read %#lx, a MOV afterwards: child %d signal %d",
	      job.copied, first, r, si.si_signo);
	close(fd);
	munmap((void *)ss, 4096);
}

/* Does [p, p + len) meet [lo, hi)? */
static int overlaps(unsigned long p, unsigned long len, unsigned long lo, unsigned long hi)
{
	return p < hi && p + len > lo;
}

/*
 * Guard gaps: the page below and the page above a shadow stack stay free
 * whenever the kernel chooses the place of a later mapping, with a hint
 * right next to the stack or without one; only MAP_FIXED(_NOREPLACE)
 * puts a mapping there.  v2 as first written let a hint take the page
 * above (x86's hint check looked only at the next mapping's gap).
 */
static void test_guard_gaps(void)
{
	const int prot = PROT_READ, anon = MAP_PRIVATE | MAP_ANONYMOUS;
	long ss = map_shadow_stack(0, 8192, 0);

	if (ss < 0) {
		report("hw.shstk.guard_gap", "fail", "map_shadow_stack: %ld (%s)", ss,
		       strerror(errno));
		return;
	}
	unsigned long below_gap = ss - 4096, above_gap = ss + 8192;
	void *placed[4] = {
		mmap((void *)above_gap, 4096, prot, anon, -1, 0), /* hint: the page above */
		mmap((void *)below_gap, 4096, prot, anon, -1, 0), /* hint: the page below */
		mmap(NULL, 4096, prot, anon, -1, 0),		   /* no hint */
	};
	int bad = 0;

	for (int i = 0; i < 3; i++)
		if (placed[i] == MAP_FAILED ||
		    overlaps((unsigned long)placed[i], 4096, below_gap, ss) ||
		    overlaps((unsigned long)placed[i], 4096, above_gap, above_gap + 4096))
			bad++;
	placed[3] = mmap((void *)above_gap, 4096, prot, anon | MAP_FIXED_NOREPLACE, -1, 0);

	check("hw.shstk.guard_gap", !bad && placed[3] == (void *)above_gap,
	      "shadow stack %#lx-%#lx: hint above got %p, hint below %p, no hint %p, "
	      "MAP_FIXED_NOREPLACE above %p", ss, ss + 8192, placed[0], placed[1], placed[2],
	      placed[3]);
	for (int i = 0; i < 4; i++)
		if (placed[i] != MAP_FAILED)
			munmap(placed[i], 4096);
	munmap((void *)ss, 8192);
}

/*
 * Uprobes, through tracefs' uprobe_events, on this program's own code: a
 * uretprobe on a leaf function, a probe on a CALL rel32 (the kernel
 * emulates it) and one on an indirect CALL (run out of line).  Each takes
 * over a return address on the stack; the shadow stack must say the same,
 * or the next RET is a #CP.  A forked child makes the calls (the probes
 * are on the file, so the child's mapping has them) and must exit 0; the
 * probe's hit count shows the probe really fired.
 */
int uprobe_leaf(void);
void uprobe_call_rel(void);
void uprobe_call_indirect(void);
extern const char uprobe_call_rel_insn[], uprobe_call_indirect_insn[];
asm(".pushsection .text\n"
    ".globl uprobe_leaf, uprobe_call_rel, uprobe_call_indirect\n"
    ".globl uprobe_call_rel_insn, uprobe_call_indirect_insn\n"
    "uprobe_leaf:\n\t"
    "endbr64\n\t"
    "mov $7, %eax\n\t"
    "ret\n"
    "uprobe_call_rel:\n\t"
    "endbr64\n"
    "uprobe_call_rel_insn:\n\t"
    "call uprobe_leaf\n\t"
    "ret\n"
    "uprobe_call_indirect:\n\t"
    "endbr64\n\t"
    "lea uprobe_leaf(%rip), %rax\n"
    "uprobe_call_indirect_insn:\n\t"
    "call *%rax\n\t"
    "ret\n"
    ".popsection");

#define UPROBE_CALLS 3

static void do_uprobe_calls(void *arg)
{
	void (*fn)(void) = (void (*)(void))arg;

	for (int i = 0; i < UPROBE_CALLS; i++)
		fn();
	_exit(0);
}

/* The path and file offset of the code at addr, from /proc/self/maps */
static int file_offset(const void *addr, char *path, size_t len, unsigned long *off)
{
	unsigned long a = (unsigned long)addr, lo, hi, pgoff;
	char line[512], file[256];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %255s", &lo, &hi, &pgoff, file) == 4 &&
		    a >= lo && a < hi) {
			snprintf(path, len, "%s", file);
			*off = a - lo + pgoff;
			found = 1;
		}
	if (f)
		fclose(f);
	return found ? 0 : -1;
}

static void uprobe_case(const char *test, char kind, const char *name, const void *at,
			void (*fn)(void))
{
	char path[256];
	unsigned long off;
	siginfo_t si = { 0 };
	long hits;
	int r;

	if (file_offset(at, path, sizeof(path), &off)) {
		report(test, "fail", "%p is in no file mapping", at);
		return;
	}
	if (uprobe_add(kind, name, path, off)) {
		report(test, "fail", "cannot add uprobe %c %s:%#lx in " TRACEFS ": %s", kind,
		       path, off, strerror(errno));
		uprobe_remove(name);
		return;
	}
	r = child_status(do_uprobe_calls, (void *)fn, &si);
	hits = uprobe_hits(name);
	uprobe_remove(name);
	check(test, r == 0 && hits >= UPROBE_CALLS,
	      "probe %c at %s:%#lx: child %d (negative: signal; si_code %d), %ld hits "
	      "(%d calls)", kind, path, off, r, si.si_code, hits, UPROBE_CALLS);
}

static void test_uprobes(void)
{
	uprobe_case("hw.shstk.uretprobe", 'r', "leaf_return", (void *)uprobe_leaf,
		    (void (*)(void))uprobe_leaf);
	uprobe_case("hw.shstk.uprobe_call", 'p', "call_rel", uprobe_call_rel_insn,
		    uprobe_call_rel);
	uprobe_case("hw.shstk.uprobe_call_indirect", 'p', "call_indirect",
		    uprobe_call_indirect_insn, uprobe_call_indirect);
}

/*
 * Pivot to another shadow stack and back, as a user-space threading
 * library does: RSTORSSP onto the restore token map_shadow_stack() wrote
 * at the top of a new stack (the token holds the address right above
 * itself with bit 0, 64-bit mode, set) moves the SSP onto the token and
 * turns it into a previous-SSP token (the old SSP with bits 1 and 0 set);
 * SAVEPREVSSP then leaves a restore token for the old SSP right below it
 * on the old stack and pops the previous-SSP token, so the new stack is
 * empty.  A call and a return on the new stack, then the same two
 * instructions back, through the restore token on the old stack, which
 * leaves the new stack's restore token as it was.  The child writes what
 * it saw to shared memory and exits 0, or with the number of the step it
 * could not take; the parent compares each value with the architecture's.
 */
#define PIVOT_SIZE 8192

struct pivot_seen {
	uint64_t top, token_before, old_ssp;
	uint64_t mid, prev_token, ssp; /* RSTORSSP, its entry, SAVEPREVSSP */
	uint64_t callee_ssp, callee_entry, callee_ret, after_call;
	uint64_t old_token; /* on the old stack, below the old SSP */
	uint64_t back_mid, back_prev_token, back_ssp, token_after;
};

/*
 * RSTORSSP onto the token at token_addr, then SAVEPREVSSP: the SSP between
 * the two and the entry there (the previous-SSP token), and the SSP after.
 */
static inline __attribute__((always_inline)) void pivot_ssp(uint64_t token_addr, uint64_t *mid,
							    uint64_t *prev, uint64_t *after)
{
	uint64_t m = 0, p, a = 0;

	asm volatile("rstorssp (%[tok])\n\t"
		     "rdsspq %[m]\n\t"
		     "mov (%[m]), %[p]\n\t"
		     "saveprevssp\n\t"
		     "rdsspq %[a]"
		     : [m] "+&r"(m), [p] "=&r"(p), [a] "+&r"(a)
		     : [tok] "r"(token_addr)
		     : "memory", "cc");
	*mid = m;
	*prev = p;
	*after = a;
}

/* Called on the new stack: its SSP, the entry there and its return address */
static void __attribute__((noinline, noclone)) pivot_callee(struct pivot_seen *s)
{
	uint64_t ssp = rdssp();

	s->callee_ssp = ssp;
	s->callee_entry = *(volatile uint64_t *)ssp;
	s->callee_ret = (uint64_t)(uintptr_t)__builtin_return_address(0);
	asm volatile("" : : : "memory");
}

static void do_pivot(void *arg)
{
	struct pivot_seen *s = arg;
	long ss = map_shadow_stack(0, PIVOT_SIZE, SHADOW_STACK_SET_TOKEN);

	if (ss <= 0)
		_exit(2);
	s->top = ss + PIVOT_SIZE;
	s->token_before = *(volatile uint64_t *)(s->top - 8);
	s->old_ssp = rdssp();
	pivot_ssp(s->top - 8, &s->mid, &s->prev_token, &s->ssp);
	pivot_callee(s);
	s->after_call = rdssp();
	s->old_token = *(volatile uint64_t *)(s->old_ssp - 8);
	pivot_ssp(s->old_ssp - 8, &s->back_mid, &s->back_prev_token, &s->back_ssp);
	s->token_after = *(volatile uint64_t *)(s->top - 8);
	/* child_status_regs() exits 0 once this returns on the old stack */
}

/* RSTORSSP onto the top of a shadow stack mapped without a token: #CP */
static void do_pivot_bad_token(void *arg)
{
	long ss = map_shadow_stack(0, 4096, 0);

	(void)arg;
	if (ss <= 0)
		_exit(2);
	asm volatile("rstorssp (%0)" : : "r"(ss + 4096 - 8) : "memory", "cc");
	_exit(42);
}

static void test_pivot(void)
{
	struct pivot_seen *s =
		mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	siginfo_t si = { 0 };
	int r;

	if (s == MAP_FAILED) {
		report("hw.shstk.pivot", "fail", "mmap: %s", strerror(errno));
	} else {
		memset(s, 0, sizeof(*s));
		r = child_status(do_pivot, s, &si);
		uint64_t top = s->top, old = s->old_ssp;

		check("hw.shstk.pivot",
		      r == 0 && top && s->token_before == (top | 1) && s->mid == top - 8 &&
			      s->prev_token == (old | 3) && s->ssp == top &&
			      s->callee_ssp == top - 8 && s->callee_entry == s->callee_ret &&
			      s->after_call == top && s->old_token == (old | 1) &&
			      s->back_mid == old - 8 && s->back_prev_token == (top | 3) &&
			      s->back_ssp == old && s->token_after == (top | 1),
		      "child %d (2: map_shadow_stack; negative: signal %d code %d); new stack top "
		      "%#llx token %#llx, old SSP %#llx; RSTORSSP: SSP %#llx entry %#llx; "
		      "SAVEPREVSSP: SSP %#llx, old stack token %#llx; call: SSP %#llx entry "
		      "%#llx return address %#llx, after return %#llx; back: RSTORSSP SSP %#llx "
		      "entry %#llx, SAVEPREVSSP SSP %#llx, new stack token %#llx",
		      r, si.si_signo, si.si_code, (unsigned long long)top,
		      (unsigned long long)s->token_before, (unsigned long long)old,
		      (unsigned long long)s->mid, (unsigned long long)s->prev_token,
		      (unsigned long long)s->ssp, (unsigned long long)s->old_token,
		      (unsigned long long)s->callee_ssp, (unsigned long long)s->callee_entry,
		      (unsigned long long)s->callee_ret, (unsigned long long)s->after_call,
		      (unsigned long long)s->back_mid, (unsigned long long)s->back_prev_token,
		      (unsigned long long)s->back_ssp, (unsigned long long)s->token_after);
		munmap(s, sizeof(*s));
	}

	memset(&si, 0, sizeof(si));
	r = child_status(do_pivot_bad_token, NULL, &si);
	check("hw.shstk.pivot_bad_token", r == -SIGSEGV && si.si_code == SEGV_CPERR_CODE,
	      "child %d, signal %d code %d (SIGSEGV with SEGV_CPERR expected; 42: RSTORSSP "
	      "took an entry that is no restore token)",
	      r, si.si_signo, si.si_code);
}

/*
 * What glibc 2.36's makecontext() and setcontext() do with a shadow stack
 * (__push___start_context, setcontext.S), on a stack from
 * ARCH_X86_CET_ALLOC_SHSTK.  ctx_round_trip(top, seen), top = base + size:
 *   makecontext: RSTORSSP onto the kernel's token at top - 8, SAVEPREVSSP,
 *     CALL (its return address, the context's entry, goes to the new
 *     shadow stack), then RSTORSSP back and SAVEPREVSSP, which leaves a
 *     restore token below the context's SSP;
 *   setcontext: RSTORSSP onto that token, SAVEPREVSSP, RET to the entry
 *     (the shadow stack must hold it), a CALL and RET there, and back to
 *     the caller's shadow stack the same way.
 * seen[]: 0 the caller's SSP, 1 the context's SSP after makecontext,
 * 2 the SSP back from it, 3 the SSP at the entry, 4 the SSP in a function
 * called there, 5 the SSP back from the context.
 */
void ctx_round_trip(uint64_t top, uint64_t *seen);
asm(".pushsection .text\n"
    ".globl ctx_round_trip\n"
    "ctx_round_trip:\n\t"
    "xor %r8, %r8\n\t"
    "rdsspq %r8\n\t"
    "mov %r8, 0(%rsi)\n\t"
    "rstorssp -8(%rdi)\n\t"
    "saveprevssp\n\t"
    "call 1f\n"
    "2:\tjmp 3f\n"
    "1:\tadd $8, %rsp\n\t"
    "xor %r9, %r9\n\t"
    "rdsspq %r9\n\t"
    "mov %r9, 8(%rsi)\n\t"
    "rstorssp -8(%r8)\n\t"
    "saveprevssp\n\t"
    "xor %rax, %rax\n\t"
    "rdsspq %rax\n\t"
    "mov %rax, 16(%rsi)\n\t"
    "rdsspq %r8\n\t"
    "rstorssp -8(%r9)\n\t"
    "saveprevssp\n\t"
    "lea 2b(%rip), %rax\n\t"
    "push %rax\n\t"
    "ret\n"
    "3:\txor %rax, %rax\n\t"
    "rdsspq %rax\n\t"
    "mov %rax, 24(%rsi)\n\t"
    "call ctx_leaf\n\t"
    "mov %rax, 32(%rsi)\n\t"
    "rstorssp -8(%r8)\n\t"
    "saveprevssp\n\t"
    "xor %rax, %rax\n\t"
    "rdsspq %rax\n\t"
    "mov %rax, 40(%rsi)\n\t"
    "ret\n"
    "ctx_leaf:\n\t"
    "xor %rax, %rax\n\t"
    "rdsspq %rax\n\t"
    "ret\n"
    ".popsection");

#define CTX_SHSTK_SIZE 1024	/* what makecontext() asks for a 32 KiB stack */

struct ctx_seen {
	uint64_t base, token, mapped_ss, after[6], new_top_entry, below_top_entry;
};

/* glibc locks its features at start-up, then calls makecontext() */
static void do_alloc_shstk(void *arg)
{
	struct ctx_seen *c = arg;
	uint64_t v = CTX_SHSTK_SIZE, top;
	int found;

	if (arch_prctl(ARCH_X86_CET_LOCK, 0))
		_exit(3);
	if (arch_prctl(ARCH_X86_CET_ALLOC_SHSTK, (unsigned long)&v))
		_exit(2);
	c->base = v;
	top = v + CTX_SHSTK_SIZE;
	c->token = *(volatile uint64_t *)(top - 8);
	smaps_shadow_stacks(0, v, &found);
	c->mapped_ss = found;
	ctx_round_trip(top, c->after);
	c->new_top_entry = *(volatile uint64_t *)(top - 8);
	c->below_top_entry = *(volatile uint64_t *)(top - 16);
}

/* Without a shadow stack of its own the caller could not use a new one */
static void do_alloc_shstk_no_shstk(void *arg)
{
	uint64_t v = CTX_SHSTK_SIZE;

	(void)arg;
	if (arch_prctl(ARCH_X86_CET_DISABLE, FEATURE_SHSTK))
		_exit(3);
	errno = 0;
	if (arch_prctl(ARCH_X86_CET_ALLOC_SHSTK, (unsigned long)&v) == 0)
		_exit(4);
	_exit(errno == EPERM ? 0 : 5);
}

static void test_alloc_shstk(void)
{
	struct ctx_seen *c =
		mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	siginfo_t si = { 0 };
	int r;

	if (c == MAP_FAILED) {
		report("hw.shstk.alloc_shstk", "fail", "mmap: %s", strerror(errno));
	} else {
		memset(c, 0, sizeof(*c));
		r = child_status(do_alloc_shstk, c, &si);
		uint64_t top = c->base + CTX_SHSTK_SIZE, old = c->after[0];

		check("hw.shstk.alloc_shstk",
		      r == 0 && c->base && !(c->base & 4095) && c->token == (top | 1) &&
			      c->mapped_ss && c->after[1] == top - 8 && c->after[2] == old &&
			      c->after[3] == top && c->after[4] == top - 8 &&
			      c->after[5] == old && c->below_top_entry == (old | 3) &&
			      c->new_top_entry == (top | 1),
		      "child %d (2: ALLOC_SHSTK failed, 3: LOCK failed; negative: signal %d "
		      "code %d); base %#llx, token %#llx at top - 8 (want %#llx), ss mapping "
		      "%s; caller's SSP %#llx; after makecontext SSP %#llx, back %#llx; "
		      "setcontext: entry SSP %#llx, callee SSP %#llx, back %#llx; top - 8 %#llx "
		      "(the restore token of the last SAVEPREVSSP), top - 16 %#llx (the "
		      "previous-SSP token setcontext's RSTORSSP left)",
		      r, si.si_signo, si.si_code, (unsigned long long)c->base,
		      (unsigned long long)c->token, (unsigned long long)(top | 1),
		      c->mapped_ss ? "found" : "not found", (unsigned long long)old,
		      (unsigned long long)c->after[1], (unsigned long long)c->after[2],
		      (unsigned long long)c->after[3], (unsigned long long)c->after[4],
		      (unsigned long long)c->after[5], (unsigned long long)c->new_top_entry,
		      (unsigned long long)c->below_top_entry);
		munmap(c, sizeof(*c));
	}

	r = child_status(do_alloc_shstk_no_shstk, NULL, &si);
	check("hw.shstk.alloc_shstk_needs_shstk", r == 0,
	      "child %d (0: EPERM once the shadow stack is off; 3 DISABLE failed, 4 "
	      "the call succeeded, 5 another error)", r);
}

/*
 * The 32-bit ABI.  Shadow stacks are for 64-bit programs: a task with one
 * must not get a 32-bit signal frame (its handler would run without the
 * shadow stack's protection, or not at all), and a 32-bit sigreturn, which
 * has no signal token to check, must not set its registers (a sigreturn
 * without a signal, as hw.shstk.sigreturn_no_signal refuses the 64-bit
 * one).  A 64-bit task reaches both through int $0x80.  Each is also run
 * after ARCH_X86_CET_DISABLE, where the same steps must work: that shows
 * they really took the 32-bit paths.
 */
#define USER_CS_64 0x33
#define USER_DS 0x2b

/* 32-bit code, copied below 4 GiB: exit_group(42) without the stack */
extern const char ia32_exit42[], ia32_exit42_end[];
asm(".pushsection .rodata\n"
    "ia32_exit42:\n\t"
    ".code32\n\t"
    "mov $252, %eax\n\t"
    "mov $42, %ebx\n\t"
    "int $0x80\n\t"
    "ud2\n\t"
    ".code64\n"
    "ia32_exit42_end:\n"
    ".popsection");

/* struct compat_sigaction of the 32-bit rt_sigaction */
struct sigaction_ia32 {
	uint32_t handler, flags, restorer, mask[2];
};

static long int80(long nr, long bx, long cx, long dx, long si)
{
	long ret;

	asm volatile("int $0x80"
		     : "=a"(ret)
		     : "a"(nr), "b"(bx), "c"(cx), "d"(dx), "S"(si)
		     : "memory", "cc", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15");
	return ret;
}

/*
 * A handler of SIGUSR1 registered through the 32-bit rt_sigaction, then
 * raise(SIGUSR1): the child exits 42 if the 32-bit handler ran.  arg: turn
 * the shadow stack off first.
 */
static void do_ia32_signal(void *arg)
{
	uint8_t *low = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	struct sigaction_ia32 *act;

	if (arg && arch_prctl(ARCH_X86_CET_DISABLE, FEATURE_SHSTK))
		_exit(2);
	if (low == MAP_FAILED || (uintptr_t)low >= (1UL << 32))
		_exit(3);
	memcpy(low, ia32_exit42, ia32_exit42_end - ia32_exit42);
	act = (struct sigaction_ia32 *)(low + 2048);
	memset(act, 0, sizeof(*act));
	act->handler = (uint32_t)(uintptr_t)low;
	if (int80(174 /* rt_sigaction */, SIGUSR1, (long)(uintptr_t)act, 0, 8))
		_exit(4);
	raise(SIGUSR1);
	_exit(5);
}

/* struct sigcontext_32 (asm/sigcontext.h clashes with glibc's) */
struct sigcontext_ia32 {
	uint16_t gs, gsh, fs, fsh, es, esh, ds, dsh;
	uint32_t di, si, bp, sp, bx, dx, cx, ax, trapno, err, ip;
	uint16_t cs, csh;
	uint32_t flags, sp_at_signal;
	uint16_t ss, ssh;
	uint32_t fpstate, oldmask, cr2;
};

static uint8_t ia32_frame[1024] __attribute__((aligned(16)));

static void __attribute__((noreturn)) int80_at(uint64_t sp, long nr)
{
	asm volatile("mov %0, %%rsp\n\t"
		     "int $0x80\n\t"
		     "ud2"
		     :
		     : "r"(sp), "a"(nr)
		     : "memory");
	__builtin_unreachable();
}

/*
 * A 32-bit sigreturn (arg bit 0 clear: sigreturn, the frame at the stack
 * pointer minus 8; set: rt_sigreturn, minus 4) with a frame built from
 * nothing: all zero (no blocked signals, no altstack, fpstate NULL) but a
 * sigcontext that lands in landed() in 64-bit mode, which exits 0.  Bit 1:
 * turn the shadow stack off first.
 */
static void do_ia32_sigreturn(void *arg)
{
	long how = (long)arg;
	int rt = how & 1;
	/* rt: pretcode, sig, pinfo, puc, siginfo (128), uc_flags, uc_link, uc_stack (12) */
	struct sigcontext_ia32 *sc = (void *)(ia32_frame + (rt ? 164 : 8));

	if ((how & 2) && arch_prctl(ARCH_X86_CET_DISABLE, FEATURE_SHSTK))
		_exit(2);
	if ((uintptr_t)landed >= (1UL << 32) || (uintptr_t)&scratch_stack[1000] >= (1UL << 32))
		_exit(3);
	memset(ia32_frame, 0, sizeof(ia32_frame));
	sc->ip = (uint32_t)(uintptr_t)landed;
	sc->sp = (uint32_t)(uintptr_t)&scratch_stack[1000];
	sc->cs = USER_CS_64;
	sc->ss = sc->ds = sc->es = USER_DS;
	int80_at((uint64_t)(uintptr_t)ia32_frame + (rt ? 4 : 8), rt ? 173 : 119);
}

static void test_ia32(void)
{
	static const char *const how[] = { "sigreturn", "rt_sigreturn" };
	struct user_regs_struct regs = { 0 };
	siginfo_t si = { 0 };
	int r, control, ok = 1;
	char detail[400];
	size_t len = 0;

	r = child_status_regs(do_ia32_signal, NULL, &si, &regs);
	control = child_status(do_ia32_signal, (void *)1L, NULL);
	check("hw.shstk.ia32_signal_refused",
	      r == -SIGSEGV && si.si_code == SI_KERNEL && regs.cs == USER_CS_64 && control == 42,
	      "child %d, signal %d code %#x, at cs %#llx rip %#llx (SIGSEGV with SI_KERNEL in "
	      "64-bit code expected, no 32-bit frame; 42: the 32-bit handler ran); after "
	      "ARCH_X86_CET_DISABLE: child %d (42 expected)",
	      r, si.si_signo, si.si_code, (unsigned long long)regs.cs, (unsigned long long)regs.rip,
	      control);

	detail[0] = '\0';
	for (long i = 0; i < 2; i++) {
		memset(&si, 0, sizeof(si));
		r = child_status(do_ia32_sigreturn, (void *)i, &si);
		control = child_status(do_ia32_sigreturn, (void *)(i | 2), NULL);
		ok &= r == -SIGSEGV && si.si_code == SI_KERNEL && control == 0;
		len += snprintf(detail + len, sizeof(detail) - len,
				"%s%s: child %d signal %d code %#x, after ARCH_X86_CET_DISABLE "
				"child %d",
				i ? "; " : "", how[i], r, si.si_signo, si.si_code, control);
	}
	check("hw.shstk.ia32_sigreturn_refused", ok,
	      "%s (SIGSEGV with SI_KERNEL expected, and 0, the frame taken, without the "
	      "shadow stack)",
	      detail);
}

/*
 * exec of a 32-bit program marked for shadow stacks (/tests/ia32-shstk)
 * from a task with one: the kernel reads its note but gives it no shadow
 * stack, and it runs: a call and return, a 32-bit signal round trip.
 * Read at the exec stop: its features, its note, its "ss" mappings.
 */
static const char ia32_prog[] = "/tests/ia32-shstk";

static void test_exec_32bit(void)
{
	char thr[256] = "?", elf[256] = "?", path[64];
	int ws = 0, n_ss = -1, r = -1;
	pid_t pid = fork();

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execl(ia32_prog, ia32_prog, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &ws, 0);
	if (WIFSTOPPED(ws) && WSTOPSIG(ws) == SIGTRAP) {
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
		status_field(path, "x86_Thread_features", thr, sizeof(thr));
		status_field(path, "x86_Elf_features", elf, sizeof(elf));
		n_ss = smaps_shadow_stacks(pid, 0, NULL);
		ptrace(PTRACE_CONT, pid, NULL, NULL);
		waitpid(pid, &ws, 0);
		pass_signals_until_fault(pid, &ws);
	}
	if (WIFSTOPPED(ws)) {
		r = -WSTOPSIG(ws);
		kill(pid, SIGKILL);
		waitpid(pid, &ws, 0);
	} else if (WIFEXITED(ws)) {
		r = WEXITSTATUS(ws);
	}
	check("hw.shstk.exec_32bit",
	      r == 0 && thr[0] == '\0' && !strcmp(elf, "0x2 shstk from=executable") && n_ss == 0,
	      "%s: exit %d (0 ok; 1 call/return, 2 rt_sigaction, 3 kill, 4 handler; 127 exec; "
	      "negative: signal), x86_Thread_features '%s' (none expected), "
	      "x86_Elf_features '%s', %d ss mappings (0 expected)",
	      ia32_prog, r, thr, elf, n_ss);
}

/*
 * A shadow stack that cannot be mapped at exec.  The kernel maps it after
 * exec's point of no return, where an error kills the program with
 * SIGSEGV; instead the program must run without one, STATUS saying so,
 * and the kernel log one line.  This program, exec'd with --report-status
 * under the limits given, prints its STATUS and features and exits 0.
 */
static const char self_prog[] = "/tests/shstktest";

static void report_status(void)
{
	uint64_t st[3] = { 0, 0, 0 };
	char thr[256] = "";
	long r = arch_prctl(ARCH_X86_CET_STATUS, (unsigned long)st);

	status_field("/proc/self/status", "x86_Thread_features", thr, sizeof(thr));
	printf("%ld %#llx %#llx %#llx '%s'\n", r, (unsigned long long)st[0],
	       (unsigned long long)st[1], (unsigned long long)st[2], thr);
}

/* Exec self_prog --report-status under the limits: its exit (or -signal) and output */
static int exec_with_limits(rlim_t stack, rlim_t as, char *out, size_t len, pid_t *child)
{
	int fds[2], ws = 0;
	ssize_t n = 0, got;
	pid_t pid;

	out[0] = '\0';
	if (pipe(fds))
		return -1000;
	pid = fork();
	if (pid == 0) {
		struct rlimit rs = { stack, stack }, ra = { as, as };

		dup2(fds[1], 1);
		close(fds[0]);
		if (setrlimit(RLIMIT_STACK, &rs) || setrlimit(RLIMIT_AS, &ra))
			_exit(126);
		execl(self_prog, self_prog, "--report-status", (char *)NULL);
		_exit(127);
	}
	*child = pid;
	close(fds[1]);
	while (len > 1 && (got = read(fds[0], out + n, len - 1 - n)) > 0) {
		n += got;
		if ((size_t)n >= len - 1)
			break;
	}
	out[n > 0 ? n : 0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	close(fds[0]);
	waitpid(pid, &ws, 0);
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? -WTERMSIG(ws) : -1001;
}

static int klog_has(const char *needle)
{
	static char log[1 << 17];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);

	if (n < 0)
		return 0;
	log[n] = '\0';
	return strstr(log, needle) != NULL;
}

static void test_exec_no_room(void)
{
	char out[512], want_log[128];
	unsigned long long feat = ~0ULL, base = ~0ULL, size = ~0ULL;
	long ret = -1;
	pid_t pid = 0;
	int r;

	/* A 64 MiB shadow stack cannot fit under a 32 MiB address-space limit */
	r = exec_with_limits(64UL << 20, 32UL << 20, out, sizeof(out), &pid);
	sscanf(out, "%ld %llx %llx %llx", &ret, &feat, &base, &size);
	snprintf(want_log, sizeof(want_log), "shstktest[%d]: no shadow stack at exec", (int)pid);
	check("hw.shstk.exec_no_room_runs_without",
	      r == 0 && ret == 0 && feat == 0 && base == 0 && size == 0 &&
		      strstr(out, "''") && klog_has(want_log),
	      "RLIMIT_STACK 64 MiB, RLIMIT_AS 32 MiB: exit %d (negative: signal; 126 "
	      "setrlimit, 127 exec), STATUS and features '%s' (want 0 0x0 0x0 0x0 ''), "
	      "log line '%s' %s", r, out, want_log,
	      klog_has(want_log) ? "found" : "not found");

	/*
	 * An unlimited stack limit: a 4 GiB shadow stack, more than this
	 * guest's memory, which only an uncharged (MAP_NORESERVE) mapping
	 * gets under the default overcommit heuristic.
	 */
	ret = -1;
	feat = base = size = ~0ULL;
	r = exec_with_limits(RLIM_INFINITY, RLIM_INFINITY, out, sizeof(out), &pid);
	sscanf(out, "%ld %llx %llx %llx", &ret, &feat, &base, &size);
	check("hw.shstk.exec_stack_unlimited",
	      r == 0 && ret == 0 && (feat & FEATURE_SHSTK) && base && size == 4ULL << 30,
	      "RLIMIT_STACK unlimited: exit %d (negative: signal), STATUS and features '%s' "
	      "(want the shadow stack on, 4 GiB)", r, out);
}

/*
 * clone(CLONE_VM | CLONE_SETTLS) with a TLS at or above TASK_SIZE_MAX:
 * copy_thread() fails (EPERM) after the child's shadow stack was mapped,
 * and copy_process() calls no exit_thread() then, so the stack must be
 * freed there.  Should such a clone succeed, the child exits at once on
 * its own stack.
 */
static long clone_bad_tls(void *stack)
{
	register long r10 asm("r10") = 0;
	register long r8 asm("r8") = (long)0xffff800000000000UL;
	long ret;

	asm volatile("syscall\n\t"
		     "test %%rax, %%rax\n\t"
		     "jnz 1f\n\t"
		     "mov $60, %%eax\n\t"
		     "xor %%edi, %%edi\n\t"
		     "syscall\n"
		     "1:"
		     : "=a"(ret)
		     : "a"((long)SYS_clone), "D"((long)(CLONE_VM | CLONE_SETTLS | SIGCHLD)),
		       "S"(stack), "d"(0L), "r"(r10), "r"(r8)
		     : "rcx", "r11", "memory");
	return ret;
}

static void test_clone_fails_no_leak(void)
{
	static uint8_t stack[16384] __attribute__((aligned(16)));
	int before = smaps_shadow_stacks(0, 0, NULL), after, eperm = 0, other = 0;
	long last = 0;

	for (int i = 0; i < 1000; i++) {
		long r = clone_bad_tls(stack + sizeof(stack));

		if (r == -EPERM) {
			eperm++;
		} else {
			other++;
			last = r;
			if (r > 0)
				waitpid(r, NULL, 0);
		}
	}
	after = smaps_shadow_stacks(0, 0, NULL);
	check("hw.shstk.clone_fails_no_leak", eperm == 1000 && after == before,
	      "1000 clone(CLONE_VM | CLONE_SETTLS, tls 0xffff800000000000): %d EPERM, %d "
	      "other (last %ld); ss mappings %d before, %d after", eperm, other, last,
	      before, after);
}

/*
 * A child with a shadow stack in the last user page, stopped: a debugger
 * may move its SSP to USER_TOP - 8 (the entry below is in the mapping)
 * but not to USER_TOP itself, which sigreturn would refuse too.
 */
static void test_ptrace_ssp_user_top(void)
{
	long m = -1, r_below, r_top, r_cet_top;
	int ws, e_top = 0, e_cet_top = 0;
	uint64_t ssp, cet[2] = { 0, 0 };
	struct iovec iov = { &ssp, sizeof(ssp) };
	pid_t pid = fork();

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		if (map_shadow_stack(USER_TOP - 4096, 4096, 0) != (long)(USER_TOP - 4096))
			_exit(2);
		raise(SIGSTOP);
		_exit(0);
	}
	waitpid(pid, &ws, 0);
	if (!WIFSTOPPED(ws)) {
		report("hw.shstk.ptrace_ssp_user_top", "fail",
		       "child could not map a shadow stack at %#lx: status %#x", USER_TOP - 4096,
		       ws);
		return;
	}
	m = USER_TOP - 4096;
	ssp = USER_TOP - 8;
	r_below = ptrace(PTRACE_SETREGSET, pid, (void *)NT_X86_SHSTK, &iov);
	ssp = USER_TOP;
	errno = 0;
	r_top = ptrace(PTRACE_SETREGSET, pid, (void *)NT_X86_SHSTK, &iov);
	e_top = errno;
	iov.iov_base = cet;
	iov.iov_len = sizeof(cet);
	if (ptrace(PTRACE_GETREGSET, pid, (void *)NT_X86_CET, &iov) == 0) {
		cet[1] = USER_TOP;
		errno = 0;
		r_cet_top = ptrace(PTRACE_SETREGSET, pid, (void *)NT_X86_CET, &iov);
		e_cet_top = errno;
	} else {
		r_cet_top = -2;
	}
	end_child(pid);
	check("hw.shstk.ptrace_ssp_user_top",
	      r_below == 0 && r_top == -1 && e_top == EINVAL && r_cet_top == -1 &&
		      e_cet_top == EINVAL,
	      "shadow stack at %#lx: SSP %#lx via NT_X86_SHSTK %ld, SSP %#lx (TASK_SIZE_MAX) "
	      "%ld (%s), via NT_X86_CET %ld (%s)",
	      m, USER_TOP - 8, r_below, USER_TOP, r_top,
	      r_top ? strerrorname_np(e_top) : "accepted", r_cet_top,
	      r_cet_top == -1 ? strerrorname_np(e_cet_top) : "accepted");
}

static void test_hardware(void)
{
	const char *why = cet_kernel ? "needs a CPU with shadow stacks (QEMU TCG has none)" :
			  "needs the CET kernel";
	static const char *const names[] = {
		"hw.shstk.ret_mismatch_cperr", "hw.shstk.signal_round_trip",
		"hw.shstk.store_refused", "hw.shstk.gup_write_refused",
		"hw.shstk.mprotect_refused", "hw.shstk.map_token",
		"hw.shstk.map_fixed_noreplace", "hw.shstk.wrss_enable",
		"hw.shstk.ptrace_ssp", "hw.shstk.smaps_ss", "hw.shstk.userfaultfd",
		"hw.shstk.signal_token", "hw.shstk.signal_token_rstorssp",
		"hw.shstk.sigreturn_fpstate_null", "hw.shstk.sigreturn_odd_ssp",
		"hw.shstk.sigreturn_restore_token", "hw.shstk.sigreturn_replayed",
		"hw.shstk.sigreturn_no_signal", "hw.shstk.madv_dontneed_wrss",
		"hw.shstk.proc_mem_cow", "hw.shstk.ptrace_ssp_bad",
		"hw.shstk.ptrace_ssp_user_top", "hw.shstk.restorer_token_refused",
		"hw.shstk.pivot", "hw.shstk.pivot_bad_token",
		"hw.shstk.alloc_shstk", "hw.shstk.alloc_shstk_needs_shstk",
		"hw.shstk.ia32_signal_refused", "hw.shstk.ia32_sigreturn_refused",
		"hw.shstk.exec_32bit", "hw.shstk.exec_no_room_runs_without",
		"hw.shstk.exec_stack_unlimited", "hw.shstk.clone_fails_no_leak",
		"hw.shstk.guard_gap", "hw.shstk.uretprobe", "hw.shstk.uprobe_call",
		"hw.shstk.uprobe_call_indirect",
	};
	uint64_t st[3] = { 0, 0, 0 };
	siginfo_t si = { 0 };
	int r, fds[2];

	if (!cpu_shstk) {
		for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			report(names[i], "skip", "%s", why);
		return;
	}
	arch_prctl(ARCH_X86_CET_STATUS, (unsigned long)st);

	r = child_status(do_smash, NULL, &si);
	check("hw.shstk.ret_mismatch_cperr", r < 0 && si.si_signo == SIGSEGV &&
	      si.si_code == SEGV_CPERR_CODE, "child %d, signal %d code %d", r,
	      si.si_signo, si.si_code);

	unsigned long before = rdssp();

	signal(SIGUSR1, on_signal);
	raise(SIGUSR1);
	check("hw.shstk.signal_round_trip", rdssp() == before && handler_ssp &&
	      handler_ssp < before, "SSP %#lx before, %#lx in the handler, %#lx after",
	      before, handler_ssp, rdssp());

	si.si_code = 0;
	r = child_status(do_store, (void *)(st[1] + st[2] - 8), &si);
	check("hw.shstk.store_refused", r < 0 && si.si_signo == SIGSEGV,
	      "a MOV to the shadow stack: child %d, signal %d", r, si.si_signo);

	if (!pipe(fds)) {
		long n = write(fds[1], "12345678", 8);

		if (n == 8)
			n = read(fds[0], (void *)(st[1] + st[2] - 4096), 8);
		check("hw.shstk.gup_write_refused", n == -1 && errno == EFAULT,
		      "read() into the shadow stack returned %ld (%s)", n, strerror(errno));
		close(fds[0]);
		close(fds[1]);
	}

	errno = 0;
	r = mprotect((void *)st[1], 4096, PROT_READ);
	check("hw.shstk.mprotect_refused", r == -1 && errno == EINVAL,
	      "mprotect(PROT_READ) of the shadow stack: %d (%s)", r, strerror(errno));

	long a = map_shadow_stack(0, 8192, SHADOW_STACK_SET_TOKEN);
	long b = map_shadow_stack(0, 8192, 0);

	check("hw.shstk.map_token", a > 0 && b > 0 &&
	      *(uint64_t *)(a + 8192 - 8) == (uint64_t)((a + 8192) | 1) &&
	      *(uint64_t *)(b + 8192 - 8) == 0,
	      "with token %#lx, without %#lx", a, b);
	if (b > 0) {
		munmap((void *)b, 8192);
		long c = map_shadow_stack(b, 8192, 0);

		errno = 0;
		long d = map_shadow_stack(b, 8192, 0);
		int err = errno;

		check("hw.shstk.map_fixed_noreplace", c == b && d == -1 && err == EEXIST,
		      "at %#lx: %#lx, again: %ld (%s)", b, c, d, strerrorname_np(err));
	}
	long m = map_shadow_stack(0, 4096, SHADOW_STACK_SET_TOKEN);

	if (m > 0) {
		volatile uint64_t *q = (volatile uint64_t *)m;
		uint64_t token = q[511];
		int r1, r2, r3;

		r1 = child_status(do_wrss_refault, (void *)&q[0], &si);
		check("hw.shstk.madv_dontneed_wrss", r1 == 0 || r1 == 1,
		      "child %d (0 ok with MADV_DONTNEED, 1 ok unmapped and remapped as "
		      "madvise() is ENOSYS; 2 prctl, 3 first WRSS, 100 + errno madvise "
		      "or remap, 5 not empty, 6 second WRSS; negative: signal)", r1);

		r1 = child_status(do_proc_mem_write, (void *)&q[1], &si);
		r2 = proc_mem_write(&q[2], 0x4444);
		si.si_signo = 0;
		r3 = child_status(do_store, (void *)&q[2], &si);
		check("hw.shstk.proc_mem_cow", r1 == 0 && q[0] == 0 && q[1] == 0 &&
		      r2 == 0 && q[2] == 0x4444 && r3 < 0 && si.si_signo == SIGSEGV &&
		      q[511] == token && token == ((uint64_t)(m + 4096) | 1),
		      "child's write %d, parent sees %#llx %#llx, parent's own write %d "
		      "reads %#llx, a MOV there after it: child %d signal %d, token %#llx",
		      r1, (unsigned long long)q[0], (unsigned long long)q[1], r2,
		      (unsigned long long)q[2], r3, si.si_signo, (unsigned long long)q[511]);
		munmap((void *)m, 4096);
	} else {
		report("hw.shstk.madv_dontneed_wrss", "fail", "map_shadow_stack: %ld", m);
		report("hw.shstk.proc_mem_cow", "fail", "map_shadow_stack: %ld", m);
	}

	char thr[256];

	r = arch_prctl(ARCH_X86_CET_WRSS, 1);
	status_field("/proc/self/status", "x86_Thread_features", thr, sizeof(thr));
	check("hw.shstk.wrss_enable", r == 0 && !strcmp(thr, "shstk wrss"),
	      "ARCH_X86_CET_WRSS: %d, features '%s'", r, thr);
	arch_prctl(ARCH_X86_CET_WRSS, 0);

	pid_t pid = stopped_child();
	uint64_t ssp = 0;
	struct iovec iov = { &ssp, sizeof(ssp) };
	long g = ptrace(PTRACE_GETREGSET, pid, (void *)NT_X86_SHSTK, &iov);
	uint64_t ok_ssp = ssp, bad = ssp + 1;
	long s_same, s_unaligned, s_ordinary;

	iov.iov_base = &ok_ssp;
	s_same = ptrace(PTRACE_SETREGSET, pid, (void *)NT_X86_SHSTK, &iov);
	iov.iov_base = &bad;
	s_unaligned = ptrace(PTRACE_SETREGSET, pid, (void *)NT_X86_SHSTK, &iov);
	bad = (uint64_t)&thr[64] & ~7UL;
	s_ordinary = ptrace(PTRACE_SETREGSET, pid, (void *)NT_X86_SHSTK, &iov);
	check("hw.shstk.ptrace_ssp", g == 0 && ssp > st[1] && ssp <= st[1] + st[2] &&
	      s_same == 0 && s_unaligned == -1 && s_ordinary == -1,
	      "get %ld ssp %#llx, set same %ld, unaligned %ld, ordinary memory %ld",
	      g, (unsigned long long)ssp, s_same, s_unaligned, s_ordinary);

	/* A kernel address (aligned) and a buffer too short for the SSP */
	uint64_t kernel_ssp = 0xffff800000001000ULL;
	long s_kernel, s_short;
	int e_kernel, e_short;

	iov.iov_base = &kernel_ssp;
	errno = 0;
	s_kernel = ptrace(PTRACE_SETREGSET, pid, (void *)NT_X86_SHSTK, &iov);
	e_kernel = errno;
	iov.iov_base = &ok_ssp;
	iov.iov_len = 4;
	errno = 0;
	s_short = ptrace(PTRACE_SETREGSET, pid, (void *)NT_X86_SHSTK, &iov);
	e_short = errno;
	check("hw.shstk.ptrace_ssp_bad", s_kernel == -1 && e_kernel == EINVAL &&
	      s_short == -1 && e_short == EINVAL,
	      "kernel-range SSP: %ld (%s), 4-byte iov: %ld (%s)", s_kernel,
	      strerrorname_np(e_kernel), s_short, strerrorname_np(e_short));
	end_child(pid);
	test_ptrace_ssp_user_top();

	int found, n_ss = smaps_shadow_stacks(0, st[1], &found);

	check("hw.shstk.smaps_ss", found, "%d ss mappings, the shadow stack %#llx %s", n_ss,
	      (unsigned long long)st[1], found ? "among them" : "not among them");
	test_userfaultfd();
	test_signal_frames();
	test_pivot();
	test_alloc_shstk();
	test_ia32();
	test_exec_32bit();
	test_exec_no_room();
	test_clone_fails_no_leak();
	test_guard_gaps();
	test_uprobes();
}

int main(int argc, char **argv)
{
	const char *variant = getenv("elfcet_variant");
	uint64_t st[3] = { 0, 0, 0 };

	if (argc == 2 && !strcmp(argv[1], "--report-status")) {
		report_status();
		return 0;
	}

	cet_kernel = !variant || !strcmp(variant, "cet");
	cpu_shstk = cet_kernel && !arch_prctl(ARCH_X86_CET_STATUS, (unsigned long)st) &&
		    (st[0] & FEATURE_SHSTK);

	test_boot_line();
	test_status();
	test_map_shadow_stack();
	test_arch_prctl();
	test_ptrace();
	test_ordinary_memory();
	test_shared_file();
	test_hardware();
	printf("{\"data\":\"shstk-summary\",\"failures\":%d}\n", failures);
	return failures ? 1 : 0;
}
