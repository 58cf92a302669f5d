#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "violation_log.h"

#include "object_map.h"

#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int out_fd = -1;
static bool name_objects = true;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t totals[VIOL_KINDS], distincts[VIOL_KINDS];

/* Seen (kind, src, dst) triples: open addressing over a hash of the three. */
struct seen {
	uint64_t src, dst;
	int kind; /* -1: empty slot */
};
static struct seen *table;
static size_t table_cap, table_used;

void violation_log_name_objects(bool on)
{
	name_objects = on;
}

int violation_log_open(const char *path)
{
	out_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	return out_fd < 0 ? -1 : 0;
}

void violation_log_line(const char *json)
{
	if (out_fd < 0)
		return;
	size_t len = strlen(json);
	char *buf = malloc(len + 1);
	if (!buf)
		return;
	memcpy(buf, json, len);
	buf[len] = '\n';
	/* One write per line: O_APPEND keeps lines whole across threads and processes. */
	ssize_t ignored = write(out_fd, buf, len + 1);
	(void)ignored;
	free(buf);
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* Insert the triple; true if it was not there. Called with lock held. */
static bool remember(int kind, uint64_t src, uint64_t dst)
{
	if (2 * (table_used + 1) > table_cap) {
		size_t cap = table_cap ? 2 * table_cap : 64;
		struct seen *t = malloc(cap * sizeof(*t));
		if (!t)
			return true;
		for (size_t i = 0; i < cap; i++)
			t[i].kind = -1;
		for (size_t i = 0; i < table_cap; i++) {
			if (table[i].kind < 0)
				continue;
			size_t j = mix(table[i].src ^ mix(table[i].dst) ^ (uint64_t)table[i].kind) &
				   (cap - 1);
			while (t[j].kind >= 0)
				j = (j + 1) & (cap - 1);
			t[j] = table[i];
		}
		free(table);
		table = t, table_cap = cap;
	}
	size_t j = mix(src ^ mix(dst) ^ (uint64_t)kind) & (table_cap - 1);
	while (table[j].kind >= 0) {
		if (table[j].kind == kind && table[j].src == src && table[j].dst == dst)
			return false;
		j = (j + 1) & (table_cap - 1);
	}
	table[j] = (struct seen){ src, dst, kind };
	table_used++;
	return true;
}

size_t violation_log_escape(char *buf, size_t cap, size_t len, const char *s)
{
	for (; *s && len + 7 < cap; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			len += (size_t)snprintf(buf + len, cap - len, "\\%c", c);
		else if (c < 0x20)
			len += (size_t)snprintf(buf + len, cap - len, "\\u%04x", c);
		else
			buf[len++] = (char)c;
	}
	return len;
}

/* Append ,"<key>_object":"...","<key>_offset":N for the object mapping addr. */
static void append_object(char *buf, size_t cap, size_t *len, const char *key, uint64_t addr)
{
	if (!name_objects)
		return;
	struct object_ref ref = object_map_lookup(addr);
	if (!ref.path || *len >= cap)
		return;
	*len += (size_t)snprintf(buf + *len, cap - *len, ",\"%s" WIRE_OBJECT "\":\"", key);
	if (*len < cap)
		*len = violation_log_escape(buf, cap, *len, ref.path);
	if (*len < cap)
		*len += (size_t)snprintf(buf + *len, cap - *len,
					 "\",\"%s" WIRE_OFFSET "\":%" PRIu64, key, ref.offset);
}

bool violation_log_report(const struct violation *v)
{
	pthread_mutex_lock(&lock);
	totals[v->kind]++;
	bool fresh = remember((int)v->kind, v->src, v->dst);
	if (fresh)
		distincts[v->kind]++;
	pthread_mutex_unlock(&lock);
	if (!fresh)
		return false;

	char buf[10240];
	size_t cap = sizeof(buf) - 2, len = 0;
	/* The wire format reads as one JSON object: kept as written. */
	/* clang-format off */
	len += (size_t)snprintf(buf, cap,
				"{" WIRE_KEY(WIRE_EVENT) "\"" WIRE_EV_VIOLATION "\","
				WIRE_KEY(WIRE_KIND) "\"%s\"," WIRE_KEY(WIRE_PID) "%ld,"
				WIRE_KEY(WIRE_TID) "%ld," WIRE_KEY(WIRE_SRC) "%" PRIu64 ","
				WIRE_KEY(WIRE_DST) "%" PRIu64,
				violation_kind_name(v->kind), (long)getpid(),
				(long)syscall(SYS_gettid), v->src, v->dst);
	/* clang-format on */
	if (v->has_expected && len < cap)
		len += (size_t)snprintf(buf + len, cap - len,
					"," WIRE_KEY(WIRE_EXPECTED) "%" PRIu64, v->expected);
	if (v->kind == VIOL_SHSTK_UNWIND && len < cap)
		len += (size_t)snprintf(buf + len, cap - len, "," WIRE_KEY(WIRE_DEPTH) "%u",
					v->depth);
	append_object(buf, cap, &len, WIRE_SRC, v->src);
	append_object(buf, cap, &len, WIRE_DST, v->dst);
	if (v->has_expected)
		append_object(buf, cap, &len, WIRE_EXPECTED, v->expected);
	if (len > cap)
		len = cap;
	buf[len++] = '}';
	buf[len] = '\0';
	violation_log_line(buf);
	return true;
}

void violation_log_counts(uint64_t total[VIOL_KINDS], uint64_t distinct[VIOL_KINDS])
{
	pthread_mutex_lock(&lock);
	memcpy(total, totals, sizeof(totals));
	memcpy(distinct, distincts, sizeof(distincts));
	pthread_mutex_unlock(&lock);
}
