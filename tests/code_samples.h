/* Inputs for the tests that read code byte by byte (test_disasm, test_byte_scan,
 * test_sort_address): the executable segments of every object the test program has
 * loaded, and pseudo-random numbers that are the same on every run. */
#ifndef ELFCET_TESTS_CODE_SAMPLES_H
#define ELFCET_TESTS_CODE_SAMPLES_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef void (*code_sample_fn)(const unsigned char *code, size_t n, const char *object, void *ctx);

struct code_sample_walk {
	code_sample_fn fn;
	void *ctx;
	size_t segments;
};

static inline int code_sample_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct code_sample_walk *w = arg;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		/* The vDSO is the kernel's; everything else is compiler (and glibc's
		 * hand-written) output of this system. */
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) ||
		    strstr(info->dlpi_name, "vdso"))
			continue;
		w->fn((const unsigned char *)(info->dlpi_addr + ph->p_vaddr), ph->p_filesz,
		      info->dlpi_name[0] ? info->dlpi_name : "the test program", w->ctx);
		w->segments++;
	}
	return 0;
}

/* Calls FN with each executable segment of this program and the libraries it has loaded
 * (libc, libelf, Capstone, Zydis, cmocka); returns how many there were. */
static inline size_t for_each_loaded_code(code_sample_fn fn, void *ctx)
{
	struct code_sample_walk w = { fn, ctx, 0 };

	dl_iterate_phdr(code_sample_object, &w);
	return w.segments;
}

/* The seed every test starts its sequence from. */
#define RANDOM_SEED 2463534242u

/* The next number of Marsaglia's xorshift32 sequence from *STATE. */
static inline uint32_t next_random(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

#endif
