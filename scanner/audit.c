/* Auditing one file: the model, its property note, the code checks, the verdicts. */
#include "config.h"

#include "audit.h"

#include "code/code_audit.h"
#include "property/gnu_property.h"
#include "rules.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static bool marking_damaged(const struct problem_list *problems)
{
	size_t i;

	for (i = 0; i < problems->count; i++)
		if (problems->items[i].severity == SEVERITY_ERROR)
			return true;
	return false;
}

/* A separate debug file (objcopy --only-keep-debug, eu-strip -f, dh_strip's files under
 * /usr/lib/debug) keeps the program headers of the file it was split from but none of
 * its code: its executable segments have no bytes in the file. Nothing of it ever runs.
 * (A data-only library, with no executable segment at all, is still loaded and checked
 * by ld.so, so it is not one of these.) */
static bool code_left_out(const struct elf_model *m)
{
	bool exec_segment = false;
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (ph->p_filesz)
			return false;
		exec_segment = true;
	}
	return exec_segment;
}

static void decide_verdicts(const struct elf_model *m, struct file_report *rep)
{
	const struct property_note *note = &rep->props.note;
	uint32_t bits = note->has_feature_1_and ? note->feature_1_and : 0;
	bool runs = !code_left_out(m);
	struct verdict_input in = {
		.applicable = runs,
		.marking_damaged = marking_damaged(&rep->problems),
		.findings = &rep->findings,
	};

	verdict_adjust_severities(&rep->findings, bits & FEATURE_1_IBT, bits & FEATURE_1_SHSTK);
	in.marked = bits & FEATURE_1_IBT;
	rep->ibt = verdict_decide(CET_IBT, &in);
	/* User shadow stacks exist for 64-bit processes only. */
	in.applicable = runs && m->elf_class == ELFCLASS64;
	in.marked = bits & FEATURE_1_SHSTK;
	rep->shstk = verdict_decide(CET_SHSTK, &in);
}

/* Each finding's place in the file, for reports that point into it rather than at an
 * address (SARIF). */
static void locate_findings(const struct elf_model *m, struct finding_list *findings)
{
	uint64_t avail;
	size_t i;

	for (i = 0; i < findings->count; i++) {
		struct finding *f = &findings->items[i];

		f->in_file = elf_model_vaddr_to_offset(m, f->address, &f->file_offset, &avail);
	}
}

void audit_model(const struct elf_model *m, const struct audit_options *opt,
		 struct file_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->path = xstrdup(m->path);
	rep->status = REPORT_AUDITED;
	rep->elf_class = m->elf_class == ELFCLASS64 ? 64 : 32;
	rep->machine = m->machine;
	rep->kind = m->kind;
	rep->interp = m->interp ? xstrdup(m->interp) : NULL;
	property_check(m, opt->rules, &rep->props, &rep->problems);
	code_audit(m, opt->rules, &rep->findings);
	locate_findings(m, &rep->findings);
	decide_verdicts(m, rep);
}

/* The audit of a model opened with status ST (closed here), or why it did not open. */
static void audit_opened(struct elf_model *m, const char *name, enum elf_open_status st,
			 const char *msg, const struct audit_options *opt, struct file_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	switch (st) {
	case ELF_OPEN_OK:
		break;
	case ELF_OPEN_NOT_ELF:
		rep->status = REPORT_NOT_ELF;
		break;
	case ELF_OPEN_SKIPPED:
		rep->status = REPORT_SKIPPED;
		break;
	case ELF_OPEN_ERROR:
		rep->status = REPORT_ERROR;
		break;
	}
	if (st != ELF_OPEN_OK) {
		rep->path = xstrdup(name);
		rep->message = xstrdup(msg);
		return;
	}
	audit_model(m, opt, rep);
	elf_model_close(m);
}

void audit_file(const char *path, const struct audit_options *opt, struct file_report *rep)
{
	struct elf_model m;
	struct elfcet_error msg;
	enum elf_open_status st = elf_model_open(&m, path, &msg);

	audit_opened(&m, path, st, msg.text, opt, rep);
}

void audit_image(const char *name, const unsigned char *image, size_t size,
		 const struct audit_options *opt, struct file_report *rep)
{
	struct elf_model m;
	struct elfcet_error msg;
	enum elf_open_status st = elf_model_open_memory(&m, name, image, size, &msg);

	audit_opened(&m, name, st, msg.text, opt, rep);
}

void file_report_free(struct file_report *rep)
{
	free(rep->path);
	free(rep->package);
	free(rep->package_version);
	free(rep->package_file);
	free(rep->message);
	free(rep->interp);
	problem_list_free(&rep->problems);
	finding_list_free(&rep->findings);
	memset(rep, 0, sizeof(*rep));
}

int file_report_worst_severity(const struct file_report *rep)
{
	int worst = -1;
	size_t i;

	for (i = 0; i < rep->problems.count; i++)
		if ((int)rep->problems.items[i].severity > worst)
			worst = (int)rep->problems.items[i].severity;
	for (i = 0; i < rep->findings.count; i++)
		if ((int)rep->findings.items[i].severity > worst)
			worst = (int)rep->findings.items[i].severity;
	return worst;
}
