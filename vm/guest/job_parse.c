/* Reads one job line (see job_parse.h): a small strict JSON reader for objects whose
 * members are strings, arrays of strings and numbers; anything else is skipped. */
#include "job_parse.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct reader {
	const char *p;
	const char *error;
};

static void skip_space(struct reader *r)
{
	while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
		r->p++;
}

static bool fail(struct reader *r, const char *why)
{
	if (!r->error)
		r->error = why;
	return false;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Appends code point CP as UTF-8. */
static size_t put_utf8(char *out, unsigned cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	out[0] = (char)(0xe0 | (cp >> 12));
	out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[2] = (char)(0x80 | (cp & 0x3f));
	return 3;
}

/* A string at r->p (which is '"'); returns a malloc'd copy, or NULL with r->error set. */
static char *read_string(struct reader *r)
{
	const char *p = r->p + 1;
	char *out = malloc(strlen(p) * 3 + 1); /* \uXXXX (6) never yields more than 3 */
	size_t n = 0;

	if (!out) {
		fail(r, "out of memory");
		return NULL;
	}
	for (;;) {
		char c = *p++;

		if (c == '"')
			break;
		if (c == '\0' || (unsigned char)c < 0x20) {
			free(out);
			fail(r, "unterminated string or control character in a string");
			return NULL;
		}
		if (c != '\\') {
			out[n++] = c;
			continue;
		}
		c = *p++;
		switch (c) {
		case '"':
		case '\\':
		case '/':
			out[n++] = c;
			break;
		case 'n':
			out[n++] = '\n';
			break;
		case 't':
			out[n++] = '\t';
			break;
		case 'r':
			out[n++] = '\r';
			break;
		case 'b':
			out[n++] = '\b';
			break;
		case 'f':
			out[n++] = '\f';
			break;
		case 'u': {
			unsigned cp = 0;
			int i;

			for (i = 0; i < 4; i++) {
				int d = hex_digit(p[i]);

				if (d < 0) {
					free(out);
					fail(r, "bad \\u escape");
					return NULL;
				}
				cp = cp * 16 + (unsigned)d;
			}
			p += 4;
			/* A NUL cannot be passed to exec; surrogates are not needed for paths. */
			if (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff)) {
				free(out);
				fail(r, "\\u0000 or a surrogate in a string");
				return NULL;
			}
			n += put_utf8(out + n, cp);
			break;
		}
		default:
			free(out);
			fail(r, "bad escape in a string");
			return NULL;
		}
	}
	out[n] = '\0';
	r->p = p;
	return out;
}

static bool skip_value(struct reader *r);

static bool skip_container(struct reader *r, char close)
{
	r->p++;
	skip_space(r);
	if (*r->p == close) {
		r->p++;
		return true;
	}
	for (;;) {
		if (close == '}') {
			char *key;

			skip_space(r);
			if (*r->p != '"')
				return fail(r, "expected a member name");
			key = read_string(r);
			if (!key)
				return false;
			free(key);
			skip_space(r);
			if (*r->p++ != ':')
				return fail(r, "expected ':'");
		}
		if (!skip_value(r))
			return false;
		skip_space(r);
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		if (*r->p == close) {
			r->p++;
			return true;
		}
		return fail(r, "expected ',' or the end of a container");
	}
}

static bool skip_value(struct reader *r)
{
	skip_space(r);
	if (*r->p == '"') {
		char *s = read_string(r);

		free(s);
		return s != NULL;
	}
	if (*r->p == '{')
		return skip_container(r, '}');
	if (*r->p == '[')
		return skip_container(r, ']');
	if (strncmp(r->p, "true", 4) == 0 || strncmp(r->p, "null", 4) == 0) {
		r->p += 4;
		return true;
	}
	if (strncmp(r->p, "false", 5) == 0) {
		r->p += 5;
		return true;
	}
	if (*r->p == '-' || isdigit((unsigned char)*r->p)) {
		char *end;

		strtod(r->p, &end);
		r->p = end;
		return true;
	}
	return fail(r, "unexpected character");
}

