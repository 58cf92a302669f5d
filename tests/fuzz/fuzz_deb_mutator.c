/* fuzz_deb's structure-aware mutator (libFuzzer's LLVMFuzzerCustomMutator, issue 35).
 *
 * Byte-level mutation of a .deb mostly breaks a compressed stream and rarely reaches the
 * tar reader or the audit behind it. This mutator takes the package apart (the ar
 * archive, each control.tar / data.tar member decompressed by its name's suffix), mutates
 * one level -- the ar members, a tar header or its pax or GNU sparse extension, a
 * member's bytes (most often an ELF file's), the tar's end, the compression -- and puts
 * it back together (checksums, sizes and compression redone, mostly), so that the
 * mutated field is what the reader meets. Half of the time, and whenever the input
 * is not a package it can take apart, libFuzzer's own byte mutation runs instead.
 * FUZZ_DEB_MUTATOR=0 in the environment turns it off (byte mutation only), to compare.
 * Compression and decompression are libarchive's ("raw" format), but for xz and lzma,
 * decoded by liblzma under a memory limit as the reader decodes them. */
#include <archive.h>
#include <archive_entry.h>
#include <lzma.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

#define MAX_MEMBERS 8
#define MAX_ENTRIES 256
#define MAX_TAR (2u << 20) /* a decompressed tar beyond this is mutated as bytes */
#define BLOCK 512

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void buf_reserve(struct buf *b, size_t n)
{
	if (b->len + n <= b->cap)
		return;
	b->cap = (b->len + n) * 2 + 4096;
	b->p = realloc(b->p, b->cap);
	if (!b->p)
		abort();
}

