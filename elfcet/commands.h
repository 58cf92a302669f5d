/* The subcommands of elfcet; each takes argv with argv[0] naming the subcommand and
 * returns the process exit status. */
#ifndef ELFCET_COMMANDS_H
#define ELFCET_COMMANDS_H

/* Exit statuses shared by every subcommand (documented in elfcet.1). */
enum {
	EXIT_CLEAN = 0,	   /* nothing at or above the --fail-on severity */
	EXIT_FINDINGS = 1, /* findings (audit), refusal (mark), violations (run) */
	EXIT_TROUBLE = 2,  /* usage error, unreadable or damaged input, I/O error */
};

int cmd_audit(int argc, char **argv);
int cmd_mark(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
