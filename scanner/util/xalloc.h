/* Memory: one rule for the whole program.
 *
 * Running out of memory for elfcet's own bookkeeping (lists of problems, symbols, names)
 * leaves nothing sensible to report, so these allocate or end the program with the one
 * line "elfcet: out of memory". Memory whose size comes from the input (a file's image,
 * an archive member) is allocated with plain malloc after the size has been checked
 * against the file, and a failure there is that file's error, not the program's. */
#ifndef ELFCET_XALLOC_H
#define ELFCET_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t size) __attribute__((malloc, returns_nonnull));
void *xcalloc(size_t count, size_t size) __attribute__((malloc, returns_nonnull));
void *xrealloc(void *ptr, size_t size) __attribute__((returns_nonnull));
void *xreallocarray(void *ptr, size_t count, size_t size) __attribute__((returns_nonnull));
char *xstrdup(const char *s) __attribute__((malloc, returns_nonnull));
char *xstrndup(const char *s, size_t n) __attribute__((malloc, returns_nonnull));
char *xvasprintf(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0), malloc, returns_nonnull));
char *xasprintf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), malloc, returns_nonnull));

/* ITEMS (of SIZE bytes each, *CAP of them allocated) with room for at least NEED,
 * capacity doubling so that adding one at a time costs amortised constant time. */
void *array_reserve(void *items, size_t *cap, size_t need, size_t size)
	__attribute__((returns_nonnull));

/* Room for NEED elements in the array ITEMS whose capacity is the size_t CAP:
 *	ARRAY_RESERVE(list->items, list->cap, list->count + 1);
 *	list->items[list->count++] = item; */
#define ARRAY_RESERVE(items, cap, need) \
	((items) = array_reserve((items), &(cap), (need), sizeof(*(items))))

#endif
