/* elfcet run: option parsing and output; the work is scanner's (dynrun*). */
#include "config.h"

#include "commands.h"

#include "dynrun/dynrun.h"
#include "dynrun/dynrun_report.h"
#include "util/visible.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void run_help(FILE *out)
{
	fprintf(out,
		"Usage: elfcet run [OPTION]... [--] PROG [ARG]...\n"
		"Run PROG under qemu-x86_64 (qemu-i386 for i386 programs) with elfcet's checking\n"
		"plugin, which emulates IBT and shadow-stack enforcement, and report every control\n"
		"transfer the hardware would fault on. By default the checks PROG is marked for are\n"
		"on; IBT is checked on branches into objects marked IBT (and into PROG with --ibt).\n\n"
		"      --ibt          check IBT even though PROG is not marked for it\n"
		"      --shstk        check the shadow stack even though PROG is not marked for it\n"
		"      --json=FILE    also write the violations and a run record as JSON lines\n"
		"      --abort        stop PROG with SIGSEGV at the first violation, like a fault\n"
		"  -h, --help         this help\n\n"
		"Kinds: ibt (tracked indirect CALL/JMP to a non-ENDBR instruction), shstk (RET to\n"
		"an address other than the top of the shadow stack), shstk-unwind (RET to a deeper\n"
		"shadow-stack entry: longjmp or an unwinder that does not use INCSSP).\n"
		"The report goes to standard error; PROG keeps standard input and output.\n\n"
		"Exit status: 0 no violation observed; 1 violations observed (PROG's own exit\n"
		"status is in the summary line and the JSON run record); 2 usage error, or PROG\n"
		"or QEMU could not be run.\n"
		"Environment: ELFCET_PLUGIN (the plugin, default %s),\n"
		"ELFCET_QEMU_X86_64, ELFCET_QEMU_I386 (the QEMU binaries).\n",
		dynrun_plugin_path());
}

/* A private file for the plugin's raw lines. */
static int make_raw_log(char *path, size_t len)
{
	const char *dir = getenv("TMPDIR");

	if (!dir || !*dir)
		dir = "/tmp";
	if ((size_t)snprintf(path, len, "%s/elfcet-run-XXXXXX", dir) >= len)
		return -1;
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* "elfcet run: FILE: PROBLEM" (or without FILE) on stderr, names escaped (visible.h). */
static void print_file_error(const char *file, const char *problem)
{
	fputs("elfcet run: ", stderr);
	if (file) {
		visible_write(stderr, file);
		fputs(": ", stderr);
	}
	visible_write(stderr, problem);
	fputc('\n', stderr);
}

int cmd_run(int argc, char **argv)
{
	/* One option a line, as the other commands' tables (clang-format 14 packs this one). */
	/* clang-format off */
	static const struct option options[] = {
		{ "ibt", no_argument, NULL, 'I' },
		{ "shstk", no_argument, NULL, 'S' },
		{ "json", required_argument, NULL, 'j' },
		{ "abort", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* clang-format on */
	struct dynrun_request req = { 0 };
	const char *json_path = NULL;
	int c;

	optind = 1;
	/* '+': options end at PROG, whose own options are its business. */
	while ((c = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		switch (c) {
		case 'I':
			req.force_ibt = true;
			break;
		case 'S':
			req.force_shstk = true;
			break;
		case 'j':
			json_path = optarg;
			break;
		case 'a':
			req.abort_on_violation = true;
			break;
		case 'h':
			run_help(stdout);
			return EXIT_CLEAN;
		default:
			fprintf(stderr, "Try 'elfcet run --help'.\n");
			return EXIT_TROUBLE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "elfcet run: no program given\nTry 'elfcet run --help'.\n");
		return EXIT_TROUBLE;
	}
	req.argv = argv + optind;

	/* Open the JSON output first: a bad path is an error before PROG runs. */
	FILE *json = NULL;
	if (json_path && !(json = fopen(json_path, "we"))) {
		print_file_error(json_path, strerror(errno));
		return EXIT_TROUBLE;
	}

	char raw[4096];
	struct elfcet_error err;
	if (make_raw_log(raw, sizeof(raw)) != 0) {
		fprintf(stderr, "elfcet run: cannot create a temporary file: %s\n",
			strerror(errno));
		if (json)
			fclose(json);
		return EXIT_TROUBLE;
	}

	struct dynrun_outcome run;
	struct dynrun_log log;
	int status = EXIT_TROUBLE;
	if (dynrun_execute(&req, raw, &run, &err) != 0) {
		print_file_error(NULL, err.text);
		goto out;
	}
	if (dynrun_log_read(raw, &log, &err) != 0) {
		print_file_error(NULL, err.text);
		goto out;
	}
	if (log.processes == 0) {
		fputs("elfcet run: ", stderr);
		visible_write(stderr, run.program);
		fprintf(stderr, ": QEMU did not load the checker plugin (%s)\n",
			dynrun_plugin_path());
		dynrun_log_free(&log);
		goto out;
	}
	dynrun_log_symbolize(&log);
	dynrun_print_text(stderr, &run, &log);
	status = EXIT_CLEAN;
	for (int k = 0; k < VIOL_KINDS; k++)
		if (log.totals[k] > 0)
			status = EXIT_FINDINGS;
	if (json && dynrun_write_json(json, &run, &log) != 0) {
		print_file_error(json_path, "write error");
		status = EXIT_TROUBLE;
	}
	dynrun_log_free(&log);
	dynrun_symbols_release();
out:
	unlink(raw);
	if (json && fclose(json) != 0 && status != EXIT_TROUBLE) {
		print_file_error(json_path, strerror(errno));
		status = EXIT_TROUBLE;
	}
	return status;
}
