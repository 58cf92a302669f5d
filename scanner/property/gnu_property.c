/* Names of GNU property types and of the bits in their values. */
#include "config.h"

#include "property/gnu_property.h"

#include <stdio.h>
#include <string.h>

const char *gnu_property_type_name(uint32_t type)
{
	switch (type) {
	case PROP_STACK_SIZE:
		return "stack_size";
	case PROP_NO_COPY_ON_PROTECTED:
		return "no_copy_on_protected";
	case PROP_1_NEEDED:
		return "1_needed";
	case PROP_X86_COMPAT_ISA_1_USED:
		return "x86_compat_isa_1_used";
	case PROP_X86_COMPAT_ISA_1_NEEDED:
		return "x86_compat_isa_1_needed";
	case PROP_X86_FEATURE_1_AND:
		return "x86_feature_1_and";
	case PROP_X86_FEATURE_2_NEEDED:
		return "x86_feature_2_needed";
	case PROP_X86_ISA_1_NEEDED:
		return "x86_isa_1_needed";
	case PROP_X86_FEATURE_2_USED:
		return "x86_feature_2_used";
	case PROP_X86_ISA_1_USED:
		return "x86_isa_1_used";
	default:
		return NULL;
	}
}

static const char *const feature_1_bits[] = { "IBT", "SHSTK", "LAM_U48", "LAM_U57" };
static const char *const isa_1_bits[] = { "x86-64-baseline", "x86-64-v2", "x86-64-v3",
					  "x86-64-v4" };
static const char *const feature_2_bits[] = { "x86",  "x87",   "MMX",	   "XMM",    "YMM", "ZMM",
					      "FXSR", "XSAVE", "XSAVEOPT", "XSAVEC", "TMM", "MASK" };
static const char *const needed_1_bits[] = { "indirect_extern_access" };

#define BIT_NAME(table, bit) ((bit) < sizeof(table) / sizeof((table)[0]) ? (table)[bit] : NULL)

const char *gnu_property_bit_name(uint32_t type, unsigned bit)
{
	switch (type) {
	case PROP_X86_FEATURE_1_AND:
		return BIT_NAME(feature_1_bits, bit);
	case PROP_X86_ISA_1_NEEDED:
	case PROP_X86_ISA_1_USED:
		return BIT_NAME(isa_1_bits, bit);
	case PROP_X86_FEATURE_2_NEEDED:
	case PROP_X86_FEATURE_2_USED:
		return BIT_NAME(feature_2_bits, bit);
	case PROP_1_NEEDED:
		return BIT_NAME(needed_1_bits, bit);
	default:
		return NULL;
	}
}

char *gnu_property_bits_text(uint32_t type, uint32_t value, char *buf, size_t buflen)
{
	size_t used = 0;
	unsigned bit;

	if (buflen == 0)
		return buf;
	buf[0] = '\0';
	if (value == 0) {
		snprintf(buf, buflen, "none");
		return buf;
	}
	for (bit = 0; bit < 32; bit++) {
		const char *name;
		int n;

		if (!(value & (1u << bit)))
			continue;
		name = gnu_property_bit_name(type, bit);
		if (name)
			n = snprintf(buf + used, buflen - used, "%s%s", used ? "," : "", name);
		else
			n = snprintf(buf + used, buflen - used, "%s0x%x", used ? "," : "",
				     1u << bit);
		if (n < 0 || (size_t)n >= buflen - used)
			break;
		used += (size_t)n;
	}
	return buf;
}
