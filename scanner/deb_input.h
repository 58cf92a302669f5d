/* Reading a Debian binary package (.deb) as it is, without unpacking it to disk: the
 * package's name and version from its control file, and each regular file of its data
 * archive with the path the package installs it at, streamed from the compressed archive
 * by libarchive, within caps on what the package may unpack to. */
#ifndef ELFCET_DEB_INPUT_H
#define ELFCET_DEB_INPUT_H

#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True when PATH names a .deb or .udeb file that starts as a Debian package does. */
bool deb_is_package(const char *path);

/* What one package may cost: bytes its archives decompress to (a sparse member's holes
 * cost nothing, but no member may be larger than what is left), members, and the data
 * of one ELF member (its size less a sparse member's holes: what it may take in memory
 * to be audited; a larger one is passed over, unread, as refused). */
struct deb_limits {
	uint64_t max_unpacked;
	uint64_t max_members;
	uint64_t max_elf_size;
};
#define DEB_DEFAULT_MAX_UNPACKED ((uint64_t)16 << 30)
#define DEB_DEFAULT_MAX_MEMBERS ((uint64_t)1000000)
#define DEB_DEFAULT_MAX_ELF_SIZE ((uint64_t)2 << 30)

struct deb_package {
	char name[128];
	char version[128];
};

/* Called for each regular file of the data archive that starts with the ELF magic, in
 * archive order: INSTALL_PATH as installed ("/usr/bin/ls"), its SIZE bytes at IMAGE,
 * valid during the call only; or, for an ELF file over the limit on one member's data,
 * IMAGE NULL and REFUSED saying why it was not read (else REFUSED is NULL). Other files
 * are passed over unread. Hard links and symbolic links are not passed: the file they
 * lead to is, once, under the name that holds its data. */
typedef void (*deb_file_fn)(const struct deb_package *pkg, const char *install_path,
			    const unsigned char *image, size_t size, const char *refused,
			    void *ctx);

/* Reads PATH within LIMITS. 0, or -1 with ERR saying what is wrong with the package,
 * naming the member (files passed before the problem was met stay passed). */
int deb_read(const char *path, const struct deb_limits *limits, deb_file_fn fn, void *ctx,
	     struct elfcet_error *err);

#endif
