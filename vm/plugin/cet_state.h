/* The CET state machine of one guest thread: the IBT tracker (WAIT_FOR_ENDBRANCH after a
 * tracked indirect CALL/JMP) and the shadow stack, plus the signal frames that save them.
 *
 * QEMU gives no register values, but it ends a translation block at every indirect branch and
 * return, so the block executed next starts at the branch target.  The plugin therefore calls
 * cet_branch() just before a CALL/RET/indirect JMP executes and cet_arrive() at the start of
 * every block; cet_arrive() then knows both ends of the transfer.  No QEMU types here, so the
 * logic is unit-tested on its own. */
#ifndef ELFCET_CET_STATE_H
#define ELFCET_CET_STATE_H

#include "violation_log.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cet_pending {
	PENDING_NONE = 0,
	PENDING_DIRECT_CALL, /* target known: tells a direct call to a handler from a signal */
	PENDING_TRACKED,     /* tracked indirect CALL/JMP: the target must be ENDBR */
	PENDING_UNTRACKED,   /* notrack indirect CALL/JMP */
	PENDING_RET,
};

/* What is known about the block being entered, from translation time. */
struct cet_block {
	uint64_t pc;
	bool starts_with_endbr; /* ENDBR64 in 64-bit code, ENDBR32 in 32-bit code */
	bool ibt_in_scope;	/* the object holding pc is marked IBT or named for checking */
	bool sigreturn_stub;	/* system mode: a signal restorer (mov $15,%rax; syscall) */
};

struct cet_sigframe {
	bool ambiguous; /* entered while an indirect CALL/JMP was pending: maybe not a signal */
	enum cet_pending pending;
	uint64_t src, target;
	size_t shadow_depth;
};

struct cet_thread {
	bool ibt, shstk;
	enum cet_pending pending;
	uint64_t src;	 /* address of the branch that set pending */
	uint64_t target; /* direct call: its target */
	bool pushed;	 /* the pending transfer is a call that pushed its return address */
	uint64_t *shadow;
	size_t depth, cap;
	struct cet_sigframe *frames;
	size_t n_frames, cap_frames;
	uint64_t calls, rets, tracked; /* transfers checked, for the summary */
};

/* A shadow-stack entry that any return matches: a signal handler whose restorer is unknown. */
#define CET_ANY_RETURN UINT64_MAX

/* Report sink: the plugin writes JSON; the unit tests record. Returns true on a new report. */
typedef bool (*cet_report_fn)(const struct violation *v);

void cet_thread_reset(struct cet_thread *t, bool ibt, bool shstk);
void cet_thread_free(struct cet_thread *t);

/* A CALL at src with return address ret_addr is about to execute. */
void cet_call(struct cet_thread *t, uint64_t src, uint64_t ret_addr);
/* An indirect CALL/JMP (tracked or notrack), a RET, or a direct call to target is about to
 * execute at src. Call cet_call() first for calls. */
void cet_branch(struct cet_thread *t, enum cet_pending kind, uint64_t src, uint64_t target);
/* A block starts; returns the number of violations reported. */
int cet_arrive(struct cet_thread *t, const struct cet_block *b, cet_report_fn report);
/* Is the block at pc (a registered handler) entered by signal delivery rather than by the
 * pending transfer? Only a direct call to pc says no. An indirect CALL/JMP cannot be told
 * from a signal arriving just after it (TCG delivers signals between blocks), so it counts
 * as a signal; cet_arrive() undoes that when the handler returns right below the frame. */
bool cet_is_signal_entry(const struct cet_thread *t, uint64_t pc);
/* The kernel delivers a signal: save and clear the tracker, push the restorer. */
void cet_signal_enter(struct cet_thread *t, uint64_t restorer);
/* rt_sigreturn: restore what the frame saved (no-op without a frame). */
void cet_sigreturn(struct cet_thread *t);

#endif
