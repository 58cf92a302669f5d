/* Per-file verdicts for IBT and for shadow stack. */
#ifndef ELFCET_VERDICT_H
#define ELFCET_VERDICT_H

#include "problem.h"

#include <stdbool.h>
#include <stdint.h>

enum verdict {
	VERDICT_NOT_APPLICABLE,
	VERDICT_MARKED_OK,     /* marked, and nothing would fault */
	VERDICT_MARKED_BROKEN, /* marked, and something would fault or the marking is lost */
	VERDICT_READY,	       /* unmarked, and `elfcet mark` may set it */
	VERDICT_NOT_READY,     /* unmarked, with blockers */
};

enum cet_feature { CET_IBT, CET_SHSTK };

/* True when a finding under RULE stops FEATURE from being marked: rules named ibt-* block
 * IBT, shstk-* block shadow stack, vsyscall-* block both (CET kernels do not emulate the
 * vsyscall page); info findings never block. */
bool finding_blocks(const char *rule, enum severity severity, enum cet_feature feature);

struct verdict_input {
	bool applicable;      /* the feature exists for this class of file */
	bool marked;	      /* the bit is set in the note as written */
	bool marking_damaged; /* an error-severity problem with the note itself */
	const struct finding_list *findings;
};

enum verdict verdict_decide(enum cet_feature feature, const struct verdict_input *in);

/* Findings in a file that is not marked for their feature cannot fault today: they are
 * kept, lowered to warnings, so that --fail-on error fails only on what would break. */
void verdict_adjust_severities(struct finding_list *findings, bool ibt_marked, bool shstk_marked);

const char *verdict_name(enum verdict v);

#endif