static void buf_add(struct buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void buf_insert(struct buf *b, size_t at, const void *p, size_t n)
{
	buf_reserve(b, n);
	memmove(b->p + at + n, b->p + at, b->len - at);
	memcpy(b->p + at, p, n);
	b->len += n;
}

static void buf_erase(struct buf *b, size_t at, size_t n)
{
	memmove(b->p + at, b->p + at + n, b->len - at - n);
	b->len -= n;
}

/* --- randomness: xorshift64*, from libFuzzer's seed, so that a run can be replayed */
static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static size_t below(size_t n)
{
	return n ? (size_t)(next() % n) : 0;
}

/* --- the ar archive */
struct member {
	char name[17];
	struct buf data;
};

struct package {
	struct member m[MAX_MEMBERS];
	size_t n;
};

static void package_free(struct package *pkg)
{
	for (size_t i = 0; i < pkg->n; i++)
		free(pkg->m[i].data.p);
	pkg->n = 0;
}

static bool parse_ar(const uint8_t *d, size_t size, struct package *pkg)
{
	size_t off = 8;

	pkg->n = 0;
	if (size < 8 || memcmp(d, "!<arch>\n", 8) != 0)
		return false;
	while (off + 60 <= size && pkg->n < MAX_MEMBERS) {
		struct member *m = &pkg->m[pkg->n];
		char field[11];
		size_t len, i;

		memcpy(m->name, d + off, 16);
		for (i = 16; i > 0 && (m->name[i - 1] == ' ' || m->name[i - 1] == '/'); i--)
			;
		m->name[i] = '\0';
		memcpy(field, d + off + 48, 10);
		field[10] = '\0';
		len = strtoul(field, NULL, 10);
		off += 60;
		if (len > size - off)
			break;
		memset(&m->data, 0, sizeof(m->data));
		buf_add(&m->data, d + off, len);
		pkg->n++;
		off += len + (len & 1);
	}
	return pkg->n > 0;
}

/* The archive again; now and then one member's size field lies (by a little or a lot). */
static void write_ar(const struct package *pkg, struct buf *out)
{
	size_t lie = below(16) == 0 ? below(pkg->n) + 1 : 0;

	out->len = 0;
	buf_add(out, "!<arch>\n", 8);
	for (size_t i = 0; i < pkg->n; i++) {
		const struct member *m = &pkg->m[i];
		char h[61];
		unsigned long long size = m->data.len;

		if (lie == i + 1)
			size = below(2) ? size + below(64) - 32 : 9999999999ULL;
		snprintf(h, sizeof(h), "%-16.16s%-12s%-6s%-6s%-8s%-10llu`\n", m->name, "0", "0",
			 "0", "100644", size);
		buf_add(out, h, 60);
		buf_add(out, m->data.p, m->data.len);
		if (m->data.len & 1)
			buf_add(out, "\n", 1);
	}
}

/* --- compression: the filter dpkg uses for a member's name */
static const struct {
	const char *suffix;
	int filter;
} compressions[] = {
	{ "", ARCHIVE_FILTER_NONE },	  { ".gz", ARCHIVE_FILTER_GZIP },
	{ ".xz", ARCHIVE_FILTER_XZ },	  { ".zst", ARCHIVE_FILTER_ZSTD },
	{ ".bz2", ARCHIVE_FILTER_BZIP2 }, { ".lzma", ARCHIVE_FILTER_LZMA },
};
#define N_COMPRESSIONS (sizeof(compressions) / sizeof(compressions[0]))

/* The compression of a tar member ("data.tar.xz"), or -1 when it is none of those. */
static int tar_compression(const char *name)
{
	const char *suffix;

	if (strncmp(name, "data.tar", 8) == 0)
		suffix = name + 8;
	else if (strncmp(name, "control.tar", 11) == 0)
		suffix = name + 11;
	else
		return -1;
	for (size_t i = 0; i < N_COMPRESSIONS; i++)
		if (strcmp(suffix, compressions[i].suffix) == 0)
			return (int)i;
	return -1;
}

/* xz and lzma by liblzma under a memory limit, as deb_stream decodes them: libarchive's
 * decoder would take the dictionary a mutated header asks for (up to 4 GiB). */
static bool lzma_decompress(const struct buf *in, bool xz, struct buf *out)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret rc = xz ? lzma_stream_decoder(&s, 256 << 20, LZMA_CONCATENATED)
			 : lzma_alone_decoder(&s, 256 << 20);

	s.next_in = in->p;
	s.avail_in = in->len;
	while (rc == LZMA_OK && out->len <= MAX_TAR) {
		buf_reserve(out, 65536);
		s.next_out = out->p + out->len;
		s.avail_out = 65536;
		rc = lzma_code(&s, LZMA_FINISH);
		out->len += 65536 - s.avail_out;
	}
	lzma_end(&s);
	return rc == LZMA_STREAM_END && out->len <= MAX_TAR;
}

static bool decompress(const struct buf *in, int c, struct buf *out)
{
	struct archive *a;
	struct archive_entry *e;
	bool ok = false;

	out->len = 0;
	if (compressions[c].filter == ARCHIVE_FILTER_XZ ||
	    compressions[c].filter == ARCHIVE_FILTER_LZMA)
		return lzma_decompress(in, compressions[c].filter == ARCHIVE_FILTER_XZ, out);
	a = archive_read_new();
	archive_read_support_format_raw(a);
	if (compressions[c].filter != ARCHIVE_FILTER_NONE)
		archive_read_append_filter(a, compressions[c].filter);
	else
		archive_read_support_filter_none(a);
	if (archive_read_open_memory(a, in->p, in->len) == ARCHIVE_OK &&
	    archive_read_next_header(a, &e) == ARCHIVE_OK) {
		char chunk[16384];
		la_ssize_t n;

		while ((n = archive_read_data(a, chunk, sizeof(chunk))) > 0 &&
		       out->len + (size_t)n <= MAX_TAR)
			buf_add(out, chunk, (size_t)n);
		ok = n == 0;
	}
	archive_read_free(a);
	return ok;
}

