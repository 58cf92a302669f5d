/* Marking one file: safety checks, the audit gate, the plan, the checked write. */
#include "config.h"

#include "mark/mark.h"

#include "property/gnu_property.h"
#include "mark/mark_reads.h"
#include "mark/mark_view.h"
#include "util/error.h"
#include "mark/mark_write.h"
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
	error_setv(&res->error, fmt, ap);
	va_end(ap);
	res->status = MARK_FAILED;
	return MARK_FAILED;
}

static enum mark_status unsafe(struct mark_result *res, const char *why)
{
	error_set(&res->error, "%s; not touched", why);
	res->status = MARK_UNSAFE;
	return MARK_UNSAFE;
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
	const struct elf_model *before; /* the original, read into memory */
};

/* The written file, read back into memory, as the loaders would see it. */
static int verify_view(const char *tmp, const struct verify_ctx *ctx, struct elfcet_error *err)
{
	struct elf_model after;
	struct elfcet_error msg;
	int rc;

	if (elf_model_open_copy(&after, tmp, &msg) != ELF_OPEN_OK)
		return error_set(err, "the result does not read back: %s", msg.text);
	rc = mark_view_compare(ctx->before, &after, &ctx->res->plan, err);
	elf_model_close(&after);
	return rc;
}

/* The result, re-read and re-audited, must carry exactly the planned bits, the same
 * ISA_1_NEEDED, the same verdict inputs, and no marking problem the original did not have. */
static int verify_written(const char *tmp, void *p, struct elfcet_error *err)
{
	const struct verify_ctx *ctx = p;
	const struct file_report *before = &ctx->res->audit;
	const struct mark_plan *plan = &ctx->res->plan;
	struct audit_options aopt = { .rules = ctx->opt->rules };
	const struct property_note *n;
	struct file_report after;
	int rc = -1;
	size_t i;

	if (verify_view(tmp, ctx, err) != 0)
		return -1;
	audit_file(tmp, &aopt, &after);
	n = &after.props.note;
	if (after.status != REPORT_AUDITED) {
		error_set(err, "the result does not read back: %s",
			  after.message ? after.message : "unknown");
		goto out;
	}
	if (n->has_feature_1_and != plan->new_present ||
	    (plan->new_present && n->feature_1_and != plan->new_bits)) {
		error_set(err, "the result reads back with FEATURE_1_AND 0x%x, not 0x%x",
			  n->has_feature_1_and ? n->feature_1_and : 0, plan->new_bits);
		goto out;
	}
	if (n->has_isa_1_needed != before->props.note.has_isa_1_needed ||
	    n->isa_1_needed != before->props.note.isa_1_needed) {
		error_set(err, "the result's ISA_1_NEEDED differs from the original's");
		goto out;
	}
	if (plan->new_present &&
	    !property_loaders_read(after.props.kernel_reads_own_note, &after.props.kernel,
				   &after.props.glibc, plan->new_bits)) {
		error_set(err,
			  "the kernel or ld.so would read the result differently "
			  "(kernel 0x%x, ld.so 0x%x)",
			  after.props.kernel.feature_1_and, after.props.glibc.feature_1_and);
		goto out;
	}
	for (i = 0; i < after.problems.count; i++) {
		if (!has_problem(&before->problems, after.problems.items[i].rule)) {
			error_set(err, "the result has a new problem: %s: %s",
				  after.problems.items[i].rule, after.problems.items[i].message);
			goto out;
		}
	}
	rc = 0;
out:
	file_report_free(&after);
	return rc;
}

/* The plan, before anything is written: nothing it writes is another header's, and the
 * planned file reads, for the loaders, as the original with only the CET bits changed. */
static int check_plan(const struct elf_model *m, const struct mark_plan *plan,
		      struct elfcet_error *err)
{
	struct elf_model after;
	struct elfcet_error msg;
	int rc;

