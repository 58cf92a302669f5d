/* Putting a mark plan on disk: checks, temporary file, attributes, fsync, verify, rename. */
#include "config.h"

#include "mark/mark_write.h"

#include "util/error.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

/* The process running ST's file as its program, or 0. ETXTBSY already catches this on
 * the kernels that deny writes to running programs; /proc also covers those that do not. */
static long running_process(const struct stat *st)
{
	struct dirent *de;
	long pid = 0;
	DIR *proc;

	proc = opendir("/proc");
	if (!proc)
		return 0;
	while (!pid && (de = readdir(proc)) != NULL) {
		char exe[300];
		struct stat es;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(exe, sizeof(exe), "/proc/%s/exe", de->d_name);
		if (stat(exe, &es) == 0 && es.st_dev == st->st_dev && es.st_ino == st->st_ino)
			pid = strtol(de->d_name, NULL, 10);
	}
	closedir(proc);
	return pid;
}

int mark_write_check_target(const char *path, struct stat *st, struct elfcet_error *err)
{
	struct statvfs vfs;
	long pid;
	int fd;

	if (stat(path, st) != 0)
		return error_set(err, "cannot stat: %s", strerror(errno));
	if (S_ISDIR(st->st_mode))
		return error_set(err, "is a directory");
	if (!S_ISREG(st->st_mode))
		return error_set(err, "not a regular file");
	if (st->st_nlink > 1)
		return error_set(err,
				 "has %lu hard links: replacing it would split them, "
				 "refused",
				 (unsigned long)st->st_nlink);
	if ((st->st_mode & 0222) == 0)
		return error_set(err, "read-only file (mode %04o), refused",
				 (unsigned)(st->st_mode & 07777));
	if (statvfs(path, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
		return error_set(err, "on a read-only filesystem");
	/* Opening for writing without O_TRUNC changes nothing, and is how the kernel says
	 * the file is a running program (ETXTBSY). */
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		if (errno == ETXTBSY)
			return error_set(err, "is being executed, refused");
		if (errno == EROFS)
			return error_set(err, "on a read-only filesystem");
		return error_set(err, "cannot open for writing: %s", strerror(errno));
	}
	close(fd);
	pid = running_process(st);
	if (pid)
		return error_set(err, "is being executed (process %ld), refused", pid);
	return 0;
}

static int write_all(int fd, const unsigned char *p, uint64_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len > (1u << 30) ? (1u << 30) : (size_t)len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (uint64_t)n;
	}
	return 0;
}

/* True when the LEN bytes of FD at OFF equal EXPECT. Read, not mapped: another process
 * may cut the original short while it is marked, and that must be an error, not SIGBUS. */
static bool same_bytes(int fd, uint64_t off, const unsigned char *expect, uint64_t len)
{
	unsigned char buf[65536];

	while (len) {
		size_t want = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		ssize_t n = pread(fd, buf, want, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || memcmp(buf, expect, (size_t)n) != 0)
			return false;
		off += (uint64_t)n;
		expect += n;
		len -= (uint64_t)n;
	}
	return true;
}

static int open_sized(const char *path, uint64_t *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && fstat(fd, &st) != 0) {
		close(fd);
		return -1;
	}
	if (fd >= 0)
		*size = (uint64_t)st.st_size;
	return fd;
}

/* The written file must be the plan's image, and the original must still be what was
 * planned from: equal to the image everywhere outside the plan's ranges. */
static int compare_bytes(const char *path, const char *tmp, const struct mark_plan *plan,
			 struct elfcet_error *err)
{
	uint64_t osize = 0, nsize = 0, pos = 0;
	int orig, written, rc = -1;
	size_t i;

	orig = open_sized(path, &osize);
	written = open_sized(tmp, &nsize);
	if (orig < 0 || written < 0) {
		error_set(err, "cannot re-read the files to check them");
		goto out;
	}
	if (nsize != plan->edit.size || !same_bytes(written, 0, plan->edit.image, nsize)) {
		error_set(err, "the written file differs from what was planned");
		goto out;
	}
	if (osize != plan->edit.orig_size) {
		error_set(err, "the file changed size while being marked");
		goto out;
	}
	for (i = 0; i <= plan->edit.nranges; i++) {
		uint64_t end = i < plan->edit.nranges ? plan->edit.ranges[i].offset : osize;

		if (end > pos && !same_bytes(orig, pos, plan->edit.image + pos, end - pos)) {
			error_set(err, "bytes outside the intended change differ (did the file "
				       "change while being marked?)");
			goto out;
		}
		if (i < plan->edit.nranges)
			pos = plan->edit.ranges[i].offset + plan->edit.ranges[i].len;
	}
	rc = 0;
out:
	if (orig >= 0)
		close(orig);
	if (written >= 0)
		close(written);
	return rc;
}

/* Copies every extended attribute of the original (security.capability among them) after
 * the owner has been set, since a change of owner clears file capabilities. */
