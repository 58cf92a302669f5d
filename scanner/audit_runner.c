/* Auditing many files on several threads, handing the reports back in input order.
 *
 * Workers take the next file index from a shared counter; the calling thread waits for
 * the reports in order and hands each to the caller as soon as it and all before it are
 * done, so output streams and stays deterministic whatever the thread count. */
#include "config.h"

#include "audit_runner.h"

#include "audit_package.h"
#include "deb_input.h"
#include "util/xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct run {
	const struct path_list *files;
	const struct audit_options *opt;
	struct file_report *reports;
	struct report_batch *packages; /* the files of entry I when it is a package */
	bool *done;
	size_t next;
	pthread_mutex_t lock;
	pthread_cond_t ready;
};

/* One entry of the walk: a package, a file (read where its tree's link leads), or a
 * link the walk would not follow out of its tree. */
static void audit_entry(const struct path_entry *e, const struct audit_options *opt,
			struct file_report *rep, struct report_batch *package)
{
	const char *open = e->open ? e->open : e->path;

	if (e->skip) {
		memset(rep, 0, sizeof(*rep));
		rep->status = REPORT_SKIPPED;
		rep->path = xstrdup(e->path);
		rep->message = xstrdup(e->skip);
	} else if (deb_is_package(open)) {
		audit_package(open, opt, package);
	} else {
		audit_file(open, opt, rep);
		if (e->open) { /* reported under the name found in the tree */
			free(rep->path);
			rep->path = xstrdup(e->path);
		}
	}
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
		audit_entry(&r->files->items[i], r->opt, &r->reports[i], &r->packages[i]);
		pthread_mutex_lock(&r->lock);
		r->done[i] = true;
		pthread_cond_broadcast(&r->ready);
		pthread_mutex_unlock(&r->lock);
	}
}

static unsigned default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

void audit_run(const struct path_list *files, const struct audit_options *opt, unsigned threads,
	       audit_report_fn fn, audit_done_fn done, void *ctx)
{
	struct run r = { .files = files, .opt = opt };
	pthread_t *tids;
	unsigned started = 0, t;
	size_t i;

	if (files->count == 0)
		return;
	if (threads == 0)
		threads = default_threads();
	if (threads > files->count)
		threads = (unsigned)files->count;
	r.reports = xcalloc(files->count, sizeof(*r.reports));
	r.packages = xcalloc(files->count, sizeof(*r.packages));
	r.done = xcalloc(files->count, sizeof(*r.done));
	tids = xcalloc(threads, sizeof(*tids));
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.ready, NULL);
	/* One worker runs on this thread's behalf when threads are scarce. */
	for (t = 0; t < threads; t++)
		if (pthread_create(&tids[t], NULL, worker, &r) == 0)
			started++;
	if (started == 0)
		worker(&r);
	for (i = 0; i < files->count; i++) {
		pthread_mutex_lock(&r.lock);
		while (!r.done[i])
			pthread_cond_wait(&r.ready, &r.lock);
		pthread_mutex_unlock(&r.lock);
		if (r.packages[i].count) {
			size_t k;

			/* Inside a package, a file is found, not named. */
			for (k = 0; k < r.packages[i].count; k++)
				fn(&r.packages[i].items[k],
				   r.packages[i].items[k].status == REPORT_ERROR &&
					   !r.packages[i].items[k].package,
				   ctx);
			report_batch_free(&r.packages[i]);
		} else {
			/* a link left unfollowed is said, like a file named */
			fn(&r.reports[i], files->items[i].named || files->items[i].skip, ctx);
		}
		file_report_free(&r.reports[i]);
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
	free(r.packages);
	free(r.reports);
}
