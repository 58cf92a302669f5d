/* elfcet run: execute a program under qemu-x86_64 / qemu-i386 with the CET checking plugin
 * and collect what the plugin wrote (see dynrun_report.h for reading it). */
#ifndef ELFCET_DYNRUN_H
#define ELFCET_DYNRUN_H

#include "util/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dynrun_request {
	char **argv; /* PROG ARGS..., NULL-terminated; argv[0] as given */
	bool force_ibt, force_shstk;
	bool abort_on_violation;
};

/* What was decided and what happened. */
struct dynrun_outcome {
	char program[4096]; /* argv[0] resolved through PATH */
	bool is64;
	uint32_t marking; /* FEATURE_1_AND of the program (0 when unmarked) */
	bool ibt, shstk;  /* the checks that were on */
	int wait_status;  /* of QEMU, which exits as the guest does */
};

/* The plugin: $ELFCET_PLUGIN if set, else the installed one. */
const char *dynrun_plugin_path(void);

/* The QEMU binary for a 64- or 32-bit guest: $ELFCET_QEMU_X86_64 / $ELFCET_QEMU_I386, else
 * qemu-x86_64 / qemu-i386 from PATH. */
const char *dynrun_qemu_name(bool is64);

/* Escapes commas for QEMU's option parser (a comma is written twice). Returns OUT, or NULL
 * when it does not fit. */
char *dynrun_escape_option(const char *in, char *out, size_t outlen);

/* Runs the program, the plugin appending JSON lines to RAW_LOG. 0 on success (whatever the
 * program did); -1 with a one-line message naming the file when it could not be run. */
int dynrun_execute(const struct dynrun_request *req, const char *raw_log,
		   struct dynrun_outcome *out, struct elfcet_error *err);

#endif
