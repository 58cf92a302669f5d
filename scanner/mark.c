/* Marking one file: safety checks, the audit gate, the plan, the checked write. */
#include "config.h"

#include "mark.h"

#include "gnu_property.h"
#include "mark_write.h"
#include "verdict.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum mark_status failed(struct mark_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static enum mark_status failed(struct mark_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->message, sizeof(res->message), fmt, ap);
	va_end(ap);
	res->status = MARK_FAILED;
	return MARK_FAILED;
}

static bool verdict_allows(enum verdict v)
{
	return v == VERDICT_READY || v == VERDICT_MARKED_OK;
}

uint32_t mark_blocked_bits(const struct file_report *audit, const struct mark_request *req)
{
	uint32_t set = req->set & ~req->clear, blocked = 0;

	if ((set & FEATURE_1_IBT) && !verdict_allows(audit->ibt))
		blocked |= FEATURE_1_IBT;
	if ((set & FEATURE_1_SHSTK) && !verdict_allows(audit->shstk))
		blocked |= FEATURE_1_SHSTK;
	return blocked;
}

bool mark_finding_blocks(const struct finding *f, uint32_t blocked)
{
	return ((blocked & FEATURE_1_IBT) && finding_blocks(f->rule, f->severity, CET_IBT)) ||
	       ((blocked & FEATURE_1_SHSTK) && finding_blocks(f->rule, f->severity, CET_SHSTK));
}

static bool has_problem(const struct problem_list *list, const char *rule)
{
	size_t i;

	for (i = 0; i < list->count; i++)
		if (strcmp(list->items[i].rule, rule) == 0)
			return true;
	return false;
}

struct verify_ctx {
	const struct mark_options *opt;
	const struct mark_result *res;
};

/* The result, re-read and re-audited, must carry exactly the planned bits, the same
 * ISA_1_NEEDED, the same verdict inputs, and no marking problem the original did not have. */
static int verify_written(const char *tmp, void *p, char *err, size_t errlen)
{
	const struct verify_ctx *ctx = p;
	const struct file_report *before = &ctx->res->audit;
	const struct mark_plan *plan = &ctx->res->plan;
	struct audit_options aopt = { .rules = ctx->opt->rules };
	const struct property_note *n;
	struct file_report after;
	int rc = -1;
	size_t i;

	audit_file(tmp, &aopt, &after);
	n = &after.props.note;
	if (after.status != REPORT_AUDITED) {
		snprintf(err, errlen, "the result does not read back: %s",
			 after.message ? after.message : "unknown");
		goto out;
	}
	if (n->has_feature_1_and != plan->new_present ||
	    (plan->new_present && n->feature_1_and != plan->new_bits)) {
		snprintf(err, errlen, "the result reads back with FEATURE_1_AND 0x%x, not 0x%x",
			 n->has_feature_1_and ? n->feature_1_and : 0, plan->new_bits);
		goto out;
	}
	if (n->has_isa_1_needed != before->props.note.has_isa_1_needed ||
	    n->isa_1_needed != before->props.note.isa_1_needed) {
		snprintf(err, errlen, "the result's ISA_1_NEEDED differs from the original's");
		goto out;
	}
	if (plan->new_present && (after.props.kernel.feature_1_and != plan->new_bits ||
				  after.props.glibc.feature_1_and != plan->new_bits)) {
		snprintf(err, errlen, "the kernel or ld.so would read the result differently "
				      "(kernel 0x%x, ld.so 0x%x)",
			 after.props.kernel.feature_1_and, after.props.glibc.feature_1_and);
		goto out;
	}
	for (i = 0; i < after.problems.count; i++) {
		if (!has_problem(&before->problems, after.problems.items[i].rule)) {
			snprintf(err, errlen, "the result has a new problem: %s: %s",
				 after.problems.items[i].rule, after.problems.items[i].message);
			goto out;
		}
	}
	rc = 0;
out:
	file_report_free(&after);
	return rc;
}

static bool marking_damaged(const struct file_report *audit, const struct problem **which)
{
	size_t i;

	for (i = 0; i < audit->problems.count; i++) {
		if (audit->problems.items[i].severity == SEVERITY_ERROR) {
			*which = &audit->problems.items[i];
			return true;
		}
	}
	return false;
}

enum mark_status mark_file(const char *path, const struct mark_options *opt,
			   struct mark_result *res)
{
	struct audit_options aopt = { .rules = opt->rules };
	struct mark_write_options wopt = { .backup_suffix = opt->backup_suffix,
					   .preserve_timestamps = opt->preserve_timestamps };
	const struct problem *bad;
	struct elf_model m;
	struct verify_ctx ctx = { opt, res };
	struct stat st;
	char msg[256];
	int rc;

	memset(res, 0, sizeof(*res));
	/* A symlink is followed: its target is the file that gets the new marking. */
	res->target = realpath(path, NULL);
	if (!res->target)
		return failed(res, "%s", "cannot resolve the path (missing file?)");
	if (mark_write_check_target(res->target, &st, msg, sizeof(msg)) != 0)
		return failed(res, "%s", msg);

	audit_file(res->target, &aopt, &res->audit);
	switch (res->audit.status) {
	case REPORT_AUDITED:
		break;
	case REPORT_NOT_ELF:
	case REPORT_SKIPPED:
	case REPORT_ERROR:
		return failed(res, "%s", res->audit.message ? res->audit.message : "unreadable");
	}
	if (!note_header_left_empty(&res->audit.props.note) && marking_damaged(&res->audit, &bad))
		return failed(res, "damaged property note (%s): %s; not touched", bad->rule,
			      bad->message);

	switch (elf_model_open(&m, res->target, msg, sizeof(msg))) {
	case ELF_OPEN_OK:
		break;
	default:
		return failed(res, "%s", msg);
	}
	rc = mark_plan_make(&m, &opt->req, &res->plan, msg, sizeof(msg));
	elf_model_close(&m);
	if (rc != 0)
		return failed(res, "%s; not touched", msg);

	if (res->plan.layout == MARK_LAYOUT_UNCHANGED) {
		res->status = MARK_UNCHANGED;
		goto done;
	}
	/* Only bits that are newly set need the audit's consent; clearing is always safe. */
	res->blocked = mark_blocked_bits(&res->audit, &(struct mark_request){
						 .set = opt->req.set & ~res->plan.old_bits,
						 .clear = opt->req.clear });
	if (res->blocked) {
		if (!opt->force) {
			res->status = MARK_REFUSED;
			goto done;
		}
		res->forced = true;
	}
	if (opt->dry_run) {
		res->status = MARK_DONE;
		goto done;
	}
	if (mark_write_file(res->target, &st, &res->plan, &wopt, verify_written, &ctx, msg,
			    sizeof(msg)) != 0) {
		free(res->plan.image);
		res->plan.image = NULL;
		return failed(res, "%s; original kept", msg);
	}
	res->status = MARK_DONE;
done:
	free(res->plan.image);
	res->plan.image = NULL;
	return res->status;
}

void mark_result_free(struct mark_result *res)
{
	free(res->target);
	file_report_free(&res->audit);
	mark_plan_free(&res->plan);
	memset(res, 0, sizeof(*res));
}
