/* The JSON report (schema in elfcet.1): files stream out one object at a time, skipped
 * files and errors are collected and written after them with the summary. */
#include "config.h"

#include "report.h"

#include "gnu_property.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>

struct json_report {
	FILE *out;
	bool first;
	json_object *skipped;
	json_object *errors;
};

static json_object *u64(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

static json_object *optional_u32(bool present, uint32_t v)
{
	return present ? json_object_new_int64(v) : NULL;
}

static json_object *bit_names(uint32_t type, uint32_t value)
{
	json_object *a = json_object_new_array();
	unsigned bit;

	for (bit = 0; bit < 32; bit++) {
		const char *name = gnu_property_bit_name(type, bit);
		char hex[16];

		if (!(value & (1u << bit)))
			continue;
		if (!name) {
			snprintf(hex, sizeof(hex), "0x%x", 1u << bit);
			name = hex;
		}
		json_object_array_add(a, json_object_new_string(name));
	}
	return a;
}

static json_object *property_json(const struct gnu_property *p)
{
	json_object *o = json_object_new_object();
	const char *name = gnu_property_type_name(p->type);

	json_object_object_add(o, "type", u64(p->type));
	json_object_object_add(o, "name", name ? json_object_new_string(name) : NULL);
	json_object_object_add(o, "datasz", u64(p->datasz));
	json_object_object_add(o, "value", p->has_value ? u64(p->value) : NULL);
	if (p->datasz == 4 && gnu_property_bit_name(p->type, 0))
		json_object_object_add(o, "bits", bit_names(p->type, (uint32_t)p->value));
	return o;
}

static json_object *properties_json(const struct property_note *note)
{
	json_object *o = json_object_new_object();
	json_object *list = json_object_new_array();
	size_t i;

	json_object_object_add(o, "source",
			       json_object_new_string(property_source_name(note->source)));
	json_object_object_add(o, "feature_1_and",
			       optional_u32(note->has_feature_1_and, note->feature_1_and));
	json_object_object_add(o, "isa_1_needed",
			       optional_u32(note->has_isa_1_needed, note->isa_1_needed));
	json_object_object_add(o, "note_offset", note->source != PROPERTY_SOURCE_NONE
							 ? u64(note->note_offset)
							 : NULL);
	json_object_object_add(o, "complete", json_object_new_boolean(note->complete ||
								      note->source ==
									      PROPERTY_SOURCE_NONE));
	for (i = 0; i < note->count; i++)
		json_object_array_add(list, property_json(&note->props[i]));
	json_object_object_add(o, "list", list);
	return o;
}

static json_object *reading_json(const struct consumer_reading *r, bool kernel)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "sees_note", json_object_new_boolean(r->sees_note));
	json_object_object_add(o, "accepted", json_object_new_boolean(r->accepted));
	if (kernel)
		json_object_object_add(o, "errno",
				       r->error == 0 ? NULL
						     : json_object_new_string(
							       r->error == EIO ? "EIO" : "ENOEXEC"));
	json_object_object_add(o, "rule", r->rule ? json_object_new_string(r->rule) : NULL);
	json_object_object_add(o, "feature_1_and",
			       optional_u32(r->has_feature_1_and, r->feature_1_and));
	json_object_object_add(o, "isa_1_needed",
			       optional_u32(r->has_isa_1_needed, r->isa_1_needed));
	return o;
}

static json_object *consumers_json(unsigned consumers)
{
	json_object *a = json_object_new_array();

	if (consumers & CONSUMER_KERNEL)
		json_object_array_add(a, json_object_new_string("kernel"));
	if (consumers & CONSUMER_GLIBC)
		json_object_array_add(a, json_object_new_string("glibc"));
	return a;
}

