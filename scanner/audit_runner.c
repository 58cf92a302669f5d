/* Auditing many files on several threads, handing the reports back in input order.
 *
 * Workers take the next file index from a shared counter and queue each report they
 * make under their entry; the calling thread hands over the queued reports of the
 * earliest entry not yet finished, as they come, so output streams (a package's files
 * too) and stays deterministic whatever the thread count. */
#include "config.h"

#include "audit_runner.h"

#include "audit_package.h"
#include "deb_input.h"
#include "util/xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The reports of one entry not yet handed over. A package's grow as its files are
 * audited and are handed over while it is read, so that a worker waits while its queue
 * holds QUEUE_MAX of them: memory does not grow with the package. */
#define QUEUE_MAX 64

struct queued_report {
	struct file_report rep;
	bool named;
};

struct report_queue {
	struct queued_report *items;
	size_t count, cap;
};

struct run {
	const struct path_list *files;
	const struct audit_options *opt;
	struct report_queue *queues; /* entry I's reports */
	bool *done;
	bool bounded; /* false when the calling thread is the only worker */
	size_t next;
	pthread_mutex_t lock;
	pthread_cond_t ready; /* a report queued, taken, or an entry done */
};

/* A worker's hand to the calling thread: entry I's report REP (taken). */
struct entry_sink {
	struct run *run;
	size_t i;
	bool named;
};

static void queue_report(struct file_report *rep, void *ctx)
{
	struct entry_sink *s = ctx;
	struct run *r = s->run;
	struct report_queue *q = &r->queues[s->i];

	pthread_mutex_lock(&r->lock);
	while (r->bounded && q->count >= QUEUE_MAX)
		pthread_cond_wait(&r->ready, &r->lock);
	ARRAY_RESERVE(q->items, q->cap, q->count + 1);
	q->items[q->count].rep = *rep;
	q->items[q->count].named = s->named;
	q->count++;
	pthread_cond_broadcast(&r->ready);
	pthread_mutex_unlock(&r->lock);
}

/* Inside a package, a file is found, not named; the package's own error is named. */
static void queue_package_report(struct file_report *rep, void *ctx)
{
	struct entry_sink *s = ctx;

	s->named = rep->status == REPORT_ERROR && !rep->package;
	queue_report(rep, ctx);
}

/* One entry of the walk: a package, a file (read where its tree's link leads), or a
 * link the walk would not follow out of its tree. */
static void audit_entry(struct run *r, size_t i)
{
	const struct path_entry *e = &r->files->items[i];
	const char *open = e->open ? e->open : e->path;
	/* a link left unfollowed is said, like a file named */
	struct entry_sink sink = { r, i, e->named || e->skip };
	struct file_report rep;

	if (e->skip) {
		memset(&rep, 0, sizeof(rep));
		rep.status = REPORT_SKIPPED;
		rep.path = xstrdup(e->path);
		rep.message = xstrdup(e->skip);
	} else if (deb_is_package(open)) {
		audit_package(open, r->opt, queue_package_report, &sink);
		return;
	} else {
		audit_file(open, r->opt, &rep);
		if (e->open) { /* reported under the name found in the tree */
			free(rep.path);
			rep.path = xstrdup(e->path);
		}
	}
	queue_report(&rep, &sink);
}

static void *worker(void *arg)
{
	struct run *r = arg;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&r->lock);
		i = r->next++;
		pthread_mutex_unlock(&r->lock);
		if (i >= r->files->count)
			return NULL;
		audit_entry(r, i);
		pthread_mutex_lock(&r->lock);
		r->done[i] = true;
		pthread_cond_broadcast(&r->ready);
		pthread_mutex_unlock(&r->lock);
	}
}

/* Hands entry I's reports to FN as they come, until the entry is done. */
static void hand_over(struct run *r, size_t i, audit_report_fn fn, void *ctx)
{
	pthread_mutex_lock(&r->lock);
	for (;;) {
		struct report_queue q = r->queues[i];
		size_t k;

		if (q.count == 0) {
			if (r->done[i])
				break;
			pthread_cond_wait(&r->ready, &r->lock);
			continue;
		}
		memset(&r->queues[i], 0, sizeof(q));
		pthread_cond_broadcast(&r->ready);
		pthread_mutex_unlock(&r->lock);
		for (k = 0; k < q.count; k++) {
			fn(&q.items[k].rep, q.items[k].named, ctx);
			file_report_free(&q.items[k].rep);
		}
		free(q.items);
		pthread_mutex_lock(&r->lock);
	}
	pthread_mutex_unlock(&r->lock);
}

static unsigned default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

void audit_run(const struct path_list *files, const struct audit_options *opt, unsigned threads,
	       audit_report_fn fn, audit_done_fn done, void *ctx)
{
	struct run r = { .files = files, .opt = opt, .bounded = true };
	pthread_t *tids;
	unsigned started = 0, t;
	size_t i;

	if (files->count == 0)
		return;
	if (threads == 0)
		threads = default_threads();
	if (threads > files->count)
		threads = (unsigned)files->count;
	r.queues = xcalloc(files->count, sizeof(*r.queues));
	r.done = xcalloc(files->count, sizeof(*r.done));
	tids = xcalloc(threads, sizeof(*tids));
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.ready, NULL);
	for (t = 0; t < threads; t++)
		if (pthread_create(&tids[t], NULL, worker, &r) == 0)
			started++;
	/* No thread could start: this one does the work first, with nobody to wait for. */
	if (started == 0) {
		r.bounded = false;
		worker(&r);
	}
	for (i = 0; i < files->count; i++) {
		hand_over(&r, i, fn, ctx);
		if (done)
			done(i + 1, files->count, ctx);
	}
	for (t = 0; t < threads; t++)
		if (tids[t])
			pthread_join(tids[t], NULL);
	pthread_mutex_destroy(&r.lock);
	pthread_cond_destroy(&r.ready);
	free(tids);
	free(r.done);
	free(r.queues);
}
