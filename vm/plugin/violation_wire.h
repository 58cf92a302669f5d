/* The checking plugin's output format, written by the plugin (violation_log.c,
 * cet_plugin.c) and read by elfcet run (dynrun/dynrun_report.c) and vm/verify
 * (verify-eval.jq, which cannot include this and names the same fields). One JSON object
 * per line, told apart by "event":
 *
 *   start      pid target mode ibt shstk
 *   violation  kind pid tid src dst [expected] [depth]
 *              [src_object src_offset] [dst_object dst_offset] [expected_object ...]
 *   summary    pid calls returns tracked_branches, and per kind: KIND and KIND_distinct
 *   exec       pid path
 *   abort      pid kind
 *   window     open [interrupted_transfers]
 *
 * Addresses are guest virtual addresses in decimal; an END_object/END_offset pair names
 * the mapped file and offset an address falls in (user mode only). Names (END_object, an
 * exec's path) are any bytes but NUL: written with the quote and backslash escaped, control
 * bytes as \u00XX and every other byte as it is (not always UTF-8), so that a reader
 * gets them back exactly (json-c keeps such bytes; jq would not). Only plain C here: the
 * plugin is built by its own rule (vm/local.mk), without libelf or json-c. */
#ifndef ELFCET_VIOLATION_WIRE_H
#define ELFCET_VIOLATION_WIRE_H

#include <stdbool.h>
#include <string.h>

enum violation_kind { VIOL_IBT, VIOL_SHSTK, VIOL_SHSTK_UNWIND, VIOL_KINDS };

/* The kinds' names, also the summary's count fields: literals, for format strings. */
#define WIRE_IBT "ibt"
#define WIRE_SHSTK "shstk"
#define WIRE_SHSTK_UNWIND "shstk-unwind"
#define WIRE_DISTINCT "_distinct" /* KIND_distinct: distinct (kind, src, dst) */

/* "event" and its values */
#define WIRE_EVENT "event"
#define WIRE_EV_START "start"
#define WIRE_EV_VIOLATION "violation"
#define WIRE_EV_SUMMARY "summary"
#define WIRE_EV_EXEC "exec"
#define WIRE_EV_ABORT "abort"
#define WIRE_EV_WINDOW "window"

/* the other fields */
#define WIRE_PID "pid"
#define WIRE_TID "tid"
#define WIRE_KIND "kind"
#define WIRE_TARGET "target"
#define WIRE_MODE "mode"
#define WIRE_SRC "src"
#define WIRE_DST "dst"
#define WIRE_EXPECTED "expected"
#define WIRE_DEPTH "depth"
#define WIRE_OBJECT "_object" /* END_object: the file mapped at that end */
#define WIRE_OFFSET "_offset" /* END_offset: the file offset in it */
#define WIRE_CALLS "calls"
#define WIRE_RETURNS "returns"
#define WIRE_TRACKED "tracked_branches"
#define WIRE_PATH "path"
#define WIRE_OPEN "open"
#define WIRE_INTERRUPTED "interrupted_transfers"

/* "NAME": in a format string */
#define WIRE_KEY(name) "\"" name "\":"

static inline const char *violation_kind_name(enum violation_kind kind)
{
	static const char *const names[VIOL_KINDS] = { WIRE_IBT, WIRE_SHSTK, WIRE_SHSTK_UNWIND };

	return names[kind];
}

/* The kind called NAME; false when there is none. */
static inline bool violation_kind_parse(const char *name, enum violation_kind *kind)
{
	for (int k = 0; k < VIOL_KINDS; k++) {
		if (strcmp(name, violation_kind_name((enum violation_kind)k)) == 0) {
			*kind = (enum violation_kind)k;
			return true;
		}
	}
	return false;
}

#endif
