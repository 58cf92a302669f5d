// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest tests of the elfcet user-CET series.  Runs as /tests/cettest in
 * the initramfs and prints one JSON object per check on stdout:
 *   {"test":NAME,"result":"pass"|"fail"|"skip","detail":TEXT}
 * plus {"data":NAME,...} lines the host compares across kernels.
 *
 * The kernel variant under test (cet, nocet, unpatched) comes from the
 * environment (elfcet_variant=, set on the kernel command line), and
 * decides what is expected.  Checks that need a CPU with CET skip with
 * the reason when the CPU has none.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <elf.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/klog.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "guest_check.h"

#define ARCH_X86_CET_STATUS	0x3001
#define ARCH_X86_CET_DISABLE	0x3002
#define ARCH_X86_CET_LOCK	0x3003
#define NT_X86_CET		0x203
#define FEATURE_IBT		1UL
#define FEATURE_SHSTK		2UL
#define VSYSCALL_TIME		0xffffffffff600400UL

static int cet_kernel;		/* the series with CONFIG_X86_CET */
static int cpu_user_ibt;	/* "user_ibt" in /proc/cpuinfo */
static int user_cet_offered;	/* "user_ibt" or "user_shstk" in /proc/cpuinfo */
static const char *variant;

static void test_arch_prctl(void)
{
	uint64_t st[3] = { 7, 7, 7 };
	long r;

	r = arch_prctl(ARCH_X86_CET_STATUS, (unsigned long)st);
	if (!cet_kernel) {
		check_errno("arch_prctl.status.unknown_without_cet", r, EINVAL);
		return;
	}
	check("arch_prctl.status", r == 0 && st[0] == 0 && st[1] == 0 && st[2] == 0,
	      "ret=%ld status={%#llx,%#llx,%#llx}, expected 0 and {0,0,0} for a task without CET",
	      r, (unsigned long long)st[0], (unsigned long long)st[1],
	      (unsigned long long)st[2]);
	check_errno("arch_prctl.status.bad_pointer",
		    arch_prctl(ARCH_X86_CET_STATUS, 8), EFAULT);
	check_errno("arch_prctl.disable.unknown_bits",
		    arch_prctl(ARCH_X86_CET_DISABLE, 4), EINVAL);
	check_errno("arch_prctl.lock.nonzero_arg",
		    arch_prctl(ARCH_X86_CET_LOCK, 1), EINVAL);
	check_errno("arch_prctl.unknown_option", arch_prctl(0x30ff, 0), EINVAL);
	if (!cpu_user_ibt) {
		check_errno("arch_prctl.disable.no_cpu_support",
			    arch_prctl(ARCH_X86_CET_DISABLE, FEATURE_IBT), EOPNOTSUPP);
		check_errno("arch_prctl.lock.no_cpu_support",
			    arch_prctl(ARCH_X86_CET_LOCK, 0), EOPNOTSUPP);
		report("arch_prctl.disable_after_lock", "skip",
		       "needs a CPU with CET (no user_ibt in /proc/cpuinfo)");
		return;
	}
	/* CET hardware: LOCK then DISABLE is EPERM (in a child: it sticks) */
	pid_t pid = fork();

	if (pid == 0) {
		if (arch_prctl(ARCH_X86_CET_LOCK, 0))
			_exit(1);
		_exit(arch_prctl(ARCH_X86_CET_DISABLE, FEATURE_IBT) == -1 &&
		      errno == EPERM ? 0 : 2);
	}
	int ws;

	waitpid(pid, &ws, 0);
	check("arch_prctl.disable_after_lock", WIFEXITED(ws) && WEXITSTATUS(ws) == 0,
	      "child status %#x (0: EPERM after LOCK)", ws);
}

static void test_status_lines(void)
{
	char buf[256];
	const char *keys[] = { "x86_Thread_features", "x86_Thread_features_locked",
			       "x86_Elf_features" };

	for (unsigned int i = 0; i < 3; i++) {
		char name[96];
		char *v = status_field("/proc/self/status", keys[i], buf, sizeof(buf));

		snprintf(name, sizeof(name), "proc_status.%s", keys[i]);
		if (cet_kernel)
			check(name, v != NULL, "line %s", v ? "present" : "missing");
		else
			check(name, v == NULL, "line %s (expected none without CET)",
			      v ? "present" : "absent");
	}
	if (!cet_kernel)
		return;
	status_field("/proc/self/status", "x86_Thread_features", buf, sizeof(buf));
	check("proc_status.no_features", buf[0] == '\0',
	      "x86_Thread_features of this task: '%s'", buf);
	status_field("/proc/self/status", "x86_Elf_features", buf, sizeof(buf));
	check("proc_status.elf_features.self", !strcmp(buf, "none from=executable"),
	      "static test driver without note: '%s'", buf);
	/* A kernel thread never exec'd an ELF file */
	status_field("/proc/2/status", "x86_Elf_features", buf, sizeof(buf));
	check("proc_status.elf_features.kthread", !strcmp(buf, "none from=-"),
	      "kthreadd: '%s'", buf);
}

