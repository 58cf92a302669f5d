/* How one consumer (the kernel's ELF loader, glibc's ld.so) reads a GNU property note.
 * Apart from property_note.h, so that readers built without libelf (the QEMU plugin's,
 * through kernel_note.h) share it. */
#ifndef ELFCET_CONSUMER_READING_H
#define ELFCET_CONSUMER_READING_H

#include <stdbool.h>
#include <stdint.h>

struct consumer_reading {
	bool sees_note;	      /* the consumer finds a note where it looks */
	bool reads_note;      /* it read a GNU property note, the one at NOTE_OFFSET */
	uint64_t note_offset; /* the file offset of that note's header */
	bool accepted;	      /* read without rejection (kernel) or not ignored (glibc) */
	int error;	      /* kernel: the exec error (ENOEXEC, EIO), else 0 */
	/* kernel: a kernel that offers no user CET feature (no CET in the CPU, or both
	 * no_user_ibt and no_user_shstk) ignores the note instead of failing the exec */
	bool ignored_without_user_cet;
	bool faults;	  /* glibc: ld.so reads a PT_NOTE no PT_LOAD maps: SIGSEGV at start */
	const char *rule; /* why it rejected or ignored, or NULL */
	char detail[160];
	bool has_feature_1_and, has_isa_1_needed;
	uint32_t feature_1_and, isa_1_needed;
};

#endif
