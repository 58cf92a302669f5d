/* Putting a mark plan on disk without ever harming the original: checks on the target,
 * a temporary file in the same directory with the original's owner, mode, extended
 * attributes (file capabilities included) and optionally timestamps, fsync, a byte-level
 * check against the original and the plan, a caller's check of the result, then an
 * atomic rename. On any failure the temporary file is removed and the original is as it
 * was. */
#ifndef ELFCET_MARK_WRITE_H
#define ELFCET_MARK_WRITE_H

#include "mark/mark_plan.h"
#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

struct mark_write_options {
	const char *backup_suffix; /* keep the original as PATH+SUFFIX; NULL: no backup */
	bool preserve_timestamps;  /* give the result the original's atime and mtime */
};

/* Refuses what must not be rewritten: not a regular file, hard-linked, read-only (mode
 * or filesystem), being executed. Fills ST. 0, or -1 with a short reason in ERR. */
int mark_write_check_target(const char *path, struct stat *st, struct elfcet_error *err);

/* Checks the written temporary file before it replaces the original (re-read, re-audit):
 * 0, or -1 with a reason in ERR. */
typedef int (*mark_verify_fn)(const char *tmp_path, void *ctx, struct elfcet_error *err);

/* Writes PLAN over PATH (checked with mark_write_check_target into ST). 0, or -1 with a
 * short reason in ERR and the original untouched. */
int mark_write_file(const char *path, const struct stat *st, const struct mark_plan *plan,
		    const struct mark_write_options *opt, mark_verify_fn verify, void *ctx,
		    struct elfcet_error *err);

#endif