/* The kernel log so far, NUL-terminated, or NULL (errno set) */
static const char *kernel_log(void)
{
	static char log[1 << 17];
	int n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);

	if (n <= 0 || n >= (int)sizeof(log))
		n = sizeof(log) - 1;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, n);
	if (n < 0)
		return NULL;
	log[n] = '\0';
	return log;
}

/* The kernel's one boot line about user IBT, and no_user_ibt */
static void test_boot_param(void)
{
	char cmdline[1024] = "";
	const char *log;
	FILE *f;

	if (!cet_kernel)
		return;
	log = kernel_log();
	if (!log) {
		report("boot.user_ibt_line", "fail", "klogctl: %s", strerror(errno));
		return;
	}
	f = fopen("/proc/cmdline", "r");
	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = '\0';
		fclose(f);
	}
	int disabled = strstr(cmdline, "no_user_ibt") != NULL;
	const char *want = disabled ? "x86/cet: user IBT: off (disabled by no_user_ibt)" :
			   cpu_user_ibt ? "x86/cet: user IBT: available" :
			   "x86/cet: user IBT: off (not supported by the CPU)";
	check(disabled ? "boot.no_user_ibt" : "boot.user_ibt_line",
	      strstr(log, want) != NULL, "expected log line '%s'", want);
	if (disabled)
		check("boot.no_user_ibt.cpuinfo", !cpuinfo_has_flag("user_ibt"),
		      "user_ibt must not be in /proc/cpuinfo");
}

struct note_case {
	const char *prog;
	const char *elf_features;	/* expected x86_Elf_features, or NULL */
	int exec_errno;			/* expected exec failure, 0 = runs */
	/* a malformed note where no user CET is offered: x86_Elf_features */
	const char *ignored_features;
};

/*
 * What the CET kernel must make of each note test program.  A malformed
 * note is ENOEXEC only where a user CET feature is offered; elsewhere
 * (no CPU support, or no_user_ibt no_user_shstk) the program runs as if
 * it had no note, as it does on a kernel without the series.
 */
static const struct note_case note_cases[] = {
	{ "note-none", "none from=executable", 0, NULL },
	{ "note-ibt", "0x1 ibt from=executable", 0, NULL },
	{ "note-ibt-shstk", "0x3 ibt shstk from=executable", 0, NULL },
	{ "note-zero", "0x0 from=executable", 0, NULL },
	{ "note-other", "none from=executable", 0, NULL },
	{ "note-sorted", "0x1 ibt from=executable", 0, NULL },
	{ "note-unsorted", NULL, ENOEXEC, "none from=executable" },
	{ "note-bad-datasz", NULL, ENOEXEC, "none from=executable" },
	{ "note-bad-name", NULL, ENOEXEC, "none from=executable" },
	{ "note-overrun", NULL, ENOEXEC, "none from=executable" },
	{ "interp-ibt", "0x1 ibt from=executable", 0, NULL },
	{ "prog-interp-ibt", "0x1 ibt from=interpreter", 0, NULL },
	{ "prog-ibt-interp-none", "none from=interpreter", 0, NULL },
	{ "prog-interp-bad", NULL, ENOEXEC, "none from=interpreter" },
};

/*
 * Run one program under ptrace: read its status lines while it is stopped
 * right after exec, then let it run to its exit.  An exec failure comes
 * back as exit status 100 + errno from the child.
 */