static la_ssize_t write_to_buf(struct archive *a, void *ctx, const void *p, size_t n)
{
	(void)a;
	buf_add(ctx, p, n);
	return (la_ssize_t)n;
}

static bool compress(const struct buf *in, int c, struct buf *out)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	bool ok;

	out->len = 0;
	archive_write_add_filter(a, compressions[c].filter);
	/* the fastest level: the fuzzer's time is for the reader */
	archive_write_set_filter_option(a, NULL, "compression-level", "1");
	archive_write_set_format_raw(a);
	archive_write_set_bytes_per_block(a, 0);
	archive_entry_set_pathname(e, "data");
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_size(e, (la_int64_t)in->len);
	ok = archive_write_open(a, out, NULL, write_to_buf, NULL) == ARCHIVE_OK &&
	     archive_write_header(a, e) == ARCHIVE_OK &&
	     (in->len == 0 || archive_write_data(a, in->p, in->len) == (la_ssize_t)in->len) &&
	     archive_write_close(a) == ARCHIVE_OK;
	archive_entry_free(e);
	archive_write_free(a);
	return ok;
}

/* --- tar headers (ustar/GNU: name 0, mode 100, size 124, checksum 148, type 156,
 * linkname 157, magic 257, GNU sparse map 386, isextended 482, realsize 483) */
struct entry {
	size_t header, data, len; /* offsets in the tar, and the data's length */
};

/* Bytes of entry E, header and padded data, within the tar. */
static size_t entry_span(const struct buf *t, const struct entry *e)
{
	size_t span = BLOCK + (e->len + BLOCK - 1) / BLOCK * BLOCK;

	return span < t->len - e->header ? span : t->len - e->header;
}

static uint64_t octal(const unsigned char *f, size_t n)
{
	uint64_t v = 0;

	if (f[0] & 0x80) { /* base-256 */
		for (size_t i = 1; i < n; i++)
			v = v << 8 | f[i];
		return v;
	}
	for (size_t i = 0; i < n && f[i] >= '0' && f[i] <= '7'; i++)
		v = v * 8 + (f[i] - '0');
	return v;
}

static void set_octal(unsigned char *f, size_t n, uint64_t v)
{
	char s[32];

	snprintf(s, sizeof(s), "%0*llo", (int)(n - 1), (unsigned long long)v);
	memcpy(f, s + (strlen(s) > n - 1 ? strlen(s) - (n - 1) : 0), n - 1);
	f[n - 1] = '\0';
}

