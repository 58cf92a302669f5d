/* Turning the PATH arguments of a command into the list of files to audit. */
#include "config.h"

#include "path_walk.h"
#include "util/visible.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <search.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct file_id {
	dev_t dev;
	ino_t ino;
};

/* A file listed under the name of a link found in a tree, at entry INDEX. */
struct link_claim {
	struct file_id id; /* first: id_compare compares claims too */
	size_t index;
};

struct walk {
	struct path_list *out;
	FILE *errs;
	void *seen;	  /* tsearch tree of struct file_id: files and directories visited */
	void *linked;	  /* tsearch tree of struct link_claim: files reached by links only */
	const char *root; /* the root links resolve in, while walking a tree; else NULL */
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
	fputs("elfcet: ", w->errs);
	visible_write(w->errs, path);
	fputs(": ", w->errs);
	visible_write(w->errs, problem);
	fputc('\n', w->errs);
	w->out->errors++;
}

static struct path_entry *add(struct walk *w, const char *path, bool named)
{
	struct path_list *l = w->out;
	struct path_entry *e;

	ARRAY_RESERVE(l->items, l->cap, l->count + 1);
	e = &l->items[l->count++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	e->named = named;
	return e;
}

/* The file SB, reached through the link PATH found in a tree (read at OPEN when not
 * NULL): listed under the link's name unless the walk reached the file itself, or
 * another link to it, first. */
static void add_link(struct walk *w, const char *path, const struct stat *sb, const char *open)
{
	struct file_id id = { sb->st_dev, sb->st_ino };
	struct link_claim *claim;
	struct path_entry *e;

	if (tfind(&id, &w->seen, id_compare) || tfind(&id, &w->linked, id_compare))
		return;
	claim = xmalloc(sizeof(*claim));
	claim->id = id;
	claim->index = w->out->count;
	tsearch(claim, &w->linked, id_compare);
	e = add(w, path, false);
	if (open)
		e->open = xstrdup(open);
}

/* The walk reached the file SB itself: a link that listed it before gives way, so that
 * a file is named as it is, not as the first link the sorted walk meets (libfoo.so.1
 * before libfoo.so.1.2.3), the way a package names it. */
static void unclaim(struct walk *w, const struct stat *sb)
{
	struct file_id id = { sb->st_dev, sb->st_ino };
	void *slot = tfind(&id, &w->linked, id_compare);
	struct link_claim *claim;
	struct path_entry *e;

	if (!slot)
		return;
	claim = *(struct link_claim **)slot;
	e = &w->out->items[claim->index];
	free(e->path);
	free(e->open);
	e->path = e->open = NULL; /* dropped when the walk ends */
	tdelete(claim, &w->linked, id_compare);
	free(claim);
}

/* Removes the entries unclaim emptied, keeping the order of the rest. */
static void drop_unclaimed(struct path_list *l)
{
	size_t i, k = 0;

	for (i = 0; i < l->count; i++)
		if (l->items[i].path)
			l->items[k++] = l->items[i];
	l->count = k;
}

static bool below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

char *tree_root_of(const char *dir)
{
	static const char *const system[] = { "/usr",	"/bin",	  "/sbin",   "/lib",
					      "/lib32", "/lib64", "/libx32", "/opt" };
	size_t i;

	if (strcmp(dir, "/") == 0 || below(dir, "/usr/src") || below(dir, "/usr/local/src"))
		return xstrdup(strcmp(dir, "/") == 0 ? "/" : dir);
	for (i = 0; i < sizeof(system) / sizeof(system[0]); i++)
		if (below(dir, system[i]))
			return xstrdup("/");
	return xstrdup(dir);
}

/* Why a link does not resolve inside its tree. */
enum resolve_status { RESOLVED, LEAVES_TREE, NOT_IN_TREE, TOO_MANY_LINKS };

/* Resolves TARGET (a link's text, read in directory *CUR) inside ROOT as a chroot there
 * would, into *CUR (a real path below ROOT). *LINKS counts the links followed. */
static enum resolve_status resolve_in(const char *root, char **cur, const char *target,
				      unsigned *links)
{
	char *copy = xstrdup(target), *part, *save = NULL;
	enum resolve_status st = RESOLVED;

	if (target[0] == '/') {
		free(*cur);
		*cur = xstrdup(root);
	}
	for (part = strtok_r(copy, "/", &save); part && st == RESOLVED;
	     part = strtok_r(NULL, "/", &save)) {
		struct stat sb;
		char *next;

		if (strcmp(part, ".") == 0)
			continue;
		if (strcmp(part, "..") == 0) {
			char *slash = strrchr(*cur, '/');

			if (strcmp(*cur, root) == 0)
				st = LEAVES_TREE;
			else
				*(slash == *cur ? slash + 1 : slash) = '\0';
			continue;
		}
		next = xasprintf("%s%s%s", *cur, strcmp(*cur, "/") == 0 ? "" : "/", part);
		if (lstat(next, &sb) != 0) {
			st = NOT_IN_TREE;
		} else if (S_ISLNK(sb.st_mode)) {
			char text[PATH_MAX];
			ssize_t n = readlink(next, text, sizeof(text) - 1);

			if (++*links > 40)
				st = TOO_MANY_LINKS;
			else if (n <= 0)
				st = NOT_IN_TREE;
			else {
				text[n] = '\0';
				st = resolve_in(root, cur, text, links);
			}
		} else {
			free(*cur);
			*cur = next;
			next = NULL;
		}
		free(next);
	}
	free(copy);
	return st;
}

/* The symbolic link PATH of the tree being walked: listed under its name when it leads
 * to a file inside the tree, or listed as skipped when it leads out. */
static void walk_link(struct walk *w, const char *path)
{
	char text[PATH_MAX], *dir = xstrdup(path), *slash = strrchr(dir, '/'), *cur;
	ssize_t n = readlink(path, text, sizeof(text) - 1);
	enum resolve_status st;
	unsigned links = 0;
	struct stat sb;

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	cur = realpath(slash ? dir : ".", NULL);
	free(dir);
	if (n <= 0 || !cur) {
		free(cur);
		return; /* gone while walked: nothing to audit */
	}
	text[n] = '\0';
	st = resolve_in(w->root, &cur, text, &links);
	if (st == RESOLVED && stat(cur, &sb) == 0) {
		/* a link to a directory is not followed: that is how trees loop */
		if (S_ISREG(sb.st_mode))
			add_link(w, path, &sb, cur);
	} else if (st != RESOLVED && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
		/* What the host would have given: said, never read. (A link dangling on the
		 * host too, or to a directory, was no file to audit before either.) */
		add(w, path, false)->skip = xasprintf("skipped: symbolic link to %s %s %s", text,
						      st == LEAVES_TREE ? "leaves the tree"
						      : st == TOO_MANY_LINKS
							      ? "loops (too many links) in the tree"
							      : "names nothing inside the tree",
						      w->root);
	}
	free(cur);
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
		char *child =
			xasprintf("%s%s%s", path, len && path[len - 1] == '/' ? "" : "/", names[i]);

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
	if (S_ISLNK(lsb.st_mode) && !named && w->root && strcmp(w->root, "/") != 0) {
		walk_link(w, path);
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
		if (!named) {
			if (S_ISREG(sb.st_mode))
				add_link(w, path, &sb, NULL);
			return;
		}
	} else {
		sb = lsb;
	}
	if (!first_visit(w, &sb))
		return;
	if (S_ISREG(sb.st_mode))
		unclaim(w, &sb);
	if (S_ISDIR(sb.st_mode) && named) {
		/* a tree: its links resolve inside its root */
		char *real = realpath(path, NULL);

		w->root = real ? tree_root_of(real) : NULL;
		free(real);
		walk_directory(w, path);
		free((char *)w->root);
		w->root = NULL;
	} else if (S_ISDIR(sb.st_mode))
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
	drop_unclaimed(out);
	tdestroy(w.seen, free_id);
	tdestroy(w.linked, free_id);
}

void path_list_free(struct path_list *list)
{
	size_t i;

	for (i = 0; i < list->count; i++) {
		free(list->items[i].path);
		free(list->items[i].open);
		free(list->items[i].skip);
	}
	free(list->items);
	memset(list, 0, sizeof(*list));
}