static void test_note_case(const struct note_case *c)
{
	char path[128], name[128], statpath[64];
	char elf[256] = "", thr[256] = "";
	int ws, first_ws, exec_errno = 0, exit_code = -1;
	pid_t pid;

	snprintf(path, sizeof(path), "/tests/%s", c->prog);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { path, NULL };

		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execv(path, argv);
		_exit(100 + errno);
	}
	waitpid(pid, &ws, 0);
	first_ws = ws;
	if (WIFSTOPPED(ws) && WSTOPSIG(ws) == SIGTRAP) {
		snprintf(statpath, sizeof(statpath), "/proc/%d/status", pid);
		if (!status_field(statpath, "x86_Elf_features", elf, sizeof(elf)))
			snprintf(elf, sizeof(elf), "(no line)");
		status_field(statpath, "x86_Thread_features", thr, sizeof(thr));
		ptrace(PTRACE_CONT, pid, NULL, NULL);
		waitpid(pid, &ws, 0);
	}
	if (WIFEXITED(ws)) {
		exit_code = WEXITSTATUS(ws);
		if (exit_code >= 100)
			exec_errno = exit_code - 100;
	}

	snprintf(name, sizeof(name), "note.%s", c->prog);
	if (!cet_kernel) {
		/* 6.1 and the CET-off build read no property at all */
		check(name, exit_code == 42 && !strcmp(elf, "(no line)"),
		      "exit=%d status_line='%s' (wait %#x, %#x), expected exit 42 and no line",
		      exit_code, elf, first_ws, ws);
		return;
	}
	if (c->exec_errno && !user_cet_offered) {
		check(name, exit_code == 42 && !strcmp(elf, c->ignored_features) && thr[0] == '\0',
		      "no user CET offered: exit=%d x86_Elf_features='%s' (expected exit 42 and "
		      "'%s') x86_Thread_features='%s' (wait %#x, %#x)",
		      exit_code, elf, c->ignored_features, thr, first_ws, ws);
		return;
	}
	if (c->exec_errno) {
		check(name, exec_errno == c->exec_errno,
		      "expected exec to fail with %s, got exit=%d (%s)",
		      strerrorname_np(c->exec_errno), exit_code,
		      exec_errno ? strerrorname_np(exec_errno) : "exec succeeded");
		return;
	}
	check(name, exit_code == 42 && !strcmp(elf, c->elf_features) &&
	      (cpu_user_ibt || thr[0] == '\0'),
	      "exit=%d x86_Elf_features='%s' (expected '%s') x86_Thread_features='%s' (wait %#x, %#x)",
	      exit_code, elf, c->elf_features, thr, first_ws, ws);
}

static void test_notes(void)
{
	static const char ignored_line[] =
		"x86/cet: malformed ELF property note ignored: no user CET is offered";
	const char *log;

	for (unsigned int i = 0; i < sizeof(note_cases) / sizeof(note_cases[0]); i++)
		test_note_case(&note_cases[i]);

	/* The first malformed note the kernel ignores is logged, once */
	if (!cet_kernel)
		return;
	log = kernel_log();
	if (!log) {
		report("note.malformed_ignored_logged", "fail", "klogctl: %s", strerror(errno));
		return;
	}
	static const char *const how_often[] = { "never", "once", "more than once" };
	const char *first = strstr(log, ignored_line);
	int times = first ? 1 + (strstr(first + 1, ignored_line) != NULL) : 0;

	check("note.malformed_ignored_logged", times == (user_cet_offered ? 0 : 1),
	      "'%s' logged %s (want %s: user CET %s)", ignored_line, how_often[times],
	      how_often[user_cet_offered ? 0 : 1], user_cet_offered ? "offered" : "not offered");
}

/* Call the vsyscall page's time() in a child; report how it ended. */
static void test_vsyscall(void)
{
	int ws;
	pid_t pid = fork();

	if (pid == 0) {
		time_t (*vtime)(time_t *) = (time_t (*)(time_t *))VSYSCALL_TIME;
		time_t t = vtime(NULL);

		_exit(t > 1000000000 ? 0 : 1);
	}
	waitpid(pid, &ws, 0);
	if (cet_kernel)
		check("vsyscall.sigsegv_under_cet", WIFSIGNALED(ws) && WTERMSIG(ws) == SIGSEGV,
		      "child status %#x, expected SIGSEGV", ws);
	else
		check("vsyscall.works_without_cet", WIFEXITED(ws) && WEXITSTATUS(ws) == 0,
		      "child status %#x, expected exit 0", ws);
}

