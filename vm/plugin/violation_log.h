/* The checker's output: one JSON object per line, appended with a single write() each so that
 * threads and forked children of the guest can share the file. Each distinct
 * (kind, source, target) is written once; repeats are only counted. */
#ifndef ELFCET_VIOLATION_LOG_H
#define ELFCET_VIOLATION_LOG_H

#include "violation_wire.h"

#include <stdbool.h>
#include <stdint.h>

struct violation {
	enum violation_kind kind;
	uint64_t src, dst;
	bool has_expected;
	uint64_t expected; /* shstk: the return address on top of the shadow stack */
	unsigned depth;	   /* shstk-unwind: shadow-stack entries skipped */
};

/* Open (append) the output file; -1 on failure. */
int violation_log_open(const char *path);
/* Whether addresses can be named by object (user mode only). */
void violation_log_name_objects(bool on);
/* Appends S to the JSON string being written in BUF (LEN bytes used of CAP): quote and
 * backslash escaped, control bytes as \u00XX, every other byte as it is, so that a reader
 * gets the name's bytes back (names are paths: any byte but NUL). Stops before a byte that
 * would not fit whole. Returns the new length. */
size_t violation_log_escape(char *buf, size_t cap, size_t len, const char *s);
/* Write a raw line (without newline) as is. */
void violation_log_line(const char *json);
/* Record one violation; returns true when it was new (written). Thread-safe. */
bool violation_log_report(const struct violation *v);
/* Occurrences so far of each kind, and distinct ones. */
void violation_log_counts(uint64_t total[VIOL_KINDS], uint64_t distinct[VIOL_KINDS]);

#endif
