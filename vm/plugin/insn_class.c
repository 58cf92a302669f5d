#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "insn_class.h"

#include <string.h>

static bool is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0x26:
	case 0x2e:
	case 0x36:
	case 0x3e:
	case 0x64:
	case 0x65: /* segment */
	case 0x66:
	case 0x67:
	case 0xf0:
	case 0xf2:
	case 0xf3:
		return true;
	default:
		return false;
	}
}

static bool is_segment_prefix(uint8_t b)
{
	return b == 0x26 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x64 || b == 0x65;
}

struct insn_class insn_classify(const uint8_t *bytes, size_t len, bool bits64)
{
	struct insn_class c = { INSN_OTHER, false };

	/* ENDBR counts only in its exact 4-byte encoding. */
	if (len == 4 && bytes[0] == 0xf3 && bytes[1] == 0x0f && bytes[2] == 0x1e) {
		if (bytes[3] == 0xfa)
			c.kind = INSN_ENDBR64;
		else if (bytes[3] == 0xfb)
			c.kind = INSN_ENDBR32;
		return c;
	}

	size_t i = 0;
	uint8_t last_segment = 0;
	while (i < len && is_legacy_prefix(bytes[i])) {
		if (is_segment_prefix(bytes[i]))
			last_segment = bytes[i];
		i++;
	}
	if (bits64 && i < len && (bytes[i] & 0xf0) == 0x40) /* REX */
		i++;
	if (i >= len)
		return c;

	uint8_t op = bytes[i];
	if (op == 0xe8) {
		c.kind = INSN_CALL_DIRECT;
	} else if (op == 0xc3 || op == 0xc2) {
		c.kind = INSN_RET;
	} else if (op == 0xff && i + 1 < len) {
		unsigned reg = (bytes[i + 1] >> 3) & 7;
		if (reg == 2)
			c.kind = INSN_CALL_INDIRECT;
		else if (reg == 4)
			c.kind = INSN_JMP_INDIRECT;
		c.notrack = c.kind != INSN_OTHER && last_segment == 0x3e;
	}
	return c;
}
