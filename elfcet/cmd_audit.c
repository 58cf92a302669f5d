/* elfcet audit: option parsing and output; the work is scanner's. */
#include "config.h"

#include "commands.h"
#include "progress.h"

#include "audit_runner.h"
#include "deb_input.h"
#include "report/report.h"
#include "rules.h"
#include "util/visible.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_JSONL, FORMAT_SARIF };

struct audit_cli {
	enum format format;
	bool verbose, quiet;
	int fail_on; /* severity that fails, or 3 for never */
	unsigned jobs;
	const char *rules_dir;
	struct deb_limits deb_limits;
	struct audit_summary summary;
	struct json_report *json;
	struct sarif_report *sarif;
	struct progress progress; /* on a terminal, text format only */
	bool report_on_screen;	  /* the text report goes to the progress line's terminal */
	bool failed;		  /* something at or above fail_on */
};

static void audit_help(FILE *out)
{
	fprintf(out,
		"Usage: elfcet audit [OPTION]... PATH...\n"
		"Say, for each x86 ELF program or library, what CET marking it carries, how the\n"
		"kernel and ld.so read it, and whether it would run under IBT and shadow stack.\n"
		"Directories are searched recursively; '-' reads paths from standard input.\n"
		"A Debian package (.deb) is read as it is: its files are reported as installed.\n\n"
		"  -v, --verbose          details under each file's line\n"
		"  -q, --quiet            no summary line on standard error\n"
		"      --format=FORMAT    text (default), json, jsonl (one record per file, as\n"
		"                         audited) or sarif (SARIF 2.1.0, for code scanning)\n"
		"      --fail-on=LEVEL    info, warning, error (default) or never\n"
		"  -j, --jobs=N           files audited in parallel (default: one per CPU)\n"
		"      --rules=DIR        rule catalogue and lists (default: %s)\n"
		"      --max-unpacked=SIZE\n"
		"                         what one .deb may decompress to (default 16G;\n"
		"                         a K, M, G or T suffix counts in powers of 1024)\n"
		"      --max-members=N    files, directories and links of one .deb (default %" PRIu64
		")\n"
		"      --max-elf-size=SIZE\n"
		"                         data of one ELF file in a .deb, held in memory to be\n"
		"                         audited (default 2G); a larger one is not audited\n"
		"  -h, --help             this help\n\n"
		"Exit status: 0 nothing at or above --fail-on; 1 findings at or above it;\n"
		"2 usage error, a file that could not be read or audited, or a .deb over a limit.\n",
		rules_default_dir(), DEB_DEFAULT_MAX_MEMBERS);
}

/* "elfcet: [PACKAGE: ]FILE: why" on stderr for a file that was not audited, escaped
 * (visible.h). */
static void print_file_note(const struct file_report *rep)
{
	fputs("elfcet: ", stderr);
	if (rep->package_file) { /* a file of a package: the package, then the file */
		visible_write(stderr, rep->package_file);
		fputs(": ", stderr);
	}
	visible_write(stderr, rep->path ? rep->path : "");
	fputs(": ", stderr);
	visible_write(stderr, rep->message ? rep->message : "");
	fputc('\n', stderr);
}

/* Whether the file's report says something on standard error. */
static bool tells_on_stderr(const struct audit_cli *cli, const struct file_report *rep, bool named)
{
	switch (rep->status) {
	case REPORT_NOT_ELF:
		return named;
	case REPORT_ERROR:
		return true;
	case REPORT_SKIPPED:
		/* Found in a directory, a skipped file is only counted unless -v asks. */
		return named || cli->verbose;
	case REPORT_AUDITED:
		break;
	}
	return false;
}

static void on_report(const struct file_report *rep, bool named, void *ctx)
{
	struct audit_cli *cli = ctx;
	bool tells = tells_on_stderr(cli, rep, named);
	/* The progress line leaves the screen only while a line is written above it. */
	bool writes_on_screen = tells || (cli->format == FORMAT_TEXT && cli->report_on_screen &&
					  (rep->status != REPORT_NOT_ELF || named));

	summary_add(&cli->summary, rep);
	if (writes_on_screen)
		progress_hide(&cli->progress);
	if (rep->status == REPORT_NOT_ELF && named)
		cli->summary.not_elf_named++;
	if (rep->status == REPORT_AUDITED && file_report_worst_severity(rep) >= cli->fail_on)
		cli->failed = true;
	if (tells)
		print_file_note(rep);
	if (rep->status == REPORT_NOT_ELF && !named)
		return;
	switch (cli->format) {
	case FORMAT_JSON:
		report_json_file(cli->json, rep);
		break;
	case FORMAT_JSONL:
		report_jsonl_file(stdout, rep);
		break;
	case FORMAT_SARIF:
		report_sarif_file(cli->sarif, rep);
		break;
	case FORMAT_TEXT:
		report_text_file(stdout, rep, cli->verbose);
		break;
	}
	if (writes_on_screen)
		progress_show(&cli->progress);
}

static void on_done(size_t done, size_t total, void *ctx)
{
	struct audit_cli *cli = ctx;

	(void)total;
	progress_update(&cli->progress, done);
}

static bool parse_fail_on(const char *arg, int *out)
{
	enum severity s;

	if (strcmp(arg, "never") == 0) {
		*out = 3;
		return true;
	}
	if (!severity_parse(arg, &s))
		return false;
	*out = (int)s;
	return true;
}

