/* The code audit, in the order the evidence depends on itself: relocations first (the
 * others read relocated words), then every other source of targets, the code sweep,
 * the data scan (which must know the jump tables the sweep found), and last ENDBR at
 * every target. */
#include "config.h"

#include "code/code_audit.h"

#include "code/code_context.h"
#include "rules.h"
#include "util/sort_address.h"
#include "code/targets.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* The catalogue's severity of RULE. A file's findings come in runs of one rule (the
 * ibt-missing-endbr of every target): the last one is remembered. */
static enum severity severity_of(struct code_ctx *c, const char *rule)
{
	if (rule != c->severity_rule) {
		c->severity_rule = rule;
		c->severity = rules_severity(c->rules, rule);
	}
	return c->severity;
}

void code_finding(struct code_ctx *c, const char *rule, uint64_t addr, const char *via,
		  const char *fmt, ...)
{
	char symbol[256];
	va_list ap;

	code_symbol_name(c, addr, symbol, sizeof(symbol));
	va_start(ap, fmt);
	finding_addv(c->out, rule, severity_of(c, rule), addr, symbol, via, fmt, ap);
	va_end(ap);
}

void code_finding_text(struct code_ctx *c, const char *rule, uint64_t addr, const char *via,
		       const char *message)
{
	char symbol[256];

	code_symbol_name(c, addr, symbol, sizeof(symbol));
	finding_add_text(c->out, rule, severity_of(c, rule), addr, symbol, via, message);
}

void code_audit(const struct elf_model *m, const struct rule_set *rules,
		struct finding_list *out)
{
	struct code_ctx c;
	size_t first = out->count;

	code_ctx_init(&c, m, rules, out);
	targets_relocs(&c);
	targets_entry(&c);
	targets_exports(&c);
	targets_plt(&c);
	targets_landing_pads(&c);
	targets_returns_twice_prepare(&c);
	code_sweep(&c);
	targets_data_pointers(&c);
	check_endbr(&c);
	code_ctx_free(&c);
	/* Findings in address order, whatever check found them. */
	if (out->count > first)
		sort_by_address(out->items + first, out->count - first, sizeof(*out->items));
}
