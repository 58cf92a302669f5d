/* The summary of a run: counts of files, verdicts, severities and rules, and the
 * one-screen table a text report ends with. */
#include "config.h"

#include "report/report.h"

#include "util/visible.h"

#include <stdlib.h>
#include <string.h>

void summary_add_audited(struct audit_summary *s, enum verdict ibt, enum verdict shstk, int worst)
{
	s->audited++;
	s->ibt[ibt]++;
	s->shstk[shstk]++;
	if (worst >= 0)
		s->by_severity[worst]++;
}

static struct rule_count *rule_slot(struct audit_summary *s, const char *rule)
{
	size_t i;

	for (i = 0; i < s->nrules; i++)
		if (strcmp(s->rules[i].rule, rule) == 0)
			return &s->rules[i];
	/* The catalogue has fewer rules than slots; an unknown excess is not counted. */
	if (s->nrules == SUMMARY_RULES)
		return NULL;
	snprintf(s->rules[s->nrules].rule, sizeof(s->rules[0].rule), "%s", rule);
	return &s->rules[s->nrules++];
}

void summary_add_rule(struct audit_summary *s, const char *rule, size_t items)
{
	struct rule_count *rc = rule_slot(s, rule);

	if (rc && items) {
		rc->files++;
		rc->items += items;
	}
}

/* Counts one file's problems and findings by rule; findings come sorted by address, so
 * the rules are tallied first and each added once. */
static void add_rules(struct audit_summary *s, const struct file_report *rep)
{
	const char *names[SUMMARY_RULES];
	size_t counts[SUMMARY_RULES], n = 0, i, k;

	for (i = 0; i < rep->problems.count + rep->findings.count; i++) {
		const char *rule = i < rep->problems.count
					   ? rep->problems.items[i].rule
					   : rep->findings.items[i - rep->problems.count].rule;

		for (k = 0; k < n && strcmp(names[k], rule) != 0; k++)
			;
		if (k == n) {
			if (n == SUMMARY_RULES)
				continue;
			names[n] = rule;
			counts[n++] = 0;
		}
		counts[k]++;
	}
	for (k = 0; k < n; k++)
		summary_add_rule(s, names[k], counts[k]);
}

void summary_add(struct audit_summary *s, const struct file_report *rep)
{
	switch (rep->status) {
	case REPORT_AUDITED:
		summary_add_audited(s, rep->ibt, rep->shstk, file_report_worst_severity(rep));
		add_rules(s, rep);
		break;
	case REPORT_SKIPPED:
		s->skipped++;
		break;
	case REPORT_ERROR:
		s->errors++;
		break;
	case REPORT_NOT_ELF:
		break; /* counted by the caller, which knows whether it was named */
	}
}

void report_text_summary(FILE *out, const struct audit_summary *s)
{
	fprintf(out,
		"elfcet: %zu audited, %zu skipped, %zu unreadable; ibt: %zu marked-ok, "
		"%zu marked-broken, %zu ready, %zu not-ready; shstk: %zu marked-ok, "
		"%zu marked-broken, %zu ready, %zu not-ready, %zu not-applicable\n",
		s->audited, s->skipped, s->errors, s->ibt[VERDICT_MARKED_OK],
		s->ibt[VERDICT_MARKED_BROKEN], s->ibt[VERDICT_READY], s->ibt[VERDICT_NOT_READY],
		s->shstk[VERDICT_MARKED_OK], s->shstk[VERDICT_MARKED_BROKEN],
		s->shstk[VERDICT_READY], s->shstk[VERDICT_NOT_READY],
		s->shstk[VERDICT_NOT_APPLICABLE]);
}

static int by_files_then_name(const void *a, const void *b)
{
	const struct rule_count *x = a, *y = b;

	if (x->files != y->files)
		return x->files < y->files ? 1 : -1;
	return strcmp(x->rule, y->rule);
}

/* At most this many rules: the table must fit on one screen. */
#define TABLE_RULES 10

/* Characters N takes in decimal. */
static int digits(size_t n)
{
	int d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

void report_text_table(FILE *out, const struct audit_summary *s)
{
	static const enum verdict columns[] = { VERDICT_MARKED_OK, VERDICT_MARKED_BROKEN,
						VERDICT_READY, VERDICT_NOT_READY,
						VERDICT_NOT_APPLICABLE };
	struct rule_count sorted[SUMMARY_RULES];
	size_t c, i, none = s->audited;
	int width[5];

	/* Each column as wide as its name or its largest count, two spaces apart: 65
	 * characters with counts below 10^9, within an 80-column terminal. */
	for (c = 0; c < 5; c++) {
		size_t most = s->ibt[columns[c]] > s->shstk[columns[c]] ? s->ibt[columns[c]]
									: s->shstk[columns[c]];
		int name = (int)strlen(verdict_name(columns[c]));

		width[c] = digits(most) > name ? digits(most) : name;
	}
	fprintf(out, "\n%-5s", "");
	for (c = 0; c < 5; c++)
		fprintf(out, "  %*s", width[c], verdict_name(columns[c]));
	fprintf(out, "\n%-5s", "ibt");
	for (c = 0; c < 5; c++)
		fprintf(out, "  %*zu", width[c], s->ibt[columns[c]]);
	fprintf(out, "\n%-5s", "shstk");
	for (c = 0; c < 5; c++)
		fprintf(out, "  %*zu", width[c], s->shstk[columns[c]]);
	for (i = 0; i < 3; i++)
		none -= s->by_severity[i];
	fprintf(out, "\n\nfiles by worst item: %zu error, %zu warning, %zu info, %zu clean\n",
		s->by_severity[SEVERITY_ERROR], s->by_severity[SEVERITY_WARNING],
		s->by_severity[SEVERITY_INFO], none);
	if (s->nrules == 0)
		return;
	memcpy(sorted, s->rules, s->nrules * sizeof(sorted[0]));
	qsort(sorted, s->nrules, sizeof(sorted[0]), by_files_then_name);
	fprintf(out, "\n%-28s %10s %12s\n", "rule", "files", "occurrences");
	for (i = 0; i < s->nrules && i < TABLE_RULES; i++) {
		/* elfcet report reads rule ids from shards: text like any name (visible.h) */
		char rule[VISIBLE_MAX(sizeof(sorted[i].rule)) + 1];

		visible_escape(rule, sorted[i].rule, strlen(sorted[i].rule));
		fprintf(out, "%-28s %10zu %12zu\n", rule, sorted[i].files, sorted[i].items);
	}
	if (s->nrules > TABLE_RULES)
		fprintf(out, "(%zu more rule%s: elfcet audit -v or --format=json lists them)\n",
			s->nrules - TABLE_RULES, s->nrules - TABLE_RULES == 1 ? "" : "s");
}