static json_object *problems_json(const struct problem_list *list)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < list->count; i++) {
		const struct problem *p = &list->items[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "rule", json_object_new_string(p->rule));
		json_object_object_add(o, "severity",
				       json_object_new_string(severity_name(p->severity)));
		json_object_object_add(o, "message",
				       json_object_new_string(p->message ? p->message : ""));
		json_object_object_add(o, "rejected_by", consumers_json(p->rejected_by));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *findings_json(const struct finding_list *list)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < list->count; i++) {
		const struct finding *f = &list->items[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "rule", json_object_new_string(f->rule));
		json_object_object_add(o, "address", u64(f->address));
		json_object_object_add(o, "symbol",
				       f->symbol ? json_object_new_string(f->symbol) : NULL);
		json_object_object_add(o, "via", f->via ? json_object_new_string(f->via) : NULL);
		json_object_object_add(o, "severity",
				       json_object_new_string(severity_name(f->severity)));
		json_object_object_add(o, "message",
				       json_object_new_string(f->message ? f->message : ""));
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *file_json(const struct file_report *rep)
{
	json_object *o = json_object_new_object();
	json_object *verdicts = json_object_new_object();
	json_object *consumers = json_object_new_object();

	json_object_object_add(o, "path", json_object_new_string(rep->path));
	json_object_object_add(o, "class", json_object_new_int(rep->elf_class));
	json_object_object_add(o, "machine",
			       json_object_new_string(elf_machine_name(rep->machine)));
	json_object_object_add(o, "type", json_object_new_string(elf_kind_name(rep->kind)));
	json_object_object_add(o, "interpreter",
			       rep->interp ? json_object_new_string(rep->interp) : NULL);
	json_object_object_add(o, "kernel_reads_note_of",
			       json_object_new_string(rep->props.kernel_reads_interpreter
							      ? "interpreter"
							      : "self"));
	json_object_object_add(o, "properties", properties_json(&rep->props.note));
	json_object_object_add(consumers, "kernel", reading_json(&rep->props.kernel, true));
	json_object_object_add(consumers, "glibc", reading_json(&rep->props.glibc, false));
	json_object_object_add(o, "consumers", consumers);
	json_object_object_add(o, "problems", problems_json(&rep->problems));
	json_object_object_add(verdicts, "ibt", json_object_new_string(verdict_name(rep->ibt)));
	json_object_object_add(verdicts, "shstk",
			       json_object_new_string(verdict_name(rep->shstk)));
	json_object_object_add(o, "verdicts", verdicts);
	json_object_object_add(o, "findings", findings_json(&rep->findings));
	return o;
}

struct json_report *report_json_begin(FILE *out)
{
	struct json_report *jr = calloc(1, sizeof(*jr));

	if (!jr)
		abort();
	jr->out = out;
	jr->first = true;
	jr->skipped = json_object_new_array();
	jr->errors = json_object_new_array();
	fprintf(out, "{\"schema\":%d,\"tool\":\"%s %s\",\"files\":[", ELFCET_JSON_SCHEMA,
		PACKAGE_NAME, PACKAGE_VERSION);
	return jr;
}

static json_object *path_message(const struct file_report *rep, const char *key)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "path", json_object_new_string(rep->path));
	json_object_object_add(o, key, json_object_new_string(rep->message ? rep->message : ""));
	return o;
}

void report_json_file(struct json_report *jr, const struct file_report *rep)
{
	json_object *o;

	switch (rep->status) {
	case REPORT_AUDITED:
		o = file_json(rep);
		fprintf(jr->out, "%s\n%s", jr->first ? "" : ",",
			json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
		jr->first = false;
		break;
	case REPORT_SKIPPED:
		json_object_array_add(jr->skipped, path_message(rep, "reason"));
		break;
	case REPORT_ERROR:
	case REPORT_NOT_ELF:
		json_object_array_add(jr->errors, path_message(rep, "message"));
		break;
	}
}

static json_object *verdict_counts(const size_t *counts)
{
	json_object *o = json_object_new_object();
	int v;

	for (v = VERDICT_NOT_APPLICABLE; v <= VERDICT_NOT_READY; v++)
		json_object_object_add(o, verdict_name((enum verdict)v), u64(counts[v]));
	return o;
}

void report_json_end(struct json_report *jr, const struct audit_summary *s)
{
	json_object *sum = json_object_new_object();

	json_object_object_add(sum, "audited", u64(s->audited));
	json_object_object_add(sum, "skipped", u64(s->skipped));
	json_object_object_add(sum, "errors", u64(s->errors + s->not_elf_named));
	json_object_object_add(sum, "ibt", verdict_counts(s->ibt));
	json_object_object_add(sum, "shstk", verdict_counts(s->shstk));
	fprintf(jr->out, "\n],\"skipped\":%s,\n\"errors\":%s,\n\"summary\":%s}\n",
		json_object_to_json_string_ext(jr->skipped, JSON_C_TO_STRING_PLAIN),
		json_object_to_json_string_ext(jr->errors, JSON_C_TO_STRING_PLAIN),
		json_object_to_json_string_ext(sum, JSON_C_TO_STRING_PLAIN));
	json_object_put(sum);
	json_object_put(jr->skipped);
	json_object_put(jr->errors);
	free(jr);
}
