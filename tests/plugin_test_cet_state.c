/* The plugin's CET state machine without QEMU: sequences of calls, branches and block
 * entries, and the violations they must (and must not) produce. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "vm/plugin/cet_state.h"

static struct violation seen[16];
static size_t n_seen;

static bool record(const struct violation *v)
{
	if (n_seen < 16)
		seen[n_seen] = *v;
	n_seen++;
	return true;
}

static int setup(void **state)
{
	static struct cet_thread t;

	memset(&t, 0, sizeof(t));
	cet_thread_reset(&t, true, true);
	n_seen = 0;
	*state = &t;
	return 0;
}

static int teardown(void **state)
{
	cet_thread_free(*state);
	return 0;
}

static void arrive(struct cet_thread *t, uint64_t pc, bool endbr, bool in_scope)
{
	struct cet_block b = { pc, endbr, in_scope, false };

	cet_arrive(t, &b, record);
}

static void call(struct cet_thread *t, uint64_t src, uint64_t ret, uint64_t target)
{
	cet_call(t, src, ret);
	cet_branch(t, PENDING_DIRECT_CALL, src, target);
	arrive(t, target, false, true);
}

static void ret(struct cet_thread *t, uint64_t src, uint64_t to)
{
	cet_branch(t, PENDING_RET, src, 0);
	arrive(t, to, false, true);
}

static void test_matched_returns_are_clean(void **state)
{
	struct cet_thread *t = *state;

	call(t, 0x100, 0x105, 0x200);
	call(t, 0x210, 0x215, 0x300);
	ret(t, 0x310, 0x215);
	ret(t, 0x220, 0x105);
	assert_int_equal(n_seen, 0);
	assert_int_equal(t->depth, 0);
	assert_int_equal(t->calls, 2);
	assert_int_equal(t->rets, 2);
}

static void test_mismatch_reports_and_keeps_stack(void **state)
{
	struct cet_thread *t = *state;

	call(t, 0x100, 0x105, 0x200);
	ret(t, 0x210, 0x999); /* push; ret */
	assert_int_equal(n_seen, 1);
	assert_int_equal(seen[0].kind, VIOL_SHSTK);
	assert_int_equal(seen[0].src, 0x210);
	assert_int_equal(seen[0].dst, 0x999);
	assert_true(seen[0].has_expected);
	assert_int_equal(seen[0].expected, 0x105);
	/* The faulting RET changed nothing: the real return still matches. */
	ret(t, 0x9a0, 0x105);
	assert_int_equal(n_seen, 1);
	assert_int_equal(t->depth, 0);
}

static void test_return_to_deeper_entry_is_unwind(void **state)
{
	struct cet_thread *t = *state;

	call(t, 0x100, 0x105, 0x200);
	call(t, 0x210, 0x215, 0x300);
	call(t, 0x310, 0x315, 0x400);
	ret(t, 0x410, 0x105); /* longjmp-like: two frames skipped */
	assert_int_equal(n_seen, 1);
	assert_int_equal(seen[0].kind, VIOL_SHSTK_UNWIND);
	assert_int_equal(seen[0].depth, 2);
	assert_int_equal(seen[0].expected, 0x315);
	assert_int_equal(t->depth, 0);
}

static void test_empty_stack_return(void **state)
{
	struct cet_thread *t = *state;

	ret(t, 0x10, 0x20);
	assert_int_equal(n_seen, 1);
	assert_int_equal(seen[0].kind, VIOL_SHSTK);
	assert_false(seen[0].has_expected);
}

static void test_ibt(void **state)
{
	struct cet_thread *t = *state;

	cet_branch(t, PENDING_TRACKED, 0x10, 0);
	arrive(t, 0x500, true, true); /* ENDBR: fine */
	cet_branch(t, PENDING_UNTRACKED, 0x10, 0);
	arrive(t, 0x600, false, true); /* notrack: fine */
	cet_branch(t, PENDING_TRACKED, 0x10, 0);
	arrive(t, 0x700, false, false); /* unmarked object: legacy code, not checked */
	assert_int_equal(n_seen, 0);
	cet_branch(t, PENDING_TRACKED, 0x10, 0);
	arrive(t, 0x800, false, true);
	assert_int_equal(n_seen, 1);
	assert_int_equal(seen[0].kind, VIOL_IBT);
	assert_int_equal(seen[0].src, 0x10);
	assert_int_equal(seen[0].dst, 0x800);
	/* The tracker is consumed: the next block is not checked again. */
	arrive(t, 0x900, false, true);
	assert_int_equal(n_seen, 1);
	assert_int_equal(t->tracked, 3); /* notrack branches are not tracked */
}

