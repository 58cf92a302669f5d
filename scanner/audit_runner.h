/* Auditing many files on several threads, handing the reports back in input order. */
#ifndef ELFCET_AUDIT_RUNNER_H
#define ELFCET_AUDIT_RUNNER_H

#include "audit.h"
#include "path_walk.h"

typedef void (*audit_report_fn)(const struct file_report *rep, bool named, void *ctx);
/* DONE of the TOTAL entries of FILES have been handed over (a package is one entry). */
typedef void (*audit_done_fn)(size_t done, size_t total, void *ctx);

/* Audits every entry of FILES with THREADS workers (0: one per online CPU) and calls
 * FN for each report, in the order of FILES, from the calling thread, then DONE (if not
 * NULL) after each entry. */
void audit_run(const struct path_list *files, const struct audit_options *opt, unsigned threads,
	       audit_report_fn fn, audit_done_fn done, void *ctx);

#endif
