/* What every fuzz target does first: the input copied into a buffer of exactly its size
 * (so AddressSanitizer sees any read past it) and opened as an ELF model. */
#ifndef ELFCET_FUZZ_INPUT_H
#define ELFCET_FUZZ_INPUT_H

#include "elf/elf_model.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct fuzz_input {
	unsigned char *bytes;
	struct elf_model m;
	bool open;
};

static inline void fuzz_input_open(struct fuzz_input *in, const uint8_t *data, size_t size)
{
	in->bytes = malloc(size ? size : 1);
	if (!in->bytes)
		abort();
	memcpy(in->bytes, data, size);
	in->open = elf_model_open_memory(&in->m, "fuzz-input", in->bytes, size, NULL) ==
		   ELF_OPEN_OK;
}

static inline void fuzz_input_close(struct fuzz_input *in)
{
	if (in->open)
		elf_model_close(&in->m);
	free(in->bytes);
}

#endif
