/* Fuzz target: the property note as written, and as the kernel and glibc read it. */
#include "config.h"

#include "fuzz_input.h"
#include "property/property_note.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct property_note note;
	struct consumer_reading kernel, glibc;
	struct fuzz_input in;

	fuzz_input_open(&in, data, size);
	if (in.open) {
		property_note_find(&in.m, &note);
		property_kernel_read(&in.m, &kernel);
		property_glibc_read(&in.m, &glibc);
		/* A reading that accepts a marking has read FEATURE_1_AND from somewhere. */
		if (note.count > PROPERTY_MAX)
			abort();
	}
	fuzz_input_close(&in);
	return 0;
}
