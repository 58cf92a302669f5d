/* Loading the rule catalogue and name lists from rules/. */
#include "config.h"

#include "rules.h"

#include "util/install_dirs.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef ELFCET_RULES_DIR
#define ELFCET_RULES_DIR "/usr/local/share/elfcet/rules"
#endif

const char *rules_default_dir(void)
{
	const char *env = getenv("ELFCET_RULES_DIR");
	static char dir[4096];
	const char *source = NULL;

	if (env && *env)
		return env;
#ifdef ELFCET_SOURCE_RULES_DIR
	source = ELFCET_SOURCE_RULES_DIR;
#endif
	install_path(ELFCET_RULES_DIR, source, dir, sizeof(dir));
	/* Neither built nor installed (a test program of the library): the source tree's. */
	if (source && access(dir, R_OK) != 0)
		return source;
	return dir;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Strips a trailing comment and white space; returns NULL for a blank line. */
static char *content_of(char *line)
{
	char *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	line = trim(line);
	return *line ? line : NULL;
}

static int parse_catalogue_line(struct rule_set *rs, char *text, const char *path, unsigned lineno,
				struct elfcet_error *err)
{
	char *id = strtok(text, " \t");
	char *sev = strtok(NULL, " \t");
	char *desc = strtok(NULL, "");
	struct rule_info *ri;
	enum severity s;

	if (!id || !sev || !severity_parse(sev, &s)) {
		error_set(err, "%s:%u: expected 'RULE-ID SEVERITY DESCRIPTION'", path, lineno);
		return -1;
	}
	if (rules_find(rs, id)) {
		error_set(err, "%s:%u: rule %s listed twice", path, lineno, id);
		return -1;
	}
	ARRAY_RESERVE(rs->rules, rs->cap, rs->count + 1);
	ri = &rs->rules[rs->count++];
	ri->id = xstrdup(id);
	ri->severity = s;
	ri->description = xstrdup(desc ? trim(desc) : "");
	ri->details = NULL;
	ri->help = NULL;
	return 0;
}

/* Appends TEXT to *FIELD, a space between lines: a paragraph may wrap. */
static void append_text(char **field, const char *text)
{
	char *joined;

	if (!*field) {
		*field = xstrdup(text);
		return;
	}
	joined = xasprintf("%s %s", *field, text);
	free(*field);
	*field = joined;
}

/* An indented line under a rule: "details: TEXT" or "help: TEXT" starts the field, a
 * further indented line without a key continues the last one. */
static int parse_rule_text(struct rule_set *rs, char *text, char ***last, const char *path,
			   unsigned lineno, struct elfcet_error *err)
{
	struct rule_info *ri = rs->count ? &rs->rules[rs->count - 1] : NULL;

	if (!ri) {
		error_set(err, "%s:%u: indented text before the first rule", path, lineno);
		return -1;
	}
	if (strncmp(text, "details:", 8) == 0) {
		*last = &ri->details;
		text += 8;
	} else if (strncmp(text, "help:", 5) == 0) {
		*last = &ri->help;
		text += 5;
	} else if (!*last) {
		error_set(err, "%s:%u: expected 'details: TEXT' or 'help: TEXT' under rule %s",
			  path, lineno, ri->id);
		return -1;
	}
	text = trim(text);
	if (*text)
		append_text(*last, text);
	return 0;
}

static int load_catalogue(struct rule_set *rs, const char *path, struct elfcet_error *err)
{
	char **last = NULL; /* the field an unkeyed indented line continues */
	unsigned lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		error_set(err, "%s: cannot open the rule catalogue: %s", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && getline(&line, &cap, f) >= 0) {
		bool indented = line[0] == ' ' || line[0] == '\t';
		char *text = content_of(line);

		lineno++;
		if (!text)
			continue;
		if (indented) {
			rc = parse_rule_text(rs, text, &last, path, lineno, err);
		} else {
			last = NULL;
			rc = parse_catalogue_line(rs, text, path, lineno, err);
		}
	}
	free(line);
	fclose(f);
	return rc;
}

static int load_list(struct name_list *list, const char *path, struct elfcet_error *err)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		error_set(err, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) >= 0) {
		char *text = content_of(line);

		if (!text)
			continue;
		ARRAY_RESERVE(list->items, list->cap, list->count + 1);
		list->items[list->count++] = xstrdup(text);
	}
	free(line);
	fclose(f);
	return 0;
}

static int load_lists(struct rule_set *rs, const char *dir, struct elfcet_error *err)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int rc = 0;

	if (!d) {
		error_set(err, "%s: cannot open the rules directory: %s", dir, strerror(errno));
		return -1;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		struct name_list *n;
		char *path;

		if (len <= 5 || strcmp(de->d_name + len - 5, ".list") != 0)
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		ARRAY_RESERVE(rs->lists, rs->lists_cap, rs->nlists + 1);
		n = &rs->lists[rs->nlists++];
		memset(n, 0, sizeof(*n));
		n->name = xstrndup(de->d_name, len - 5);
		rc = load_list(n, path, err);
		free(path);
	}
	closedir(d);
	return rc;
}

int rules_load(const char *dir, struct rule_set *rs, struct elfcet_error *err)
{
	char *path;
	int rc;

	memset(rs, 0, sizeof(*rs));
	rs->dir = xstrdup(dir);
	path = xasprintf("%s/catalogue.rules", dir);
	rc = load_catalogue(rs, path, err);
	free(path);
	if (rc == 0)
		rc = load_lists(rs, dir, err);
	if (rc != 0)
		rules_free(rs);
	return rc;
}

void rules_free(struct rule_set *rs)
{
	size_t i, j;

	for (i = 0; i < rs->count; i++) {
		free(rs->rules[i].id);
		free(rs->rules[i].description);
		free(rs->rules[i].details);
		free(rs->rules[i].help);
	}
	for (i = 0; i < rs->nlists; i++) {
		for (j = 0; j < rs->lists[i].count; j++)
			free(rs->lists[i].items[j]);
		free(rs->lists[i].items);
		free(rs->lists[i].name);
	}
	free(rs->rules);
	free(rs->lists);
	free(rs->dir);
	memset(rs, 0, sizeof(*rs));
}

const struct rule_info *rules_find(const struct rule_set *rs, const char *id)
{
	size_t i;

	for (i = 0; i < rs->count; i++)
		if (strcmp(rs->rules[i].id, id) == 0)
			return &rs->rules[i];
	return NULL;
}

enum severity rules_severity(const struct rule_set *rs, const char *id)
{
	const struct rule_info *ri = rs ? rules_find(rs, id) : NULL;

	return ri ? ri->severity : SEVERITY_ERROR;
}

char *const *rules_list(const struct rule_set *rs, const char *name, size_t *count)
{
	size_t i;

	for (i = 0; rs && i < rs->nlists; i++) {
		if (strcmp(rs->lists[i].name, name) == 0) {
			*count = rs->lists[i].count;
			return rs->lists[i].items;
		}
	}
	*count = 0;
	return NULL;
}

bool rules_list_contains(const struct rule_set *rs, const char *name, const char *item)
{
	size_t i, count;
	char *const *items = rules_list(rs, name, &count);

	/* Asked for every symbol of a file: the first letter rules most entries out. */
	for (i = 0; i < count; i++)
		if (items[i][0] == item[0] && strcmp(items[i], item) == 0)
			return true;
	return false;
}