/* NT_X86_CET regset of a stopped task without CET */
/* Whether a 64-bit tracee has a regset of this note type under some kernel */
static int known_regset(unsigned long type)
{
	switch (type) {
	case 1:		/* NT_PRSTATUS */
	case 2:		/* NT_PRFPREG */
	case 0x201:	/* NT_386_IOPERM */
	case 0x202:	/* NT_X86_XSTATE */
	case 0x203:	/* NT_X86_CET */
	case 0x204:	/* NT_X86_SHSTK */
		return 1;
	}
	return 0;
}

/*
 * Every other note type must be refused with EINVAL.  A regset array with
 * a hole (an index only the other view has) holds an entry of type 0 and
 * size 0, which GETREGSET with type 0 would find and divide by: a kernel
 * oops any tracer can cause.
 */
static void test_unknown_regsets(pid_t pid)
{
	static const unsigned long others[] = {
		0x46e62b7f /* NT_PRXFPREG, 32-bit only */, 0x400, 0x4000, 0x80000000UL,
		0xffffffffUL,
	};
	uint64_t buf[64];
	struct iovec iov = { buf, sizeof(buf) };
	unsigned long type, bad = 0, tried = 0;
	int bad_errno = 0, n_bad = 0;
	long r;

	r = ptrace(PTRACE_GETREGSET, pid, (void *)0UL, &iov);
	check_errno("ptrace.regset.type0", r, EINVAL);
	for (unsigned int i = 0; i < 0x300 + sizeof(others) / sizeof(others[0]); i++) {
		type = i < 0x300 ? i : others[i - 0x300];
		if (known_regset(type))
			continue;
		iov.iov_len = sizeof(buf);
		tried++;
		r = ptrace(PTRACE_GETREGSET, pid, (void *)type, &iov);
		if (r != -1 || errno != EINVAL) {
			if (!n_bad++) {
				bad = type;
				bad_errno = r == -1 ? errno : 0;
			}
		}
	}
	check("ptrace.regset.unknown_types", n_bad == 0,
	      "%lu unknown note types, %d not refused with EINVAL (first %#lx: %s)",
	      tried, n_bad, bad, n_bad ? (bad_errno ? strerrorname_np(bad_errno) : "accepted") :
					 "-");
}

static void test_ptrace_regset(void)
{
	uint64_t regs[2] = { 7, 7 };
	struct iovec iov = { regs, sizeof(regs) };
	int ws;
	long r;
	pid_t pid = fork();

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		_exit(0);
	}
	waitpid(pid, &ws, 0);
	r = ptrace(PTRACE_GETREGSET, pid, (void *)NT_X86_CET, &iov);
	if (cet_kernel)
		check_errno("ptrace.cet_regset.get_enodev", r, ENODEV);
	else
		check_errno("ptrace.cet_regset.get_unknown", r, EINVAL);
	if (cet_kernel) {
		regs[0] = regs[1] = 0;
		iov.iov_len = sizeof(regs);
		r = ptrace(PTRACE_SETREGSET, pid, (void *)NT_X86_CET, &iov);
		check_errno("ptrace.cet_regset.set_enodev", r, ENODEV);
	}
	test_unknown_regsets(pid);
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	waitpid(pid, &ws, 0);
}

static volatile long frame_uc_to_fp, frame_ext_size, frame_size, frame_fp_rule;
static volatile uintptr_t frame_sp, frame_fp;

/*
 * 6.1 places the FPU area of a 64-bit frame at
 *   round_down(sp - 128 (red zone) - size, 64)
 * where size is extended_size with XSAVE (the area then ends with
 * FP_XSTATE_MAGIC2) and the 512-byte FXSAVE area without it
 * and the ucontext at a fixed distance below it.  Record both, so the host
 * can check they are the same under every kernel: the series adds nothing
 * to the frame of a task without CET.
 */
static void frame_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	uintptr_t sp = uc->uc_mcontext.gregs[REG_RSP];
	uintptr_t fp = (uintptr_t)uc->uc_mcontext.fpregs;
	const uint32_t *sw = (const uint32_t *)(fp + 464);	/* fpx_sw_bytes */

	(void)sig;
	(void)si;
	frame_sp = sp;
	frame_fp = fp;
	frame_uc_to_fp = fp - (uintptr_t)uc;
	frame_ext_size = sw[0] == 0x46505853 ? (long)sw[1] : -1;
	if (frame_ext_size > 4 &&
	    *(const uint32_t *)(fp + frame_ext_size - 4) == 0x46505845)
		frame_size = frame_ext_size;
	else
		frame_size = 512;
	frame_fp_rule = fp == ((sp - 128 - frame_size) & ~(uintptr_t)63);
}

