/* Fuzz target: a Debian package read as `elfcet audit` reads it (deb_read: the ar
 * archive, the tar members, dpkg's compressions, the limits), each ELF member audited.
 * The input is the package's bytes, written to a memory file that deb_read opens by
 * name; fuzz_deb_mutator.c mutates it as a package (ar, tar, compression). */
#include "config.h"

#include "audit.h"
#include "deb_input.h"
#include "rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rule_set rules;
static char package[64];
static int fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct elfcet_error err;

	(void)argc;
	(void)argv;
	if (rules_load(FUZZ_RULES_DIR, &rules, &err) != 0) {
		fprintf(stderr, "fuzz_deb: %s\n", err.text);
		abort();
	}
	fd = memfd_create("fuzz.deb", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	snprintf(package, sizeof(package), "/proc/self/fd/%d", fd);
	return 0;
}

/* Every byte of the image is read, so that ASan sees a mapping shorter than SIZE. */
static void audit_member(const struct deb_package *pkg, const char *install_path,
			 const unsigned char *image, size_t size, const char *refused, void *ctx)
{
	struct audit_options opt = { .rules = &rules };
	struct file_report rep;
	volatile unsigned char sum = 0;
	size_t i;

	(void)pkg;
	(void)ctx;
	if (refused)
		return;
	for (i = 0; i < size; i += 4096)
		sum ^= image[i];
	sum ^= image[size - 1];
	audit_image(install_path, image, size, &opt, &rep);
	file_report_free(&rep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Small limits keep one input under the harness' second. */
	struct deb_limits limits = { 4 << 20, 4096, 1 << 20 };
	struct elfcet_error err;

	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	deb_read(package, &limits, audit_member, NULL, &err);
	return 0;
}
