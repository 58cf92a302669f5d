/* Fingerprints of SARIF results (SHA-256 from nettle). */
#include "config.h"

#include "report/sarif_fingerprint.h"

#include "util/xalloc.h"

#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct print {
	uint8_t digest[SHA256_DIGEST_SIZE];
	size_t index; /* of the finding */
};

/* SHA-256 of the fields, each ended by its NUL so that no two lists hash alike. */
static void digest_fields(const char *const *fields, size_t n, uint8_t *digest)
{
	struct sha256_ctx ctx;
	size_t i;

	sha256_init(&ctx);
	for (i = 0; i < n; i++)
		sha256_update(&ctx, strlen(fields[i]) + 1, (const uint8_t *)fields[i]);
	sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
}

static char *print_text(const uint8_t *digest, size_t ordinal)
{
	char hex[2 * SHA256_DIGEST_SIZE + 1];
	size_t i;

	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		sprintf(hex + 2 * i, "%02x", digest[i]);
	return xasprintf("%s:%zu", hex, ordinal);
}

/* "name+0x10" as "name" and "0x10"; a symbol without an offset is at "0x0". */
static char *function_of(const char *symbol, const char **offset)
{
	const char *plus = symbol ? strrchr(symbol, '+') : NULL;

	if (!symbol) {
		*offset = "";
		return xstrdup("");
	}
	if (plus && plus[1] == '0' && plus[2] == 'x') {
		*offset = plus + 1;
		return xstrndup(symbol, (size_t)(plus - symbol));
	}
	*offset = "0x0";
	return xstrdup(symbol);
}

static int by_digest_then_index(const void *a, const void *b)
{
	const struct print *x = a, *y = b;
	int c = memcmp(x->digest, y->digest, SHA256_DIGEST_SIZE);

	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

char **sarif_finding_fingerprints(const char *uri, const struct finding_list *findings)
{
	size_t n = findings->count, i, ordinal = 0;
	struct print *prints = xcalloc(n ? n : 1, sizeof(*prints));
	char **out = xcalloc(n ? n : 1, sizeof(*out));

	for (i = 0; i < n; i++) {
		const struct finding *f = &findings->items[i];
		const char *offset;
		char *function = function_of(f->symbol, &offset);
		const char *fields[] = { f->rule, uri, function, offset, f->via ? f->via : "" };

		digest_fields(fields, sizeof(fields) / sizeof(fields[0]), prints[i].digest);
		prints[i].index = i;
		free(function);
	}
	/* Equal digests side by side, in address order: each gets the next ordinal. */
	qsort(prints, n, sizeof(*prints), by_digest_then_index);
	for (i = 0; i < n; i++) {
		if (i == 0 || memcmp(prints[i].digest, prints[i - 1].digest, SHA256_DIGEST_SIZE))
			ordinal = 0;
		out[prints[i].index] = print_text(prints[i].digest, ++ordinal);
	}
	free(prints);
	return out;
}

void sarif_fingerprints_free(char **prints, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		free(prints[i]);
	free(prints);
}

char *sarif_problem_fingerprint(const char *uri, const char *rule)
{
	const char *fields[] = { rule, uri };
	uint8_t digest[SHA256_DIGEST_SIZE];

	digest_fields(fields, 2, digest);
	return print_text(digest, 1);
}
