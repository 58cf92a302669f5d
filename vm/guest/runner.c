/* elfcet guest runner: runs each job of the job list under ptrace inside the VM and
 * writes one JSON line per job on standard output (the console, between the markers
 * that /init writes).
 *
 *   runner [JOBLIST]        default /elfcet/jobs.jsonl
 *
 * For each job: fork; the child asks to be traced, stops itself so that the parent can
 * ask for an exec stop, and execs. At the exec stop the new image is loaded but has not
 * run an instruction: /proc/PID/status then shows how the kernel read the ELF property
 * note (the x86_* lines, copied as they are), and the CET regset its register state.
 * Then the job runs to its end; every signal it receives is recorded with its siginfo
 * (si_code, fault address: a control-protection fault is SIGSEGV with si_code
 * SEGV_CPERR = 10) and the instruction pointer at that stop, and passed on. An exec that fails is reported with its errno, which
 * the child sends through a close-on-exec pipe.
 *
 * Output lines (see vm/README.md):
 *   {"type":"guest", ...}     once, first: kernel, command line, CPU CET flags
 *   {"type":"job", ...}       one per job
 *   {"type":"error", ...}     a job line that could not be read
 *   {"type":"done","jobs":N}  last
 */
#define _GNU_SOURCE
#include "job_parse.h"
#include "report/json_out.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_JOBS "/elfcet/jobs.jsonl"
#define STAGED_TMP "/elfcet/tmp" /* files the host wants under /tmp (see stage_tmp) */
#define OUTPUT_FILE "/tmp/elfcet-job-output"
#define OUTPUT_KEEP 4096 /* bytes of output kept in the report */
#define OUTPUT_LINES 20
#define DEFAULT_TIMEOUT 30 /* seconds per job */
#define MAX_SIGNALS 8	   /* signals recorded per job */
#define KMSG_LINES 16	   /* kernel log lines recorded per job */
#define MAX_MAPPINGS 64	   /* file mappings recorded at the exit stop */

/* The CET user state regset of the elfcet kernel series (U_CET, PL3_SSP). */
#ifndef NT_X86_CET
#define NT_X86_CET 0x203
#endif
#ifndef SEGV_CPERR
#define SEGV_CPERR 10
#endif

long window_detach_wait(pid_t pid, siginfo_t *info); /* window.S */

static volatile sig_atomic_t alarm_rang;

static void on_alarm(int sig)
{
	(void)sig;
	alarm_rang = 1;
}

static const char *errno_name(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

static const char *signal_name(int sig)
{
	static char buf[16];
	const char *n = sigabbrev_np(sig);

	if (!n) {
		snprintf(buf, sizeof buf, "%d", sig);
		return buf;
	}
	snprintf(buf, sizeof buf, "SIG%s", n);
	return buf;
}

/* The symbolic name of a fault si_code, for the signals that have them. */
static const char *code_name(int sig, int code)
{
	if (code == SI_USER)
		return "SI_USER";
	if (code == SI_KERNEL)
		return "SI_KERNEL";
	if (code == SI_TKILL)
		return "SI_TKILL";
	if (sig == SIGSEGV) {
		switch (code) {
		case SEGV_MAPERR:
			return "SEGV_MAPERR";
		case SEGV_ACCERR:
			return "SEGV_ACCERR";
		case SEGV_BNDERR:
			return "SEGV_BNDERR";
		case SEGV_PKUERR:
			return "SEGV_PKUERR";
		case SEGV_CPERR:
			return "SEGV_CPERR";
		}
	}
	if (sig == SIGBUS) {
		switch (code) {
		case BUS_ADRALN:
			return "BUS_ADRALN";
		case BUS_ADRERR:
			return "BUS_ADRERR";
		case BUS_OBJERR:
			return "BUS_OBJERR";
		}
	}
	if (sig == SIGILL) {
		switch (code) {
		case ILL_ILLOPC:
			return "ILL_ILLOPC";
		case ILL_ILLOPN:
			return "ILL_ILLOPN";
		case ILL_PRVOPC:
			return "ILL_PRVOPC";
		}
	}
	return NULL;
}

static bool is_fault_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP;
}