static void test_sigframe(void)
{
	struct sigaction sa = { .sa_sigaction = frame_handler, .sa_flags = SA_SIGINFO };

	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	printf("{\"data\":\"sigframe\",\"ucontext_to_fpstate\":%ld,"
	       "\"fpu_area_size\":%ld,\"fpstate_at_6_1_place\":%ld}\n",
	       frame_uc_to_fp, frame_size, frame_fp_rule);
	check("signal.frame_layout_6_1", frame_fp_rule && frame_ext_size > 0,
	      "fpstate %#lx at round_down(sp %#lx - 128 - %ld, 64): %s; ucontext %ld below it",
	      (unsigned long)frame_fp, (unsigned long)frame_sp, frame_size,
	      frame_fp_rule ? "yes" : "no", frame_uc_to_fp);
}

/* Dump the [vdso] mapping as hex for the host's ENDBR check. */
static void dump_vdso(void)
{
	char line[256];
	unsigned long lo = 0, hi = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			break;
	if (f)
		fclose(f);
	if (!lo || lo != getauxval(AT_SYSINFO_EHDR)) {
		report("vdso.found", "fail", "no [vdso] mapping at AT_SYSINFO_EHDR");
		return;
	}
	printf("{\"data\":\"vdso64\",\"size\":%lu,\"hex\":\"", hi - lo);
	for (const unsigned char *p = (void *)lo; p < (const unsigned char *)hi; p++)
		printf("%02x", *p);
	printf("\"}\n");
	report("vdso.found", "pass", "[vdso] %#lx-%#lx dumped", lo, hi);
}

struct ibt_case {
	const char *prog;
	/* With user IBT: exit status, or 0 for SIGSEGV with SEGV_CPERR */
	int exit_ibt;
	/* Without: the program runs unenforced */
	int exit_no_ibt;
	/* The check's name, if not "ibt." and the program's name */
	const char *test;
	/*
	 * Signal deliveries that must fail: each is a SIGSEGV with SI_KERNEL,
	 * passed on to the program's own handler
	 */
	int failed_deliveries;
	/* A uprobe at this symbol of the program plus uprobe_delta bytes */
	const char *uprobe_sym;
	int uprobe_delta;
	/* How often it fires with user IBT (once without) */
	int uprobe_hits_ibt;
};

/* IBT-marked programs making one indirect branch each (note.S BODY_*) */
static const struct ibt_case ibt_cases[] = {
	{ "ibt-call-endbr", 42, 42, NULL, 0, NULL, 0, 0 },
	{ "ibt-call-no-endbr", 0, 42, NULL, 0, NULL, 0, 0 },
	{ "ibt-notrack-jmp", 42, 42, NULL, 0, NULL, 0, 0 },
	{ "ibt-disable-then-call", 42, 43, NULL, 0, NULL, 0, 0 },
	/*
	 * DISABLE and LOCK are per thread, as upstream's ARCH_SHSTK_*: a
	 * second thread turns IBT off and locks; the main thread keeps IBT,
	 * is not locked, and its call without ENDBR is #CP.
	 */
	{ "ibt-thread-scope", 0, 43, "ibt.disable_lock_thread_scope", 0, NULL, 0, 0 },
	{ "ibt-signal-wait-endbr", 0, 42, "ibt.signal_wait_endbr_restored", 0, NULL, 0, 0 },
	{ "ibt-signal-null-fpstate", 42, 42, "ibt.signal_null_fpstate", 0, NULL, 0, 0 },
	/*
	 * The SIGTRAP frame of the single-stepped jump fails after its FPU
	 * state and IBT record are written; the SIGSEGV that replaces it
	 * must still find the tracker in WAIT_ENDBR, so the return from its
	 * handler is #CP at the target (exit 42: the target ran).
	 */
	{ "ibt-signal-frame-fails", 0, 42, "ibt.signal_frame_fails_wait_endbr", 1, NULL, 0, 0 },
	/*
	 * Uprobes at the target of the call.  The CPU takes the breakpoint
	 * that replaces the first instruction (INT3) without looking for an
	 * ENDBR and leaves the tracker in WAIT_ENDBR; the instruction then
	 * runs out of line: an ENDBR64 there ends the wait and the program
	 * runs on, anything else is a #CP after the probe fired.  A kernel
	 * that let the wait end at the breakpoint would turn every probed
	 * target into one that needs no ENDBR.  Without IBT each probe fires
	 * once and the program exits 42.
	 */
	{ "ibt-call-endbr", 42, 42, "ibt.uprobe_on_endbr", 0, "with_endbr", 0, 1 },
	{ "ibt-call-endbr", 42, 42, "ibt.uprobe_after_endbr", 0, "with_endbr", 4, 1 },
	{ "ibt-call-no-endbr", 0, 42, "ibt.uprobe_no_endbr_cperr", 0, "without_endbr", 0, 1 },
};

