/* Marking one file: the safety checks, the audit that decides whether the requested bits
 * may be set, the plan, and the checked write. */
#ifndef ELFCET_MARK_H
#define ELFCET_MARK_H

#include "audit.h"
#include "mark/mark_plan.h"
#include "util/error.h"

#include <stdbool.h>

struct rule_set;

struct mark_options {
	struct mark_request req;
	bool force;		   /* mark even when the audit finds blockers */
	bool dry_run;		   /* plan and report, write nothing */
	const char *backup_suffix; /* NULL: no backup */
	bool preserve_timestamps;
	const struct rule_set *rules;
};

enum mark_status {
	MARK_DONE,	/* written (or, with dry_run, would be) */
	MARK_UNCHANGED, /* already carries the requested bits: nothing written */
	MARK_REFUSED,	/* the audit found blockers and --force was not given */
	MARK_UNSAFE,	/* the change would move or overwrite bytes another header refers
			   * to, or change how the file loads: MESSAGE says which; untouched */
	MARK_FAILED,	/* unreadable, damaged, unsafe to rewrite, or an I/O error */
};

struct mark_result {
	enum mark_status status;
	char *target;		   /* the file actually rewritten (symlinks resolved) */
	struct elfcet_error error; /* for FAILED and UNSAFE: why, without the file name */
	uint32_t blocked;	   /* requested bits the audit does not allow */
	bool forced;		   /* blockers were overridden by force */
	struct file_report audit;  /* the audit of the original: verdicts and findings */
	struct mark_plan plan;	   /* its image is freed; layout, bits and ranges remain */
};

/* Plans REQ for M and checks the plan (mark_view.h): 0 when it may be written (or there
 * is nothing to do), 1 when it would change how the file loads, -1 when the note or the
 * layout cannot be planned; ERR says why. Free PLAN with mark_plan_free either way. */
int mark_plan_checked(const struct elf_model *m, const struct mark_request *req,
		      struct mark_plan *plan, struct elfcet_error *err);

/* Marks PATH as OPT says; RES is always filled (free it with mark_result_free). */
enum mark_status mark_file(const char *path, const struct mark_options *opt,
			   struct mark_result *res);
void mark_result_free(struct mark_result *res);

/* True when finding F stops one of the BLOCKED bits (FEATURE_1_*) from being set. */
bool mark_finding_blocks(const struct finding *f, uint32_t blocked);

/* The bits of REQ's set that the audit does not allow (verdict not ready / marked-ok). */
uint32_t mark_blocked_bits(const struct file_report *audit, const struct mark_request *req);

#endif
