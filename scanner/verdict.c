/* Per-file verdicts for IBT and for shadow stack. */
#include "config.h"

#include "verdict.h"

#include <string.h>

bool finding_blocks(const char *rule, enum severity severity, enum cet_feature feature)
{
	if (severity == SEVERITY_INFO)
		return false;
	if (strncmp(rule, "vsyscall-", 9) == 0)
		return true;
	if (feature == CET_IBT)
		return strncmp(rule, "ibt-", 4) == 0;
	return strncmp(rule, "shstk-", 6) == 0;
}

static bool has_blockers(enum cet_feature feature, const struct finding_list *findings)
{
	size_t i;

	for (i = 0; findings && i < findings->count; i++)
		if (finding_blocks(findings->items[i].rule, findings->items[i].severity, feature))
			return true;
	return false;
}

enum verdict verdict_decide(enum cet_feature feature, const struct verdict_input *in)
{
	bool blocked = has_blockers(feature, in->findings) || in->marking_damaged;

	if (!in->applicable)
		return VERDICT_NOT_APPLICABLE;
	if (in->marked)
		return blocked ? VERDICT_MARKED_BROKEN : VERDICT_MARKED_OK;
	return blocked ? VERDICT_NOT_READY : VERDICT_READY;
}

void verdict_adjust_severities(struct finding_list *findings, bool ibt_marked, bool shstk_marked)
{
	size_t i;

	for (i = 0; i < findings->count; i++) {
		struct finding *f = &findings->items[i];
		bool hits_ibt = finding_blocks(f->rule, f->severity, CET_IBT);
		/* A CET kernel refuses vsyscalls to every process, marked or not. */
		if (strncmp(f->rule, "vsyscall-", 9) == 0)
			continue;
		bool hits_shstk = finding_blocks(f->rule, f->severity, CET_SHSTK);
		bool live;

		live = (hits_ibt && ibt_marked) || (hits_shstk && shstk_marked);
		if ((hits_ibt || hits_shstk) && !live && f->severity == SEVERITY_ERROR)
			f->severity = SEVERITY_WARNING;
	}
}

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_NOT_APPLICABLE:
		return "not-applicable";
	case VERDICT_MARKED_OK:
		return "marked-ok";
	case VERDICT_MARKED_BROKEN:
		return "marked-broken";
	case VERDICT_READY:
		return "ready";
	case VERDICT_NOT_READY:
		return "not-ready";
	}
	return "unknown";
}