/* Whether [off, off + size) lies within the n bytes read, without overflow */
static bool in_file(uint64_t off, uint64_t size, size_t n)
{
	return off <= n && size <= n - off;
}

/*
 * The file offset of symbol sym of the ELF file path (its .symtab, and the
 * PT_LOAD segment that holds it), or -1.
 */
static long elf_symbol_offset(const char *path, const char *sym)
{
	FILE *f = fopen(path, "r");
	static char buf[1 << 20];
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)buf;
	const Elf64_Shdr *sh;
	const Elf64_Phdr *ph;
	uint64_t addr = 0;

	if (f)
		fclose(f);
	if (n < sizeof(*eh) || !in_file(eh->e_shoff, eh->e_shnum * sizeof(*sh), n) ||
	    !in_file(eh->e_phoff, eh->e_phnum * sizeof(*ph), n))
		return -1;
	sh = (const Elf64_Shdr *)(buf + eh->e_shoff);
	ph = (const Elf64_Phdr *)(buf + eh->e_phoff);
	for (int i = 0; i < eh->e_shnum && !addr; i++) {
		const Elf64_Shdr *strtab;
		const Elf64_Sym *syms;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		strtab = &sh[sh[i].sh_link];
		if (!in_file(sh[i].sh_offset, sh[i].sh_size, n) ||
		    !in_file(strtab->sh_offset, strtab->sh_size, n))
			continue;
		syms = (const Elf64_Sym *)(buf + sh[i].sh_offset);
		for (size_t j = 0; j < sh[i].sh_size / sizeof(*syms); j++) {
			const char *name = buf + strtab->sh_offset + syms[j].st_name;
			size_t left = strtab->sh_size - syms[j].st_name;

			/* The name must end inside the string table */
			if (syms[j].st_name < strtab->sh_size && strnlen(name, left) < left &&
			    !strcmp(name, sym))
				addr = syms[j].st_value;
		}
	}
	for (int i = 0; i < eh->e_phnum && addr; i++)
		if (ph[i].p_type == PT_LOAD && addr >= ph[i].p_vaddr &&
		    addr - ph[i].p_vaddr < ph[i].p_filesz)
			return (long)(addr - ph[i].p_vaddr + ph[i].p_offset);
	return -1;
}

/*
 * Run one IBT program under ptrace: at the exec stop read its enabled
 * features and its NT_X86_CET regset, then run it; a SIGSEGV stop is
 * examined with PTRACE_GETSIGINFO.  With CET hardware the violation must
 * end in SEGV_CPERR; without it every program must run as if unmarked.
 */
