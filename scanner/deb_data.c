/* The data archive of a package: its regular files by installed path, and the contents
 * of those that are ELF files.
 *
 * A member is read in the blocks libarchive hands out, each at its offset in the file:
 * a file that is not ELF is left after its first bytes, and an ELF file is laid into an
 * anonymous mapping of its size, where the holes of a sparse member, and the blocks of
 * zeros of any member, stay untouched pages that read as zeros and take no memory. */
#include "config.h"

#include "deb_data.h"
#include "util/xalloc.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* "./usr/bin/ls" and "usr/bin/ls" are installed as "/usr/bin/ls". */
static char *install_path(const char *name)
{
	while (name[0] == '.' && name[1] == '/')
		name += 2;
	while (name[0] == '/')
		name++;
	return xasprintf("/%s", name);
}

/* A private anonymous mapping of SIZE bytes, or NULL. */
static unsigned char *map_image(uint64_t size)
{
	void *p;

	if (size > SIZE_MAX)
		return NULL;
	p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* Whether the LEN bytes at P are all zero. */
static bool all_zero(const unsigned char *p, size_t len)
{
	return len == 0 || (p[0] == 0 && memcmp(p, p + 1, len - 1) == 0);
}

/* Reads the current member of A, SIZE bytes, into *IMAGE when it starts with the ELF
 * magic (else *IMAGE stays NULL and the rest is left unread). 0, or -1 with ERR. */
static int read_elf_member(struct archive *a, uint64_t size, unsigned char **image,
			   struct elfcet_error *err)
{
	unsigned char magic[SELFMAG] = { 0 }, *map = NULL;
	const void *buf;
	size_t len;
	la_int64_t off;
	int r;

	*image = NULL;
	if (size < SELFMAG)
		return 0;
	while ((r = archive_read_data_block(a, &buf, &len, &off)) == ARCHIVE_OK) {
		uint64_t at = (uint64_t)off;

		if (off < 0 || at > size || len > size - at) {
			error_set(err, "data past the member's size");
			goto fail;
		}
		if (!map) {
			/* Blocks come in file order; a byte of the magic no block held was a hole. */
			if (at < SELFMAG)
				memcpy(magic + at, buf, len < SELFMAG - at ? len : SELFMAG - at);
			if (at + len < SELFMAG)
				continue;
			if (memcmp(magic, ELFMAG, SELFMAG) != 0)
				return 0;
			map = map_image(size);
			if (!map) {
				error_set(err, "out of memory for a %llu-byte file",
					  (unsigned long long)size);
				return -1;
			}
			memcpy(map, magic, SELFMAG);
		}
		/* A run of zeros costs a tiny package nothing: it must not cost memory. */
		if (!all_zero(buf, len))
			memcpy(map + at, buf, len);
	}
	if (r != ARCHIVE_EOF) {
		deb_fail(err, "cannot read", a);
		goto fail;
	}
	if (map && mprotect(map, (size_t)size, PROT_READ) != 0) {
		error_set(err, "cannot protect the image");
		goto fail;
	}
	*image = map;
	return 0;
fail:
	if (map)
		munmap(map, (size_t)size);
	return -1;
}

/* ERR's text under "MEMBER: " (and "ENTRY: " when not NULL). */
static int fail_in(struct elfcet_error *err, const char *member, const char *entry)
{
	struct elfcet_error inner = *err;

	return error_set(err, "%s: %s%s%s", member, entry ? entry : "", entry ? ": " : "",
			 inner.text);
}

int deb_read_data(struct deb_reader *r, struct archive *a, const char *member,
		  const struct deb_package *pkg, deb_file_fn fn, void *ctx,
		  struct elfcet_error *err)
{
	struct archive_entry *e;
	int rc;

	/* ARCHIVE_WARN: a name libarchive could not convert to the locale; it keeps the
	 * archive's bytes, which is what the package installs. */
	while ((rc = archive_read_next_header(a, &e)) == ARCHIVE_OK || rc == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(e);
		unsigned char *image;
		uint64_t size;
		char *path;

		if (deb_count_entry(r, a, e, err) != 0)
			return fail_in(err, member, NULL);
		if (!name || archive_entry_filetype(e) != AE_IFREG || archive_entry_hardlink(e) ||
		    !archive_entry_size_is_set(e) || archive_entry_size(e) <= 0)
			continue;
		size = (uint64_t)archive_entry_size(e);
		if (read_elf_member(a, size, &image, err) != 0)
			return fail_in(err, member, name);
		if (!image)
			continue;
		path = install_path(name);
		fn(pkg, path, image, (size_t)size, ctx);
		free(path);
		munmap(image, (size_t)size);
	}
	if (rc != ARCHIVE_EOF) {
		char what[64];

		snprintf(what, sizeof(what), "%s: cannot read", member);
		return deb_fail(err, what, a);
	}
	return 0;
}
