/* The readable text report. */
#include "config.h"

#include "report/report.h"

#include "property/gnu_property.h"
#include "util/visible.h"

#include <errno.h>
#include <string.h>

static const char *class_text(int elf_class)
{
	return elf_class == 64 ? "ELF64" : "ELF32";
}

static void print_marking(FILE *out, const struct property_note *note)
{
	char bits[128];

	if (note->source == PROPERTY_SOURCE_NONE) {
		fprintf(out, "no property note");
		return;
	}
	fprintf(out, "feature_1_and=%s",
		note->has_feature_1_and
			? gnu_property_bits_text(PROP_X86_FEATURE_1_AND, note->feature_1_and, bits,
						 sizeof(bits))
			: "absent");
	if (note->has_isa_1_needed)
		fprintf(out, " isa_1_needed=%s",
			gnu_property_bits_text(PROP_X86_ISA_1_NEEDED, note->isa_1_needed, bits,
					       sizeof(bits)));
	fprintf(out, " (%s)", property_source_name(note->source));
}

static void print_property(FILE *out, const struct gnu_property *p)
{
	const char *name = gnu_property_type_name(p->type);
	char bits[160];

	fprintf(out, "    %s (0x%08x), %u byte(s)", name ? name : "unknown", p->type, p->datasz);
	if (p->datasz == 4 && gnu_property_bit_name(p->type, 0) != NULL)
		fprintf(out, ": %s",
			gnu_property_bits_text(p->type, (uint32_t)p->value, bits, sizeof(bits)));
	else if (p->has_value)
		fprintf(out, ": 0x%llx", (unsigned long long)p->value);
	fputc('\n', out);
}

static void print_consumers(FILE *out, const struct file_report *rep)
{
	const struct property_report *pr = &rep->props;

	fprintf(out, "  kernel: %s; this note: ",
		pr->kernel_reads_interpreter ? "reads the interpreter's note at exec"
					     : "reads this note at exec");
	if (!pr->kernel.sees_note)
		fprintf(out, "no PT_GNU_PROPERTY\n");
	else if (pr->kernel.accepted)
		fprintf(out, "accepted\n");
	else if (pr->kernel.ignored_without_user_cet)
		fprintf(out, "rejected (%s) where the kernel offers user CET, else ignored\n",
			pr->kernel.error == EIO ? "EIO" : "ENOEXEC");
	else
		fprintf(out, "rejected (%s)\n", pr->kernel.error == EIO ? "EIO" : "ENOEXEC");
	fprintf(out, "  glibc: %s\n",
		!pr->glibc.sees_note ? "no note seen"
		: pr->glibc.accepted ? "accepted"
				     : "marking ignored");
}

static void print_consumer_list(FILE *out, unsigned consumers)
{
	if (!consumers)
		return;
	fprintf(out, " [%s%s%s]", consumers & CONSUMER_KERNEL ? "kernel" : "",
		(consumers & CONSUMER_KERNEL) && (consumers & CONSUMER_GLIBC) ? "," : "",
		consumers & CONSUMER_GLIBC ? "glibc" : "");
}

static void print_details(FILE *out, const struct file_report *rep)
{
	const struct property_note *note = &rep->props.note;
	size_t i;

	fprintf(out, "  %s %s %s, interpreter ", class_text(rep->elf_class),
		elf_machine_name(rep->machine), elf_kind_name(rep->kind));
	visible_write(out, rep->interp ? rep->interp : "none");
	fputc('\n', out);
	if (note->source != PROPERTY_SOURCE_NONE) {
		fprintf(out, "  note: %s at file offset 0x%llx, %zu propert%s%s\n",
			property_source_name(note->source), (unsigned long long)note->note_offset,
			note->count, note->count == 1 ? "y" : "ies",
			note->complete ? "" : " (then damaged)");
		for (i = 0; i < note->count; i++)
			print_property(out, &note->props[i]);
	}
	print_consumers(out, rep);
	for (i = 0; i < rep->problems.count; i++) {
		const struct problem *p = &rep->problems.items[i];

		fprintf(out, "  %s %s", severity_name(p->severity), p->rule);
		print_consumer_list(out, p->rejected_by);
		fputs(": ", out);
		visible_write(out, p->message ? p->message : "");
		fputc('\n', out);
	}
	for (i = 0; i < rep->findings.count; i++) {
		const struct finding *f = &rep->findings.items[i];

		fprintf(out, "  %s %s 0x%llx ", severity_name(f->severity), f->rule,
			(unsigned long long)f->address);
		visible_write(out, f->symbol ? f->symbol : "?");
		fputs(" (via ", out);
		visible_write(out, f->via ? f->via : "-");
		fputs("): ", out);
		visible_write(out, f->message ? f->message : "");
		fputc('\n', out);
	}
}

void report_text_file(FILE *out, const struct file_report *rep, bool verbose)
{
	if (rep->status != REPORT_AUDITED)
		return; /* skipped files and errors are told on stderr by the caller */
	visible_write(out, rep->path);
	if (rep->package) {
		fputs(" (", out);
		visible_write(out, rep->package);
		fputc(' ', out);
		visible_write(out, rep->package_version ? rep->package_version : "");
		fputc(')', out);
	}
	fprintf(out, ": ibt=%s shstk=%s ", verdict_name(rep->ibt), verdict_name(rep->shstk));
	print_marking(out, &rep->props.note);
	if (rep->problems.count || rep->findings.count)
		fprintf(out, " problems=%zu findings=%zu", rep->problems.count,
			rep->findings.count);
	fputc('\n', out);
	if (verbose)
		print_details(out, rep);
}
