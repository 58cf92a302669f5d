/* elfcet run's results: the plugin's JSON lines read back, each address named as
 * object+address (the object's own virtual address) and symbol, printed as a readable
 * summary and written as JSON lines. */
#ifndef ELFCET_DYNRUN_REPORT_H
#define ELFCET_DYNRUN_REPORT_H

#include "dynrun/dynrun.h"
#include "dynrun/dynrun_symbols.h"
#include "util/error.h"
#include "vm/plugin/violation_wire.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct dynrun_end {
	uint64_t address; /* run-time address in the guest */
	char *object;	  /* mapped file, or NULL */
	uint64_t offset;  /* file offset in it */
	struct dynrun_place place;
};

struct dynrun_violation {
	enum violation_kind kind;
	long pid, tid;
	struct dynrun_end src, dst, expected;
	bool has_expected;
	unsigned depth; /* shstk-unwind: entries skipped */
};

struct dynrun_log {
	struct dynrun_violation *items;
	size_t count, cap;
	uint64_t totals[VIOL_KINDS]; /* occurrences, from the processes' summaries */
	uint64_t calls, returns, tracked;
	unsigned processes, summaries; /* started, and ended normally (not by exec/abort) */
	bool aborted;
	char **execs; /* programs exec'd (no longer checked) */
	size_t n_execs, execs_cap;
};

/* Reads the plugin's lines; -1 with a message naming the file on unreadable or bad input. */
int dynrun_log_read(const char *path, struct dynrun_log *log, struct elfcet_error *err);
/* Names every address (object+vaddr, symbol). */
void dynrun_log_symbolize(struct dynrun_log *log);
void dynrun_log_free(struct dynrun_log *log);

/* The readable report: one line per violation, then a summary line. */
void dynrun_print_text(FILE *out, const struct dynrun_outcome *run, const struct dynrun_log *log);
/* JSON lines: one per violation, then {"event":"run",...}. -1 on a write error. */
int dynrun_write_json(FILE *out, const struct dynrun_outcome *run, const struct dynrun_log *log);

/* Describe a wait status: "exit status 3", "killed by signal 11 (Segmentation fault)". */
void dynrun_describe_status(int wait_status, char *buf, size_t len);

#endif
