/* elfcet mark's messages (report_mark.h). */
#include "config.h"

#include "report/report_mark.h"

#include "property/gnu_property.h"
#include "util/error.h"
#include "util/visible.h"

#include <inttypes.h>
#include <stdlib.h>

static const char *bits_text(bool present, uint32_t bits, char *buf, size_t len)
{
	if (!present)
		return "none";
	return gnu_property_bits_text(PROP_X86_FEATURE_1_AND, bits, buf, len);
}

static void print_blockers(FILE *err, const struct mark_result *res)
{
	size_t i, shown = 0;

	for (i = 0; i < res->audit.findings.count; i++) {
		const struct finding *f = &res->audit.findings.items[i];

		if (!mark_finding_blocks(f, res->blocked))
			continue;
		fprintf(err, "  %s at 0x%" PRIx64 " ", f->rule, f->address);
		visible_write(err, f->symbol ? f->symbol : "?");
		fputs(" (", err);
		visible_write(err, f->via ? f->via : "?");
		fputs("): ", err);
		visible_write(err, f->message ? f->message : "");
		fputc('\n', err);
		shown++;
	}
	for (i = 0; i < res->audit.problems.count; i++) {
		const struct problem *p = &res->audit.problems.items[i];

		if (p->severity != SEVERITY_ERROR)
			continue;
		fprintf(err, "  %s: ", p->rule);
		visible_write(err, p->message ? p->message : "");
		fputc('\n', err);
		shown++;
	}
	if (!shown && (res->blocked & FEATURE_1_SHSTK) &&
	    res->audit.shstk == VERDICT_NOT_APPLICABLE)
		fprintf(err, "  shadow stacks exist for 64-bit processes only\n");
	else if (!shown)
		fprintf(err, "  (no finding listed: verdicts ibt %s, shstk %s)\n",
			verdict_name(res->audit.ibt), verdict_name(res->audit.shstk));
}

static void print_done(FILE *out, const char *path, const struct mark_result *res, bool dry_run,
		       bool verbose)
{
	const struct mark_plan *p = &res->plan;
	char before[64], after[64];
	size_t i;

	bits_text(p->old_present, p->old_bits, before, sizeof(before));
	bits_text(p->new_present, p->new_bits, after, sizeof(after));
	fprintf(out, "%s: %s%s -> %s (layout %d, %s", path, dry_run ? "would change " : "",
		p->old_present ? before : "none", p->new_present ? after : "none", (int)p->layout,
		mark_layout_name(p->layout));
	if (p->relocated)
		fprintf(out, "; note now at 0x%" PRIx64 " (file offset 0x%" PRIx64 ")%s%s%s",
			p->seg_vaddr, p->seg_offset,
			p->new_load ? " under a new PT_LOAD" : " in the padding after a segment",
			p->table_moved	 ? ", program header table moved and grown"
			: p->table_grown ? ", program header table grown in place (what followed "
					   "it moved along)"
					 : "",
			p->section_added ? ", section header added" : "");
	fprintf(out, ")\n");
	if (verbose || dry_run) {
		for (i = 0; i < p->edit.nranges; i++)
			fprintf(out, "  bytes 0x%" PRIx64 "..0x%" PRIx64 ": %s\n",
				p->edit.ranges[i].offset,
				p->edit.ranges[i].offset + p->edit.ranges[i].len,
				p->edit.ranges[i].what);
		if (p->edit.size > p->edit.orig_size)
			fprintf(out, "  bytes 0x%" PRIx64 "..0x%" PRIx64 ": appended\n",
				p->edit.orig_size, p->edit.size);
	}
}

void report_mark_file(FILE *out, FILE *err, const char *file, enum mark_status status,
		      const struct mark_result *res, bool dry_run, bool verbose)
{
	char bits[64];
	/* the file's name as the text output writes names (visible.h) */
	char *path = visible_dup(file);

	switch (status) {
	case MARK_FAILED:
		error_print(err, "elfcet mark", file, &res->error);
		break;
	case MARK_UNSAFE:
		fprintf(err, "elfcet mark: %s: refused: ", path);
		visible_write(err, res->error.text);
		fputc('\n', err);
		break;
	case MARK_UNCHANGED:
		fprintf(out, "%s: already %s: unchanged\n", path,
			bits_text(res->plan.old_present, res->plan.old_bits, bits, sizeof(bits)));
		break;
	case MARK_REFUSED:
		fprintf(err,
			"elfcet mark: %s: refused: the audit does not allow %s "
			"(ibt %s, shstk %s); blocking findings:\n",
			path,
			gnu_property_bits_text(PROP_X86_FEATURE_1_AND, res->blocked, bits,
					       sizeof(bits)),
			verdict_name(res->audit.ibt), verdict_name(res->audit.shstk));
		print_blockers(err, res);
		break;
	case MARK_DONE:
		if (res->forced) {
			fprintf(err,
				"elfcet mark: %s: --force: %s %s despite the audit "
				"(ibt %s, shstk %s):\n",
				path, dry_run ? "would set" : "setting",
				gnu_property_bits_text(PROP_X86_FEATURE_1_AND, res->blocked, bits,
						       sizeof(bits)),
				verdict_name(res->audit.ibt), verdict_name(res->audit.shstk));
			print_blockers(err, res);
		}
		print_done(out, path, res, dry_run, verbose);
		if (res->plan.table_moved)
			fprintf(err,
				"elfcet mark: %s: warning: the program header table could "
				"not grow where it is and moved; binutils strip and objcopy "
				"cannot rewrite such a file (strip before marking)\n",
				path);
		break;
	}
	free(path);
}
