/* Reading, naming and printing what the checking plugin observed. json-c parses the
 * plugin's lines; the JSON written goes through the report layer's writer (json_out). */
#include "config.h"

#include "dynrun/dynrun_report.h"
#include "util/visible.h"
#include "util/xalloc.h"

#include "report/json_out.h"
#include "report/report.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static uint64_t get_u64(json_object *o, const char *key, bool *ok)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int)) {
		*ok = false;
		return 0;
	}
	return json_object_get_uint64(v);
}

static uint64_t opt_u64(json_object *o, const char *key)
{
	bool ok = true;
	uint64_t v = get_u64(o, key, &ok);

	return ok ? v : 0;
}

static const char *get_str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static int read_end(json_object *o, const char *key, struct dynrun_end *end)
{
	char name[32];
	bool ok = true;

	end->address = get_u64(o, key, &ok);
	snprintf(name, sizeof(name), "%s" WIRE_OBJECT, key);
	const char *obj = get_str(o, name);
	if (obj) {
		end->object = xstrdup(obj);
		snprintf(name, sizeof(name), "%s" WIRE_OFFSET, key);
		end->offset = get_u64(o, name, &ok);
	}
	return ok ? 0 : -1;
}

static int add_violation(struct dynrun_log *log, json_object *o)
{
	struct dynrun_violation v;
	const char *kind = get_str(o, WIRE_KIND);

	memset(&v, 0, sizeof(v));
	if (!kind || !violation_kind_parse(kind, &v.kind))
		return -1;
	v.pid = (long)opt_u64(o, WIRE_PID);
	v.tid = (long)opt_u64(o, WIRE_TID);
	v.depth = (unsigned)opt_u64(o, WIRE_DEPTH);
	json_object *tmp;
	v.has_expected = json_object_object_get_ex(o, WIRE_EXPECTED, &tmp);
	if (read_end(o, WIRE_SRC, &v.src) != 0 || read_end(o, WIRE_DST, &v.dst) != 0 ||
	    (v.has_expected && read_end(o, WIRE_EXPECTED, &v.expected) != 0)) {
		free(v.src.object), free(v.dst.object), free(v.expected.object);
		return -1;
	}
	ARRAY_RESERVE(log->items, log->cap, log->count + 1);
	log->items[log->count++] = v;
	return 0;
}

static int add_line(struct dynrun_log *log, json_object *o)
{
	const char *event = get_str(o, WIRE_EVENT);

	if (!event)
		return -1;
	if (strcmp(event, WIRE_EV_VIOLATION) == 0)
		return add_violation(log, o);
	if (strcmp(event, WIRE_EV_START) == 0) {
		log->processes++;
	} else if (strcmp(event, WIRE_EV_SUMMARY) == 0) {
		log->summaries++;
		log->calls += opt_u64(o, WIRE_CALLS);
		log->returns += opt_u64(o, WIRE_RETURNS);
		log->tracked += opt_u64(o, WIRE_TRACKED);
		for (int k = 0; k < VIOL_KINDS; k++)
			log->totals[k] += opt_u64(o, violation_kind_name((enum violation_kind)k));
	} else if (strcmp(event, WIRE_EV_ABORT) == 0) {
		log->aborted = true;
	} else if (strcmp(event, WIRE_EV_EXEC) == 0) {
		const char *path = get_str(o, WIRE_PATH);
		ARRAY_RESERVE(log->execs, log->execs_cap, log->n_execs + 1);
		log->execs[log->n_execs++] = xstrdup(path ? path : "");
	}
	return 0;
}

