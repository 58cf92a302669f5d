/* Read the x86 feature bits (GNU_PROPERTY_X86_FEATURE_1_AND) an ELF object is marked with.
 * The plugin needs this at run time for every object the guest maps, inside QEMU, without
 * libelf; a file it cannot read counts as unmarked. */
#ifndef ELFCET_OBJECT_MARKING_H
#define ELFCET_OBJECT_MARKING_H

#include <stdint.h>

#define MARK_IBT 0x1u
#define MARK_SHSTK 0x2u

/* The FEATURE_1_AND bits of the ELF file at path (0 when absent or unreadable). */
uint32_t object_marking_read(const char *path);

#endif
