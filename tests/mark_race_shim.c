/* mark_race_shim: an LD_PRELOAD library for tests/mark-races.sh. It lets elfcet mark run
 * unchanged and does one thing to the file being marked at a chosen moment, the way
 * another process or the user could:
 *
 *   SHIM_FILE    the file being marked
 *   SHIM_ACTION  chmod | append | truncate | modify | replace   (another process changes
 *                the file: its mode, its size, one byte, or a copy renamed over it)
 *                | SIGINT | SIGTERM                        (the user stops mark)
 *   SHIM_WHEN    open:N  at the Nth read-only open of mark's temporary file (after it is
 *                written: 1 checks its bytes, 2 and 3 re-read and re-audit it)
 *                fsync   when the temporary file is synced (the write in progress)
 *
 * Only the test suite loads it; nothing in elfcet knows it exists. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int temp_opens;

static void fail(const char *what)
{
	fprintf(stderr, "mark_race_shim: %s\n", what);
	_exit(99);
}

/* Writes a copy of FILE next to it and renames it over FILE: same bytes, new inode. */
static void replace(const char *file)
{
	char tmp[4096];
	unsigned char buf[65536];
	ssize_t n;
	int in, out;

	snprintf(tmp, sizeof(tmp), "%s.shim", file);
	in = open(file, O_RDONLY);
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in < 0 || out < 0)
		fail("cannot copy the file");
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			fail("cannot copy the file");
	close(in);
	if (close(out) != 0 || rename(tmp, file) != 0)
		fail("cannot rename the copy over the file");
}

static void act(void)
{
	const char *file = getenv("SHIM_FILE"), *action = getenv("SHIM_ACTION");
	static int done;
	struct stat st;
	int fd;

	if (done++)
		return;
	if (!file || !action || stat(file, &st) != 0)
		fail("SHIM_FILE or SHIM_ACTION missing");
	if (strcmp(action, "chmod") == 0) {
		if (chmod(file, 0700) != 0)
			fail("chmod");
	} else if (strcmp(action, "append") == 0) {
		fd = open(file, O_WRONLY | O_APPEND);
		if (fd < 0 || write(fd, "appended", 8) != 8 || close(fd) != 0)
			fail("append");
	} else if (strcmp(action, "truncate") == 0) {
		if (truncate(file, st.st_size / 2) != 0)
			fail("truncate");
	} else if (strcmp(action, "modify") == 0) {
		/* One byte of the ELF header's padding: same size, same loaders' view. */
		fd = open(file, O_WRONLY);
		if (fd < 0 || pwrite(fd, "\x55", 1, 12) != 1 || close(fd) != 0)
			fail("modify");
	} else if (strcmp(action, "replace") == 0) {
		replace(file);
	} else if (strcmp(action, "SIGINT") == 0) {
		kill(getpid(), SIGINT);
	} else if (strcmp(action, "SIGTERM") == 0) {
		kill(getpid(), SIGTERM);
	} else {
		fail("unknown SHIM_ACTION");
	}
}

static int is_temp(const char *path)
{
	return path && strstr(path, ".elfcet-") && !strstr(path, ".elfcet-backup");
}

static void opened(const char *path, int flags)
{
	const char *when = getenv("SHIM_WHEN");

	if (!is_temp(path) || (flags & O_ACCMODE) != O_RDONLY || !when ||
	    strncmp(when, "open:", 5) != 0)
		return;
	if (++temp_opens == atoi(when + 5))
		act();
}

#define FORWARD_OPEN(name, ...)                                   \
	do {                                                      \
		static int (*next)(__VA_ARGS__);                  \
		mode_t mode = 0;                                  \
		if (flags & (O_CREAT | O_TMPFILE)) {              \
			va_list ap;                               \
			va_start(ap, flags);                      \
			mode = (mode_t)va_arg(ap, int);           \
			va_end(ap);                               \
		}                                                 \
		if (!next)                                        \
			*(void **)&next = dlsym(RTLD_NEXT, name); \
		opened(path, flags);                              \
		return FORWARD_CALL;                              \
	} while (0)

#define FORWARD_CALL next(path, flags, mode)
int open(const char *path, int flags, ...)
{
	FORWARD_OPEN("open", const char *, int, ...);
}

int open64(const char *path, int flags, ...)
{
	FORWARD_OPEN("open64", const char *, int, ...);
}
#undef FORWARD_CALL

#define FORWARD_CALL next(dirfd, path, flags, mode)
int openat(int dirfd, const char *path, int flags, ...)
{
	FORWARD_OPEN("openat", int, const char *, int, ...);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	FORWARD_OPEN("openat64", int, const char *, int, ...);
}
#undef FORWARD_CALL

int fsync(int fd)
{
	static int (*next)(int);
	const char *when = getenv("SHIM_WHEN");

	if (!next)
		*(void **)&next = dlsym(RTLD_NEXT, "fsync");
	if (when && strcmp(when, "fsync") == 0)
		act();
	return next(fd);
}
