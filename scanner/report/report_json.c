/* The JSON report (schema in elfcet.1): audited files stream out one object per line as
 * they are written, skipped files and errors are collected and written after them with
 * the summary. */
#include "config.h"

#include "report/report.h"

#include "property/gnu_property.h"
#include "report/json_out.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A skipped or failed file: its path and the reason. */
struct path_note {
	char *path, *text;
};

struct path_notes {
	struct path_note *items;
	size_t count, cap;
};

struct json_report {
	struct json_out j;
	struct path_notes skipped, errors;
};

static void path_notes_add(struct path_notes *l, const struct file_report *rep)
{
	ARRAY_RESERVE(l->items, l->cap, l->count + 1);
	l->items[l->count++] = (struct path_note){ xstrdup(rep->path ? rep->path : ""),
						   xstrdup(rep->message ? rep->message : "") };
}

/* Writes the list as KEY: [{"path": ..., TEXT_KEY: ...}, ...] and frees it. */
static void path_notes_write(struct json_out *j, struct path_notes *l, const char *key,
			     const char *text_key)
{
	size_t i;

	json_open_array(j, key);
	for (i = 0; i < l->count; i++) {
		json_open_object(j, NULL);
		json_name(j, "path", "path_hex", l->items[i].path);
		json_name(j, text_key, NULL, l->items[i].text);
		json_close_object(j);
		free(l->items[i].path);
		free(l->items[i].text);
	}
	json_close_array(j);
	free(l->items);
}

static void optional_u32(struct json_out *j, const char *key, bool present, uint32_t v)
{
	if (present)
		json_uint(j, key, v);
	else
		json_null(j, key);
}

static void bit_names(struct json_out *j, uint32_t type, uint32_t value)
{
	unsigned bit;

	json_open_array(j, "bits");
	for (bit = 0; bit < 32; bit++) {
		const char *name = gnu_property_bit_name(type, bit);
		char hex[16];

		if (!(value & (1u << bit)))
			continue;
		if (!name) {
			snprintf(hex, sizeof(hex), "0x%x", 1u << bit);
			name = hex;
		}
		json_array_str(j, name, strlen(name));
	}
	json_close_array(j);
}

static void property_json(struct json_out *j, const struct gnu_property *p)
{
	json_open_object(j, NULL);
	json_uint(j, "type", p->type);
	json_str(j, "name", gnu_property_type_name(p->type));
	json_uint(j, "datasz", p->datasz);
	if (p->has_value)
		json_uint(j, "value", p->value);
	else
		json_null(j, "value");
	if (p->datasz == 4 && gnu_property_bit_name(p->type, 0))
		bit_names(j, p->type, (uint32_t)p->value);
	json_close_object(j);
}

static void properties_json(struct json_out *j, const struct property_note *note)
{
	size_t i;

	json_open_object(j, "properties");
	json_str(j, "source", property_source_name(note->source));
	optional_u32(j, "feature_1_and", note->has_feature_1_and, note->feature_1_and);
	optional_u32(j, "isa_1_needed", note->has_isa_1_needed, note->isa_1_needed);
	if (note->source != PROPERTY_SOURCE_NONE)
		json_uint(j, "note_offset", note->note_offset);
	else
		json_null(j, "note_offset");
	json_boolean(j, "complete", note->complete || note->source == PROPERTY_SOURCE_NONE);
	json_open_array(j, "list");
	for (i = 0; i < note->count; i++)
		property_json(j, &note->props[i]);
	json_close_array(j);
	json_close_object(j);
}

static void reading_json(struct json_out *j, const char *key, const struct consumer_reading *r,
			 bool kernel)
{
	json_open_object(j, key);
	json_boolean(j, "sees_note", r->sees_note);
	json_boolean(j, "accepted", r->accepted);
	if (kernel) {
		json_str(j, "errno", r->error == 0 ? NULL : r->error == EIO ? "EIO" : "ENOEXEC");
		json_boolean(j, "ignored_without_user_cet", r->ignored_without_user_cet);
	}
	json_str(j, "rule", r->rule);
	optional_u32(j, "feature_1_and", r->has_feature_1_and, r->feature_1_and);
	optional_u32(j, "isa_1_needed", r->has_isa_1_needed, r->isa_1_needed);
	json_close_object(j);
}

static void consumers_json(struct json_out *j, unsigned consumers)
{
	json_open_array(j, "rejected_by");
	if (consumers & CONSUMER_KERNEL)
		json_array_str(j, "kernel", strlen("kernel"));
	if (consumers & CONSUMER_GLIBC)
		json_array_str(j, "glibc", strlen("glibc"));
	json_close_array(j);
}

static void problems_json(struct json_out *j, const struct problem_list *list)
{
	size_t i;

	json_open_array(j, "problems");
	for (i = 0; i < list->count; i++) {
		const struct problem *p = &list->items[i];

		json_open_object(j, NULL);
		json_str(j, "rule", p->rule);
		json_str(j, "severity", severity_name(p->severity));
		json_name(j, "message", NULL, p->message ? p->message : "");
		consumers_json(j, p->rejected_by);
		json_close_object(j);
	}
	json_close_array(j);
}