static char *read_small_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, n = 0;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = malloc(cap + 1);
	while (buf) {
		ssize_t got = read(fd, buf + n, cap - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
		if (n == cap) {
			char *grown = realloc(buf, cap * 2 + 1);

			if (!grown) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = grown;
			cap *= 2;
		}
	}
	close(fd);
	if (buf)
		buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* Every "x86_*:" line of /proc/PID/status as a member "x86_...": "value": the kernel's
 * names are copied, not interpreted, so the host decides what they mean. */
static void emit_x86_status(struct json_out *j, const char *key, pid_t pid)
{
	char path[64];
	char *text, *line, *save;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	text = read_small_file(path, NULL);
	if (!text) {
		json_str(j, key, NULL);
		return;
	}
	json_open_object(j, key);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');
		const char *value;

		if (strncmp(line, "x86_", 4) != 0 || !colon)
			continue;
		*colon = '\0';
		value = colon + 1;
		while (*value == ' ' || *value == '\t')
			value++;
		json_str(j, line, value);
	}
	json_close_object(j);
	free(text);
}

/* The CET regset of a stopped tracee: {"u_cet": "0x..", "pl3_ssp": "0x.."} or
 * {"errno": "ENODEV"} (task without CET, or a kernel without the regset: EINVAL). */
static void emit_cet_regset(struct json_out *j, pid_t pid)
{
	uint64_t regs[2] = { 0, 0 };
	struct iovec iov = { regs, sizeof regs };

	json_open_object(j, "cet_regset");
	if (ptrace(PTRACE_GETREGSET, pid, (void *)(uintptr_t)NT_X86_CET, &iov) == 0) {
		json_hex(j, "u_cet", regs[0]);
		json_hex(j, "pl3_ssp", regs[1]);
		json_int(j, "size", (long long)iov.iov_len);
	} else {
		json_str(j, "errno", errno_name(errno));
	}
	json_close_object(j);
}

/* The file-backed mappings of a tracee stopped at its exit, while its memory still
 * exists: what turns a fault address into "object + offset" (the form in which the audit
 * names the places it predicts a fault). */
static void emit_maps(struct json_out *j, pid_t pid)
{
	char path[64];
	char *text, *line, *save;
	int kept = 0, dropped = 0;

	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	text = read_small_file(path, NULL);
	json_open_array(j, "maps");
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long start, end, offset;
		char perms[8];
		int name_at = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &offset,
			   &name_at) != 4 ||
		    name_at == 0 || line[name_at] != '/')
			continue;
		if (kept == MAX_MAPPINGS) {
			dropped++;
			continue;
		}
		json_open_object(j, NULL);
		json_hex(j, "start", start);
		json_hex(j, "end", end);
		json_str(j, "perms", perms);
		json_hex(j, "offset", offset);
		json_str(j, "path", line + name_at);
		json_close_object(j);
		kept++;
	}
	json_close_array(j);
	if (dropped)
		json_int(j, "maps_dropped", dropped);
	free(text);
}

/* Kernel log records written since the last call (the console itself is kept quiet so
 * that kernel messages cannot land inside a JSON line). */
static void emit_kmsg(struct json_out *j, int kmsg)
{
	char rec[1024];
	int kept = 0, dropped = 0;

	json_open_array(j, "kernel_log");
	for (;;) {
		ssize_t n;
		char *text;

		if (kmsg < 0)
			break;
		n = read(kmsg, rec, sizeof rec - 1);
		if (n < 0 && errno == EPIPE)
			continue; /* records were overwritten: go on with the next */
		if (n <= 0)
			break;
		rec[n] = '\0';
		text = strchr(rec, ';');
		text = text ? text + 1 : rec;
		text[strcspn(text, "\n")] = '\0';
		if (kept < KMSG_LINES) {
			json_array_str(j, text, strlen(text));
			kept++;
		} else {
			dropped++;
		}
	}
	json_close_array(j);
	if (dropped)
		json_int(j, "kernel_log_dropped", dropped);
}

