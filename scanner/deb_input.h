/* Reading a Debian binary package (.deb) as it is, without unpacking it to disk: the
 * package's name and version from its control file, and each regular file of its data
 * archive with the path the package installs it at, streamed from the compressed archive
 * by libarchive. */
#ifndef ELFCET_DEB_INPUT_H
#define ELFCET_DEB_INPUT_H

#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>

/* True when PATH names a .deb or .udeb file that starts as a Debian package does. */
bool deb_is_package(const char *path);

struct deb_package {
	char name[128];
	char version[128];
};

/* Called for each regular file of the data archive, in archive order: INSTALL_PATH as
 * installed ("/usr/bin/ls"), its contents. Only files that start with the ELF magic are
 * read into memory (IMAGE is malloc'ed and owned by the callee); the others are passed
 * over. Hard links and symbolic links are not passed: the file they lead to is, once,
 * under the name that holds its data (as a directory walk audits a file once). */
typedef void (*deb_file_fn)(const struct deb_package *pkg, const char *install_path,
			    unsigned char *image, size_t size, void *ctx);

/* Reads PATH. 0, or -1 with ERR saying what is wrong with the package (files passed before
 * the problem was met stay passed). */
int deb_read(const char *path, deb_file_fn fn, void *ctx, struct elfcet_error *err);

#endif
