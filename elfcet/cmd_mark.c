/* elfcet mark: option parsing and messages; the work is scanner's (mark.h). */
#include "config.h"

#include "commands.h"

#include "property/gnu_property.h"
#include "mark/mark.h"
#include "rules.h"

#include <getopt.h>
#include <inttypes.h>
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
		"read-only and running files are refused.\n\n"
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

static const char *bits_text(bool present, uint32_t bits, char *buf, size_t len)
{
	if (!present)
		return "none";
	return gnu_property_bits_text(PROP_X86_FEATURE_1_AND, bits, buf, len);
}

static void print_blockers(const struct mark_result *res)
{
	size_t i, shown = 0;

	for (i = 0; i < res->audit.findings.count; i++) {
		const struct finding *f = &res->audit.findings.items[i];

		if (!mark_finding_blocks(f, res->blocked))
			continue;
		fprintf(stderr, "  %s at 0x%" PRIx64 " %s (%s): %s\n", f->rule, f->address,
			f->symbol ? f->symbol : "?", f->via ? f->via : "?",
			f->message ? f->message : "");
		shown++;
	}
	for (i = 0; i < res->audit.problems.count; i++) {
		const struct problem *p = &res->audit.problems.items[i];

		if (p->severity != SEVERITY_ERROR)
			continue;
		fprintf(stderr, "  %s: %s\n", p->rule, p->message);
		shown++;
	}
	if (!shown && (res->blocked & FEATURE_1_SHSTK) &&
	    res->audit.shstk == VERDICT_NOT_APPLICABLE)
		fprintf(stderr, "  shadow stacks exist for 64-bit processes only\n");
	else if (!shown)
		fprintf(stderr, "  (no finding listed: verdicts ibt %s, shstk %s)\n",
			verdict_name(res->audit.ibt), verdict_name(res->audit.shstk));
}

static void report_done(const struct mark_cli *cli, const char *path,
			const struct mark_result *res)
{
	const struct mark_plan *p = &res->plan;
	char before[64], after[64];
	size_t i;

	bits_text(p->old_present, p->old_bits, before, sizeof(before));
	bits_text(p->new_present, p->new_bits, after, sizeof(after));
	printf("%s: %s%s -> %s (layout %d, %s", path, cli->opt.dry_run ? "would change " : "",
	       p->old_present ? before : "none", p->new_present ? after : "none", (int)p->layout,
	       mark_layout_name(p->layout));
	if (p->relocated)
		printf("; note now at 0x%" PRIx64 " (file offset 0x%" PRIx64 ")%s%s%s", p->seg_vaddr,
		       p->seg_offset,
		       p->new_load ? " under a new PT_LOAD" : " in the padding after a segment",
		       p->table_moved ? ", program header table moved and grown"
		       : p->table_grown ? ", program header table grown in place (what followed "
					  "it moved along)" : "",
		       p->section_added ? ", section header added" : "");
	printf(")\n");
	if (cli->verbose || cli->opt.dry_run) {
		const struct mark_edit *e = &p->edit;

		for (i = 0; i < e->nranges; i++)
			printf("  bytes 0x%" PRIx64 "..0x%" PRIx64 ": %s\n", e->ranges[i].offset,
			       e->ranges[i].offset + e->ranges[i].len, e->ranges[i].what);
		if (e->size > e->orig_size)
			printf("  bytes 0x%" PRIx64 "..0x%" PRIx64 ": appended\n", e->orig_size,
			       e->size);
	}
}

static int mark_one(const struct mark_cli *cli, const char *path)
{
	struct mark_result res;
	char bits[64];
	int status = EXIT_CLEAN;

	switch (mark_file(path, &cli->opt, &res)) {
	case MARK_FAILED:
		error_print(stderr, "elfcet mark", path, &res.error);
		status = EXIT_TROUBLE;
		break;
	case MARK_UNSAFE:
		fprintf(stderr, "elfcet mark: %s: refused: %s\n", path, res.error.text);
		status = EXIT_FINDINGS;
		break;
	case MARK_UNCHANGED:
		printf("%s: already %s: unchanged\n", path,
		       bits_text(res.plan.old_present, res.plan.old_bits, bits, sizeof(bits)));
		break;
	case MARK_REFUSED:
		fprintf(stderr, "elfcet mark: %s: refused: the audit does not allow %s "
				"(ibt %s, shstk %s); blocking findings:\n",
			path, gnu_property_bits_text(PROP_X86_FEATURE_1_AND, res.blocked, bits,
						     sizeof(bits)),
			verdict_name(res.audit.ibt), verdict_name(res.audit.shstk));
		print_blockers(&res);
		status = EXIT_FINDINGS;
		break;
	case MARK_DONE:
		if (res.forced) {
			fprintf(stderr, "elfcet mark: %s: --force: %s %s despite the audit "
					"(ibt %s, shstk %s):\n",
				path, cli->opt.dry_run ? "would set" : "setting",
				gnu_property_bits_text(PROP_X86_FEATURE_1_AND, res.blocked, bits,
						       sizeof(bits)),
				verdict_name(res.audit.ibt), verdict_name(res.audit.shstk));
			print_blockers(&res);
		}
		report_done(cli, path, &res);
		if (res.plan.table_moved)
			fprintf(stderr, "elfcet mark: %s: warning: the program header table could "
					"not grow where it is and moved; binutils strip and objcopy "
					"cannot rewrite such a file (strip before marking)\n", path);
		break;
	}
	mark_result_free(&res);
	return status;
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
		fprintf(stderr, "elfcet: %s\n", err.text);
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