static void emit_output(struct json_out *j, const struct job *job)
{
	size_t len, keep, lines = 0;
	char *text = read_small_file(OUTPUT_FILE, &len);

	if (!text) {
		json_str(j, "output", NULL);
		return;
	}
	for (keep = 0; keep < len && keep < OUTPUT_KEEP; keep++)
		if (text[keep] == '\n' && ++lines == OUTPUT_LINES) {
			keep++;
			break;
		}
	json_strn(j, "output", text, keep);
	json_int(j, "output_bytes", (long long)len);
	json_boolean(j, "output_truncated", keep < len);
	if (job->expect_output) {
		size_t first = strcspn(text, "\n");

		json_boolean(j, "output_matches",
			     strlen(job->expect_output) == first &&
				     memcmp(text, job->expect_output, first) == 0);
	}
	free(text);
}

static long long elapsed_ms(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000LL + (now.tv_nsec - start->tv_nsec) / 1000000;
}

/* The child: be traced, stop so the parent can set the options, exec. */
static void __attribute__((noreturn)) child(const struct job *job, int errpipe)
{
	static char *const env[] = { "PATH=/bin:/sbin:/usr/bin:/usr/sbin", "HOME=/root", "LC_ALL=C",
				     NULL };
	int out = open(OUTPUT_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int in = open("/dev/null", O_RDONLY);
	int e;

	if (out < 0 || in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) {
		e = errno;
		goto report;
	}
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0) {
		e = errno;
		goto report;
	}
	raise(SIGSTOP);
	execve(job->path, job->argv, env);
	e = errno;
report:
	if (write(errpipe, &e, sizeof e) != (ssize_t)sizeof e)
		_exit(126);
	_exit(127);
}

struct sig_record {
	int signo, code;
	uint64_t addr, ip;
	bool has_addr, has_ip;
};

/* The instruction pointer of a tracee at its signal-delivery stop. A control-protection
 * fault carries no address in its siginfo (si_addr is 0): the instruction pointer is
 * where the CPU stopped, the target lacking ENDBR or the RET whose return address did not
 * match. A 64-bit tracer reads a 32-bit tracee's registers in the 64-bit layout too. */
static bool tracee_ip(pid_t pid, uint64_t *ip)
{
	struct user_regs_struct regs;

	if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) != 0)
		return false;
	*ip = regs.rip;
	return true;
}

static void emit_signal(struct json_out *j, const char *key, const struct sig_record *s)
{
	const char *cn = code_name(s->signo, s->code);

	json_open_object(j, key);
	json_str(j, "signal", signal_name(s->signo));
	json_int(j, "signo", s->signo);
	json_int(j, "code", s->code);
	json_str(j, "code_name", cn);
	if (s->has_addr)
		json_hex(j, "addr", s->addr);
	if (s->has_ip)
		json_hex(j, "ip", s->ip);
	json_close_object(j);
}

/* Window mode: detach at the exec stop inside the checker's window and wait for the
 * end (see window.S). Signals then reach the program untraced: how it ended is known,
 * not the siginfo of a fault. Returns a wait status. */
static int finish_in_window(pid_t pid, bool *timed_out)
{
	struct sched_param fifo = { .sched_priority = 1 }, other = { .sched_priority = 0 };
	bool realtime;
	siginfo_t si;
	long r;

	memset(&si, 0, sizeof si);
	/* The detach makes the program runnable while the runner still has user code to run
	 * before its waitid: with one CPU a program preempted there would have the checker
	 * see the runner's instructions in its place (a RET of the program "arriving" in the
	 * runner). A real-time runner is not preempted by it: it reaches waitid first, and
	 * runs again only once the program has ended (or at the job time limit). */
	realtime = sched_setscheduler(0, SCHED_FIFO, &fifo) == 0;
	r = window_detach_wait(pid, &si);
	if (realtime)
		sched_setscheduler(0, SCHED_OTHER, &other);
	while (r != 0) {
		if (r == -EINTR && alarm_rang && !*timed_out) {
			*timed_out = true;
			kill(pid, SIGKILL);
		} else if (r != -EINTR) {
			/* The detach failed: end the job rather than hang. */
			kill(pid, SIGKILL);
		}
		r = waitid(P_PID, (id_t)pid, &si, WEXITED) == 0 ? 0 : -errno;
		if (r == -ECHILD)
			break;
	}
	if (si.si_code == CLD_EXITED)
		return (si.si_status & 0xff) << 8;
	return si.si_status & 0x7f; /* killed or dumped: WIFSIGNALED */
}

