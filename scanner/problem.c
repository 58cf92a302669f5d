/* Problems and findings lists. */
#include "config.h"

#include "problem.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void problem_add(struct problem_list *list, const char *rule, enum severity severity,
		 unsigned rejected_by, const char *fmt, ...)
{
	struct problem *p;
	va_list ap;
	size_t i;

	for (i = 0; i < list->count; i++) {
		if (strcmp(list->items[i].rule, rule) == 0) {
			list->items[i].rejected_by |= rejected_by;
			return;
		}
	}
	ARRAY_RESERVE(list->items, list->cap, list->count + 1);
	p = &list->items[list->count++];
	p->rule = rule;
	p->severity = severity;
	p->rejected_by = rejected_by;
	va_start(ap, fmt);
	p->message = xvasprintf(fmt, ap);
	va_end(ap);
}

void problem_list_free(struct problem_list *list)
{
	size_t i;

	for (i = 0; i < list->count; i++)
		free(list->items[i].message);
	free(list->items);
	memset(list, 0, sizeof(*list));
}

/* A new finding, all but its message. */
static struct finding *new_finding(struct finding_list *list, const char *rule,
				   enum severity severity, uint64_t address, const char *symbol,
				   const char *via)
{
	struct finding *f;

	ARRAY_RESERVE(list->items, list->cap, list->count + 1);
	f = &list->items[list->count++];
	f->rule = rule;
	f->severity = severity;
	f->address = address;
	f->symbol = symbol ? text_arena_copy(&list->texts, symbol) : NULL;
	f->via = via;
	f->labels = NULL;
	f->file_offset = 0;
	f->in_file = false;
	return f;
}

void finding_addv(struct finding_list *list, const char *rule, enum severity severity,
		  uint64_t address, const char *symbol, const char *via, const char *fmt,
		  va_list ap)
{
	new_finding(list, rule, severity, address, symbol, via)->message =
		text_arena_vformat(&list->texts, fmt, ap);
}

void finding_add_text(struct finding_list *list, const char *rule, enum severity severity,
		      uint64_t address, const char *symbol, const char *via, const char *message)
{
	new_finding(list, rule, severity, address, symbol, via)->message =
		text_arena_copy(&list->texts, message);
}

void finding_add(struct finding_list *list, const char *rule, enum severity severity,
		 uint64_t address, const char *symbol, const char *via, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	finding_addv(list, rule, severity, address, symbol, via, fmt, ap);
	va_end(ap);
}

void finding_list_free(struct finding_list *list)
{
	text_arena_free(&list->texts);
	free(list->items);
	memset(list, 0, sizeof(*list));
}

const char *severity_name(enum severity s)
{
	switch (s) {
	case SEVERITY_INFO:
		return "info";
	case SEVERITY_WARNING:
		return "warning";
	case SEVERITY_ERROR:
		return "error";
	}
	return "unknown";
}

bool severity_parse(const char *text, enum severity *out)
{
	if (strcmp(text, "info") == 0)
		*out = SEVERITY_INFO;
	else if (strcmp(text, "warning") == 0)
		*out = SEVERITY_WARNING;
	else if (strcmp(text, "error") == 0)
		*out = SEVERITY_ERROR;
	else
		return false;
	return true;
}
