/* Turning the PATH arguments of a command into the list of files to audit. */
#ifndef ELFCET_PATH_WALK_H
#define ELFCET_PATH_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct path_entry {
	char *path; /* as reported: the name found in the tree */
	char *open; /* the file to read when not PATH (a link resolved inside its tree) */
	char *skip; /* why PATH is skipped unread (a link that leaves its tree), or NULL */
	bool named; /* given on the command line or stdin, not found in a directory */
};

struct path_list {
	struct path_entry *items;
	size_t count, cap;
	size_t errors; /* paths that could not be walked (already reported on ERRS) */
};

/* Expands ARGS: files as they are, directories recursively (entries sorted by name,
 * symbolic links to directories not followed), "-" as a list of paths read from IN, one
 * per line. A file reached twice (links, overlapping arguments) is listed once: under
 * the first name the walk reaches it by, except that a symbolic link found in a
 * directory gives way to the file's own name when the walk reaches that too (as a
 * package names its files: libfoo.so.1.2.3, not the libfoo.so.1 link sorted before it).
 * Problems are reported on ERRS as "elfcet: PATH: problem" lines and counted.
 *
 * A symbolic link found in a directory tree resolves inside the tree's root, as it would
 * in a chroot there: an absolute target from the root, a relative one from the link's
 * directory, and links along the way likewise. The root is the directory given, or /
 * when that directory is part of this system (tree_root_of). A link whose target is
 * not in the tree (a relative one climbing above the root, an absolute one naming
 * what only the host has) is listed with SKIP set, never followed out to the host's
 * file; one that resolves is listed under its own name with OPEN the file it names. */
void path_walk(char *const *args, size_t nargs, FILE *in, FILE *errs, struct path_list *out);
void path_list_free(struct path_list *list);

/* The root a tree given as DIR (a real, absolute path) resolves absolute links in: DIR
 * itself, or "/" for a directory of this system (/, /usr and below except /usr/src and
 * /usr/local/src, /bin, /sbin, /lib*, /opt), where the host's files are the tree's.
 * Returns a string to free. */
char *tree_root_of(const char *dir);

#endif