/* "args": ["a", "b"] */
static bool read_args(struct reader *r, struct job *job)
{
	skip_space(r);
	if (*r->p != '[')
		return fail(r, "args must be an array of strings");
	r->p++;
	skip_space(r);
	if (*r->p == ']') {
		r->p++;
		return true;
	}
	for (;;) {
		char *arg, **grown;

		skip_space(r);
		if (*r->p != '"')
			return fail(r, "args must be an array of strings");
		arg = read_string(r);
		if (!arg)
			return false;
		grown = realloc(job->argv, (job->argc + 2) * sizeof *grown);
		if (!grown) {
			free(arg);
			return fail(r, "out of memory");
		}
		job->argv = grown;
		job->argv[job->argc++] = arg;
		job->argv[job->argc] = NULL;
		skip_space(r);
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		if (*r->p == ']') {
			r->p++;
			return true;
		}
		return fail(r, "expected ',' or ']' in args");
	}
}

static bool read_member(struct reader *r, struct job *job, const char *key)
{
	char **target = NULL;

	if (strcmp(key, "id") == 0)
		target = &job->id;
	else if (strcmp(key, "path") == 0)
		target = &job->path;
	else if (strcmp(key, "expect_output") == 0)
		target = &job->expect_output;
	else if (strcmp(key, "args") == 0)
		return read_args(r, job);
	else if (strcmp(key, "window") == 0) {
		skip_space(r);
		if (strncmp(r->p, "true", 4) == 0) {
			job->window = 1;
			r->p += 4;
			return true;
		}
		if (strncmp(r->p, "false", 5) == 0) {
			job->window = 0;
			r->p += 5;
			return true;
		}
		return fail(r, "window must be true or false");
	} else if (strcmp(key, "timeout") == 0) {
		char *end;
		long v;

		skip_space(r);
		v = strtol(r->p, &end, 10);
		if (end == r->p || v < 0 || v > 86400)
			return fail(r, "timeout must be a number of seconds");
		job->timeout = (int)v;
		r->p = end;
		return true;
	} else
		return skip_value(r);

	skip_space(r);
	if (*r->p != '"')
		return fail(r, "id, path and expect_output must be strings");
	free(*target);
	*target = read_string(r);
	return *target != NULL;
}

int job_parse(const char *line, struct job *job, const char **error)
{
	struct reader r = { line, NULL };
	char **with_path;

	memset(job, 0, sizeof *job);
	/* argv[0] is filled in with the path once it is known. */
	job->argv = calloc(2, sizeof *job->argv);
	job->argc = 1;
	if (!job->argv) {
		*error = "out of memory";
		return -1;
	}
	skip_space(&r);
	if (*r.p++ != '{') {
		*error = "a job must be a JSON object";
		job_free(job);
		return -1;
	}
	skip_space(&r);
	if (*r.p == '}')
		r.p++;
	else
		for (;;) {
			char *key;
			bool ok;

			skip_space(&r);
			if (*r.p != '"') {
				fail(&r, "expected a member name");
				break;
			}
			key = read_string(&r);
			if (!key)
				break;
			skip_space(&r);
			if (*r.p++ != ':') {
				free(key);
				fail(&r, "expected ':'");
				break;
			}
			ok = read_member(&r, job, key);
			free(key);
			if (!ok)
				break;
			skip_space(&r);
			if (*r.p == ',') {
				r.p++;
				continue;
			}
			if (*r.p == '}') {
				r.p++;
				break;
			}
			fail(&r, "expected ',' or '}'");
			break;
		}
	skip_space(&r);
	if (!r.error && *r.p != '\0')
		fail(&r, "text after the job object");
	if (!r.error && !job->path)
		fail(&r, "the job has no path");
	if (r.error) {
		*error = r.error;
		job_free(job);
		return -1;
	}
	with_path = job->argv;
	with_path[0] = strdup(job->path);
	if (!with_path[0]) {
		*error = "out of memory";
		job_free(job);
		return -1;
	}
	return 0;
}

void job_free(struct job *job)
{
	size_t i;

	free(job->id);
	free(job->path);
	free(job->expect_output);
	if (job->argv)
		for (i = 0; i < job->argc; i++)
			free(job->argv[i]);
	free(job->argv);
	memset(job, 0, sizeof *job);
}
