/* Unit tests of scanner/code/disasm.c: the CET instructions Debian 12's Capstone cannot
 * decode are recognised by their bytes, with the right length, in the middle of a walk;
 * the fast measure of instructions agrees with Capstone's decoding. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "code/disasm.h"
#include "code/insn_length.h"
#include "code_samples.h"

#include <string.h>

struct cet_case {
	const char *what;
	unsigned char bytes[8];
	size_t n;
	bool is64;
	enum cet_insn_kind kind;
};

/* Encodings from the Intel SDM's instruction tables (Vol. 2), written out by hand. */
static const struct cet_case cet_cases[] = {
	{ "endbr64", { 0xf3, 0x0f, 0x1e, 0xfa }, 4, true, CET_ENDBR64 },
	{ "endbr32", { 0xf3, 0x0f, 0x1e, 0xfb }, 4, false, CET_ENDBR32 },
	{ "rdsspq %rax", { 0xf3, 0x48, 0x0f, 0x1e, 0xc8 }, 5, true, CET_RDSSP },
	{ "rdsspd %eax", { 0xf3, 0x0f, 0x1e, 0xc8 }, 4, false, CET_RDSSP },
	{ "incsspq %rax", { 0xf3, 0x48, 0x0f, 0xae, 0xe8 }, 5, true, CET_INCSSP },
	{ "incsspd %eax", { 0xf3, 0x0f, 0xae, 0xe8 }, 4, false, CET_INCSSP },
	{ "wrssq %rax,(%rdi)", { 0x48, 0x0f, 0x38, 0xf6, 0x07 }, 5, true, CET_WRSS },
	{ "wrssq %rax,0x8(%rdi)", { 0x48, 0x0f, 0x38, 0xf6, 0x47, 0x08 }, 6, true, CET_WRSS },
	{ "wrussq %rax,(%rdi)", { 0x66, 0x48, 0x0f, 0x38, 0xf5, 0x07 }, 6, true, CET_WRUSS },
	{ "rstorssp (%rax)", { 0xf3, 0x0f, 0x01, 0x28 }, 4, true, CET_RSTORSSP },
	{ "saveprevssp", { 0xf3, 0x0f, 0x01, 0xea }, 4, true, CET_SAVEPREVSSP },
	{ "setssbsy", { 0xf3, 0x0f, 0x01, 0xe8 }, 4, true, CET_SETSSBSY },
	{ "clrssbsy (%rax)", { 0xf3, 0x0f, 0xae, 0x30 }, 4, true, CET_CLRSSBSY },
};

static void recognises_each_cet_instruction_with_its_length(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cet_cases) / sizeof(cet_cases[0]); i++) {
		const struct cet_case *t = &cet_cases[i];
		enum cet_insn_kind kind = CET_NONE;
		size_t len = cet_insn_decode(t->bytes, t->n, t->is64, &kind);

		print_message("%s\n", t->what);
		assert_int_equal(len, t->n);
		assert_int_equal(kind, t->kind);
		assert_non_null(cet_insn_name(kind));
	}
}

static void ordinary_and_truncated_bytes_are_not_cet(void **state)
{
	static const unsigned char lfence[] = { 0x0f, 0xae, 0xe8 };
	static const unsigned char ret[] = { 0xc3 };
	static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	enum cet_insn_kind kind = CET_NONE;

	(void)state;
	/* Without the F3 prefix, 0f ae e8 really is lfence. */
	assert_int_equal(cet_insn_decode(lfence, sizeof(lfence), true, &kind), 0);
	assert_int_equal(cet_insn_decode(ret, sizeof(ret), true, &kind), 0);
	/* ENDBR64 cut short at the end of a section. */
	assert_int_equal(cet_insn_decode(endbr64, 3, true, &kind), 0);
}

static void endbr_matches_the_file_class(void **state)
{
	static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const unsigned char endbr32[] = { 0xf3, 0x0f, 0x1e, 0xfb };

	(void)state;
	assert_true(is_endbr(endbr64, 4, true));
	assert_false(is_endbr(endbr32, 4, true));
	assert_true(is_endbr(endbr32, 4, false));
	assert_false(is_endbr(endbr64, 4, false));
	assert_false(is_endbr(endbr64, 3, true));
}

struct seen {
	uint64_t addr[8];
	size_t size[8];
	enum cet_insn_kind cet[8];
	bool capstone[8];
	unsigned int prefix_3e[8];
	size_t n;
};

static void record(const struct decoded *di, void *ctx)
{
	struct seen *s = ctx;

	if (s->n >= 8)
		return;
	s->addr[s->n] = di->addr;
	s->size[s->n] = di->size;
	s->cet[s->n] = di->cet;
	s->capstone[s->n] = di->insn != NULL;
	s->prefix_3e[s->n] = di->insn && di->insn->detail ? di->insn->detail->x86.prefix[1] : 0;
	s->n++;
}

