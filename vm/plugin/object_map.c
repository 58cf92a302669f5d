#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "object_map.h"

#include "object_marking.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct file_info {
	char *path;
	uint64_t dev, ino;
	uint32_t marking;
	bool verified;
};

struct region {
	uint64_t start, end, offset; /* host addresses */
	struct file_info *file;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t base;
static struct region *regions;
static size_t n_regions, cap_regions;
static bool stale = true;
static struct file_info **files; /* every file seen, kept: marking is read once per file */
static size_t n_files;
static struct {
	uint64_t dev, ino;
} verified[64];
static size_t n_verified;

void object_map_init(uint64_t guest_base)
{
	base = guest_base;
}

int object_map_add_verified(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || n_verified == sizeof(verified) / sizeof(verified[0]))
		return -1;
	verified[n_verified].dev = st.st_dev;
	verified[n_verified].ino = st.st_ino;
	n_verified++;
	return 0;
}

void object_map_invalidate(void)
{
	pthread_mutex_lock(&lock);
	stale = true;
	pthread_mutex_unlock(&lock);
}

static struct file_info *file_for(const char *path, uint64_t dev, uint64_t ino)
{
	for (size_t i = 0; i < n_files; i++)
		if (files[i]->dev == dev && files[i]->ino == ino &&
		    strcmp(files[i]->path, path) == 0)
			return files[i];
	struct file_info **grown = realloc(files, (n_files + 1) * sizeof(*files));
	struct file_info *f = calloc(1, sizeof(*f));
	if (!grown || !f) {
		free(f);
		if (grown)
			files = grown;
		return NULL;
	}
	files = grown;
	f->path = strdup(path);
	if (!f->path) {
		free(f);
		return NULL;
	}
	f->dev = dev, f->ino = ino;
	f->marking = object_marking_read(path);
	for (size_t i = 0; i < n_verified; i++)
		if (verified[i].dev == dev && verified[i].ino == ino)
			f->verified = true;
	files[n_files++] = f;
	return f;
}

static void reread_locked(void)
{
	FILE *fp = fopen("/proc/self/maps", "re");
	n_regions = 0;
	stale = false;
	if (!fp)
		return;
	char line[4352];
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long start, end, offset, ino;
		unsigned major, minor;
		int path_at = 0;
		if (sscanf(line, "%llx-%llx %*4s %llx %x:%x %llu %n", &start, &end, &offset, &major,
			   &minor, &ino, &path_at) < 6 ||
		    ino == 0 || path_at == 0 || line[path_at] != '/')
			continue;
		char *path = line + path_at, exact[4096];
		path[strcspn(path, "\n")] = '\0';
		/* The map writes a newline in a name as \012 (and a backslash as it is): such a
		 * name is read exactly from the mapping's link. */
		if (strstr(path, "\\012")) {
			char link[64];
			snprintf(link, sizeof(link), "/proc/self/map_files/%llx-%llx", start, end);
			ssize_t n = readlink(link, exact, sizeof(exact) - 1);
			if (n > 0) {
				exact[n] = '\0';
				path = exact;
			}
		}
		struct file_info *f = file_for(path, makedev(major, minor), ino);
		if (!f)
			continue;
		if (n_regions == cap_regions) {
			size_t cap = cap_regions ? 2 * cap_regions : 256;
			struct region *grown = realloc(regions, cap * sizeof(*regions));
			if (!grown)
				break;
			regions = grown, cap_regions = cap;
		}
		regions[n_regions++] = (struct region){ start, end, offset, f };
	}
	fclose(fp);
}

static const struct region *find_locked(uint64_t host)
{
	size_t lo = 0, hi = n_regions; /* the kernel lists maps in address order */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (host < regions[mid].start)
			hi = mid;
		else if (host >= regions[mid].end)
			lo = mid + 1;
		else
			return &regions[mid];
	}
	return NULL;
}

struct object_ref object_map_lookup(uint64_t guest_addr)
{
	struct object_ref ref = { NULL, 0, 0, false };
	uint64_t host = guest_addr + base;
	pthread_mutex_lock(&lock);
	if (stale)
		reread_locked();
	const struct region *r = find_locked(host);
	if (!r) {
		reread_locked();
		r = find_locked(host);
	}
	if (r) {
		ref.path = r->file->path; /* file_info is never freed */
		ref.offset = host - r->start + r->offset;
		ref.marking = r->file->marking;
		ref.verified = r->file->verified;
	}
	pthread_mutex_unlock(&lock);
	return ref;
}
