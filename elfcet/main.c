/* elfcet: the command line. Each subcommand is a thin layer over the scanner library. */
#include "config.h"

#include "commands.h"

#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "audit", cmd_audit, "say whether x86 ELF files would run under IBT and shadow stack" },
	{ "mark", cmd_mark, "set or clear the IBT and SHSTK bits of x86 ELF files, safely" },
	{ "report", cmd_report,
	  "merge the JSON Lines shards of audits run apart into one summary" },
	{ "run", cmd_run, "run a program under QEMU, checking IBT and shadow stack as it runs" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: elfcet COMMAND [OPTION]... [ARG]...\n\nCommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'elfcet COMMAND --help' describes a command; 'man elfcet' has the rest.\n"
		     "Exit status: 0 clean, 1 findings, 2 usage or input errors.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_TROUBLE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return EXIT_CLEAN;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return EXIT_CLEAN;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "elfcet: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_TROUBLE;
}
