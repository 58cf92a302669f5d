/* Strings that live and die together (a file's finding symbols and messages): copied or
 * formatted into large blocks, freed at once. A /usr/bin audit makes some 600,000
 * findings; two mallocs and two frees each cost more than writing them out. */
#ifndef ELFCET_TEXT_ARENA_H
#define ELFCET_TEXT_ARENA_H

#include <stdarg.h>
#include <stddef.h>

struct text_block;

struct text_arena {
	struct text_block *blocks; /* newest first; strings never move */
};

char *text_arena_copy(struct text_arena *a, const char *s);
char *text_arena_vformat(struct text_arena *a, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void text_arena_free(struct text_arena *a);

#endif