static void a_walk_keeps_instruction_boundaries_across_cet_instructions(void **state)
{
	/* endbr64; incsspq %rax (Capstone 4 says lfence); rdsspq %rax; notrack jmp *%rax; ret */
	static const unsigned char code[] = {
		0xf3, 0x0f, 0x1e, 0xfa, 0xf3, 0x48, 0x0f, 0xae, 0xe8,
		0xf3, 0x48, 0x0f, 0x1e, 0xc8, 0x3e, 0xff, 0xe0, 0xc3,
	};
	struct disasm d;
	struct seen s = { 0 };

	(void)state;
	assert_true(disasm_open(&d, true));
	assert_int_equal(disasm_walk(&d, code, sizeof(code), 0x1000, sizeof(code), record, &s),
			 sizeof(code));
	disasm_close(&d);

	assert_int_equal(s.n, 5);
	assert_int_equal(s.cet[0], CET_ENDBR64);
	assert_int_equal(s.addr[1], 0x1004);
	assert_int_equal(s.cet[1], CET_INCSSP);
	assert_int_equal(s.size[1], 5);
	assert_int_equal(s.cet[2], CET_RDSSP);
	assert_int_equal(s.addr[3], 0x100e);
	assert_true(s.capstone[3]);
	assert_int_equal(s.prefix_3e[3], 0x3e); /* notrack, as Capstone 4 shows it */
	assert_int_equal(s.addr[4], 0x1011);
	assert_true(s.capstone[4]);
}

static void a_walk_measures_evex_instructions_capstone_cannot_read(void **state)
{
	/* vxorps %zmm11,%zmm10,%zmm0 (Capstone 4 refuses it); vsubpd {rn-sae},%zmm2,%zmm4,%zmm0
	 * (read as six bytes); ret. Read byte by byte, the first ends in 57 c3 (push %rdi;
	 * ret) and Debian 13's libmvec looked like a stack pivot. */
	static const unsigned char code[] = {
		0x62, 0xd1, 0x2c, 0x48, 0x57, 0xc3,
		0x62, 0xf1, 0xdd, 0x18, 0x5c, 0xc2,
		0xc3,
	};
	struct disasm d;
	struct seen s = { 0 };

	(void)state;
	assert_true(disasm_open(&d, true));
	assert_int_equal(disasm_walk(&d, code, sizeof(code), 0x3000, sizeof(code), record, &s),
			 sizeof(code));
	disasm_close(&d);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.size[0], 6);
	assert_int_equal(s.addr[1], 0x3006);
	assert_int_equal(s.size[1], 6);
	assert_int_equal(s.addr[2], 0x300c);
	assert_true(s.capstone[2]);
}

static void a_walk_stops_at_the_limit(void **state)
{
	static const unsigned char code[] = { 0x90, 0x90, 0x90, 0xc3 };
	struct disasm d;
	struct seen s = { 0 };

	(void)state;
	assert_true(disasm_open(&d, true));
	assert_int_equal(disasm_walk(&d, code, sizeof(code), 0x2000, 2, record, &s), 2);
	disasm_close(&d);
	assert_int_equal(s.n, 2);
}

static void the_measure_knows_cet_and_refuses_non_instructions(void **state)
{
	static const unsigned char invalid64[] = { 0x06 }; /* push %es: not in 64-bit */
	static const unsigned char short_call[] = { 0xe8, 0x00, 0x00 };
	struct disasm d64, d32;
	size_t i;

	(void)state;
	assert_true(disasm_open(&d64, true));
	assert_true(disasm_open(&d32, false));
	for (i = 0; i < sizeof(cet_cases) / sizeof(cet_cases[0]); i++) {
		const struct cet_case *t = &cet_cases[i];

		print_message("%s\n", t->what);
		assert_int_equal(disasm_length(t->is64 ? &d64 : &d32, t->bytes, t->n), t->n);
	}
	assert_int_equal(disasm_length(&d64, invalid64, sizeof(invalid64)), 0);
	assert_int_equal(disasm_length(&d32, invalid64, sizeof(invalid64)), 1);
	assert_int_equal(disasm_length(&d64, short_call, sizeof(short_call)), 0);
	disasm_close(&d64);
	disasm_close(&d32);
}

struct compared {
	struct disasm d;
	cs_insn *insn;
	size_t count, objects;
};

/* Compares the measure with Capstone over code: where Capstone decodes an instruction,
 * both lengths must be equal (what Capstone 4 cannot read, AVX-512 mask instructions
 * for one, is stepped over by the measure). */
static void compare_code(struct compared *c, const unsigned char *code, size_t n,
			 const char *object)
{
	size_t at = 0;

	while (at < n) {
		const uint8_t *p = code + at;
		size_t left = n - at, len = disasm_length(&c->d, code + at, n - at);
		uint64_t addr = at;

		if (!cs_disasm_iter(c->d.handle, &p, &left, &addr, c->insn)) {
			at += len ? len : 1;
			continue;
		}
		if (len != c->insn->size)
			fail_msg("%s+0x%zx (%s %s): measured %zu bytes, Capstone %u", object, at,
				 c->insn->mnemonic, c->insn->op_str, len, (unsigned)c->insn->size);
		at += len;
		c->count++;
	}
}

