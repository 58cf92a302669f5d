/* GNU property note constants (x86-64 psABI and the generic gABI extension).
 * Defined here with our own names: the system <elf.h> lacks some and varies by version. */
#ifndef ELFCET_GNU_PROPERTY_H
#define ELFCET_GNU_PROPERTY_H

#include <stddef.h>
#include <stdint.h>

#define NOTE_TYPE_GNU_PROPERTY 5u /* NT_GNU_PROPERTY_TYPE_0 */
#define NOTE_NAME_GNU "GNU"	  /* with its NUL: namesz 4 */

#define PROP_STACK_SIZE 0x1u
#define PROP_NO_COPY_ON_PROTECTED 0x2u
#define PROP_1_NEEDED 0xb0008000u
#define PROP_X86_COMPAT_ISA_1_USED 0xc0000000u
#define PROP_X86_COMPAT_ISA_1_NEEDED 0xc0000001u
#define PROP_X86_FEATURE_1_AND 0xc0000002u
#define PROP_X86_FEATURE_2_NEEDED 0xc0008001u
#define PROP_X86_ISA_1_NEEDED 0xc0008002u
#define PROP_X86_FEATURE_2_USED 0xc0010001u
#define PROP_X86_ISA_1_USED 0xc0010002u

#define FEATURE_1_IBT 0x1u
#define FEATURE_1_SHSTK 0x2u
#define FEATURE_1_LAM_U48 0x4u
#define FEATURE_1_LAM_U57 0x8u

/* Name of a property type for reports ("x86_feature_1_and"), or NULL when unknown. */
const char *gnu_property_type_name(uint32_t type);

/* Names of the set bits of a property value, "IBT,SHSTK" style, into BUF; bits without a
 * name are shown as hex. Returns BUF. */
char *gnu_property_bits_text(uint32_t type, uint32_t value, char *buf, size_t buflen);

/* The name of one bit of TYPE's value, or NULL. */
const char *gnu_property_bit_name(uint32_t type, unsigned bit);

#endif
