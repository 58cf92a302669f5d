/* Where elfcet finds the files it installs beside itself. */
#include "config.h"

#include "util/install_dirs.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Compiled in by the Makefile: $(bindir) and the build tree's elfcet program. */
#ifndef ELFCET_BINDIR
#define ELFCET_BINDIR "/usr/local/bin"
#endif
#ifndef ELFCET_BUILD_PROGRAM
#define ELFCET_BUILD_PROGRAM ""
#endif

static bool running_program(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	if (n <= 0 || (size_t)n >= len - 1)
		return false;
	buf[n] = '\0';
	return true;
}

const char *install_path(const char *installed_path, const char *build_path, char *buf, size_t len)
{
	char exe[PATH_MAX];
	size_t dirlen, binlen = strlen(ELFCET_BINDIR);
	char *slash;

	snprintf(buf, len, "%s", installed_path);
	if (!running_program(exe, sizeof(exe)))
		return buf;
	if (build_path && strcmp(exe, ELFCET_BUILD_PROGRAM) == 0) {
		snprintf(buf, len, "%s", build_path);
		return buf;
	}
	slash = strrchr(exe, '/');
	if (!slash)
		return buf;
	dirlen = (size_t)(slash - exe);
	/* Installed as ROOT$(bindir)/elfcet: the other files are under ROOT too. */
	if (dirlen < binlen || memcmp(exe + dirlen - binlen, ELFCET_BINDIR, binlen) != 0)
		return buf;
	if ((size_t)snprintf(buf, len, "%.*s%s", (int)(dirlen - binlen), exe, installed_path) >=
		    len ||
	    access(buf, R_OK) != 0)
		snprintf(buf, len, "%s", installed_path);
	return buf;
}
