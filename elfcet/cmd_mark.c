/* elfcet mark: option parsing; the work is scanner's (mark.h), the messages its report
 * layer's (report/report_mark.h). */
#include "config.h"

#include "commands.h"

#include "mark/mark.h"
#include "property/gnu_property.h"
#include "report/report_mark.h"
#include "rules.h"
#include "util/visible.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void mark_help(FILE *out)
{
	fprintf(out,
		"Usage: elfcet mark [OPTION]... FILE...\n"
		"Set or clear the IBT and SHSTK bits of the GNU property note of x86 ELF files,\n"
		"adding the property or the whole note when a file has none. A bit is set only\n"
		"when the audit says the file is ready for it.\n\n"
		"      --ibt                set IBT (indirect branch tracking)\n"
		"      --shstk              set SHSTK (shadow stack)\n"
		"      --no-ibt             clear IBT\n"
		"      --no-shstk           clear SHSTK\n"
		"  -f, --force              set bits even when the audit finds blockers\n"
		"  -n, --dry-run            say what would change; write nothing\n"
		"      --backup[=SUFFIX]    keep the original as FILE SUFFIX (default '~')\n"
		"  -p, --preserve-timestamps  keep the original's access and modification times\n"
		"  -v, --verbose            list the byte ranges changed\n"
		"      --rules=DIR          rule catalogue and lists (default: %s)\n"
		"  -h, --help               this help\n\n"
		"Files are replaced atomically after the result has been re-read and re-audited;\n"
		"owner, mode and extended attributes (file capabilities) are kept. Hard-linked,\n"
		"read-only and running files are refused; a file changed by another process\n"
		"meanwhile is left as it is.\n\n"
		"Exit status: 0 marked or already marked; 1 refused because of audit findings;\n"
		"2 usage error, or a file that could not be read, was damaged or was not written.\n",
		rules_default_dir());
}

struct mark_cli {
	struct mark_options opt;
	bool verbose;
	const char *rules_dir;
};

enum { OPT_IBT = 256, OPT_SHSTK, OPT_NO_IBT, OPT_NO_SHSTK, OPT_BACKUP, OPT_RULES };

static int parse_options(struct mark_cli *cli, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ibt", no_argument, NULL, OPT_IBT },
		{ "shstk", no_argument, NULL, OPT_SHSTK },
		{ "no-ibt", no_argument, NULL, OPT_NO_IBT },
		{ "no-shstk", no_argument, NULL, OPT_NO_SHSTK },
		{ "force", no_argument, NULL, 'f' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "backup", optional_argument, NULL, OPT_BACKUP },
		{ "preserve-timestamps", no_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "rules", required_argument, NULL, OPT_RULES },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct mark_request *req = &cli->opt.req;
	int c;

	while ((c = getopt_long(argc, argv, "fnpvh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_IBT:
			req->set |= FEATURE_1_IBT;
			break;
		case OPT_SHSTK:
			req->set |= FEATURE_1_SHSTK;
			break;
		case OPT_NO_IBT:
			req->clear |= FEATURE_1_IBT;
			break;
		case OPT_NO_SHSTK:
			req->clear |= FEATURE_1_SHSTK;
			break;
		case 'f':
			cli->opt.force = true;
			break;
		case 'n':
			cli->opt.dry_run = true;
			break;
		case OPT_BACKUP:
			cli->opt.backup_suffix = optarg ? optarg : "~";
			if (!*cli->opt.backup_suffix || strchr(cli->opt.backup_suffix, '/')) {
				fprintf(stderr, "elfcet mark: --backup takes a non-empty suffix "
						"without '/'\n");
				return -1;
			}
			break;
		case 'p':
			cli->opt.preserve_timestamps = true;
			break;
		case 'v':
			cli->verbose = true;
			break;
		case OPT_RULES:
			cli->rules_dir = optarg;
			break;
		case 'h':
			mark_help(stdout);
			exit(EXIT_CLEAN);
		default:
			return -1;
		}
	}
	if (req->set & req->clear) {
		fprintf(stderr, "elfcet mark: a bit cannot be both set and cleared\n");
		return -1;
	}
	if (!req->set && !req->clear) {
		fprintf(stderr, "elfcet mark: say what to change: --ibt, --shstk, --no-ibt or "
				"--no-shstk (try 'elfcet mark --help')\n");
		return -1;
	}
	if (optind >= argc) {
		fprintf(stderr, "elfcet mark: no FILE given (try 'elfcet mark --help')\n");
		return -1;
	}
	return 0;
}

/* The exit status of one file's outcome (see the help). */
static int mark_one(const struct mark_cli *cli, const char *path)
{
	struct mark_result res;
	enum mark_status st = mark_file(path, &cli->opt, &res);

	report_mark_file(stdout, stderr, path, st, &res, cli->opt.dry_run, cli->verbose);
	mark_result_free(&res);
	switch (st) {
	case MARK_FAILED:
		return EXIT_TROUBLE;
	case MARK_UNSAFE:
	case MARK_REFUSED:
		return EXIT_FINDINGS;
	case MARK_DONE:
	case MARK_UNCHANGED:
		break;
	}
	return EXIT_CLEAN;
}

int cmd_mark(int argc, char **argv)
{
	struct mark_cli cli = { 0 };
	struct rule_set rules;
	struct elfcet_error err;
	int i, status = EXIT_CLEAN;

	if (parse_options(&cli, argc, argv) != 0)
		return EXIT_TROUBLE;
	if (rules_load(cli.rules_dir ? cli.rules_dir : rules_default_dir(), &rules, &err) != 0) {
		fputs("elfcet: ", stderr);
		visible_write(stderr, err.text);
		fputc('\n', stderr);
		return EXIT_TROUBLE;
	}
	cli.opt.rules = &rules;
	for (i = optind; i < argc; i++) {
		int s = mark_one(&cli, argv[i]);

		if (s > status)
			status = s;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "elfcet: cannot write the report\n");
		status = EXIT_TROUBLE;
	}
	rules_free(&rules);
	return status;
}
