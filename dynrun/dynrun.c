/* Running a program under QEMU with the checking plugin. */
#include "config.h"

#include "dynrun/dynrun.h"

#include "util/install_dirs.h"

#include "property/property_note.h"
#include "util/xalloc.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef ELFCET_PLUGIN_PATH
#define ELFCET_PLUGIN_PATH "elfcet-qemu-plugin.so"
#endif

const char *dynrun_plugin_path(void)
{
	const char *env = getenv("ELFCET_PLUGIN");
	static char path[4096];
	const char *built = NULL;

	if (env && *env)
		return env;
#ifdef ELFCET_BUILD_PLUGIN_PATH
	built = ELFCET_BUILD_PLUGIN_PATH;
#endif
	return install_path(ELFCET_PLUGIN_PATH, built, path, sizeof(path));
}

const char *dynrun_qemu_name(bool is64)
{
	const char *env = getenv(is64 ? "ELFCET_QEMU_X86_64" : "ELFCET_QEMU_I386");

	if (env && *env)
		return env;
	return is64 ? "qemu-x86_64" : "qemu-i386";
}

char *dynrun_escape_option(const char *in, char *out, size_t outlen)
{
	size_t n = 0;

	for (; *in; in++) {
		size_t need = *in == ',' ? 2 : 1;

		if (n + need >= outlen)
			return NULL;
		out[n++] = *in;
		if (*in == ',')
			out[n++] = ',';
	}
	if (n >= outlen)
		return NULL;
	out[n] = '\0';
	return out;
}

/* Finds NAME like execvp would: as a path when it has a slash, else through PATH. */
static int resolve_program(const char *name, char *out, size_t outlen)
{
	if (strchr(name, '/')) {
		if (!realpath(name, out))
			return -1;
		return 0;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		char candidate[4096];

		if ((size_t)snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)len, path,
				     name) < sizeof(candidate) &&
		    access(candidate, X_OK) == 0 && realpath(candidate, out) &&
		    strlen(out) < outlen)
			return 0;
		path += len + (path[len] == ':');
	}
	errno = ENOENT;
	return -1;
}

/* The guest's class from the ELF header; -1 with a message when it is not an x86 ELF. */
static int program_class(const char *path, bool *is64, struct elfcet_error *err)
{
	unsigned char h[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd < 0 ? -1 : read(fd, h, sizeof(h));

	if (fd >= 0)
		close(fd);
	if (got < 0) {
		error_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (got < (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG) != 0) {
		error_set(err, "%s: not an ELF file", path);
		return -1;
	}
	uint16_t machine = (uint16_t)(h[18] | h[19] << 8);
	if (h[EI_CLASS] == ELFCLASS64 && machine == EM_X86_64)
		*is64 = true;
	else if (h[EI_CLASS] == ELFCLASS32 && machine == EM_386)
		*is64 = false;
	else {
		error_set(err, "%s: not an x86-64 or i386 program", path);
		return -1;
	}
	return 0;
}

/* The one place the run reads the program's marking. */
static int read_marking(const char *path, uint32_t *bits, struct elfcet_error *err)
{
	bool present = false;

	if (property_read_feature_1_and(path, bits, &present, err) != 0)
		return -1;
	if (!present)
		*bits = 0;
	return 0;
}

int dynrun_execute(const struct dynrun_request *req, const char *raw_log,
		   struct dynrun_outcome *out, struct elfcet_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!req->argv || !req->argv[0]) {
		error_set(err, "no program to run");
		return -1;
	}
	if (resolve_program(req->argv[0], out->program, sizeof(out->program)) != 0) {
		error_set(err, "%s: %s", req->argv[0], strerror(errno));
		return -1;
	}
	if (program_class(out->program, &out->is64, err) != 0)
		return -1;
	if (read_marking(out->program, &out->marking, err) != 0)
		return -1;
	out->ibt = req->force_ibt || (out->marking & 1u);
	out->shstk = req->force_shstk || (out->marking & 2u);

	const char *plugin = dynrun_plugin_path();
	if (access(plugin, R_OK) != 0) {
		error_set(err, "%s: checker plugin not readable: %s (set ELFCET_PLUGIN)", plugin,
			  strerror(errno));
		return -1;
	}

	char plugin_esc[4096], log_esc[4096], prog_esc[8192], spec[20000];
	if (!dynrun_escape_option(plugin, plugin_esc, sizeof(plugin_esc)) ||
	    !dynrun_escape_option(raw_log, log_esc, sizeof(log_esc)) ||
	    !dynrun_escape_option(out->program, prog_esc, sizeof(prog_esc))) {
		error_set(err, "%s: path too long", out->program);
		return -1;
	}
	/* --ibt names the program as an object to verify although it is not marked. */
	snprintf(spec, sizeof(spec), "%s,out=%s,ibt=%s,shstk=%s,abort=%s%s%s", plugin_esc, log_esc,
		 out->ibt ? "on" : "off", out->shstk ? "on" : "off",
		 req->abort_on_violation ? "on" : "off", req->force_ibt ? ",verify=" : "",
		 req->force_ibt ? prog_esc : "");

	size_t nargs = 0;
	while (req->argv[nargs])
		nargs++;
	char **qargv = xcalloc(nargs + 5, sizeof(*qargv));
	const char *qemu = dynrun_qemu_name(out->is64);
	qargv[0] = (char *)qemu;
	qargv[1] = "-plugin";
	qargv[2] = spec;
	qargv[3] = out->program; /* absolute: QEMU cannot take it for an option */
	for (size_t i = 1; i < nargs; i++)
		qargv[3 + i] = req->argv[i];

	/* The child reports a failed exec through a close-on-exec pipe. */
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		error_set(err, "pipe: %s", strerror(errno));
		free(qargv);
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		error_set(err, "fork: %s", strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		free(qargv);
		return -1;
	}
	if (pid == 0) {
		close(pipefd[0]);
		execvp(qemu, qargv);
		int e = errno;
		ssize_t ignored = write(pipefd[1], &e, sizeof(e));
		(void)ignored;
		_exit(127);
	}
	close(pipefd[1]);
	free(qargv);

	/* Like system(): the terminal's ^C is for the program, not for us. */
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	int exec_errno = 0;
	ssize_t got = read(pipefd[0], &exec_errno, sizeof(exec_errno));
	close(pipefd[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (got == (ssize_t)sizeof(exec_errno)) {
		error_set(err, "%s: cannot run: %s", qemu, strerror(exec_errno));
		return -1;
	}
	out->wait_status = status;
	return 0;
}
