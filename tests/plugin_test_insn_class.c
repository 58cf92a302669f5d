/* The plugin's instruction classifier on hand-assembled bytes (encodings from the SDM). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "vm/plugin/insn_class.h"

#define CLASSIFY64(...) \
	classify((const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }), true)
#define CLASSIFY32(...) \
	classify((const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }), false)

static struct insn_class classify(const uint8_t *b, size_t n, bool bits64)
{
	return insn_classify(b, n, bits64);
}

static void test_endbr(void **state)
{
	(void)state;
	assert_int_equal(CLASSIFY64(0xf3, 0x0f, 0x1e, 0xfa).kind, INSN_ENDBR64);
	assert_int_equal(CLASSIFY64(0xf3, 0x0f, 0x1e, 0xfb).kind, INSN_ENDBR32);
	/* An extra prefix makes it another instruction: not a valid landing. */
	assert_int_equal(CLASSIFY64(0x66, 0xf3, 0x0f, 0x1e, 0xfa).kind, INSN_OTHER);
	/* rdsspq %rax (F3 REX.W 0F 1E C8) is not ENDBR. */
	assert_int_equal(CLASSIFY64(0xf3, 0x48, 0x0f, 0x1e, 0xc8).kind, INSN_OTHER);
}

static void test_calls_and_returns(void **state)
{
	(void)state;
	assert_int_equal(CLASSIFY64(0xe8, 0, 0, 0, 0).kind, INSN_CALL_DIRECT);
	assert_int_equal(CLASSIFY64(0xc3).kind, INSN_RET);
	assert_int_equal(CLASSIFY64(0xc2, 0x08, 0x00).kind, INSN_RET);
	assert_int_equal(CLASSIFY64(0xf2, 0xc3).kind, INSN_RET);		 /* bnd ret */
	assert_int_equal(CLASSIFY64(0xff, 0xd0).kind, INSN_CALL_INDIRECT);	 /* call *%rax */
	assert_int_equal(CLASSIFY64(0x41, 0xff, 0xd3).kind, INSN_CALL_INDIRECT); /* call *%r11 */
	assert_int_equal(CLASSIFY64(0xff, 0x15, 0, 0, 0, 0).kind, INSN_CALL_INDIRECT); /* *rip */
	assert_int_equal(CLASSIFY64(0xff, 0xe0).kind, INSN_JMP_INDIRECT); /* jmp *%rax */
	assert_int_equal(CLASSIFY64(0xff, 0x24, 0xc5, 0, 0, 0, 0).kind, INSN_JMP_INDIRECT);
	assert_int_equal(CLASSIFY64(0xff, 0xc0).kind, INSN_OTHER);	 /* inc %eax */
	assert_int_equal(CLASSIFY64(0xe9, 0, 0, 0, 0).kind, INSN_OTHER); /* direct jmp */
	/* 32-bit: 0x41 is inc %ecx, not REX; the FF after it is a separate instruction. */
	assert_int_equal(CLASSIFY32(0x41, 0xff, 0xd3).kind, INSN_OTHER);
	assert_int_equal(CLASSIFY32(0xff, 0xd3).kind, INSN_CALL_INDIRECT);
}

static void test_notrack(void **state)
{
	(void)state;
	struct insn_class c = CLASSIFY64(0x3e, 0xff, 0xe0);
	assert_int_equal(c.kind, INSN_JMP_INDIRECT);
	assert_true(c.notrack);
	c = CLASSIFY64(0x3e, 0x41, 0xff, 0xd3);
	assert_int_equal(c.kind, INSN_CALL_INDIRECT);
	assert_true(c.notrack);
	/* The last segment prefix counts: 3E then 2E is tracked, 2E then 3E is not. */
	assert_false(CLASSIFY64(0x3e, 0x2e, 0xff, 0xe0).notrack);
	assert_true(CLASSIFY64(0x2e, 0x3e, 0xff, 0xe0).notrack);
	assert_false(CLASSIFY64(0xff, 0xe0).notrack);
	assert_true(CLASSIFY32(0x3e, 0xff, 0xe0).notrack);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_endbr),
		cmocka_unit_test(test_calls_and_returns),
		cmocka_unit_test(test_notrack),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
