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
	p->drawn = false;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->drawn_at = p->start;
}

void progress_update(struct progress *p, size_t done)
{
	double elapsed, rate, left;
	bool first = p->drawn_at.tv_sec == p->start.tv_sec &&
		     p->drawn_at.tv_nsec == p->start.tv_nsec;

	if (!p->out || (!first && seconds_since(&p->drawn_at) < 0.1))
		return;
	clock_gettime(CLOCK_MONOTONIC, &p->drawn_at);
	elapsed = seconds_since(&p->start);
	rate = elapsed > 0 ? (double)done / elapsed : 0;
	left = rate > 0 ? (double)(p->total - done) / rate : 0;
	fprintf(p->out, "\r\033[Kelfcet: %zu/%zu files (%zu%%), %.0f files/s, ETA %d:%02d", done,
		p->total, p->total ? done * 100 / p->total : 100, rate, (int)left / 60,
		(int)left % 60);
	fflush(p->out);
	p->drawn = true;
}

void progress_clear(struct progress *p)
{
	if (!p->out || !p->drawn)
		return;
	fputs("\r\033[K", p->out);
	fflush(p->out);
	p->drawn = false;
}
