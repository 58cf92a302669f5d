/* Problems and findings: what an audit says about a file, each under a stable rule id. */
#ifndef ELFCET_PROBLEM_H
#define ELFCET_PROBLEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>

#include "util/text_arena.h"

enum severity { SEVERITY_INFO, SEVERITY_WARNING, SEVERITY_ERROR };

/* Who reads the note and would reject or ignore it. */
enum consumer { CONSUMER_KERNEL = 1u << 0, CONSUMER_GLIBC = 1u << 1 };

/* A problem with the file's marking (the property note and its headers). */
struct problem {
	const char *rule; /* static string: the rule id */
	enum severity severity;
	unsigned rejected_by; /* CONSUMER_* bits */
	char *message;
};

/* A finding in the code or data (issue: ENDBR coverage and the other code checks). */
struct finding {
	uint64_t address; /* first: findings are sorted by it (sort_by_address) */
	const char *rule;
	enum severity severity;
	const char *symbol; /* "name", "name+0x10" or "sub_ADDR" */
	const char *via;    /* evidence kind: entry, init, export, reloc, ... */
	const char *message;
	/* ibt-tracked-jump-table: every case label lacking ENDBR ("0x.. 0x.."; the message
	 * names only the first few), which is where a CPU with IBT faults; else NULL. */
	const char *labels;
	/* Where ADDRESS is in the file (SARIF's region), when a PT_LOAD maps it from there. */
	uint64_t file_offset;
	bool in_file;
};

struct problem_list {
	struct problem *items;
	size_t count, cap;
};

struct finding_list {
	struct finding *items;
	size_t count, cap;
	struct text_arena texts; /* the findings' symbols and messages */
};

/* Adds a problem; a second one with the same rule merges its consumers into the first. */
void problem_add(struct problem_list *list, const char *rule, enum severity severity,
		 unsigned rejected_by, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void problem_list_free(struct problem_list *list);

void finding_add(struct finding_list *list, const char *rule, enum severity severity,
		 uint64_t address, const char *symbol, const char *via, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
void finding_addv(struct finding_list *list, const char *rule, enum severity severity,
		  uint64_t address, const char *symbol, const char *via, const char *fmt,
		  va_list ap) __attribute__((format(printf, 7, 0)));
/* The same with the message as it is, unformatted. */
void finding_add_text(struct finding_list *list, const char *rule, enum severity severity,
		      uint64_t address, const char *symbol, const char *via, const char *message);
void finding_list_free(struct finding_list *list);

const char *severity_name(enum severity s);
/* Parses "info", "warning", "error"; false on anything else. */
bool severity_parse(const char *text, enum severity *out);

#endif
