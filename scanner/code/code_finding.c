/* The code context's findings sink: every pass reports through it, into the finding list
 * the context was built with, so passes depend on the context and not on the audit that
 * runs them. */
#include "config.h"

#include "code/code_context.h"

#include "rules.h"

#include <stdarg.h>

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
