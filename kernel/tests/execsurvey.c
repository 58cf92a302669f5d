// SPDX-License-Identifier: GPL-2.0
/*
 * execsurvey LIST: does the kernel accept the exec of each file named in
 * LIST (one "PATH" or "PATH<TAB>SIZE" a line)?  Used by kernel/exec-survey
 * to compare kernels.  With a SIZE, a file that is missing or of another
 * size is a failure of the survey (an initramfs that did not unpack whole
 * would otherwise pass for ENOENT): "# bad-copy PATH" and exit status 1.
 *
 * Each file is exec'd by a child that asked to be traced, so a successful
 * execve() stops it with SIGTRAP before any instruction of the program (or
 * of its interpreter) runs; it is then killed.  A failed execve() sends its
 * errno back through a close-on-exec pipe.  Prints one line a file,
 * "PATH<TAB>OUTCOME" where OUTCOME is "ok", the errno name (ENOEXEC...),
 * "signal:SIGxxx" (killed after the point of no return) or "exit:N", then
 * "#" lines: the count of each outcome and the time taken.
 *
 * Exit status: 0 when every file was tried (whatever the outcomes), 1 on
 * a failure of the survey itself (LIST unreadable, bad copy, fork, pipe).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_OUTCOMES 64

struct tally {
	char name[64];
	unsigned long count;
};

static struct tally tallies[MAX_OUTCOMES];
static int ntallies;

static void count(const char *outcome)
{
	int i;

	for (i = 0; i < ntallies; i++) {
		if (!strcmp(tallies[i].name, outcome)) {
			tallies[i].count++;
			return;
		}
	}
	if (ntallies == MAX_OUTCOMES) {
		/* Cannot happen with real errnos; counted rather than lost */
		count("other");
		return;
	}
	snprintf(tallies[ntallies].name, sizeof(tallies[ntallies].name), "%s", outcome);
	tallies[ntallies++].count = 1;
}

static const char *errno_name(int err, char *buf, size_t len)
{
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	snprintf(buf, len, "errno:%d", err);
	return buf;
}

static const char *signal_name(const char *prefix, int sig, char *buf, size_t len)
{
	const char *name = sigabbrev_np(sig);

	if (name)
		snprintf(buf, len, "%s:SIG%s", prefix, name);
	else
		snprintf(buf, len, "%s:%d", prefix, sig);
	return buf;
}

/* Returns the outcome of exec'ing path, or NULL if the survey itself failed. */
static const char *try_exec(const char *path, char *buf, size_t len)
{
	char *const argv[] = { (char *)path, NULL };
	char *const envp[] = { NULL };
	int fds[2], status, err;
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		perror("execsurvey: pipe2");
		return NULL;
	}
	pid = fork();
	if (pid < 0) {
		perror("execsurvey: fork");
		return NULL;
	}
	if (pid == 0) {
		close(fds[0]);
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0) {
			/* errno 0 is never an exec result: marks this case */
			err = 0;
			if (write(fds[1], &err, sizeof(err)) != sizeof(err))
				_exit(126);
			_exit(126);
		}
		execve(path, argv, envp);
		err = errno;
		if (write(fds[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(fds[1]);
	if (waitpid(pid, &status, 0) < 0) {
		perror("execsurvey: waitpid");
		close(fds[0]);
		return NULL;
	}
	if (WIFSTOPPED(status)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(fds[0]);
		if (WSTOPSIG(status) == SIGTRAP)
			return "ok";
		return signal_name("stop", WSTOPSIG(status), buf, len);
	}
	n = read(fds[0], &err, sizeof(err));
	close(fds[0]);
	if (WIFSIGNALED(status))
		return signal_name("signal", WTERMSIG(status), buf, len);
	if (n == sizeof(err) && WEXITSTATUS(status) == 127 && err > 0)
		return errno_name(err, buf, len);
	if (n == sizeof(err) && err == 0) {
		fprintf(stderr, "execsurvey: PTRACE_TRACEME failed in the child\n");
		return NULL;
	}
	snprintf(buf, len, "exit:%d", WEXITSTATUS(status));
	return buf;
}

int main(int argc, char **argv)
{
	struct timespec start, end;
	unsigned long files = 0;
	char path[4096], buf[64], *tab;
	unsigned long long size;
	const char *outcome;
	int i, bad_copies = 0;
	struct stat st;
	FILE *list;
	size_t len;

	if (argc != 2) {
		fprintf(stderr, "usage: execsurvey LIST\n");
		return 1;
	}
	list = fopen(argv[1], "r");
	if (!list) {
		fprintf(stderr, "execsurvey: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (fgets(path, sizeof(path), list)) {
		len = strlen(path);
		if (len && path[len - 1] == '\n')
			path[--len] = '\0';
		if (!len)
			continue;
		tab = strchr(path, '\t');
		if (tab) {
			*tab = '\0';
			size = strtoull(tab + 1, NULL, 10);
			if (stat(path, &st) < 0 || (unsigned long long)st.st_size != size) {
				printf("# bad-copy %s\n", path);
				bad_copies++;
				continue;
			}
		}
		outcome = try_exec(path, buf, sizeof(buf));
		if (!outcome)
			return 1;
		printf("%s\t%s\n", path, outcome);
		count(outcome);
		files++;
	}
	if (ferror(list)) {
		fprintf(stderr, "execsurvey: %s: read error\n", argv[1]);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("# files %lu\n", files);
	for (i = 0; i < ntallies; i++)
		printf("# outcome %s %lu\n", tallies[i].name, tallies[i].count);
	printf("# elapsed_ms %ld\n", (long)((end.tv_sec - start.tv_sec) * 1000 +
					      (end.tv_nsec - start.tv_nsec) / 1000000));
	if (bad_copies)
		printf("# bad-copies %d\n", bad_copies);
	return bad_copies ? 1 : 0;
}