int dynrun_log_read(const char *path, struct dynrun_log *log, struct elfcet_error *err)
{
	memset(log, 0, sizeof(*log));
	FILE *fp = fopen(path, "re");
	if (!fp) {
		error_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	int rc = 0;
	while (getline(&line, &cap, fp) > 0) {
		lineno++;
		json_object *o = json_tokener_parse(line);
		if (!o || !json_object_is_type(o, json_type_object) || add_line(log, o) != 0) {
			error_set(err, "%s: line %u: not a record of the checker", path, lineno);
			json_object_put(o);
			rc = -1;
			break;
		}
		json_object_put(o);
	}
	free(line);
	fclose(fp);
	/* Violations seen by processes that never wrote a summary (exec, abort) count once. */
	if (rc == 0) {
		uint64_t listed[VIOL_KINDS] = { 0 };
		for (size_t i = 0; i < log->count; i++)
			listed[log->items[i].kind]++;
		for (int k = 0; k < VIOL_KINDS; k++)
			if (log->totals[k] < listed[k])
				log->totals[k] = listed[k];
	}
	return rc;
}

void dynrun_log_symbolize(struct dynrun_log *log)
{
	for (size_t i = 0; i < log->count; i++) {
		struct dynrun_violation *v = &log->items[i];

		dynrun_symbolize(v->src.object, v->src.offset, &v->src.place);
		dynrun_symbolize(v->dst.object, v->dst.offset, &v->dst.place);
		if (v->has_expected)
			dynrun_symbolize(v->expected.object, v->expected.offset,
					 &v->expected.place);
	}
}

void dynrun_log_free(struct dynrun_log *log)
{
	for (size_t i = 0; i < log->count; i++) {
		free(log->items[i].src.object);
		free(log->items[i].dst.object);
		free(log->items[i].expected.object);
	}
	free(log->items);
	for (size_t i = 0; i < log->n_execs; i++)
		free(log->execs[i]);
	free(log->execs);
	memset(log, 0, sizeof(*log));
}

void dynrun_describe_status(int wait_status, char *buf, size_t len)
{
	if (WIFEXITED(wait_status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(wait_status));
	else if (WIFSIGNALED(wait_status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(wait_status),
			 strsignal(WTERMSIG(wait_status)));
	else
		snprintf(buf, len, "wait status 0x%x", wait_status);
}

/* "/lib/x.so+0x1abaa <_dl_start_user+0x32>", or the bare address outside any file. The
 * file's and the symbol's names are escaped as the text output escapes names (visible.h). */
static void format_end(const struct dynrun_end *e, char *buf, size_t len)
{
	if (!e->object) {
		snprintf(buf, len, "0x%llx (no file)", (unsigned long long)e->address);
		return;
	}
	char *object = visible_dup(e->object);
	if (!e->place.known) {
		snprintf(buf, len, "%s@file+0x%llx", object, (unsigned long long)e->offset);
		free(object);
		return;
	}
	int n = snprintf(buf, len, "%s+0x%llx", object, (unsigned long long)e->place.vaddr);
	if (e->place.symbol[0] && n > 0 && (size_t)n < len) {
		char *symbol = visible_dup(e->place.symbol);
		snprintf(buf + n, len - (size_t)n, " <%s>", symbol);
		free(symbol);
	}
	free(object);
}

void dynrun_print_text(FILE *out, const struct dynrun_outcome *run, const struct dynrun_log *log)
{
	char src[4400], dst[4400], exp[4400], status[96];

	for (size_t i = 0; i < log->count; i++) {
		const struct dynrun_violation *v = &log->items[i];

		format_end(&v->src, src, sizeof(src));
		format_end(&v->dst, dst, sizeof(dst));
		fprintf(out, "%s: %s -> %s", violation_kind_name(v->kind), src, dst);
		if (v->has_expected) {
			format_end(&v->expected, exp, sizeof(exp));
			fprintf(out, " (shadow stack: %s", exp);
			if (v->kind == VIOL_SHSTK_UNWIND)
				fprintf(out, ", %u entr%s skipped", v->depth,
					v->depth == 1 ? "y" : "ies");
			fprintf(out, ")");
		}
		fprintf(out, " [pid %ld tid %ld]\n", v->pid, v->tid);
	}
	dynrun_describe_status(run->wait_status, status, sizeof(status));
	fputs("elfcet run: ", out);
	visible_write(out, run->program);
	fprintf(out,
		": checked%s%s%s; %llu ibt, %llu shstk, %llu shstk-unwind violations "
		"(%zu distinct); %llu calls, %llu returns, %llu tracked branches; program %s%s\n",
		run->ibt ? " ibt" : "", run->shstk ? " shstk" : "",
		!run->ibt && !run->shstk ? " nothing (unmarked; use --ibt/--shstk)" : "",
		(unsigned long long)log->totals[VIOL_IBT],
		(unsigned long long)log->totals[VIOL_SHSTK],
		(unsigned long long)log->totals[VIOL_SHSTK_UNWIND], log->count,
		(unsigned long long)log->calls, (unsigned long long)log->returns,
		(unsigned long long)log->tracked, status,
		log->aborted ? " (stopped at the first violation)" : "");
	for (size_t i = 0; i < log->n_execs; i++) {
		fputs("elfcet run: note: a process exec'd ", out);
		visible_write(out, log->execs[i]);
		fputs(", which ran unchecked\n", out);
	}
}

static void end_json(struct json_out *j, const char *key, const struct dynrun_end *e)
{
	json_open_object(j, key);
	json_uint(j, "address", e->address);
	if (e->object) {
		json_name(j, "object", "object_hex", e->object);
		json_uint(j, "file_offset", e->offset);
	}
	if (e->place.known)
		json_uint(j, "vaddr", e->place.vaddr);
	if (e->place.symbol[0])
		json_name(j, "symbol", "symbol_hex", e->place.symbol);
	json_close_object(j);
}

int dynrun_write_json(FILE *out, const struct dynrun_outcome *run, const struct dynrun_log *log)
{
	struct json_out j;

	for (size_t i = 0; i < log->count; i++) {
		const struct dynrun_violation *v = &log->items[i];

		json_begin(&j, out);
		json_str(&j, "event", "violation");
		json_str(&j, "kind", violation_kind_name(v->kind));
		json_int(&j, "pid", v->pid);
		json_int(&j, "tid", v->tid);
		end_json(&j, "source", &v->src);
		end_json(&j, "target", &v->dst);
		if (v->has_expected)
			end_json(&j, "expected", &v->expected);
		if (v->kind == VIOL_SHSTK_UNWIND)
			json_uint(&j, "depth", v->depth);
		json_end(&j);
	}
	json_begin(&j, out);
	json_str(&j, "event", "run");
	json_int(&j, "schema", ELFCET_JSON_SCHEMA);
	json_name(&j, "program", "program_hex", run->program);
	json_boolean(&j, "ibt", run->ibt);
	json_boolean(&j, "shstk", run->shstk);
	if (WIFEXITED(run->wait_status))
		json_int(&j, "exit_status", WEXITSTATUS(run->wait_status));
	else if (WIFSIGNALED(run->wait_status))
		json_int(&j, "signal", WTERMSIG(run->wait_status));
	json_boolean(&j, "aborted", log->aborted);
	json_open_object(&j, "violations");
	for (int k = 0; k < VIOL_KINDS; k++)
		json_uint(&j, violation_kind_name((enum violation_kind)k), log->totals[k]);
	json_close_object(&j);
	json_uint(&j, "calls", log->calls);
	json_uint(&j, "returns", log->returns);
	json_uint(&j, "tracked_branches", log->tracked);
	json_open_array(&j, "execs");
	for (size_t i = 0; i < log->n_execs; i++) {
		json_open_object(&j, NULL);
		json_name(&j, "path", "path_hex", log->execs[i]);
		json_close_object(&j);
	}
	json_close_array(&j);
	json_end(&j);
	return ferror(out) ? -1 : 0;
}
