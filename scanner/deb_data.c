/* The data archive of a package: its regular files by installed path, and the contents
 * of those that are ELF files.
 *
 * A member is read in the blocks libarchive hands out, each at its offset in the file:
 * a file that is not ELF is left after its first bytes, and an ELF file is laid into an
 * anonymous mapping of its size, where the holes of a sparse member, and the blocks of
 * zeros of any member, stay untouched pages that read as zeros and take no memory. An
 * ELF member whose data would take more than the package's limit is not read at all. */
#include "config.h"

#include "deb_data.h"
#include "util/xalloc.h"

#include <elf.h>
#include <inttypes.h>
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

/* The bytes member E stores: its size, less the holes of a sparse member. */
static uint64_t stored_bytes(struct archive_entry *e, uint64_t size)
{
	la_int64_t off, len;
	uint64_t sum = 0;

	if (archive_entry_sparse_reset(e) <= 0)
		return size;
	while (archive_entry_sparse_next(e, &off, &len) == ARCHIVE_OK)
		if (len > 0)
			sum = (uint64_t)len > UINT64_MAX - sum ? UINT64_MAX : sum + (uint64_t)len;
	return sum < size ? sum : size;
}

enum member_read { MEMBER_READ, MEMBER_REFUSED, MEMBER_FAILED };

/* Reads the current member E of A, SIZE bytes, into *IMAGE when it starts with the ELF
 * magic (else *IMAGE stays NULL and the rest is left unread). An ELF member storing more
 * than MAX_ELF bytes is refused at its first block, and one whose blocks other than
 * zeros come to more (a sparse map that lied) as soon as they do: MEMBER_REFUSED with
 * ERR saying why, the rest left unread. MEMBER_FAILED with ERR on a read error. */
static enum member_read read_elf_member(struct archive *a, struct archive_entry *e, uint64_t size,
					uint64_t max_elf, unsigned char **image,
					struct elfcet_error *err)
{
	unsigned char magic[SELFMAG] = { 0 }, *map = NULL;
	uint64_t taken = 0; /* bytes copied into the image: the memory it takes */
	const void *buf;
	size_t len;
	la_int64_t off;
	int r;

	*image = NULL;
	if (size < SELFMAG)
		return MEMBER_READ;
	while ((r = archive_read_data_block(a, &buf, &len, &off)) == ARCHIVE_OK) {
		uint64_t at = (uint64_t)off, stored;

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
				return MEMBER_READ;
			stored = stored_bytes(e, size);
			if (stored > max_elf) {
				error_set(err,
					  "an ELF file of %" PRIu64 " bytes of data, more than "
					  "%" PRIu64 " (--max-elf-size): not audited",
					  stored, max_elf);
				return MEMBER_REFUSED;
			}
			map = map_image(size);
			if (!map) {
				error_set(err, "out of memory for a %" PRIu64 "-byte file", size);
				return MEMBER_FAILED;
			}
			memcpy(map, magic, SELFMAG);
		}
		/* A run of zeros costs a tiny package nothing: it must not cost memory. */
		if (!all_zero(buf, len)) {
			taken += len;
			if (taken > max_elf) {
				munmap(map, (size_t)size);
				error_set(err,
					  "an ELF file of more than %" PRIu64
					  " bytes of data (--max-elf-size): not audited",
					  max_elf);
				return MEMBER_REFUSED;
			}
			memcpy(map + at, buf, len);
		}
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
	return MEMBER_READ;
fail:
	if (map)
		munmap(map, (size_t)size);
	return MEMBER_FAILED;
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
		switch (read_elf_member(a, e, size, r->limits->max_elf_size, &image, err)) {
		case MEMBER_FAILED:
			return fail_in(err, member, name);
		case MEMBER_REFUSED:
			path = install_path(name);
			fn(pkg, path, NULL, (size_t)size, err->text, ctx);
			free(path);
			continue;
		case MEMBER_READ:
			break;
		}
		if (!image)
			continue;
		path = install_path(name);
		fn(pkg, path, image, (size_t)size, NULL, ctx);
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
