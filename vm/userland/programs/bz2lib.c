/* A round trip through libbz2's one-shot calls (BZ2_bzBuffToBuffCompress and
 * BZ2_bzBuffToBuffDecompress). vm/userland/check links it, with -fcf-protection, to
 * Debian 12's own libbz2 force-marked by `elfcet mark --force` (through a RUNPATH),
 * so that ld.so finds every object marked, keeps IBT on, and the first indirect branch
 * into the stock library's code must fault. Prints "bz2lib ok" where nothing enforces. */
#include <bzlib.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	static char text[64 * 1024], packed[80 * 1024], unpacked[64 * 1024];
	unsigned int packed_len = sizeof packed, unpacked_len = sizeof unpacked;

	for (size_t i = 0; i < sizeof text; i++)
		text[i] = "shadow stack, indirect branch tracking\n"[i % 39];
	if (BZ2_bzBuffToBuffCompress(packed, &packed_len, text, sizeof text, 9, 0, 0) != BZ_OK ||
	    BZ2_bzBuffToBuffDecompress(unpacked, &unpacked_len, packed, packed_len, 0, 0) !=
		    BZ_OK ||
	    unpacked_len != sizeof text || memcmp(text, unpacked, sizeof text) != 0) {
		puts("bz2lib FAIL: round trip");
		return 1;
	}
	puts("bz2lib ok");
	return 0;
}
