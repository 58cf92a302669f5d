/* Unit tests of scanner/code/eh_frame.c: the DWARF readers behind the function starts of
 * stripped code, and the FDE table of a real file (this test program itself). */
#define _GNU_SOURCE
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "code/eh_frame.h"
#include "elf/elf_model.h"

#define PE_SDATA4 0x0b
#define PE_PCREL 0x10
#define PE_DATAREL 0x30

static struct dw_cursor cursor(const unsigned char *p, size_t n, uint64_t addr, unsigned word)
{
	return (struct dw_cursor){ .p = p, .end = p + n, .addr = addr, .word = word };
}

static void leb128_values_decode(void **state)
{
	static const unsigned char uleb[] = { 0xe5, 0x8e, 0x26 }; /* 624485 */
	static const unsigned char sleb[] = { 0xc0, 0xbb, 0x78 }; /* -123456 */
	struct dw_cursor c;

	(void)state;
	c = cursor(uleb, sizeof(uleb), 0, 8);
	assert_int_equal(dw_uleb(&c), 624485);
	assert_false(c.bad);
	assert_ptr_equal(c.p, uleb + sizeof(uleb));
	c = cursor(sleb, sizeof(sleb), 0, 8);
	assert_int_equal(dw_sleb(&c), -123456);
	assert_false(c.bad);
}

static void reading_past_the_end_is_an_error_not_a_crash(void **state)
{
	static const unsigned char unfinished[] = { 0x80, 0x80 };
	static const unsigned char two[] = { 0x01, 0x02 };
	struct dw_cursor c;

	(void)state;
	c = cursor(unfinished, sizeof(unfinished), 0, 8);
	dw_uleb(&c);
	assert_true(c.bad);
	c = cursor(two, sizeof(two), 0, 8);
	dw_pointer(&c, PE_SDATA4);
	assert_true(c.bad);
	/* Once bad, a cursor stays bad. */
	dw_u8(&c);
	assert_true(c.bad);
}

static void pc_relative_pointers_add_their_own_address(void **state)
{
	static const unsigned char minus16[] = { 0xf0, 0xff, 0xff, 0xff };
	struct dw_cursor c;

	(void)state;
	c = cursor(minus16, sizeof(minus16), 0x401000, 8);
	assert_int_equal(dw_pointer(&c, PE_PCREL | PE_SDATA4), 0x400ff0);
	assert_false(c.bad);
	/* In ELF32 the sum wraps at 32 bits. */
	c = cursor(minus16, sizeof(minus16), 0x8, 4);
	assert_int_equal(dw_pointer(&c, PE_PCREL | PE_SDATA4), 0xfffffff8u);
}

static void unknown_encodings_are_refused(void **state)
{
	static const unsigned char bytes[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct dw_cursor c;

	(void)state;
	c = cursor(bytes, sizeof(bytes), 0, 8);
	dw_pointer(&c, 0x05); /* no such value format */
	assert_true(c.bad);
	c = cursor(bytes, sizeof(bytes), 0, 8);
	dw_pointer(&c, PE_DATAREL | PE_SDATA4);
	assert_true(c.bad);
	c = cursor(bytes, sizeof(bytes), 0, 8);
	assert_int_equal(dw_pointer(&c, DW_EH_PE_omit), 0);
	assert_false(c.bad);
}

static int main_bias(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(uintptr_t *)data = info->dlpi_addr; /* the first object is the program */
	return 1;
}

static void the_fdes_of_this_program_cover_its_functions(void **state)
{
	struct elf_model m;
	struct fde_info *fdes = NULL;
	size_t count = 0, i;
	uintptr_t bias = 0;
	uint64_t here;
	bool covered = false;
	struct elfcet_error msg;

	(void)state;
	assert_int_equal(elf_model_open(&m, "/proc/self/exe", &msg), ELF_OPEN_OK);
	eh_frame_load(&m, &fdes, &count);
	elf_model_close(&m);
	dl_iterate_phdr(main_bias, &bias);
	here = (uint64_t)((uintptr_t)&the_fdes_of_this_program_cover_its_functions - bias);

	assert_true(count > 10);
	for (i = 0; i < count; i++) {
		assert_true(fdes[i].size > 0);
		if (i)
			assert_true(fdes[i - 1].start <= fdes[i].start);
		if (here >= fdes[i].start && here < fdes[i].start + fdes[i].size)
			covered = true;
	}
	assert_true(covered);
	free(fdes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(leb128_values_decode),
		cmocka_unit_test(reading_past_the_end_is_an_error_not_a_crash),
		cmocka_unit_test(pc_relative_pointers_add_their_own_address),
		cmocka_unit_test(unknown_encodings_are_refused),
		cmocka_unit_test(the_fdes_of_this_program_cover_its_functions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
