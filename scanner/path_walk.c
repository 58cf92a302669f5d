/* Turning the PATH arguments of a command into the list of files to audit. */
#include "config.h"

#include "path_walk.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <search.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct file_id {
	dev_t dev;
	ino_t ino;
};

struct walk {
	struct path_list *out;
	FILE *errs;
	void *seen;     /* tsearch tree of struct file_id: files and directories visited */
};

static int id_compare(const void *a, const void *b)
{
	const struct file_id *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return 0;
}

/* True the first time a (dev, ino) is offered. */
static bool first_visit(struct walk *w, const struct stat *sb)
{
	struct file_id *id = xmalloc(sizeof(*id));
	void *slot;

	id->dev = sb->st_dev;
	id->ino = sb->st_ino;
	slot = tsearch(id, &w->seen, id_compare);
	if (slot && *(struct file_id **)slot != id) {
		free(id);
		return false;
	}
	return true;
}

static void report(struct walk *w, const char *path, const char *problem)
{
	fprintf(w->errs, "elfcet: %s: %s\n", path, problem);
	w->out->errors++;
}

static void add(struct walk *w, const char *path, bool named)
{
	struct path_list *l = w->out;

	ARRAY_RESERVE(l->items, l->cap, l->count + 1);
	l->items[l->count].path = xstrdup(path);
	l->items[l->count].named = named;
	l->count++;
}

static int name_compare(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk_path(struct walk *w, const char *path, bool named);

static void walk_directory(struct walk *w, const char *path)
{
	char **names = NULL;
	size_t count = 0, cap = 0, i;
	struct dirent *de;
	DIR *d = opendir(path);

	if (!d) {
		report(w, path, strerror(errno));
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		ARRAY_RESERVE(names, cap, count + 1);
		names[count++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (count)
		qsort(names, count, sizeof(*names), name_compare);
	for (i = 0; i < count; i++) {
		size_t len = strlen(path);
		char *child = xasprintf("%s%s%s", path, len && path[len - 1] == '/' ? "" : "/",
					names[i]);

		walk_path(w, child, false);
		free(child);
		free(names[i]);
	}
	free(names);
}

static void walk_path(struct walk *w, const char *path, bool named)
{
	struct stat lsb, sb;

	if (lstat(path, &lsb) != 0) {
		report(w, path, strerror(errno));
		return;
	}
	/* Inside a directory, a link to a directory is not followed: that is how trees loop. */
	if (S_ISLNK(lsb.st_mode)) {
		if (stat(path, &sb) != 0) {
			if (named)
				report(w, path, strerror(errno));
			return; /* a dangling link inside a tree is not a file to audit */
		}
		if (S_ISDIR(sb.st_mode) && !named)
			return;
	} else {
		sb = lsb;
	}
	if (!first_visit(w, &sb))
		return;
	if (S_ISDIR(sb.st_mode))
		walk_directory(w, path);
	else if (S_ISREG(sb.st_mode) || named)
		add(w, path, named);
}

static void free_id(void *p)
{
	free(p);
}

static void walk_stdin(struct walk *w, FILE *in)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, in)) >= 0) {
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if (n > 0)
			walk_path(w, line, true);
	}
	free(line);
}

void path_walk(char *const *args, size_t nargs, FILE *in, FILE *errs, struct path_list *out)
{
	struct walk w = { .out = out, .errs = errs };
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nargs; i++) {
		if (strcmp(args[i], "-") == 0)
			walk_stdin(&w, in);
		else
			walk_path(&w, args[i], true);
	}
	tdestroy(w.seen, free_id);
}

void path_list_free(struct path_list *list)
{
	size_t i;

	for (i = 0; i < list->count; i++)
		free(list->items[i].path);
	free(list->items);
	memset(list, 0, sizeof(*list));
}
