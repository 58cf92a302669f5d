/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What cettest and shstktest share: one JSON line per check on stdout,
 *   {"test":NAME,"result":"pass"|"fail"|"skip","detail":TEXT}
 * a count of the failures for the exit status, and the small readers of
 * /proc both use.  Included once by each test program (each is a single
 * static binary), so everything here is static.
 */
#ifndef ELFCET_GUEST_CHECK_H
#define ELFCET_GUEST_CHECK_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>

static int failures;

/* Print s as a JSON string (quotes, backslashes and control characters) */
static inline void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static inline void __attribute__((format(printf, 3, 4)))
report(const char *name, const char *result, const char *fmt, ...)
{
	char detail[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (!strcmp(result, "fail"))
		failures++;
	printf("{\"test\":");
	json_str(name);
	printf(",\"result\":\"%s\",\"detail\":", result);
	json_str(detail);
	printf("}\n");
	fflush(stdout);
}

#define check(name, ok, ...) report(name, (ok) ? "pass" : "fail", __VA_ARGS__)

/* A call that returned ret with errno err must have failed with want */
static inline void check_failed_with(const char *name, long ret, int err, int want)
{
	check(name, ret == -1 && err == want, "expected %s, got ret=%ld errno=%s",
	      strerrorname_np(want), ret, ret == -1 ? strerrorname_np(err) : "-");
}

/* The same for a call made just before: errno is read right after ret */
#define check_errno(name, ret, want)						\
	do {									\
		long ret_ = (ret);						\
		check_failed_with(name, ret_, errno, want);			\
	} while (0)

/*
 * A traced child stopped with *ws: pass on the signals it handles itself
 * (SIGTRAP, SIGUSR1) until it stops for a fault, exits, or has stopped
 * eight times.  *ws is then its last wait status.
 */
static inline void pass_signals_until_fault(pid_t pid, int *ws)
{
	for (int stops = 0; WIFSTOPPED(*ws) && stops < 8; stops++) {
		int sig = WSTOPSIG(*ws);

		if (sig == SIGSEGV || sig == SIGILL || sig == SIGBUS || sig == SIGFPE)
			return;
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
		waitpid(pid, ws, 0);
	}
}

static inline long arch_prctl(int option, unsigned long arg)
{
	return syscall(SYS_arch_prctl, option, arg);
}

/*
 * The value of "key:" in a /proc file, copied to buf, or NULL (buf "").
 * The key may be padded with blanks before its colon, as /proc/cpuinfo
 * writes "flags\t\t:", and a line may be longer than any fixed buffer (the
 * flags of a CPU with AVX-512 take well over 1 KiB), so lines are read
 * whole.
 */
static inline char *status_field(const char *path, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key), cap = 0;
	FILE *f = fopen(path, "r");
	char *line = NULL, *found = NULL;

	buf[0] = '\0';
	while (f && !found && getline(&line, &cap, f) > 0) {
		char *v = line + klen;

		if (strncmp(line, key, klen))
			continue;
		v += strspn(v, " \t");
		if (*v != ':')
			continue;
		v++;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, len, "%s", v);
		found = buf;
	}
	free(line);
	if (f)
		fclose(f);
	return found;
}

/* Whether the first CPU of /proc/cpuinfo lists flag among its flags */
static inline int cpuinfo_has_flag(const char *flag)
{
	char buf[16384], *tok, *save;

	if (!status_field("/proc/cpuinfo", "flags", buf, sizeof(buf)))
		return 0;
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, flag))
			return 1;
	return 0;
}

/* Write text to path (flags: O_APPEND or 0): 0, or -1 with errno */
static inline int write_text(const char *path, int flags, const char *text)
{
	int fd = open(path, O_WRONLY | flags);
	int ok = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/*
 * Uprobes through tracefs: define and enable the event elfcet/name, a
 * probe ('p') or a return probe ('r') at file offset off of path (which
 * every mapping of the file then has), mounting tracefs if need be.
 * 0, or -1 with errno.
 */
#define TRACEFS "/sys/kernel/tracing"

static inline int uprobe_add(char kind, const char *name, const char *path, unsigned long off)
{
	char def[512], enable[256];

	if (access(TRACEFS "/uprobe_events", F_OK))
		mount("nodev", TRACEFS, "tracefs", 0, NULL);
	snprintf(def, sizeof(def), "%c:elfcet/%s %s:%#lx\n", kind, name, path, off);
	snprintf(enable, sizeof(enable), TRACEFS "/events/elfcet/%s/enable", name);
	if (write_text(TRACEFS "/uprobe_events", O_APPEND, def))
		return -1;
	return write_text(enable, 0, "1");
}

/* How often elfcet/name fired (uprobe_profile), or -1 */
static inline long uprobe_hits(const char *name)
{
	char line[512], file[256], event[128];
	long hits = -1, n;
	FILE *f = fopen(TRACEFS "/uprobe_profile", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %127s %ld", file, event, &n) == 3 && !strcmp(event, name))
			hits = n;
	if (f)
		fclose(f);
	return hits;
}

static inline void uprobe_remove(const char *name)
{
	char def[160], enable[256];

	snprintf(enable, sizeof(enable), TRACEFS "/events/elfcet/%s/enable", name);
	write_text(enable, 0, "0");
	snprintf(def, sizeof(def), "-:elfcet/%s\n", name);
	write_text(TRACEFS "/uprobe_events", O_APPEND, def);
}

#endif
