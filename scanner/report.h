/* Writing audit reports: readable text, or JSON under a versioned schema. */
#ifndef ELFCET_REPORT_H
#define ELFCET_REPORT_H

#include "audit.h"

#include <stdio.h>

/* Version of the JSON document. Fields are only ever added: a reader of version N can
 * read every later version. */
#define ELFCET_JSON_SCHEMA 1

struct audit_summary {
	size_t audited, skipped, errors, not_elf_named;
	size_t ibt[5], shstk[5];           /* indexed by enum verdict */
	size_t by_severity[3];             /* files whose worst item has this severity */
};

void summary_add(struct audit_summary *s, const struct file_report *rep);

/* Text: one line per file; VERBOSE adds the note, its readings, problems and findings. */
void report_text_file(FILE *out, const struct file_report *rep, bool verbose);
void report_text_summary(FILE *out, const struct audit_summary *s);

/* JSON: begin, one call per file (audited, skipped or error), end with the summary. */
struct json_report;
struct json_report *report_json_begin(FILE *out);
void report_json_file(struct json_report *jr, const struct file_report *rep);
void report_json_end(struct json_report *jr, const struct audit_summary *s);

#endif
