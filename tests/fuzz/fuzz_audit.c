/* Fuzz target: the whole audit of one file (note, code audit, verdicts), as
 * `elfcet audit` runs it, over an image in memory. */
#include "config.h"

#include "audit.h"
#include "fuzz_input.h"
#include "rules.h"

#include <stdio.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rule_set rules;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct elfcet_error err;

	(void)argc;
	(void)argv;
	if (rules_load(FUZZ_RULES_DIR, &rules, &err) != 0) {
		fprintf(stderr, "fuzz_audit: %s\n", err.text);
		abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct audit_options opt = { .rules = &rules };
	struct file_report rep;
	struct fuzz_input in;

	fuzz_input_open(&in, data, size);
	if (in.open) {
		audit_model(&in.m, &opt, &rep);
		file_report_free(&rep);
	}
	fuzz_input_close(&in);
	return 0;
}
