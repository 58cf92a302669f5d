/* The SARIF 2.1.0 report, for code-scanning services: one reportingDescriptor per rule
 * of the catalogue, one result per finding and per problem of the property note, the
 * unreadable files as notifications of the invocation. Results stream out as files are
 * audited; only the unreadable files are kept until the end. */
#include "config.h"

#include "report/report.h"

#include "report/json_out.h"
#include "rules.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

struct sarif_report {
	struct json_out j;
	const struct rule_set *rules;
	/* Unreadable files, told after the results as notifications. */
	struct {
		char *path, *text;
	} * notes;
	size_t nnotes, cap;
};

static const char *sarif_level(enum severity s)
{
	switch (s) {
	case SEVERITY_INFO:
		return "note";
	case SEVERITY_WARNING:
		return "warning";
	case SEVERITY_ERROR:
		break;
	}
	return "error";
}

static bool uri_plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("-._~/+@", c) != NULL;
}

/* The path as a URI reference: absolute paths as file:// URIs, relative ones relative
 * to where the audit ran (a code-scanning service resolves them against the checkout);
 * every byte but the unreserved ones percent-encoded. */
static void artifact_location(struct json_out *j, const char *path)
{
	size_t len = strlen(path), n = 0;
	char *uri = xmalloc(3 * len + 8);
	const char *p;

	if (path[0] == '/')
		n += (size_t)sprintf(uri, "file://");
	for (p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (uri_plain(c))
			uri[n++] = (char)c;
		else
			n += (size_t)sprintf(uri + n, "%%%02X", c);
	}
	uri[n] = '\0';
	json_open_object(j, "artifactLocation");
	json_str(j, "uri", uri);
	json_close_object(j);
	free(uri);
}

static void rule_reference(struct sarif_report *sr, const char *rule)
{
	const struct rule_info *info = rules_find(sr->rules, rule);

	json_str(&sr->j, "ruleId", rule);
	if (info)
		json_int(&sr->j, "ruleIndex", (long long)(info - sr->rules->rules));
}

static void message(struct json_out *j, const char *text)
{
	json_open_object(j, "message");
	json_name(j, "text", NULL, text);
	json_close_object(j);
}

static void file_properties(struct json_out *j, const struct file_report *rep)
{
	json_str(j, "ibt", verdict_name(rep->ibt));
	json_str(j, "shstk", verdict_name(rep->shstk));
	if (rep->package) {
		json_name(j, "package", "packageHex", rep->package);
		json_name(j, "packageVersion", "packageVersionHex", rep->package_version);
	}
}

static void finding_result(struct sarif_report *sr, const struct file_report *rep,
			   const struct finding *f)
{
	struct json_out *j = &sr->j;
	char *text;

	text = xasprintf("%s at 0x%llx in %s (via %s): %s", f->rule, (unsigned long long)f->address,
			 f->symbol ? f->symbol : "?", f->via ? f->via : "-",
			 f->message ? f->message : "");
	json_newline(j);
	json_open_object(j, NULL);
	rule_reference(sr, f->rule);
	json_str(j, "level", sarif_level(f->severity));
	message(j, text);
	json_open_array(j, "locations");
	json_open_object(j, NULL);
	json_open_object(j, "physicalLocation");
	artifact_location(j, rep->path);
	json_open_object(j, "address");
	json_uint(j, "absoluteAddress", f->address);
	if (f->symbol)
		json_name(j, "name", NULL, f->symbol);
	json_close_object(j);
	json_close_object(j);
	if (f->symbol) {
		json_open_array(j, "logicalLocations");
		json_open_object(j, NULL);
		json_name(j, "name", NULL, f->symbol);
		json_str(j, "kind", "function");
		json_close_object(j);
		json_close_array(j);
	}
	json_close_object(j);
	json_close_array(j);
	json_open_object(j, "properties");
	json_uint(j, "address", f->address);
	json_hex(j, "addressHex", f->address);
	json_name(j, "symbol", "symbolHex", f->symbol);
	json_name(j, "via", "viaHex", f->via);
	file_properties(j, rep);
	json_close_object(j);
	json_close_object(j);
	free(text);
}

