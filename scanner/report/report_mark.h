/* What elfcet mark says about a file, in the words its manual uses: the change made (or
 * that would be made) on one stream, refusals, blocking findings and warnings on another. */
#ifndef ELFCET_REPORT_MARK_H
#define ELFCET_REPORT_MARK_H

#include "mark/mark.h"

#include <stdbool.h>
#include <stdio.h>

/* One file's outcome of mark_file() (STATUS) as text: the result line, with the byte
 * ranges changed when VERBOSE or DRY_RUN, on OUT; failures and refusals, with the findings
 * that blocked the change, and warnings on ERR. */
void report_mark_file(FILE *out, FILE *err, const char *path, enum mark_status status,
		      const struct mark_result *res, bool dry_run, bool verbose);

#endif