/* A count or size of 1 or more, SIZE allowing a K, M, G or T suffix (powers of 1024). */
static bool parse_limit(const char *arg, bool size, uint64_t *out)
{
	static const char units[] = "KMGT";
	const char *unit;
	char *end;
	uint64_t n;
	int shift;

	if (!*arg || *arg < '0' || *arg > '9')
		return false;
	errno = 0;
	n = strtoull(arg, &end, 10);
	if (errno || n == 0)
		return false;
	if (*end && size && end[1] == '\0' && (unit = strchr(units, *end)) != NULL) {
		shift = 10 * (int)(unit - units + 1);
		if (n > (UINT64_MAX >> shift))
			return false;
		n <<= shift;
		end++;
	}
	if (*end)
		return false;
	*out = n;
	return true;
}

static int parse_options(struct audit_cli *cli, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "format", required_argument, NULL, 'f' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "rules", required_argument, NULL, 'r' },
		{ "max-unpacked", required_argument, NULL, 'U' },
		{ "max-members", required_argument, NULL, 'M' },
		{ "max-elf-size", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	long n;
	int c;

	while ((c = getopt_long(argc, argv, "vqj:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			cli->verbose = true;
			break;
		case 'q':
			cli->quiet = true;
			break;
		case 'f':
			if (strcmp(optarg, "text") == 0)
				cli->format = FORMAT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				cli->format = FORMAT_JSON;
			else if (strcmp(optarg, "jsonl") == 0)
				cli->format = FORMAT_JSONL;
			else if (strcmp(optarg, "sarif") == 0)
				cli->format = FORMAT_SARIF;
			else {
				fprintf(stderr, "elfcet audit: unknown format '%s'\n", optarg);
				return -1;
			}
			break;
		case 'F':
			if (!parse_fail_on(optarg, &cli->fail_on)) {
				fprintf(stderr,
					"elfcet audit: --fail-on takes info, warning, "
					"error or never, not '%s'\n",
					optarg);
				return -1;
			}
			break;
		case 'j':
			n = strtol(optarg, &end, 10);
			if (*end || n < 1 || n > 1024) {
				fprintf(stderr, "elfcet audit: --jobs takes 1 to 1024\n");
				return -1;
			}
			cli->jobs = (unsigned)n;
			break;
		case 'r':
			cli->rules_dir = optarg;
			break;
		case 'U':
			if (!parse_limit(optarg, true, &cli->deb_limits.max_unpacked)) {
				fprintf(stderr,
					"elfcet audit: --max-unpacked takes a size of 1 "
					"or more (bytes, or with K, M, G or T), not '%s'\n",
					optarg);
				return -1;
			}
			break;
		case 'M':
			if (!parse_limit(optarg, false, &cli->deb_limits.max_members)) {
				fprintf(stderr,
					"elfcet audit: --max-members takes a number of 1 or more, "
					"not '%s'\n",
					optarg);
				return -1;
			}
			break;
		case 'E':
			if (!parse_limit(optarg, true, &cli->deb_limits.max_elf_size)) {
				fprintf(stderr,
					"elfcet audit: --max-elf-size takes a size of 1 "
					"or more (bytes, or with K, M, G or T), not '%s'\n",
					optarg);
				return -1;
			}
			break;
		case 'h':
			audit_help(stdout);
			exit(EXIT_CLEAN);
		default:
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "elfcet audit: no PATH given (try 'elfcet audit --help')\n");
		return -1;
	}
	return 0;
}

int cmd_audit(int argc, char **argv)
{
	struct audit_cli cli = {
		.fail_on = SEVERITY_ERROR,
		.deb_limits = { DEB_DEFAULT_MAX_UNPACKED, DEB_DEFAULT_MAX_MEMBERS,
				DEB_DEFAULT_MAX_ELF_SIZE },
	};
	struct audit_options opt;
	struct path_list files;
	struct rule_set rules;
	struct elfcet_error err;
	int status;

	if (parse_options(&cli, argc, argv) != 0)
		return EXIT_TROUBLE;
	if (rules_load(cli.rules_dir ? cli.rules_dir : rules_default_dir(), &rules, &err) != 0) {
		fputs("elfcet: ", stderr);
		visible_write(stderr, err.text);
		fputc('\n', stderr);
		return EXIT_TROUBLE;
	}
	opt.rules = &rules;
	opt.deb_limits = &cli.deb_limits;
	path_walk(argv + optind, (size_t)(argc - optind), stdin, stderr, &files);
	if (cli.format == FORMAT_JSON)
		cli.json = report_json_begin(stdout);
	else if (cli.format == FORMAT_SARIF)
		cli.sarif = report_sarif_begin(stdout, &rules);
	/* Progress only where a person watches a text report: never into a pipe or a file,
	 * and never mixed with JSON. */
	if (cli.format == FORMAT_TEXT && !cli.quiet)
		progress_start(&cli.progress, stderr, files.count);
	cli.report_on_screen = isatty(STDOUT_FILENO);
	audit_run(&files, &opt, cli.jobs, on_report, on_done, &cli);
	progress_end(&cli.progress);
	if (cli.json)
		report_json_end(cli.json, &cli.summary);
	else if (cli.sarif)
		report_sarif_end(cli.sarif);
	else if (cli.format == FORMAT_TEXT && !cli.quiet) {
		report_text_summary(stderr, &cli.summary);
		if (cli.summary.audited + cli.summary.skipped + cli.summary.errors > 1)
			report_text_table(stderr, &cli.summary);
	}

	if (files.errors || cli.summary.errors || cli.summary.not_elf_named)
		status = EXIT_TROUBLE;
	else
		status = cli.failed ? EXIT_FINDINGS : EXIT_CLEAN;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "elfcet: cannot write the report\n");
		status = EXIT_TROUBLE;
	}
	path_list_free(&files);
	rules_free(&rules);
	return status;
}
