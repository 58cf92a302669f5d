/* Fuzz target: the .eh_frame reader. The input's first byte picks the class, the rest is
 * the .eh_frame section, which the target wraps in a small ELF file whose
 * PT_GNU_EH_FRAME header points at it. */
#include "config.h"

#include "util/byteorder.h"
#include "code/code_context.h"
#include "code/eh_frame.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BASE 0x10000u

/* ELF header, PT_LOAD over everything, PT_GNU_EH_FRAME over a 12-byte header. */
static size_t wrap(unsigned char *out, bool is64, const uint8_t *frame, size_t len)
{
	size_t eh = is64 ? 64 : 52, ph = is64 ? 56 : 32, hdr = eh + 2 * ph, body = hdr + 12;
	size_t total = body + len;

	memset(out, 0, body);
	memcpy(out, ELFMAG, SELFMAG);
	out[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	out[EI_DATA] = ELFDATA2LSB;
	out[EI_VERSION] = EV_CURRENT;
	out[16] = ET_DYN;
	out[18] = is64 ? EM_X86_64 : EM_386;
	out[20] = EV_CURRENT;
	if (is64) {
		store_le64(out + 32, eh);
		out[52] = (unsigned char)eh;
		out[54] = (unsigned char)ph;
		out[56] = 2;
		store_le32(out + eh, PT_LOAD);
		store_le32(out + eh + 4, PF_R | PF_X);
		store_le64(out + eh + 16, BASE);
		store_le64(out + eh + 32, total);
		store_le64(out + eh + 40, total);
		store_le32(out + eh + ph, PT_GNU_EH_FRAME);
		store_le64(out + eh + ph + 8, hdr);
		store_le64(out + eh + ph + 16, BASE + hdr);
		store_le64(out + eh + ph + 32, 12);
	} else {
		store_le32(out + 28, (uint32_t)eh);
		out[40] = (unsigned char)eh;
		out[42] = (unsigned char)ph;
		out[44] = 2;
		store_le32(out + eh, PT_LOAD);
		store_le32(out + eh + 8, BASE);
		store_le32(out + eh + 16, (uint32_t)total);
		store_le32(out + eh + 20, (uint32_t)total);
		store_le32(out + eh + 24, PF_R | PF_X);
		store_le32(out + eh + ph, PT_GNU_EH_FRAME);
		store_le32(out + eh + ph + 4, (uint32_t)hdr);
		store_le32(out + eh + ph + 8, BASE + (uint32_t)hdr);
		store_le32(out + eh + ph + 16, 12);
	}
	/* version 1, .eh_frame pointer pc-relative sdata4, no table */
	out[hdr] = 1;
	out[hdr + 1] = 0x1b;
	out[hdr + 2] = 0xff;
	out[hdr + 3] = 0xff;
	store_le32(out + hdr + 4, 8);
	memcpy(out + body, frame, len);
	return total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fde_info *fdes;
	struct fuzz_input in;
	unsigned char *image;
	size_t n, count, i;

	if (size < 1)
		return 0;
	image = malloc(size + 256);
	if (!image)
		abort();
	n = wrap(image, data[0] & 1, data + 1, size - 1);
	fuzz_input_open(&in, image, n);
	free(image);
	if (in.open) {
		eh_frame_load(&in.m, &fdes, &count);
		for (i = 1; i < count; i++)
			if (fdes[i].start < fdes[i - 1].start)
				abort();
		free(fdes);
	}
	fuzz_input_close(&in);
	return 0;
}
