/* Turning the PATH arguments of a command into the list of files to audit. */
#ifndef ELFCET_PATH_WALK_H
#define ELFCET_PATH_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct path_entry {
	char *path;
	bool named;     /* given on the command line or stdin, not found in a directory */
};

struct path_list {
	struct path_entry *items;
	size_t count, cap;
	size_t errors;  /* paths that could not be walked (already reported on ERRS) */
};

/* Expands ARGS: files as they are, directories recursively (entries sorted by name,
 * symbolic links to directories not followed), "-" as a list of paths read from IN, one
 * per line. A file reached twice (links, overlapping arguments) is listed once.
 * Problems are reported on ERRS as "elfcet: PATH: problem" lines and counted. */
void path_walk(char *const *args, size_t nargs, FILE *in, FILE *errs, struct path_list *out);
void path_list_free(struct path_list *list);

#endif
