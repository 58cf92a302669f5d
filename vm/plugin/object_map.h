/* Which file a guest address belongs to, from the host's /proc/self/maps (QEMU user mode maps
 * guest memory at guest_base + address, so the host's map names the guest's objects).
 * Also decides which objects are in IBT scope: objects marked IBT, plus the ones named on
 * the command line (forced checking of an unmarked object before marking it). */
#ifndef ELFCET_OBJECT_MAP_H
#define ELFCET_OBJECT_MAP_H

#include <stdbool.h>
#include <stdint.h>

struct object_ref {
	const char *path; /* NULL when the address is in no file mapping */
	uint64_t offset;  /* file offset of the address */
	uint32_t marking; /* FEATURE_1_AND bits of the file */
	bool verified;	  /* named by a verify= argument */
};

void object_map_init(uint64_t guest_base);
/* Name a file whose incoming branches are checked even when unmarked. */
int object_map_add_verified(const char *path);
/* Forget the cached map: the guest mapped or unmapped something. */
void object_map_invalidate(void);
/* Look up a guest address; rereads the map once when it is not found. Thread-safe. */
struct object_ref object_map_lookup(uint64_t guest_addr);

#endif