	if (mark_view_plan_safe(m, plan, err) != 0)
		return -1;
	if (elf_model_open_memory(&after, m->path, plan->edit.image, plan->edit.size, &msg) !=
	    ELF_OPEN_OK)
		return error_set(err, "the planned file would not read back: %s", msg.text);
	/* What would be overwritten first: the comparison then shows its consequence. */
	rc = mark_reads_check(m, &after, plan, err);
	if (rc == 0)
		rc = mark_view_compare(m, &after, plan, err);
	elf_model_close(&after);
	return rc;
}

int mark_plan_checked(const struct elf_model *m, const struct mark_request *req,
		      struct mark_plan *plan, struct elfcet_error *err)
{
	if (mark_plan_make(m, req, plan, err) != 0)
		return -1;
	if (plan->layout == MARK_LAYOUT_UNCHANGED)
		return 0;
	/* New bytes could land under a header that already runs past the end. */
	if (plan->relocated && mark_view_refs_inside(m, err) != 0)
		return 1;
	return check_plan(m, plan, err) != 0 ? 1 : 0;
}

static bool marking_damaged(const struct file_report *audit, const struct problem **which)
{
	size_t i;

	for (i = 0; i < audit->problems.count; i++) {
		/* A sound note that ld.so's PT_NOTE misses is no damage: the plan gives it a
		 * PT_NOTE the loaders read (mark_plan_make's loaders_read_note). */
		if (strcmp(audit->problems.items[i].rule, "property-pt-note-elsewhere") == 0)
			continue;
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
	struct verify_ctx ctx = { opt, res, NULL };
	enum mark_status status;
	struct stat st;
	struct elfcet_error msg;

	memset(res, 0, sizeof(*res));
	/* A symlink is followed: its target is the file that gets the new marking. */
	res->target = realpath(path, NULL);
	if (!res->target)
		return failed(res, "%s", "cannot resolve the path (missing file?)");
	if (mark_write_check_target(res->target, &st, &msg) != 0)
		return failed(res, "%s", msg.text);

	/* Read into memory, not mapped: another process cutting the file short while it is
	 * marked must give an error, not SIGBUS. */
	switch (elf_model_open_copy(&m, res->target, &msg)) {
	case ELF_OPEN_OK:
		break;
	case ELF_OPEN_NOT_ELF:
		res->audit.status = REPORT_NOT_ELF;
		return failed(res, "%s", msg.text);
	case ELF_OPEN_SKIPPED:
		res->audit.status = REPORT_SKIPPED;
		return failed(res, "%s", msg.text);
	case ELF_OPEN_ERROR:
		res->audit.status = REPORT_ERROR;
		return failed(res, "%s", msg.text);
	}
	ctx.before = &m;
	audit_model(&m, &aopt, &res->audit);
	if (!note_header_left_empty(&res->audit.props.note) && marking_damaged(&res->audit, &bad)) {
		status = failed(res, "damaged property note (%s): %s; not touched", bad->rule,
				bad->message);
		goto out;
	}
	switch (mark_plan_checked(&m, &opt->req, &res->plan, &msg)) {
	case 0:
		break;
	case 1:
		status = unsafe(res, msg.text);
		goto out;
	default:
		status = failed(res, "%s; not touched", msg.text);
		goto out;
	}
	if (res->plan.layout == MARK_LAYOUT_UNCHANGED) {
		res->status = MARK_UNCHANGED;
		goto done;
	}
	/* Only bits that are newly set need the audit's consent; clearing is always safe. */
	res->blocked =
		mark_blocked_bits(&res->audit,
				  &(struct mark_request){ .set = opt->req.set & ~res->plan.old_bits,
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
	if (mark_write_file(res->target, &st, &res->plan, &wopt, verify_written, &ctx, &msg) != 0) {
		status = failed(res, "%s; original kept", msg.text);
		goto out;
	}
	res->status = MARK_DONE;
done:
	status = res->status;
out:
	free(res->plan.edit.image);
	res->plan.edit.image = NULL;
	elf_model_close(&m);
	return status;
}

void mark_result_free(struct mark_result *res)
{
	free(res->target);
	file_report_free(&res->audit);
	mark_plan_free(&res->plan);
	memset(res, 0, sizeof(*res));
}
