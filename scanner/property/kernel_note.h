/* How the kernel reads the bytes of a program's PT_GNU_PROPERTY (fs/binfmt_elf.c). */
#ifndef ELFCET_KERNEL_NOTE_H
#define ELFCET_KERNEL_NOTE_H

#include "property/consumer_reading.h"

#include <stdint.h>

/* The kernel's reading of the PT_GNU_PROPERTY at OFFSET, FILESZ bytes long, of the
 * FILE_SIZE bytes at FILE, with notes aligned to ALIGN (8 for ELF64, 4 for ELF32). */
void kernel_note_read(const unsigned char *file, uint64_t file_size, uint64_t offset,
		      uint64_t filesz, unsigned align, struct consumer_reading *r);

#endif