static int copy_xattrs(const char *path, int to, struct elfcet_error *err)
{
	char *names = NULL, *name;
	ssize_t len, vlen;
	int from, rc = -1;

	from = open(path, O_RDONLY | O_CLOEXEC);
	if (from < 0)
		return error_set(err, "cannot reopen: %s", strerror(errno));
	len = flistxattr(from, NULL, 0);
	if (len <= 0) {
		rc = len < 0 && errno != ENOTSUP ? error_set(err,
							     "cannot list extended "
							     "attributes: %s",
							     strerror(errno))
						 : 0;
		goto out;
	}
	names = xmalloc((size_t)len);
	if ((len = flistxattr(from, names, (size_t)len)) < 0) {
		error_set(err, "cannot list extended attributes");
		goto out;
	}
	for (name = names; name < names + len; name += strlen(name) + 1) {
		char *value;

		vlen = fgetxattr(from, name, NULL, 0);
		if (vlen < 0) {
			error_set(err, "cannot read attribute %s: %s", name, strerror(errno));
			goto out;
		}
		value = xmalloc((size_t)vlen);
		if ((vlen = fgetxattr(from, name, value, (size_t)vlen)) < 0 ||
		    fsetxattr(to, name, value, (size_t)vlen, 0) != 0) {
			error_set(err, "cannot copy attribute %s: %s", name, strerror(errno));
			free(value);
			goto out;
		}
		free(value);
	}
	rc = 0;
out:
	free(names);
	close(from);
	return rc;
}

/* The original must be the file mark read: the same inode, size, mode, owner and times
 * (ctime changes with any write, chmod or link) as ST, taken before it was read. */
static int same_identity(const char *path, const struct stat *st, struct elfcet_error *err)
{
	struct stat now;

	if (stat(path, &now) != 0)
		return error_set(err, "the file changed while being marked (%s)", strerror(errno));
	if (now.st_dev != st->st_dev || now.st_ino != st->st_ino)
		return error_set(err, "the file changed while being marked (replaced by another)");
	if (now.st_size != st->st_size)
		return error_set(err, "the file changed while being marked (size %lld, was %lld)",
				 (long long)now.st_size, (long long)st->st_size);
	if (now.st_mode != st->st_mode || now.st_uid != st->st_uid || now.st_gid != st->st_gid)
		return error_set(err, "the file changed while being marked (mode or owner)");
	if (now.st_mtim.tv_sec != st->st_mtim.tv_sec ||
	    now.st_mtim.tv_nsec != st->st_mtim.tv_nsec ||
	    now.st_ctim.tv_sec != st->st_ctim.tv_sec || now.st_ctim.tv_nsec != st->st_ctim.tv_nsec)
		return error_set(err, "the file changed while being marked (modified)");
	return 0;
}

/* The temporary file is removed if SIGINT, SIGTERM or SIGHUP ends mark while it exists.
 * The handler only unlinks the path prepared here before the file is created, then dies
 * of the signal as it would have. A signal the caller ignores stays ignored, and one it
 * handles is left to it. */
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSIGNALS (sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))
static char cleanup_path[PATH_MAX + 64];
static volatile sig_atomic_t cleanup_armed;

static void cleanup_on_signal(int sig)
{
	struct sigaction dfl;

	if (cleanup_armed)
		unlink(cleanup_path);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

struct cleanup_guard {
	struct sigaction old[NSIGNALS];
	bool installed[NSIGNALS];
	sigset_t set, saved;
};

/* Blocks the signals while the temporary file's name is made and armed, or disarmed. */
static void guard_block(struct cleanup_guard *g)
{
	pthread_sigmask(SIG_BLOCK, &g->set, &g->saved);
}

static void guard_unblock(struct cleanup_guard *g)
{
	pthread_sigmask(SIG_SETMASK, &g->saved, NULL);
}

static void guard_install(struct cleanup_guard *g)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cleanup_on_signal;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&g->set);
	for (i = 0; i < NSIGNALS; i++) {
		sigaddset(&sa.sa_mask, cleanup_signals[i]);
		sigaddset(&g->set, cleanup_signals[i]);
	}
	for (i = 0; i < NSIGNALS; i++) {
		g->installed[i] = false;
		if (sigaction(cleanup_signals[i], NULL, &g->old[i]) != 0 ||
		    g->old[i].sa_handler != SIG_DFL || (g->old[i].sa_flags & SA_SIGINFO))
			continue;
		g->installed[i] = sigaction(cleanup_signals[i], &sa, NULL) == 0;
	}
}

static void guard_remove(struct cleanup_guard *g)
{
	size_t i;

	for (i = 0; i < NSIGNALS; i++)
		if (g->installed[i])
			sigaction(cleanup_signals[i], &g->old[i], NULL);
}