static void test_ibt_off_checks_nothing(void **state)
{
	struct cet_thread *t = *state;

	cet_thread_reset(t, false, true);
	cet_branch(t, PENDING_TRACKED, 0x10, 0);
	arrive(t, 0x800, false, true);
	assert_int_equal(n_seen, 0);
}

static void test_signal_saves_and_restores_tracker(void **state)
{
	struct cet_thread *t = *state;

	call(t, 0x100, 0x105, 0x200);
	/* A tracked jmp, then a signal before its target runs. */
	cet_branch(t, PENDING_TRACKED, 0x210, 0);
	assert_true(cet_is_signal_entry(t, 0x4000));
	cet_signal_enter(t, 0x5000);
	arrive(t, 0x4000, false, true); /* handler body: not a branch target */
	ret(t, 0x4010, 0x5000);		/* handler returns to the restorer */
	assert_int_equal(n_seen, 0);
	cet_sigreturn(t);
	arrive(t, 0x300, false, true); /* the jmp's target, without ENDBR */
	assert_int_equal(n_seen, 1);
	assert_int_equal(seen[0].kind, VIOL_IBT);
	assert_int_equal(seen[0].src, 0x210);
	ret(t, 0x310, 0x105);
	assert_int_equal(n_seen, 1);
	assert_int_equal(t->n_frames, 0);
}

static void test_direct_call_to_handler_is_a_call(void **state)
{
	struct cet_thread *t = *state;

	cet_call(t, 0x100, 0x105);
	cet_branch(t, PENDING_DIRECT_CALL, 0x100, 0x4000);
	assert_false(cet_is_signal_entry(t, 0x4000));
	cet_branch(t, PENDING_DIRECT_CALL, 0x100, 0x4000);
	assert_true(cet_is_signal_entry(t, 0x7777)); /* delivered between call and target */
}

static void test_indirect_call_to_handler_is_recognised(void **state)
{
	struct cet_thread *t = *state;

	/* Entered as a "signal" after an indirect call, the handler returns to the call. */
	cet_call(t, 0x100, 0x106);
	cet_branch(t, PENDING_TRACKED, 0x100, 0);
	cet_signal_enter(t, 0x5000);
	ret(t, 0x4010, 0x106);
	assert_int_equal(n_seen, 0);
	assert_int_equal(t->depth, 0);
	assert_int_equal(t->n_frames, 0);
}

static void test_restarted_call_pushes_once(void **state)
{
	struct cet_thread *t = *state;

	call(t, 0x100, 0x105, 0x200);
	/* call *%rax at 0x210 faults on its stack write and runs again from 0x210. */
	cet_call(t, 0x210, 0x212);
	cet_branch(t, PENDING_TRACKED, 0x210, 0);
	arrive(t, 0x210, false, true);
	assert_int_equal(t->depth, 1);
	cet_call(t, 0x210, 0x212);
	cet_branch(t, PENDING_TRACKED, 0x210, 0);
	arrive(t, 0x300, true, true);
	ret(t, 0x310, 0x212);
	ret(t, 0x220, 0x105);
	assert_int_equal(n_seen, 0);
	assert_int_equal(t->depth, 0);
	/* A restarted RET is not checked twice either. */
	call(t, 0x100, 0x105, 0x200);
	cet_branch(t, PENDING_RET, 0x250, 0);
	arrive(t, 0x250, false, true);
	ret(t, 0x250, 0x105);
	assert_int_equal(n_seen, 0);
}

static void test_system_mode_restorer_stub(void **state)
{
	struct cet_thread *t = *state;
	struct cet_block stub = { 0x7000, false, true, true };

	/* System mode saw no delivery: the handler's return to the restorer stub is let be. */
	call(t, 0x100, 0x105, 0x200);
	cet_branch(t, PENDING_RET, 0x4010, 0);
	cet_arrive(t, &stub, record);
	assert_int_equal(n_seen, 0);
	assert_int_equal(t->depth, 1);
	/* Anywhere else, the same return is a violation. */
	ret(t, 0x4010, 0x7000);
	assert_int_equal(n_seen, 1);
}

static void test_unknown_restorer_matches_any(void **state)
{
	struct cet_thread *t = *state;

	cet_signal_enter(t, CET_ANY_RETURN);
	ret(t, 0x4010, 0x12345);
	assert_int_equal(n_seen, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_matched_returns_are_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mismatch_reports_and_keeps_stack, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_return_to_deeper_entry_is_unwind, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_empty_stack_return, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ibt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ibt_off_checks_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_signal_saves_and_restores_tracker, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_direct_call_to_handler_is_a_call, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_indirect_call_to_handler_is_recognised, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_restarted_call_pushes_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_system_mode_restorer_stub, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_restorer_matches_any, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
