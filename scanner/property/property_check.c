/* Checking the property note against its consumers and naming who rejects or ignores it. */
#include "config.h"

#include "property/property_note.h"

#include "rules.h"

#include <errno.h>
#include <string.h>

static void add(struct problem_list *problems, const struct rule_set *rules, const char *rule,
		unsigned consumers, const char *detail, const char *effect)
{
	problem_add(problems, rule, rules_severity(rules, rule), consumers, "%s: %s", detail,
		    effect);
}

static bool glibc_lost_something(const struct property_note *note, const struct consumer_reading *g)
{
	uint32_t f1 = note->has_feature_1_and ? note->feature_1_and : 0;
	uint32_t isa = note->has_isa_1_needed ? note->isa_1_needed : 0;

	return g->feature_1_and != f1 || g->isa_1_needed != isa;
}

void property_check(const struct elf_model *m, const struct rule_set *rules,
		    struct property_report *rep, struct problem_list *problems)
{
	bool found;

	memset(rep, 0, sizeof(*rep));
	found = property_note_find(m, &rep->note);
	property_kernel_read(m, &rep->kernel);
	property_glibc_read(m, &rep->glibc);
	/* At exec the kernel reads the interpreter's note when there is one (ld.so then
	 * decides for the program), else the program's own. */
	rep->kernel_reads_interpreter = m->interp != NULL;
	rep->kernel_reads_own_note = property_kernel_reads_own_note(m);

	/* ld.so "accepts" a note when it ends up with what the note says; a reason it gave
	 * up without losing anything (a fallback reader took over) is no problem. */
	rep->glibc.accepted = !found || !glibc_lost_something(&rep->note, &rep->glibc);
	if (!found)
		return;
	if (rep->kernel.rule)
		add(problems, rules, rep->kernel.rule, CONSUMER_KERNEL, rep->kernel.detail,
		    rep->kernel.error == EIO
			    ? "the kernel fails the exec with EIO"
			    : "the kernel fails the exec with ENOEXEC where it offers user CET");
	if (!rep->glibc.accepted && rep->glibc.rule)
		add(problems, rules, rep->glibc.rule, CONSUMER_GLIBC, rep->glibc.detail,
		    "ld.so ignores the marking");
	/* ld.so read a PT_NOTE, found nothing wrong in it and lost the marking all the same:
	 * what it read in memory is not the note (a section-only note is named below). */
	if (!rep->glibc.accepted && !rep->glibc.rule && rep->glibc.sees_note &&
	    rep->note.source != PROPERTY_SOURCE_SECTION)
		add(problems, rules, "property-pt-note-elsewhere", CONSUMER_GLIBC,
		    "the PT_NOTE ld.so reads holds no property note",
		    "ld.so never sees the marking");

	switch (rep->note.source) {
	case PROPERTY_SOURCE_PT_NOTE:
		if (elf_model_find_phdr(m, PT_GNU_PROPERTY))
			break; /* there is one, unreadable: the kernel's reading says why */
		if (!property_kernel_reads_own_note(m))
			break; /* only ld.so reads this file's note */
		add(problems, rules, "property-no-pt-gnu-property", CONSUMER_KERNEL,
		    "the property note is in a PT_NOTE only", "the kernel never reads it");
		break;
	case PROPERTY_SOURCE_PT_GNU_PROPERTY:
		if (rep->glibc.sees_note || rep->glibc.rule)
			break; /* ld.so reads a PT_NOTE: its reading says what it makes of it */
		add(problems, rules, "property-no-pt-note", CONSUMER_GLIBC,
		    "the property note has a PT_GNU_PROPERTY header but no PT_NOTE",
		    "ld.so (glibc 2.36) never reads it");
		break;
	case PROPERTY_SOURCE_SECTION:
		add(problems, rules, "property-section-only", CONSUMER_KERNEL | CONSUMER_GLIBC,
		    "the property note is in a section that no segment covers",
		    "neither the kernel nor ld.so reads it");
		break;
	default:
		break;
	}
}
