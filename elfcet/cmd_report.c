/* elfcet report: merges the JSON Lines shards of audits run apart (elfcet audit
 * --format=jsonl, one shard per job) into the summary a single run would print. Reads one
 * record at a time: memory does not grow with the number of files. */
#include "config.h"

#include "commands.h"

#include "report/report.h"
#include "util/visible.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void report_help(FILE *out)
{
	fprintf(out,
		"Usage: elfcet report [--format=text|json] SHARD...\n"
		"Merge the JSON Lines written by 'elfcet audit --format=jsonl' (one or more shards;\n"
		"'-' reads standard input) into the summary a single audit of all of them prints:\n"
		"the summary line and table (text), or the JSON document's \"summary\" member.\n\n"
		"Each line must hold exactly one record.\n\n"
		"Exit status: 0 merged; 2 usage error, or a shard unreadable or not JSON Lines.\n");
}

static bool verdict_from_name(const char *name, enum verdict *v)
{
	int i;

	for (i = VERDICT_NOT_APPLICABLE; i <= VERDICT_NOT_READY; i++)
		if (name && strcmp(name, verdict_name((enum verdict)i)) == 0) {
			*v = (enum verdict)i;
			return true;
		}
	return false;
}

static const char *member_string(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* Counts the items of one array (problems or findings) by rule, into NAMES/COUNTS. */
static int tally(struct json_object *rec, const char *key, const char **names, size_t *counts,
		 size_t *n, int *worst)
{
	struct json_object *arr;
	size_t i, k, len;

	if (!json_object_object_get_ex(rec, key, &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return -1;
	len = json_object_array_length(arr);
	for (i = 0; i < len; i++) {
		struct json_object *item = json_object_array_get_idx(arr, i);
		const char *rule = member_string(item, "rule");
		const char *sev = member_string(item, "severity");
		enum severity s;

		if (!rule || !sev || !severity_parse(sev, &s))
			return -1;
		if ((int)s > *worst)
			*worst = (int)s;
		for (k = 0; k < *n && strcmp(names[k], rule) != 0; k++)
			;
		if (k == *n) {
			if (*n == SUMMARY_RULES)
				continue;
			names[k] = rule;
			counts[(*n)++] = 0;
		}
		counts[k]++;
	}
	return 0;
}

static int add_audited(struct audit_summary *s, struct json_object *rec)
{
	const char *names[SUMMARY_RULES];
	size_t counts[SUMMARY_RULES], n = 0, k;
	struct json_object *verdicts;
	enum verdict ibt, shstk;
	int worst = -1;

	if (!json_object_object_get_ex(rec, "verdicts", &verdicts) ||
	    !verdict_from_name(member_string(verdicts, "ibt"), &ibt) ||
	    !verdict_from_name(member_string(verdicts, "shstk"), &shstk) ||
	    tally(rec, "problems", names, counts, &n, &worst) != 0 ||
	    tally(rec, "findings", names, counts, &n, &worst) != 0)
		return -1;
	summary_add_audited(s, ibt, shstk, worst);
	for (k = 0; k < n; k++)
		summary_add_rule(s, names[k], counts[k]);
	return 0;
}

/* Whether S is lower-case hexadecimal of whole bytes, as json_name writes a name's bytes. */
static bool hex_bytes(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return s[n] == '\0' && n % 2 == 0;
}

/* A record names its file: "path", and "path_hex" when the name is not UTF-8. */
static bool names_file(struct json_object *rec)
{
	struct json_object *hex;

	if (!member_string(rec, "path"))
		return false;
	if (!json_object_object_get_ex(rec, "path_hex", &hex))
		return true;
	return json_object_is_type(hex, json_type_string) && hex_bytes(json_object_get_string(hex));
}

/* The one JSON value on LINE (LEN bytes, its newline included), or NULL with *WHY set:
 * a line holds exactly one record, only JSON white space after it. */
static struct json_object *parse_line(const char *line, size_t len, const char **why)
{
	struct json_tokener *tok;
	struct json_object *rec;
	size_t end;

	*why = NULL;
	if (strspn(line, " \t\r\n") == len) {
		*why = "a blank line";
		return NULL;
	}
	if (memchr(line, '\0', len) || len > INT_MAX) {
		*why = len > INT_MAX ? "a line too long" : "a NUL byte in the line";
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok)
		return NULL;
	rec = json_tokener_parse_ex(tok, line, (int)len);
	end = json_tokener_get_parse_end(tok);
	if (!rec)
		*why = json_tokener_get_error(tok) == json_tokener_continue
			       ? "the line ends inside the record"
			       : json_tokener_error_desc(json_tokener_get_error(tok));
	json_tokener_free(tok);
	if (rec && strspn(line + end, " \t\r\n") != len - end) {
		*why = "more after the record (one record per line)";
		json_object_put(rec);
		return NULL;
	}
	return rec;
}

static int add_record(struct audit_summary *s, struct json_object *rec)
{
	int rc = 0;

	if (!json_object_is_type(rec, json_type_object) || !names_file(rec))
		rc = -1;
	else if (json_object_object_get_ex(rec, "verdicts", NULL))
		rc = add_audited(s, rec);
	else if (member_string(rec, "skipped"))
		s->skipped++;
	else if (member_string(rec, "error"))
		s->errors++;
	else
		rc = -1;
	return rc;
}

static int read_shard(struct audit_summary *s, const char *name)
{
	FILE *f = strcmp(name, "-") == 0 ? stdin : fopen(name, "re");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t n;
	int rc = 0;

	if (!f) {
		fputs("elfcet report: ", stderr);
		visible_write(stderr, name);
		fprintf(stderr, ": %s\n", strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		const char *why;
		struct json_object *rec = parse_line(line, (size_t)n, &why);

		lineno++;
		if (!rec || add_record(s, rec) != 0) {
			fputs("elfcet report: ", stderr);
			visible_write(stderr, name);
			fprintf(stderr, ":%zu: not a record of elfcet audit --format=jsonl%s%s\n",
				lineno, why ? ": " : "", why ? why : "");
			json_object_put(rec);
			rc = -1;
			break;
		}
		json_object_put(rec);
	}
	if (rc == 0 && ferror(f)) {
		fputs("elfcet report: ", stderr);
		visible_write(stderr, name);
		fprintf(stderr, ": %s\n", strerror(errno));
		rc = -1;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct audit_summary summary = { 0 };
	bool json = false;
	int c, i, status = EXIT_CLEAN;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "json") == 0)
				json = true;
			else if (strcmp(optarg, "text") != 0) {
				fprintf(stderr, "elfcet report: unknown format '%s'\n", optarg);
				return EXIT_TROUBLE;
			}
			break;
		case 'h':
			report_help(stdout);
			return EXIT_CLEAN;
		default:
			return EXIT_TROUBLE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "elfcet report: no SHARD given (try 'elfcet report --help')\n");
		return EXIT_TROUBLE;
	}
	for (i = optind; i < argc; i++)
		if (read_shard(&summary, argv[i]) != 0)
			status = EXIT_TROUBLE;
	if (status != EXIT_CLEAN)
		return status;
	if (json) {
		report_json_summary(stdout, &summary);
	} else {
		report_text_summary(stdout, &summary);
		report_text_table(stdout, &summary);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "elfcet report: cannot write the summary\n");
		return EXIT_TROUBLE;
	}
	return EXIT_CLEAN;
}