/* Runs one job and writes its line. */
static void run_job(const struct job *job, int kmsg)
{
	struct json_out j;
	struct timespec start;
	struct sig_record sigs[MAX_SIGNALS];
	int nsigs = 0, dropped_sigs = 0;
	int errpipe[2], status, exec_errno = 0;
	bool exec_stopped = false, timed_out = false, maps_done = false;
	pid_t pid;
	size_t i;

	clock_gettime(CLOCK_MONOTONIC, &start);
	json_begin(&j, stdout);
	json_str(&j, "type", "job");
	json_str(&j, "id", job->id);
	json_str(&j, "path", job->path);
	json_open_array(&j, "argv");
	for (i = 0; i < job->argc; i++)
		json_array_str(&j, job->argv[i], strlen(job->argv[i]));
	json_close_array(&j);

	if (pipe2(errpipe, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		json_str(&j, "harness_error", strerror(errno));
		json_end(&j);
		return;
	}
	if (pid == 0)
		child(job, errpipe[1]);
	close(errpipe[1]);

	alarm_rang = 0;
	alarm(job->timeout > 0 ? (unsigned)job->timeout : DEFAULT_TIMEOUT);
	for (;;) {
		pid_t w = waitpid(pid, &status, __WALL);

		if (w < 0 && errno == EINTR) {
			if (alarm_rang && !timed_out) {
				timed_out = true;
				kill(pid, SIGKILL);
			}
			continue;
		}
		if (w < 0) {
			json_str(&j, "harness_error", strerror(errno));
			break;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if (!WIFSTOPPED(status))
			continue;
		if (WSTOPSIG(status) == SIGSTOP && !exec_stopped && (status >> 16) == 0 &&
		    nsigs == 0) {
			/* The child's own stop before exec: ask for the exec stop. */
			ptrace(PTRACE_SETOPTIONS, pid, NULL,
			       (void *)(uintptr_t)(PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT |
						   PTRACE_O_EXITKILL));
			ptrace(PTRACE_CONT, pid, NULL, NULL);
			continue;
		}
		if ((status >> 8) == (SIGTRAP | (PTRACE_EVENT_EXIT << 8))) {
			/* About to exit (or to die of a signal): memory still mapped. The
			 * status now shows what the program's loader left of the features
			 * the kernel enabled at exec (a CET ld.so disables and locks). */
			if (exec_stopped)
				emit_x86_status(&j, "status_exit", pid);
			if (exec_stopped && !maps_done) {
				emit_maps(&j, pid);
				maps_done = true;
			}
			ptrace(PTRACE_CONT, pid, NULL, NULL);
			continue;
		}
		if ((status >> 8) == (SIGTRAP | (PTRACE_EVENT_EXEC << 8))) {
			/* Loaded, not yet run: the kernel's reading of the note. */
			exec_stopped = true;
			emit_x86_status(&j, "status", pid);
			emit_cet_regset(&j, pid);
			if (job->window) {
				/* The program runs inside the checker's window, untraced. */
				emit_maps(&j, pid);
				maps_done = true;
				json_boolean(&j, "window", true);
				status = finish_in_window(pid, &timed_out);
				break;
			}
			ptrace(PTRACE_CONT, pid, NULL, NULL);
			continue;
		}
		{
			/* A signal for the tracee: record it, then deliver it. */
			siginfo_t si;
			int sig = WSTOPSIG(status);

			memset(&si, 0, sizeof si);
			if (ptrace(PTRACE_GETSIGINFO, pid, NULL, &si) == 0) {
				if (nsigs < MAX_SIGNALS) {
					sigs[nsigs].signo = si.si_signo;
					sigs[nsigs].code = si.si_code;
					sigs[nsigs].has_addr = is_fault_signal(si.si_signo) &&
							       si.si_code > 0;
					sigs[nsigs].addr = (uint64_t)(uintptr_t)si.si_addr;
					sigs[nsigs].has_ip = tracee_ip(pid, &sigs[nsigs].ip);
					nsigs++;
				} else {
					dropped_sigs++;
				}
			}
			ptrace(PTRACE_CONT, pid, NULL, (void *)(uintptr_t)sig);
		}
	}
	alarm(0);

	if (!exec_stopped) {
		ssize_t n = read(errpipe[0], &exec_errno, sizeof exec_errno);

		if (n != (ssize_t)sizeof exec_errno)
			exec_errno = 0;
	}
	close(errpipe[0]);

	json_open_object(&j, "exec");
	json_boolean(&j, "ok", exec_stopped);
	if (!exec_stopped) {
		json_str(&j, "errno", exec_errno ? errno_name(exec_errno) : NULL);
		json_int(&j, "errno_value", exec_errno);
	}
	json_close_object(&j);

	json_open_array(&j, "signals");
	for (i = 0; i < (size_t)nsigs; i++)
		emit_signal(&j, NULL, &sigs[i]);
	json_close_array(&j);
	if (dropped_sigs)
		json_int(&j, "signals_dropped", dropped_sigs);

	json_open_object(&j, "end");
	if (timed_out) {
		json_str(&j, "how", "timeout");
		json_int(&j, "after_s", job->timeout > 0 ? job->timeout : DEFAULT_TIMEOUT);
	} else if (WIFEXITED(status)) {
		json_str(&j, "how", "exited");
		json_int(&j, "code", WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		json_str(&j, "how", "signaled");
		json_str(&j, "signal", signal_name(sig));
		json_int(&j, "signo", sig);
		/* The siginfo of the deadly signal: the last one of that number. */
		for (i = (size_t)nsigs; i-- > 0;)
			if (sigs[i].signo == sig) {
				emit_signal(&j, "siginfo", &sigs[i]);
				break;
			}
	} else {
		json_str(&j, "how", "unknown");
	}
	json_close_object(&j);

	if (exec_stopped)
		emit_output(&j, job);
	emit_kmsg(&j, kmsg);
	json_int(&j, "elapsed_ms", elapsed_ms(&start));
	json_end(&j);
}

/* The vDSO the kernel maps into every process, as hex, so that the host can audit the
 * code the kernel really gives programs (its ENDBR64 at each entry under user IBT). */
static void emit_vdso(struct json_out *j)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	char *maps = read_small_file("/proc/self/maps", NULL);
	char *line = maps ? strstr(maps, "[vdso]") : NULL;
	unsigned long long start = 0, end = 0;
	const unsigned char *p;
	size_t i;

	json_open_object(j, "vdso");
	if (line) {
		while (line > maps && line[-1] != '\n')
			line--;
		if (sscanf(line, "%llx-%llx", &start, &end) != 2)
			start = end = 0;
	}
	if (!base || start != base || end <= start || end - start > (1u << 20)) {
		json_str(j, "error", "no [vdso] mapping at AT_SYSINFO_EHDR");
		json_close_object(j);
		free(maps);
		return;
	}
	json_hex(j, "start", start);
	json_int(j, "size", (long long)(end - start));
	json_key(j, "hex");
	fputc('"', j->f);
	for (p = (const unsigned char *)(uintptr_t)start, i = 0; i < end - start; i++)
		fprintf(j->f, "%02x", p[i]);
	fputc('"', j->f);
	json_close_object(j);
	free(maps);
}

/* What the host needs to know about the guest it booted. */
static void emit_guest(int kmsg)
{
	struct json_out j;
	struct utsname u;
	char *cmdline, *cpuinfo;
	bool ibt = false, shstk = false, user_ibt = false, user_shstk = false;

	json_begin(&j, stdout);
	json_str(&j, "type", "guest");
	if (uname(&u) == 0) {
		json_str(&j, "release", u.release);
		json_str(&j, "version", u.version);
		json_str(&j, "machine", u.machine);
	}
	cmdline = read_small_file("/proc/cmdline", NULL);
	if (cmdline)
		cmdline[strcspn(cmdline, "\n")] = '\0';
	json_str(&j, "cmdline", cmdline);
	free(cmdline);

	cpuinfo = read_small_file("/proc/cpuinfo", NULL);
	if (cpuinfo) {
		char *flags = strstr(cpuinfo, "\nflags");
		char *end, *tok, *save;

		if (flags) {
			flags = strchr(flags, ':');
			end = flags ? strchr(flags, '\n') : NULL;
			if (end)
				*end = '\0';
			for (tok = flags ? strtok_r(flags + 1, " ", &save) : NULL; tok;
			     tok = strtok_r(NULL, " ", &save)) {
				ibt |= strcmp(tok, "ibt") == 0;
				shstk |= strcmp(tok, "shstk") == 0;
				user_ibt |= strcmp(tok, "user_ibt") == 0;
				user_shstk |= strcmp(tok, "user_shstk") == 0;
			}
		}
	}
	free(cpuinfo);
	json_open_object(&j, "cpu_flags");
	json_boolean(&j, "ibt", ibt);
	json_boolean(&j, "shstk", shstk);
	json_boolean(&j, "user_ibt", user_ibt);
	json_boolean(&j, "user_shstk", user_shstk);
	json_close_object(&j);
	emit_x86_status(&j, "runner_status", getpid());
	json_boolean(&j, "kmsg", kmsg >= 0);
	emit_vdso(&j);
	json_end(&j);
}

/* Keeps kernel messages off the console (only emergencies, such as a panic, still go
 * there) and returns /dev/kmsg positioned after the boot messages. */
static int quiet_console(void)
{
	int fd = open("/proc/sys/kernel/printk", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, "1\n", 2) != 2) {
			/* Best effort: the host ignores what is not a JSON line anyway. */
		}
		close(fd);
	}
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* /init mounts a tmpfs on /tmp, hiding whatever the initramfs held there; files that
 * must live under /tmp (an interpreter a program names by a /tmp path) are put under
 * STAGED_TMP by the host, and bound over /tmp here. Returns a reason, or NULL. */
static const char *stage_tmp(void)
{
	struct stat sb;

	if (stat(STAGED_TMP, &sb) != 0)
		return NULL;
	if (mount(STAGED_TMP, "/tmp", NULL, MS_BIND, NULL) != 0)
		return strerror(errno);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *list = argc > 1 ? argv[1] : DEFAULT_JOBS;
	struct sigaction sa;
	FILE *f;
	char *line = NULL;
	size_t cap = 0, lineno = 0, jobs = 0;
	const char *staging_error;
	int kmsg;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm; /* no SA_RESTART: waitpid must return EINTR */
	sigaction(SIGALRM, &sa, NULL);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);

	kmsg = quiet_console();
	staging_error = stage_tmp();
	emit_guest(kmsg);
	if (staging_error) {
		struct json_out j;

		json_begin(&j, stdout);
		json_str(&j, "type", "error");
		json_str(&j, "message", "cannot bind " STAGED_TMP " over /tmp");
		json_str(&j, "reason", staging_error);
		json_end(&j);
	}

	f = fopen(list, "r");
	if (!f) {
		struct json_out j;

		json_begin(&j, stdout);
		json_str(&j, "type", "error");
		json_str(&j, "message", "cannot open the job list");
		json_str(&j, "path", list);
		json_str(&j, "errno", errno_name(errno));
		json_end(&j);
		printf("{\"type\":\"done\",\"jobs\":0}\n");
		return 1;
	}
	while (getline(&line, &cap, f) >= 0) {
		struct job job;
		const char *error;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '\0')
			continue;
		if (job_parse(line, &job, &error) < 0) {
			struct json_out j;

			json_begin(&j, stdout);
			json_str(&j, "type", "error");
			json_str(&j, "message", error);
			json_int(&j, "line", (long long)lineno);
			json_end(&j);
			continue;
		}
		run_job(&job, kmsg);
		job_free(&job);
		jobs++;
	}
	free(line);
	fclose(f);
	printf("{\"type\":\"done\",\"jobs\":%zu}\n", jobs);
	fflush(stdout);
	return 0;
}
