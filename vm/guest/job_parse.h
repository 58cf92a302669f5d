/* The guest runner's job list: one JSON object per line, written by vm/verify.
 *
 *   {"id": "3", "path": "/bin/prog", "args": ["-v"], "expect_output": "hello",
 *    "timeout": 20, "window": false}
 *
 * path is required; args (the arguments after argv[0], which is path), expect_output
 * (the first line of output the host expects), timeout (seconds) and window (true: run
 * the program inside the dynamic checker's window) are optional; other
 * members are skipped, so the host may add members without breaking an older runner. */
#ifndef ELFCET_VM_JOB_PARSE_H
#define ELFCET_VM_JOB_PARSE_H

#include <stddef.h>

struct job {
	char *id;
	char *path;
	char **argv; /* argv[0] = path, NULL-terminated */
	size_t argc;
	char *expect_output; /* NULL when absent */
	int timeout;	     /* seconds; 0 when absent */
	int window;	     /* run inside the CET checker's marker window (see window.S) */
};

/* Parses LINE into JOB. Returns 0, or -1 with a static reason in *ERROR. */
int job_parse(const char *line, struct job *job, const char **error);
void job_free(struct job *job);

#endif
