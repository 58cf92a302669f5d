/* Fuzz target: `elfcet report` over one JSON Lines shard (issue 35), the command itself
 * (elfcet/cmd_report.c: one record per line, the records' members, the merged summary
 * in text and JSON). The input is the shard's bytes, written to a memory file the
 * command opens by name; an odd size asks the JSON summary, an even one the text (a space
 * added before a line's end changes nothing else). What the command
 * prints goes to /dev/null: libFuzzer and the sanitizers write to file descriptor 2, not
 * through stdio's stderr. */
#include "config.h"

#include "elfcet/commands.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char shard[64];
static int fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	FILE *null = fopen("/dev/null", "w");

	(void)argc;
	(void)argv;
	fd = memfd_create("fuzz.jsonl", MFD_CLOEXEC);
	if (fd < 0 || !null)
		abort();
	snprintf(shard, sizeof(shard), "/proc/self/fd/%d", fd);
	stdout = null;
	stderr = null;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *args[] = { "report", "--format=text", shard, NULL };

	if (size % 2)
		args[1] = "--format=json";
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	optind = 1;
	cmd_report(3, args);
	return 0;
}