static void problem_result(struct sarif_report *sr, const struct file_report *rep,
			   const struct problem *p)
{
	struct json_out *j = &sr->j;

	json_newline(j);
	json_open_object(j, NULL);
	rule_reference(sr, p->rule);
	json_str(j, "level", sarif_level(p->severity));
	message(j, p->message ? p->message : p->rule);
	json_open_array(j, "locations");
	json_open_object(j, NULL);
	json_open_object(j, "physicalLocation");
	artifact_location(j, rep->path);
	json_close_object(j);
	json_close_object(j);
	json_close_array(j);
	json_open_object(j, "properties");
	json_open_array(j, "rejectedBy");
	if (p->rejected_by & CONSUMER_KERNEL)
		json_array_str(j, "kernel", strlen("kernel"));
	if (p->rejected_by & CONSUMER_GLIBC)
		json_array_str(j, "glibc", strlen("glibc"));
	json_close_array(j);
	file_properties(j, rep);
	json_close_object(j);
	json_close_object(j);
}

struct sarif_report *report_sarif_begin(FILE *out, const struct rule_set *rules)
{
	struct sarif_report *sr = xcalloc(1, sizeof(*sr));
	struct json_out *j;
	size_t i;

	sr->rules = rules;
	j = &sr->j;
	json_begin(j, out);
	json_str(j, "version", "2.1.0");
	json_open_array(j, "runs");
	json_open_object(j, NULL);
	json_open_object(j, "tool");
	json_open_object(j, "driver");
	json_str(j, "name", PACKAGE_NAME);
	json_str(j, "version", PACKAGE_VERSION);
	json_str(j, "semanticVersion", PACKAGE_VERSION);
	json_open_array(j, "rules");
	for (i = 0; i < rules->count; i++) {
		const struct rule_info *r = &rules->rules[i];

		json_newline(j);
		json_open_object(j, NULL);
		json_str(j, "id", r->id);
		json_open_object(j, "shortDescription");
		json_str(j, "text", r->description ? r->description : r->id);
		json_close_object(j);
		json_open_object(j, "defaultConfiguration");
		json_str(j, "level", sarif_level(r->severity));
		json_close_object(j);
		json_open_object(j, "properties");
		json_str(j, "severity", severity_name(r->severity));
		json_close_object(j);
		json_close_object(j);
	}
	json_close_array(j);
	json_close_object(j);
	json_close_object(j);
	json_open_array(j, "results");
	return sr;
}

void report_sarif_file(struct sarif_report *sr, const struct file_report *rep)
{
	size_t i;

	switch (rep->status) {
	case REPORT_AUDITED:
		for (i = 0; i < rep->problems.count; i++)
			problem_result(sr, rep, &rep->problems.items[i]);
		for (i = 0; i < rep->findings.count; i++)
			finding_result(sr, rep, &rep->findings.items[i]);
		break;
	case REPORT_SKIPPED:
		break;
	case REPORT_ERROR:
	case REPORT_NOT_ELF:
		ARRAY_RESERVE(sr->notes, sr->cap, sr->nnotes + 1);
		sr->notes[sr->nnotes].path = xstrdup(rep->path);
		sr->notes[sr->nnotes].text = xstrdup(rep->message ? rep->message : "unreadable");
		sr->nnotes++;
		break;
	}
}

void report_sarif_end(struct sarif_report *sr)
{
	struct json_out *j = &sr->j;
	size_t i;

	json_close_array(j);
	json_newline(j);
	json_open_array(j, "invocations");
	json_open_object(j, NULL);
	json_boolean(j, "executionSuccessful", sr->nnotes == 0);
	json_open_array(j, "toolExecutionNotifications");
	for (i = 0; i < sr->nnotes; i++) {
		json_newline(j);
		json_open_object(j, NULL);
		json_str(j, "level", "error");
		message(j, sr->notes[i].text);
		json_open_array(j, "locations");
		json_open_object(j, NULL);
		json_open_object(j, "physicalLocation");
		artifact_location(j, sr->notes[i].path);
		json_close_object(j);
		json_close_object(j);
		json_close_array(j);
		json_close_object(j);
		free(sr->notes[i].path);
		free(sr->notes[i].text);
	}
	json_close_array(j);
	json_close_object(j);
	json_close_array(j);
	json_close_object(j);
	json_close_array(j);
	json_end(j);
	free(sr->notes);
	free(sr);
}
