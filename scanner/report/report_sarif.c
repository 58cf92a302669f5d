/* The SARIF 2.1.0 report, for code-scanning services: one reportingDescriptor per rule
 * of the catalogue, one result per finding and per problem of the property note, the
 * unreadable files as notifications of the invocation. Results stream out as files are
 * audited; only the unreadable files are kept until the end.
 *
 * What code-scanning consumers need beyond the schema: each rule's full description and
 * help (from the catalogue), a region in the file for each result (the finding's file
 * offset, or the note's segment), fingerprints that survive unrelated code moving, and
 * URIs relative to a base (%SRCROOT%, where the audit ran, or ROOT, the file system). */
#include "config.h"

#include "report/report.h"

#include "report/json_out.h"
#include "report/sarif_fingerprint.h"
#include "rules.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The final OASIS SARIF 2.1.0 schema as code-scanning tools name it (a format identifier
 * the reader may fetch; elfcet itself never does). */
#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define BASE_SRCROOT "%SRCROOT%"
#define BASE_ROOT "ROOT"

struct sarif_report {
	struct json_out j;
	const struct rule_set *rules;
	char *cwd; /* with a trailing '/': %SRCROOT% */
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

/* PATH as a URI reference relative to a base: a relative path, or an absolute one under
 * the directory the audit ran in, relative to %SRCROOT% (a code-scanning service resolves
 * it against its checkout); any other absolute path relative to ROOT, the file system's
 * root. Every byte but the unreserved ones percent-encoded. The one place paths become
 * URIs: the fingerprints hash what it makes. */
static char *relative_uri(const struct sarif_report *sr, const char *path, const char **base)
{
	size_t len, n = 0, cwd_len = strlen(sr->cwd);
	const char *p;
	char *uri;

	*base = BASE_SRCROOT;
	if (path[0] == '/') {
		if (cwd_len > 1 && strncmp(path, sr->cwd, cwd_len) == 0) {
			path += cwd_len;
		} else {
			*base = BASE_ROOT;
			path++;
		}
	}
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	len = strlen(path);
	uri = xmalloc(3 * len + 1);
	for (p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (uri_plain(c))
			uri[n++] = (char)c;
		else
			n += (size_t)sprintf(uri + n, "%%%02X", c);
	}
	uri[n] = '\0';
	return uri;
}

static void artifact_location(struct json_out *j, const char *uri, const char *base)
{
	json_open_object(j, "artifactLocation");
	json_str(j, "uri", uri);
	json_str(j, "uriBaseId", base);
	json_close_object(j);
}

static void byte_region(struct json_out *j, uint64_t offset, uint64_t length)
{
	json_open_object(j, "region");
	json_uint(j, "byteOffset", offset);
	json_uint(j, "byteLength", length);
	json_close_object(j);
}

static void fingerprint(struct json_out *j, const char *print)
{
	json_open_object(j, "partialFingerprints");
	json_str(j, "elfcetResult/v1", print);
	json_close_object(j);
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
			   const struct finding *f, const char *uri, const char *base,
			   const char *print)
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
	artifact_location(j, uri, base);
	/* The byte the finding is at: a point in the code, not a span of it. */
	if (f->in_file)
		byte_region(j, f->file_offset, 1);
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
	fingerprint(j, print);
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
			   const struct problem *p, const char *uri, const char *base)
{
	struct json_out *j = &sr->j;
	const struct property_note *note = &rep->props.note;
	char *print = sarif_problem_fingerprint(uri, p->rule);

	json_newline(j);
	json_open_object(j, NULL);
	rule_reference(sr, p->rule);
	json_str(j, "level", sarif_level(p->severity));
	message(j, p->message ? p->message : p->rule);
	json_open_array(j, "locations");
	json_open_object(j, NULL);
	json_open_object(j, "physicalLocation");
	artifact_location(j, uri, base);
	/* A problem of the note: the segment or section that holds it, else the ELF header
	 * (the program headers it starts from). */
	if (note->source != PROPERTY_SOURCE_NONE && note->container_size)
		byte_region(j, note->container_offset, note->container_size);
	else
		byte_region(j, 0, rep->elf_class == 64 ? 64 : 52);
	json_close_object(j);
	json_close_object(j);
	json_close_array(j);
	fingerprint(j, print);
	free(print);
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

/* "ibt-missing-endbr" as "IbtMissingEndbr": the rule's name for people, as SARIF has it. */
static char *rule_name(const char *id)
{
	char *name = xmalloc(strlen(id) + 1), *out = name;
	bool word_start = true;

	for (; *id; id++) {
		if (*id == '-') {
			word_start = true;
			continue;
		}
		*out++ = word_start && *id >= 'a' && *id <= 'z' ? (char)(*id - 'a' + 'A') : *id;
		word_start = false;
	}
	*out = '\0';
	return name;
}

static void text_object(struct json_out *j, const char *key, const char *text)
{
	json_open_object(j, key);
	json_str(j, "text", text);
	json_close_object(j);
}

/* GitHub's name for a rule's severity when it is not a security rule. */
static const char *problem_severity(enum severity s)
{
	return s == SEVERITY_INFO ? "recommendation" : severity_name(s);
}

static void reporting_descriptor(struct json_out *j, const struct rule_info *r)
{
	const char *shrt = r->description && *r->description ? r->description : r->id;
	char *name = rule_name(r->id);

	json_newline(j);
	json_open_object(j, NULL);
	json_str(j, "id", r->id);
	json_str(j, "name", name);
	text_object(j, "shortDescription", shrt);
	/* A catalogue copied before it had details and help still makes a complete rule. */
	text_object(j, "fullDescription", r->details ? r->details : shrt);
	text_object(j, "help", r->help ? r->help : shrt);
	json_open_object(j, "defaultConfiguration");
	json_str(j, "level", sarif_level(r->severity));
	json_close_object(j);
	json_open_object(j, "properties");
	json_str(j, "severity", severity_name(r->severity));
	json_str(j, "problem.severity", problem_severity(r->severity));
	json_close_object(j);
	json_close_object(j);
	free(name);
}

/* Where the bases of the artifacts' URIs are, as file URIs ending in '/'. */
static void uri_bases(struct sarif_report *sr)
{
	struct json_out *j = &sr->j;
	const char *base;
	char *uri = relative_uri(sr, sr->cwd + 1, &base);
	char *cwd_uri = xasprintf("file:///%s", uri);

	json_open_object(j, "originalUriBaseIds");
	json_open_object(j, BASE_SRCROOT);
	json_str(j, "uri", cwd_uri);
	json_close_object(j);
	json_open_object(j, BASE_ROOT);
	json_str(j, "uri", "file:///");
	json_close_object(j);
	json_close_object(j);
	free(cwd_uri);
	free(uri);
}

struct sarif_report *report_sarif_begin(FILE *out, const struct rule_set *rules)
{
	struct sarif_report *sr = xcalloc(1, sizeof(*sr));
	struct json_out *j;
	char *cwd = getcwd(NULL, 0);
	size_t i;

	sr->rules = rules;
	/* Without a working directory, relative paths still resolve against %SRCROOT%. */
	sr->cwd = xasprintf("%s/", cwd && strcmp(cwd, "/") != 0 ? cwd : "");
	free(cwd);
	j = &sr->j;
	json_begin(j, out);
	json_str(j, "$schema", SARIF_SCHEMA);
	json_str(j, "version", "2.1.0");
	json_open_array(j, "runs");
	json_open_object(j, NULL);
	json_open_object(j, "tool");
	json_open_object(j, "driver");
	json_str(j, "name", PACKAGE_NAME);
	json_str(j, "fullName",
		 PACKAGE_NAME " " PACKAGE_VERSION ", an audit of Intel CET readiness");
	json_str(j, "version", PACKAGE_VERSION);
	json_str(j, "semanticVersion", PACKAGE_VERSION);
	/* Its manual page: the documentation that comes with it. */
	json_str(j, "informationUri", "man:elfcet(1)");
	json_open_array(j, "rules");
	for (i = 0; i < rules->count; i++)
		reporting_descriptor(j, &rules->rules[i]);
	json_close_array(j);
	json_close_object(j);
	json_close_object(j);
	json_open_object(j, "automationDetails");
	json_str(j, "id", PACKAGE_NAME "-audit/");
	json_close_object(j);
	uri_bases(sr);
	json_open_array(j, "results");
	return sr;
}

static void audited_file(struct sarif_report *sr, const struct file_report *rep)
{
	const char *base;
	char *uri = relative_uri(sr, rep->path, &base);
	char **prints = sarif_finding_fingerprints(uri, &rep->findings);
	size_t i;

	for (i = 0; i < rep->problems.count; i++)
		problem_result(sr, rep, &rep->problems.items[i], uri, base);
	for (i = 0; i < rep->findings.count; i++)
		finding_result(sr, rep, &rep->findings.items[i], uri, base, prints[i]);
	sarif_fingerprints_free(prints, rep->findings.count);
	free(uri);
}

void report_sarif_file(struct sarif_report *sr, const struct file_report *rep)
{
	switch (rep->status) {
	case REPORT_AUDITED:
		audited_file(sr, rep);
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
	const char *base;
	char *uri;
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
		uri = relative_uri(sr, sr->notes[i].path, &base);
		artifact_location(j, uri, base);
		free(uri);
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
	free(sr->cwd);
	free(sr);
}
