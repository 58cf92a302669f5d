/* Blocks of strings, each allocation carved from the newest block. */
#include "config.h"

#include "util/text_arena.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE 65536

struct text_block {
	struct text_block *next;
	size_t used, size;
	char text[];
};

/* Room for LEN bytes in the newest block, or a new block that has it. */
static char *reserve(struct text_arena *a, size_t len)
{
	struct text_block *b = a->blocks;

	if (!b || b->size - b->used < len) {
		size_t size = len > BLOCK_SIZE ? len : BLOCK_SIZE;

		b = xmalloc(sizeof(*b) + size);
		b->used = 0;
		b->size = size;
		b->next = a->blocks;
		a->blocks = b;
	}
	return b->text + b->used;
}

static char *commit(struct text_arena *a, size_t len)
{
	char *s = a->blocks->text + a->blocks->used;

	a->blocks->used += len;
	return s;
}

char *text_arena_copy(struct text_arena *a, const char *s)
{
	size_t len = strlen(s) + 1;

	memcpy(reserve(a, len), s, len);
	return commit(a, len);
}

char *text_arena_vformat(struct text_arena *a, const char *fmt, va_list ap)
{
	struct text_block *b;
	size_t room;
	va_list again;
	int n;

	reserve(a, 1);
	b = a->blocks;
	room = b->size - b->used;
	va_copy(again, ap);
	n = vsnprintf(b->text + b->used, room, fmt, ap);
	if (n < 0) {
		va_end(again);
		return NULL;
	}
	if ((size_t)n >= room) /* did not fit: again, in a block with room */
		vsnprintf(reserve(a, (size_t)n + 1), (size_t)n + 1, fmt, again);
	va_end(again);
	return commit(a, (size_t)n + 1);
}

void text_arena_free(struct text_arena *a)
{
	while (a->blocks) {
		struct text_block *next = a->blocks->next;

		free(a->blocks);
		a->blocks = next;
	}
}