static char *path_in_dir(const char *path, const char *fmt_tail)
{
	char *copy = xstrdup(path), *copy2 = xstrdup(path);
	char *out = xasprintf("%s/.%s%s", dirname(copy), basename(copy2), fmt_tail);

	free(copy);
	free(copy2);
	return out;
}

static int make_backup(const char *path, const char *suffix, struct elfcet_error *err)
{
	char *tmp = path_in_dir(path, ".elfcet-backup");
	char *backup = xasprintf("%s%s", path, suffix);
	int rc = -1;

	/* A hard link keeps the original inode, with all its attributes, under the new name;
	 * the rename replaces an older backup atomically. */
	unlink(tmp);
	if (link(path, tmp) != 0)
		error_set(err, "cannot make the backup %s: %s", backup, strerror(errno));
	else if (rename(tmp, backup) != 0) {
		error_set(err, "cannot make the backup %s: %s", backup, strerror(errno));
		unlink(tmp);
	} else
		rc = 0;
	free(tmp);
	free(backup);
	return rc;
}

static void sync_dir(const char *path)
{
	char *copy = xstrdup(path);
	int fd;

	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

/* Creates the temporary file next to PATH, its name armed for removal on a signal. */
static int create_temp(const char *path, struct cleanup_guard *g, char **tmp,
		       struct elfcet_error *err)
{
	int fd;

	*tmp = path_in_dir(path, ".elfcet-XXXXXX");
	if (strlen(*tmp) >= sizeof(cleanup_path)) {
		free(*tmp);
		return error_set(err, "path too long for a temporary file next to it");
	}
	guard_install(g);
	guard_block(g);
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd >= 0) {
		memcpy(cleanup_path, *tmp, strlen(*tmp) + 1);
		cleanup_armed = 1;
	}
	guard_unblock(g);
	if (fd < 0) {
		error_set(err, "cannot create a temporary file next to it: %s", strerror(errno));
		guard_remove(g);
		free(*tmp);
	}
	return fd;
}

/* Removes the temporary file unless it became the original, then disarms. */
static void finish_temp(struct cleanup_guard *g, const char *tmp, bool renamed)
{
	guard_block(g);
	if (!renamed)
		unlink(tmp);
	cleanup_armed = 0;
	guard_unblock(g);
	guard_remove(g);
}

int mark_write_file(const char *path, const struct stat *st, const struct mark_plan *plan,
		    const struct mark_write_options *opt, mark_verify_fn verify, void *ctx,
		    struct elfcet_error *err)
{
	struct cleanup_guard guard;
	bool renamed = false;
	char *tmp;
	int fd, rc = -1;

	fd = create_temp(path, &guard, &tmp, err);
	if (fd < 0)
		return -1;
	if (write_all(fd, plan->edit.image, plan->edit.size) != 0) {
		error_set(err, "cannot write the temporary file: %s", strerror(errno));
		goto out_close;
	}
	if (fchown(fd, st->st_uid, st->st_gid) != 0) {
		error_set(err, "cannot give the result the original's owner: %s", strerror(errno));
		goto out_close;
	}
	if (fchmod(fd, st->st_mode & 07777) != 0) {
		error_set(err, "cannot give the result the original's mode: %s", strerror(errno));
		goto out_close;
	}
	if (copy_xattrs(path, fd, err) != 0)
		goto out_close;
	if (opt->preserve_timestamps) {
		struct timespec ts[2] = { st->st_atim, st->st_mtim };

		if (futimens(fd, ts) != 0) {
			error_set(err, "cannot set timestamps: %s", strerror(errno));
			goto out_close;
		}
	}
	if (fsync(fd) != 0) {
		error_set(err, "cannot sync the temporary file: %s", strerror(errno));
		goto out_close;
	}
	if (close(fd) != 0) {
		fd = -1;
		error_set(err, "cannot close the temporary file: %s", strerror(errno));
		goto out;
	}
	fd = -1;
	if (compare_bytes(path, tmp, plan, err) != 0)
		goto out;
	if (verify && verify(tmp, ctx, err) != 0)
		goto out;
	/* Another process may have changed the original while the result was checked:
	 * replacing it would undo that change. Its bytes, then its identity (a write while
	 * the bytes are read changes its ctime), as late as the rename allows. */
	if (compare_bytes(path, tmp, plan, err) != 0 || same_identity(path, st, err) != 0)
		goto out;
	if (opt->backup_suffix && make_backup(path, opt->backup_suffix, err) != 0)
		goto out;
	guard_block(&guard);
	renamed = rename(tmp, path) == 0;
	if (!renamed)
		error_set(err, "cannot replace the original: %s", strerror(errno));
	cleanup_armed = 0;
	guard_unblock(&guard);
	if (!renamed)
		goto out;
	sync_dir(path);
	rc = 0;
	goto out;
out_close:
	close(fd);
out:
	finish_temp(&guard, tmp, renamed);
	free(tmp);
	return rc;
}
