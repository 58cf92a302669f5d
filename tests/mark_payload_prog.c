/* For tests/mark-readers.sh: a program that reads a payload appended to its own file,
 * found from a trailer at the very end of the file (as deno compile, Bun and pkg output
 * and self-extracting archives find theirs) or, with an argument, right after the section
 * header table (as AppImage's runtime does). The payload: "PAYLOAD!", then 1000 bytes
 * i * 13 + 7; the trailer: "TRAILER!", the payload's offset and length (64-bit little-
 * endian). Exit 0 when the payload is where it should be. */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int check_payload(int fd, uint64_t at, uint64_t len)
{
	unsigned char buf[4096];
	uint64_t i;

	if (len > sizeof(buf) || pread(fd, buf, len, (off_t)at) != (ssize_t)len)
		return 1;
	for (i = 0; i < len; i++)
		if (buf[i] != (unsigned char)(i * 13 + 7))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int fd = open("/proc/self/exe", O_RDONLY);
	struct stat st;
	unsigned char t[24];
	uint64_t at, len;

	(void)argv;
	if (fd < 0 || fstat(fd, &st) != 0)
		return 2;
	if (argc > 1) { /* AppImage's way: the payload starts where the section headers end */
#if defined(__x86_64__)
		Elf64_Ehdr eh;
#else
		Elf32_Ehdr eh;
#endif
		if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh))
			return 2;
		at = (uint64_t)eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize;
		if (pread(fd, t, 8, (off_t)at) != 8 || memcmp(t, "PAYLOAD!", 8) != 0)
			return 3;
		return check_payload(fd, at + 8, 1000) ? 4 : 0;
	}
	/* The trailer: magic, then the payload's offset and length. */
	if (pread(fd, t, 24, st.st_size - 24) != 24 || memcmp(t, "TRAILER!", 8) != 0)
		return 5;
	memcpy(&at, t + 8, 8);
	memcpy(&len, t + 16, 8);
	return check_payload(fd, at, len) ? 6 : 0;
}