static void test_ibt_case(const struct ibt_case *c)
{
	char path[128], name[128], statpath[64], thr[256] = "?";
	uint64_t regs[2] = { 0, 0 };
	struct iovec iov = { regs, sizeof(regs) };
	siginfo_t si = { 0 };
	int ws, exit_code = -1, segv = 0, regset_errno = 0, failed = 0;
	long probe_off = -1, hits = 0;
	const char *probe_note = "";
	pid_t pid;

	snprintf(path, sizeof(path), "/tests/%s", c->prog);
	if (c->test)
		snprintf(name, sizeof(name), "%s", c->test);
	else
		snprintf(name, sizeof(name), "ibt.%s", c->prog);
	if (c->uprobe_sym) {
		probe_off = elf_symbol_offset(path, c->uprobe_sym);
		if (probe_off < 0 ||
		    uprobe_add('p', "ibt_probe", path, probe_off + c->uprobe_delta)) {
			report(name, "fail", "no uprobe at %s+%d of %s: %s", c->uprobe_sym,
			       c->uprobe_delta, path,
			       probe_off < 0 ? "symbol not found" : strerror(errno));
			uprobe_remove("ibt_probe");
			return;
		}
	}
	pid = fork();
	if (pid == 0) {
		char *argv[] = { path, NULL };

		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execv(path, argv);
		_exit(100 + errno);
	}
	waitpid(pid, &ws, 0);
	if (!WIFSTOPPED(ws) || WSTOPSIG(ws) != SIGTRAP) {
		report(name, "fail", "no exec stop (wait status %#x)", ws);
		return;
	}
	snprintf(statpath, sizeof(statpath), "/proc/%d/status", pid);
	status_field(statpath, "x86_Thread_features", thr, sizeof(thr));
	if (ptrace(PTRACE_GETREGSET, pid, (void *)NT_X86_CET, &iov))
		regset_errno = errno;
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	waitpid(pid, &ws, 0);
	pass_signals_until_fault(pid, &ws);
	while (failed < c->failed_deliveries &&
	       WIFSTOPPED(ws) && WSTOPSIG(ws) == SIGSEGV &&
	       !ptrace(PTRACE_GETSIGINFO, pid, NULL, &si) && si.si_code == SI_KERNEL) {
		failed++;
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)SIGSEGV);
		waitpid(pid, &ws, 0);
		pass_signals_until_fault(pid, &ws);
	}
	memset(&si, 0, sizeof(si));
	if (WIFSTOPPED(ws) && WSTOPSIG(ws) == SIGSEGV) {
		ptrace(PTRACE_GETSIGINFO, pid, NULL, &si);
		segv = 1;
		kill(pid, SIGKILL);
		waitpid(pid, &ws, 0);
	} else if (WIFSTOPPED(ws)) {
		kill(pid, SIGKILL);
		waitpid(pid, &ws, 0);
	}
	if (WIFEXITED(ws))
		exit_code = WEXITSTATUS(ws);
	if (c->uprobe_sym) {
		hits = uprobe_hits("ibt_probe");
		uprobe_remove("ibt_probe");
		probe_note = hits == 1 ? ", uprobe fired once" : ", uprobe not fired once";
	}

	if (cpu_user_ibt) {
		int want_cperr = c->exit_ibt == 0;
		int ok = !strcmp(thr, "ibt") && !regset_errno &&
			 (regs[0] & 0x14) == 0x14 &&	/* ENDBR_EN | NO_TRACK_EN */
			 failed == c->failed_deliveries &&
			 (want_cperr ? segv && si.si_code == 10 :
				       !segv && exit_code == c->exit_ibt) &&
			 (!c->uprobe_sym || hits == c->uprobe_hits_ibt);

		check(name, ok, "features='%s' U_CET=%#llx exit=%d segv=%d si_code=%d%s%s",
		      thr, (unsigned long long)regs[0], exit_code, segv, si.si_code,
		      failed ? " after a failed delivery (SI_KERNEL)" : "", probe_note);
		return;
	}
	check(name, thr[0] == '\0' && regset_errno == ENODEV && !segv &&
	      failed == c->failed_deliveries && exit_code == c->exit_no_ibt &&
	      (!c->uprobe_sym || hits == 1),
	      "no CPU IBT: features='%s' NT_X86_CET %s, exit=%d (expected %d, unenforced)%s%s",
	      thr, regset_errno ? strerrorname_np(regset_errno) : "readable",
	      exit_code, c->exit_no_ibt,
	      failed ? " after a failed delivery (SI_KERNEL)" : "", probe_note);
}

static void test_ibt(void)
{
	if (!cet_kernel)
		return;
	for (unsigned int i = 0; i < sizeof(ibt_cases) / sizeof(ibt_cases[0]); i++)
		test_ibt_case(&ibt_cases[i]);
}

int main(void)
{
	variant = getenv("elfcet_variant");
	if (!variant)
		variant = "cet";
	cet_kernel = !strcmp(variant, "cet");
	cpu_user_ibt = cpuinfo_has_flag("user_ibt");
	user_cet_offered = cpu_user_ibt || cpuinfo_has_flag("user_shstk");
	printf("{\"data\":\"guest\",\"variant\":");
	json_str(variant);
	printf(",\"cpu_ibt\":%d,\"cpu_user_ibt\":%d}\n", cpuinfo_has_flag("ibt"), cpu_user_ibt);

	test_arch_prctl();
	test_status_lines();
	test_boot_param();
	test_notes();
	test_vsyscall();
	test_ptrace_regset();
	test_sigframe();
	dump_vdso();
	test_ibt();
	printf("{\"data\":\"summary\",\"failures\":%d}\n", failures);
	return failures ? 1 : 0;
}
