/* Writing audit reports: readable text, or JSON under a versioned schema. */
#ifndef ELFCET_REPORT_H
#define ELFCET_REPORT_H

#include "audit.h"

#include <stdio.h>

/* Version of the JSON document. Fields are only ever added: a reader of version N can
 * read every later version. */
#define ELFCET_JSON_SCHEMA 2

/* Problems and findings counted by rule: the files that have them and how many. */
#define SUMMARY_RULES 64
struct rule_count {
	char rule[48];
	size_t files, items;
};

struct audit_summary {
	size_t audited, skipped, errors, not_elf_named;
	size_t ibt[5], shstk[5]; /* indexed by enum verdict */
	size_t by_severity[3];	 /* files whose worst item has this severity */
	struct rule_count rules[SUMMARY_RULES];
	size_t nrules;
};

void summary_add(struct audit_summary *s, const struct file_report *rep);
/* The same from the parts of a report (elfcet report reads them back from JSON Lines):
 * an audited file's verdicts and worst severity (-1: none), then, for each rule it has
 * problems or findings of, how many. */
void summary_add_audited(struct audit_summary *s, enum verdict ibt, enum verdict shstk, int worst);
void summary_add_rule(struct audit_summary *s, const char *rule, size_t items);

/* The one-screen table at the end of a text report: verdicts, severities, rules. */
void report_text_table(FILE *out, const struct audit_summary *s);
/* {"summary": {...}} as in the JSON document. */
void report_json_summary(FILE *out, const struct audit_summary *s);

/* Text: one line per file; VERBOSE adds the note, its readings, problems and findings. */
void report_text_file(FILE *out, const struct file_report *rep, bool verbose);
void report_text_summary(FILE *out, const struct audit_summary *s);

/* JSON: begin, one call per file (audited, skipped or error), end with the summary. */
struct json_report;
struct json_report *report_json_begin(FILE *out);
void report_json_file(struct json_report *jr, const struct file_report *rep);
void report_json_end(struct json_report *jr, const struct audit_summary *s);

/* JSON Lines: one record per file, written and flushed at once: an audited file's object
 * as in the document's "files", {"path", "skipped": reason} or {"path", "error": message}. */
void report_jsonl_file(FILE *out, const struct file_report *rep);

/* SARIF 2.1.0: begin (the catalogue's rules), one call per file, end. */
struct rule_set;
struct sarif_report;
struct sarif_report *report_sarif_begin(FILE *out, const struct rule_set *rules);
void report_sarif_file(struct sarif_report *sr, const struct file_report *rep);
void report_sarif_end(struct sarif_report *sr);

#endif