static void fix_checksum(unsigned char *h)
{
	unsigned sum = 0;

	memset(h + 148, ' ', 8);
	for (size_t i = 0; i < BLOCK; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	h[155] = ' ';
}

static size_t tar_entries(const struct buf *t, struct entry *e)
{
	size_t n = 0, off = 0;

	while (off + BLOCK <= t->len && n < MAX_ENTRIES) {
		const unsigned char *h = t->p + off;
		uint64_t len = octal(h + 124, 12);
		size_t i;

		for (i = 0; i < BLOCK && !h[i]; i++)
			;
		if (i == BLOCK)
			break;
		e[n].header = off;
		e[n].data = off + BLOCK;
		if (len > t->len - e[n].data)
			len = t->len - e[n].data;
		e[n].len = (size_t)len;
		n++;
		off = e[n - 1].data + ((e[n - 1].len + BLOCK - 1) / BLOCK) * BLOCK;
	}
	return n;
}

/* Sets entry E's data to its mutated bytes, sizes and padding redone. */
static void mutate_data(struct buf *t, const struct entry *e)
{
	size_t old_blocks = entry_span(t, e) - BLOCK, max = e->len * 2 + 64;
	unsigned char *d = malloc(max);
	size_t n, blocks;

	if (!d)
		abort();
	memcpy(d, t->p + e->data, e->len);
	n = LLVMFuzzerMutate(d, e->len, max);
	blocks = (n + BLOCK - 1) / BLOCK * BLOCK;
	buf_erase(t, e->data, old_blocks);
	buf_insert(t, e->data, d, n);
	if (blocks > n) {
		static const unsigned char zeros[BLOCK];

		buf_insert(t, e->data + n, zeros, blocks - n);
	}
	set_octal(t->p + e->header + 124, 12, n);
	fix_checksum(t->p + e->header);
	free(d);
}

/* A pax extended header ('x') before entry E, with one record a reader acts on. */
static void insert_pax(struct buf *t, const struct entry *e, const struct entry *all, size_t n)
{
	static const char *const keys[] = { "path",
					    "linkpath",
					    "size",
					    "GNU.sparse.map",
					    "GNU.sparse.size",
					    "GNU.sparse.major",
					    "GNU.sparse.name",
					    "GNU.sparse.realsize",
					    "uid",
					    "mtime" };
	static const char *const values[] = {
		"usr/bin/x", "../../../etc/passwd", "0",  "18446744073709551615", "1",
		"4096",	     "0,512,1024,512",	    "-1", "\xff\xfe/caf\xc3\xa9", "",
	};
	unsigned char h[BLOCK] = { 0 }, body[BLOCK] = { 0 };
	char value[160];
	const char *key = keys[below(sizeof(keys) / sizeof(keys[0]))];
	size_t base, len;

	if (below(3) == 0) /* another entry's name */
		snprintf(value, sizeof(value), "%.100s", (const char *)t->p + all[below(n)].header);
	else
		snprintf(value, sizeof(value), "%s",
			 values[below(sizeof(values) / sizeof(values[0]))]);
	/* "LEN key=value\n", LEN counting its own digits */
	base = strlen(key) + strlen(value) + 3;
	for (len = base + 1; (size_t)snprintf(NULL, 0, "%zu", len) + base != len;)
		len = base + (size_t)snprintf(NULL, 0, "%zu", len);
	snprintf((char *)body, sizeof(body), "%zu %s=%s\n", len, key, value);
	memcpy(h, "./PaxHeaders/x", 14);
	memcpy(h + 100, "0000644", 8);
	set_octal(h + 124, 12, len);
	h[156] = below(4) ? 'x' : 'g';
	memcpy(h + 257,
	       "ustar\0"
	       "00",
	       8);
	fix_checksum(h);
	buf_insert(t, e->header, body, BLOCK);
	buf_insert(t, e->header, h, BLOCK);
}

/* One header field of entry E set to a value a reader must survive. */
static void mutate_header(struct buf *t, const struct entry *e, const struct entry *all, size_t n)
{
	static const char types[] = "01234567LKSxgDMNV";
	unsigned char *h = t->p + e->header;

	switch (below(8)) {
	case 0: /* size: off by a little, zero, huge (octal and base-256) */
		switch (below(4)) {
		case 0:
			set_octal(h + 124, 12, e->len + below(2048) - 1024);
			break;
		case 1:
			set_octal(h + 124, 12, 0);
			break;
		case 2:
			memcpy(h + 124, "77777777777", 12);
			break;
		default:
			memset(h + 124, 0xff, 12);
			h[124] = 0x80;
			break;
		}
		break;
	case 1:
		h[156] = (unsigned char)types[below(sizeof(types) - 1)];
		break;
	case 2: /* a link to another entry, or to itself */
		h[156] = below(2) ? '1' : '2';
		memcpy(h + 157, t->p + all[below(n)].header, 100);
		break;
	case 3: { /* a name: long, climbing out, empty, not UTF-8, a directory */
		static const char *const names[] = { "../../etc/x",	   "",
						     "./usr/bin/\xff\xfe", "./usr/lib/",
						     "/abs/path",	   "./a//b/./c" };
		const char *name = names[below(sizeof(names) / sizeof(names[0]))];

		memset(h, 0, 100);
		memcpy(h, name, strlen(name));
		break;
	}
	case 4: /* a GNU sparse map: up to four (offset, bytes) pairs, maybe extended */
		h[156] = 'S';
		for (size_t i = 0; i < 4; i++) {
			set_octal(h + 386 + 24 * i, 12, below(4) ? below(e->len + 1) : next());
			set_octal(h + 398 + 24 * i, 12, below(e->len + 1));
		}
		h[482] = (unsigned char)below(2);
		set_octal(h + 483, 12, below(2) ? e->len * 2 : next() >> below(64));
		break;
	case 5: /* the mode, uid or magic */
		memcpy(h + (below(2) ? 100 : 257), below(2) ? "7777777" : "ustar  ", 8);
		break;
	default: /* bytes of the header, checksum redone or not */
		LLVMFuzzerMutate(h, BLOCK, BLOCK);
		break;
	}
	if (below(8))
		fix_checksum(h);
}

/* Mutates the tar in T: an entry's data (an ELF file's most often), a header, a pax
 * header, the entries' order, or the end. */
static void mutate_tar(struct buf *t)
{
	struct entry *e = malloc(MAX_ENTRIES * sizeof(*e));
	size_t n, pick;

	if (!e)
		abort();
	n = tar_entries(t, e);
	if (n == 0) {
		t->len = LLVMFuzzerMutate(t->p, t->len, t->len);
		free(e);
		return;
	}
	pick = below(n);
	/* prefer an ELF member's bytes: they are what the audit reads */
	for (size_t i = 0, k = below(n); i < n; i++) {
		const struct entry *c = &e[(k + i) % n];

		if (c->len >= 4 && memcmp(t->p + c->data,
					  "\x7f"
					  "ELF",
					  4) == 0) {
			pick = (k + i) % n;
			break;
		}
	}
	/* half of the time the bytes of a member, as the audit behind the reader needs */
	switch (below(14)) {
	case 0:
	case 1:
	case 2:
	case 3:
	case 4:
	case 5:
	case 6:
		mutate_data(t, &e[pick]);
		break;
	case 7:
	case 8:
		mutate_header(t, &e[below(n)], e, n);
		break;
	case 9:
		insert_pax(t, &e[below(n)], e, n);
		break;
	case 10: { /* an entry copied before another (a duplicate name, a second copy) */
		const struct entry *c = &e[below(n)];
		size_t len = entry_span(t, c);
		unsigned char *copy = malloc(len);

		if (!copy)
			abort();
		memcpy(copy, t->p + c->header, len);
		buf_insert(t, e[below(n)].header, copy, len);
		free(copy);
		break;
	}
	case 11: { /* an entry removed */
		const struct entry *c = &e[pick];

		buf_erase(t, c->header, entry_span(t, c));
		break;
	}
	case 12: /* cut anywhere, or at an entry's end, or without its end blocks */
		t->len = below(2) ? below(t->len + 1) : e[pick].data + e[pick].len;
		break;
	default: { /* garbage or another tar after the end */
		unsigned char junk[64];

		for (size_t i = 0; i < sizeof(junk); i++)
			junk[i] = (unsigned char)next();
		buf_add(t, junk, below(sizeof(junk)) + 1);
		break;
	}
	}
	free(e);
}

/* Mutates the package: a tar member (decompressed, mutated, compressed again, maybe
 * with another compression), or the ar level. False when it cannot be taken apart. */
static bool mutate_package(struct package *pkg)
{
	size_t tars[MAX_MEMBERS], n = 0, i;

	for (i = 0; i < pkg->n; i++)
		if (tar_compression(pkg->m[i].name) >= 0)
			tars[n++] = i;
	if (n == 0 || below(10) == 0) {
		struct member tmp;

		switch (below(4)) {
		case 0: /* two members swapped */
			i = below(pkg->n);
			n = below(pkg->n);
			tmp = pkg->m[i], pkg->m[i] = pkg->m[n], pkg->m[n] = tmp;
			return true;
		case 1: { /* a name dpkg does not accept, or another tar's */
			static const char *const names[] = { "data.tar.lzo",	"data.tar.lz4",
							     "control.tar.bz2", "data.tar",
							     "_gpgbuilder",	"debian-binary" };

			snprintf(pkg->m[below(pkg->n)].name, 17, "%s",
				 names[below(sizeof(names) / sizeof(names[0]))]);
			return true;
		}
		case 2: /* a member duplicated or dropped */
			if (pkg->n < MAX_MEMBERS && below(2)) {
				i = below(pkg->n);
				pkg->m[pkg->n] = pkg->m[i];
				memset(&pkg->m[pkg->n].data, 0, sizeof(pkg->m[i].data));
				buf_add(&pkg->m[pkg->n].data, pkg->m[i].data.p, pkg->m[i].data.len);
				pkg->n++;
			} else if (pkg->n > 1) {
				i = below(pkg->n);
				free(pkg->m[i].data.p);
				memmove(&pkg->m[i], &pkg->m[i + 1],
					(pkg->n - i - 1) * sizeof(pkg->m[0]));
				pkg->n--;
			}
			return true;
		default: { /* a member's bytes as they are (a compressed stream, debian-binary) */
			struct buf *d = &pkg->m[below(pkg->n)].data;

			buf_reserve(d, d->len + 64);
			d->len = LLVMFuzzerMutate(d->p, d->len, d->len + 64);
			return true;
		}
		}
	}

	struct member *m = &pkg->m[tars[below(n)]];
	int c = tar_compression(m->name);
	struct buf tar = { 0 }, packed = { 0 };
	bool ok = decompress(&m->data, c, &tar);

	if (ok) {
		mutate_tar(&tar);
		/* Now and then another compression, the name renamed to match; and xz, lzma
		 * and bzip2, which take most of a mutation's time to compress again, are
		 * often traded for none, gzip or zstd: the corpus keeps some of each. */
		bool slow = compressions[c].filter == ARCHIVE_FILTER_XZ ||
			    compressions[c].filter == ARCHIVE_FILTER_LZMA ||
			    compressions[c].filter == ARCHIVE_FILTER_BZIP2;

		if (below(8) == 0 || (slow && below(2))) {
			static const int fast[] = { 0, 1, 3 }; /* none, gz, zst */
			const char *base = strncmp(m->name, "data", 4) == 0 ? "data.tar"
									    : "control.tar";

			c = slow && below(4) ? fast[below(3)] : (int)below(N_COMPRESSIONS);
			snprintf(m->name, sizeof(m->name), "%s%s", base, compressions[c].suffix);
		}
		ok = compress(&tar, c, &packed);
		if (ok) {
			free(m->data.p);
			m->data = packed;
			packed.p = NULL;
		}
	}
	free(tar.p);
	free(packed.p);
	return ok;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	static int enabled = -1;
	struct package pkg;
	struct buf out = { 0 };
	size_t result = 0;

	if (enabled < 0) {
		const char *env = getenv("FUZZ_DEB_MUTATOR");

		enabled = !env || strcmp(env, "0") != 0;
	}
	rng = (uint64_t)seed * 0x9e3779b97f4a7c15ULL + 1;
	if (!enabled || below(2) == 0)
		return LLVMFuzzerMutate(data, size, max_size);
	if (!parse_ar(data, size, &pkg))
		return LLVMFuzzerMutate(data, size, max_size);
	if (mutate_package(&pkg)) {
		write_ar(&pkg, &out);
		if (out.len <= max_size) {
			memcpy(data, out.p, out.len);
			result = out.len;
		}
	}
	package_free(&pkg);
	free(out.p);
	return result ? result : LLVMFuzzerMutate(data, size, max_size);
}
