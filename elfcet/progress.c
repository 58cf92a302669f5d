/* Progress of a long audit on a terminal. */
#include "config.h"

#include "progress.h"

#include <unistd.h>

static double seconds_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

void progress_start(struct progress *p, FILE *out, size_t total)
{
	p->out = out && isatty(fileno(out)) ? out : NULL;
	p->total = total;
	p->done = 0;
	p->drawn = false;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->drawn_at = p->start;
}

/* Writes the line over whatever the cursor's line holds. */
static void draw(struct progress *p)
{
	double elapsed = seconds_since(&p->start);
	double rate = elapsed > 0 ? (double)p->done / elapsed : 0;
	double left = rate > 0 ? (double)(p->total - p->done) / rate : 0;

	clock_gettime(CLOCK_MONOTONIC, &p->drawn_at);
	fprintf(p->out, "\r\033[Kelfcet: %zu/%zu files (%zu%%), %.0f files/s, ETA %d:%02d", p->done,
		p->total, p->total ? p->done * 100 / p->total : 100, rate, (int)left / 60,
		(int)left % 60);
	fflush(p->out);
	p->drawn = true;
}

void progress_update(struct progress *p, size_t done)
{
	bool first = p->drawn_at.tv_sec == p->start.tv_sec &&
		     p->drawn_at.tv_nsec == p->start.tv_nsec;

	if (!p->out)
		return;
	p->done = done;
	if (first || seconds_since(&p->drawn_at) >= 0.1)
		draw(p);
}

void progress_hide(struct progress *p)
{
	if (!p->out || !p->drawn)
		return;
	fputs("\r\033[K", p->out);
	fflush(p->out);
	p->drawn = false;
}

void progress_show(struct progress *p)
{
	if (!p->out || p->drawn)
		return;
	/* What went to standard output reaches the screen first. */
	fflush(stdout);
	draw(p);
}

void progress_end(struct progress *p)
{
	progress_hide(p);
	p->out = NULL;
}