static void compare_segment(const unsigned char *code, size_t n, const char *object, void *ctx)
{
	compare_code(ctx, code, n, object);
}

/* The sweep measures its way to a candidate and lets Capstone decode the last
 * instructions: both must put the boundaries in the same places. Walked over real code
 * (this program and every library it has loaded: libc, Capstone, Zydis, cmocka), every
 * length must match. */
static void the_measure_agrees_with_capstone_on_real_code(void **state)
{
	struct compared c = { 0 };

	(void)state;
	assert_true(disasm_open(&c.d, true));
	c.insn = cs_malloc(c.d.handle);
	assert_non_null(c.insn);
	c.objects = for_each_loaded_code(compare_segment, &c);
	print_message("%zu instructions compared in %zu objects\n", c.count, c.objects);
	assert_true(c.objects >= 4);
	assert_true(c.count > 100000);
	cs_free(c.insn, 1);
	disasm_close(&c.d);
}

struct differences {
	ZydisDecoder zydis[2]; /* 32-bit, 64-bit */
	size_t covered, offsets;
};

/* Zydis's length of the instruction at P, 0 when it decodes none. */
static size_t zydis_length(const ZydisDecoder *z, const unsigned char *p, size_t n)
{
	ZydisDecodedInstruction insn;

	if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(z, NULL, p, n, &insn)))
		return 0;
	return insn.length;
}

/* At every byte of CODE, in both modes, wherever the tables give a length it must be
 * Zydis's. Starting at every byte, not only at instructions, reads the code as the
 * odd encodings that misaligned or data bytes make. */
static void compare_quick(struct differences *d, const unsigned char *code, size_t n,
			  const char *object)
{
	size_t at;
	int mode;

	for (at = 0; at < n; at++) {
		for (mode = 0; mode < 2; mode++) {
			size_t avail = n - at < 16 ? n - at : 16;
			size_t q = quick_length(code + at, avail, mode), z;

			d->offsets++;
			if (!q)
				continue;
			z = zydis_length(&d->zydis[mode], code + at, avail);
			if (q != z)
				fail_msg("%s+0x%zx, %d-bit: the tables say %zu bytes, Zydis %zu "
					 "(%02x %02x %02x %02x %02x %02x)",
					 object, at, mode ? 64 : 32, q, z, code[at],
					 avail > 1 ? code[at + 1] : 0, avail > 2 ? code[at + 2] : 0,
					 avail > 3 ? code[at + 3] : 0, avail > 4 ? code[at + 4] : 0,
					 avail > 5 ? code[at + 5] : 0);
			d->covered++;
		}
	}
}

static void compare_quick_segment(const unsigned char *code, size_t n, const char *object,
				  void *ctx)
{
	compare_quick(ctx, code, n, object);
}

static void init_zydis(struct differences *d)
{
	assert_true(ZYAN_SUCCESS(ZydisDecoderInit(&d->zydis[0], ZYDIS_MACHINE_MODE_LEGACY_32,
						  ZYDIS_STACK_WIDTH_32)));
	assert_true(ZYAN_SUCCESS(
		ZydisDecoderInit(&d->zydis[1], ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)));
}

/* The measure reads common instructions from its own tables and asks Zydis for the rest:
 * both must agree wherever the tables answer, in real code and in random bytes. */
static void the_length_tables_agree_with_zydis(void **state)
{
	struct differences d = { 0 };
	unsigned char noise[1 << 16];
	uint32_t x = RANDOM_SEED;
	size_t i;
	int round;

	(void)state;
	init_zydis(&d);
	for_each_loaded_code(compare_quick_segment, &d);
	for (round = 0; round < 16; round++) {
		for (i = 0; i < sizeof(noise); i++)
			noise[i] = (unsigned char)next_random(&x);
		compare_quick(&d, noise, sizeof(noise), "random bytes");
	}
	print_message("%zu of %zu starts measured by the tables, all as Zydis does\n", d.covered,
		      d.offsets);
	/* most starts in code are ordinary instructions the tables know */
	assert_true(d.covered > d.offsets / 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(recognises_each_cet_instruction_with_its_length),
		cmocka_unit_test(ordinary_and_truncated_bytes_are_not_cet),
		cmocka_unit_test(endbr_matches_the_file_class),
		cmocka_unit_test(a_walk_keeps_instruction_boundaries_across_cet_instructions),
		cmocka_unit_test(a_walk_measures_evex_instructions_capstone_cannot_read),
		cmocka_unit_test(a_walk_stops_at_the_limit),
		cmocka_unit_test(the_measure_knows_cet_and_refuses_non_instructions),
		cmocka_unit_test(the_measure_agrees_with_capstone_on_real_code),
		cmocka_unit_test(the_length_tables_agree_with_zydis),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
