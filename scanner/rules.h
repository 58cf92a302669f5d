/* The rule catalogue and the data lists in rules/: which rules exist, how severe each is,
 * and the name lists the checks consult (returns-twice functions, exemptions, ...).
 * The installed directory is used unless --rules DIR names another. */
#ifndef ELFCET_RULES_H
#define ELFCET_RULES_H

#include "problem.h"
#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>

struct rule_info {
	char *id;
	enum severity severity;
	char *description; /* one line */
	char *details;	   /* what it means and why it matters; NULL when not given */
	char *help;	   /* what to do about it; NULL when not given */
};

struct name_list {
	char *name; /* the list's file name without ".list" */
	char **items;
	size_t count, cap;
};

struct rule_set {
	char *dir;
	struct rule_info *rules;
	size_t count, cap;
	struct name_list *lists;
	size_t nlists, lists_cap;
};

/* Loads DIR/catalogue.rules and every DIR/NAME.list. 0, or -1 with ERR naming the file
 * and line. */
int rules_load(const char *dir, struct rule_set *rs, struct elfcet_error *err);
void rules_free(struct rule_set *rs);

/* The rule's entry, or NULL when the catalogue does not list it. */
const struct rule_info *rules_find(const struct rule_set *rs, const char *id);

/* Severity of rule ID; a rule missing from the catalogue is an error, so the catalogue
 * cannot silently drop a check. */
enum severity rules_severity(const struct rule_set *rs, const char *id);

/* The items of list NAME (NULL and *COUNT 0 when there is no such list). */
char *const *rules_list(const struct rule_set *rs, const char *name, size_t *count);
bool rules_list_contains(const struct rule_set *rs, const char *name, const char *item);

/* The directory used when --rules is not given: $ELFCET_RULES_DIR, else the installed one. */
const char *rules_default_dir(void);

#endif