/* "labels": the addresses of a finding's label list, as numbers like "address". */
static void labels_json(struct json_out *j, const char *labels)
{
	const char *p = labels;
	char *end;

	json_open_array(j, "labels");
	for (;;) {
		uint64_t v = strtoull(p, &end, 16);

		if (end == p)
			break;
		json_uint(j, NULL, v);
		p = end;
	}
	json_close_array(j);
}

static void findings_json(struct json_out *j, const struct finding_list *list)
{
	size_t i;

	json_open_array(j, "findings");
	for (i = 0; i < list->count; i++) {
		const struct finding *f = &list->items[i];

		json_open_object(j, NULL);
		json_str(j, "rule", f->rule);
		json_uint(j, "address", f->address);
		json_name(j, "symbol", "symbol_hex", f->symbol);
		json_name(j, "via", "via_hex", f->via);
		json_str(j, "severity", severity_name(f->severity));
		json_name(j, "message", NULL, f->message ? f->message : "");
		if (f->labels)
			labels_json(j, f->labels);
		json_close_object(j);
	}
	json_close_array(j);
}

/* The members of an audited file's object, shared by the document and JSON Lines. */
static void file_members(struct json_out *j, const struct file_report *rep)
{
	json_name(j, "path", "path_hex", rep->path);
	if (rep->package) {
		json_name(j, "package", "package_hex", rep->package);
		json_name(j, "package_version", "package_version_hex", rep->package_version);
	}
	json_int(j, "class", rep->elf_class);
	json_str(j, "machine", elf_machine_name(rep->machine));
	json_str(j, "type", elf_kind_name(rep->kind));
	json_name(j, "interpreter", "interpreter_hex", rep->interp);
	json_str(j, "kernel_reads_note_of",
		 rep->props.kernel_reads_interpreter ? "interpreter" : "self");
	properties_json(j, &rep->props.note);
	json_open_object(j, "consumers");
	reading_json(j, "kernel", &rep->props.kernel, true);
	reading_json(j, "glibc", &rep->props.glibc, false);
	json_close_object(j);
	problems_json(j, &rep->problems);
	json_open_object(j, "verdicts");
	json_str(j, "ibt", verdict_name(rep->ibt));
	json_str(j, "shstk", verdict_name(rep->shstk));
	json_close_object(j);
	findings_json(j, &rep->findings);
}

static void file_json(struct json_out *j, const struct file_report *rep)
{
	json_open_object(j, NULL);
	file_members(j, rep);
	json_close_object(j);
}

void report_jsonl_file(FILE *out, const struct file_report *rep)
{
	struct json_out j;

	json_begin(&j, out);
	switch (rep->status) {
	case REPORT_AUDITED:
		file_members(&j, rep);
		break;
	case REPORT_SKIPPED:
		json_name(&j, "path", "path_hex", rep->path);
		json_name(&j, "skipped", NULL, rep->message);
		break;
	case REPORT_ERROR:
	case REPORT_NOT_ELF:
		json_name(&j, "path", "path_hex", rep->path);
		json_name(&j, "error", NULL, rep->message);
		break;
	}
	json_end(&j);
}

struct json_report *report_json_begin(FILE *out)
{
	struct json_report *jr = xcalloc(1, sizeof(*jr));

	json_begin(&jr->j, out);
	json_int(&jr->j, "schema", ELFCET_JSON_SCHEMA);
	json_str(&jr->j, "tool", PACKAGE_NAME " " PACKAGE_VERSION);
	json_open_array(&jr->j, "files");
	return jr;
}

void report_json_file(struct json_report *jr, const struct file_report *rep)
{
	switch (rep->status) {
	case REPORT_AUDITED:
		json_newline(&jr->j);
		file_json(&jr->j, rep);
		break;
	case REPORT_SKIPPED:
		path_notes_add(&jr->skipped, rep);
		break;
	case REPORT_ERROR:
	case REPORT_NOT_ELF:
		path_notes_add(&jr->errors, rep);
		break;
	}
}

static void verdict_counts(struct json_out *j, const char *key, const size_t *counts)
{
	int v;

	json_open_object(j, key);
	for (v = VERDICT_NOT_APPLICABLE; v <= VERDICT_NOT_READY; v++)
		json_uint(j, verdict_name((enum verdict)v), counts[v]);
	json_close_object(j);
}

static void summary_json(struct json_out *j, const struct audit_summary *s)
{
	json_open_object(j, "summary");
	json_uint(j, "audited", s->audited);
	json_uint(j, "skipped", s->skipped);
	json_uint(j, "errors", s->errors + s->not_elf_named);
	verdict_counts(j, "ibt", s->ibt);
	verdict_counts(j, "shstk", s->shstk);
	json_close_object(j);
}

void report_json_end(struct json_report *jr, const struct audit_summary *s)
{
	struct json_out *j = &jr->j;

	json_close_array(j);
	json_newline(j);
	path_notes_write(j, &jr->skipped, "skipped", "reason");
	json_newline(j);
	path_notes_write(j, &jr->errors, "errors", "message");
	json_newline(j);
	summary_json(j, s);
	json_end(j);
	free(jr);
}

void report_json_summary(FILE *out, const struct audit_summary *s)
{
	struct json_out j;

	json_begin(&j, out);
	summary_json(&j, s);
	json_end(&j);
}
