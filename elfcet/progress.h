/* Progress of a long audit on a terminal: files done of the total, rate and time left,
 * one line on standard error redrawn in place. */
#ifndef ELFCET_PROGRESS_H
#define ELFCET_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

struct progress {
	FILE *out; /* NULL: off */
	size_t total;
	struct timespec start, drawn_at;
	bool drawn; /* a progress line is on the screen */
};

/* Turns progress on when OUT is a terminal. */
void progress_start(struct progress *p, FILE *out, size_t total);
/* DONE of the total are finished: redraws, at most ten times a second. */
void progress_update(struct progress *p, size_t done);
/* Takes the line off the screen (before other output, and at the end). */
void progress_clear(struct progress *p);

#endif
