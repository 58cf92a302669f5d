/* Instruction lengths of the common x86 encodings, from tables. Zydis's minimal mode
 * measures about 15 million instructions a second on the build machines (64 ns each),
 * and measuring was the largest part of an audit; this reads the ordinary integer and
 * SSE instructions that make up most code several times faster and answers 0 for
 * everything else (VEX, EVEX, x87, the 0f 38 and 0f 3a maps, system instructions,
 * encodings that are invalid or depend on more than their prefixes and ModRM), which
 * Zydis then measures. tests/test_disasm holds it to Zydis's lengths at every byte of
 * real code and of random bytes. */
#ifndef ELFCET_INSN_LENGTH_H
#define ELFCET_INSN_LENGTH_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the instruction at P (N bytes available) in 64-bit mode (IS64) or 32-bit
 * mode, or 0 when the tables do not cover it. */
size_t quick_length(const unsigned char *p, size_t n, bool is64);

/* Bytes of the ModRM operand at P (ModRM, SIB, displacement), or 0 when fewer than
 * that are among the N available. */
size_t modrm_operand_length(const unsigned char *p, size_t n);

#endif
