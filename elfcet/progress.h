/* Progress of a long audit on a terminal: files done of the total, rate and time left,
 * one line on standard error redrawn in place. It stays on the screen while files are
 * audited: other output takes it off for a moment and puts it back at once. */
#ifndef ELFCET_PROGRESS_H
#define ELFCET_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

struct progress {
	FILE *out; /* NULL: off */
	size_t total, done;
	struct timespec start, drawn_at;
	bool drawn; /* a progress line is on the screen */
};

/* Turns progress on when OUT is a terminal. */
void progress_start(struct progress *p, FILE *out, size_t total);
/* DONE of the total are finished: redraws, at most ten times a second. */
void progress_update(struct progress *p, size_t done);
/* Before other output to the screen: takes the line off. */
void progress_hide(struct progress *p);
/* After that output: puts the line back at once, as it was. */
void progress_show(struct progress *p);
/* At the end: takes the line off for good. */
void progress_end(struct progress *p);

#endif
