#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "cet_state.h"

#include <stdlib.h>
#include <string.h>

void cet_thread_reset(struct cet_thread *t, bool ibt, bool shstk)
{
	t->ibt = ibt, t->shstk = shstk;
	t->pending = PENDING_NONE;
	t->pushed = false;
	t->src = t->target = 0;
	t->depth = 0;
	t->n_frames = 0;
	t->calls = t->rets = t->tracked = 0;
}

void cet_thread_free(struct cet_thread *t)
{
	free(t->shadow);
	free(t->frames);
	memset(t, 0, sizeof(*t));
}

static void shadow_push(struct cet_thread *t, uint64_t v)
{
	if (t->depth == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		uint64_t *grown = realloc(t->shadow, cap * sizeof(*grown));
		if (!grown)
			return; /* out of memory: the entry is lost, later returns report it */
		t->shadow = grown, t->cap = cap;
	}
	t->shadow[t->depth++] = v;
}

void cet_call(struct cet_thread *t, uint64_t src, uint64_t ret_addr)
{
	(void)src;
	if (!t->shstk)
		return;
	t->calls++;
	size_t before = t->depth;
	shadow_push(t, ret_addr);
	t->pushed = t->depth > before;
}

void cet_branch(struct cet_thread *t, enum cet_pending kind, uint64_t src, uint64_t target)
{
	t->pending = kind;
	t->src = src;
	t->target = target;
}

/* The handler entered as a signal returns to the entry under its restorer: it was an
 * indirect call to the handler after all. Forget the frame. */
static bool was_called_handler(struct cet_thread *t, uint64_t dst)
{
	if (t->n_frames == 0)
		return false;
	const struct cet_sigframe *f = &t->frames[t->n_frames - 1];
	if (!f->ambiguous || f->shadow_depth + 1 != t->depth || f->shadow_depth == 0 ||
	    t->shadow[f->shadow_depth - 1] != dst)
		return false;
	t->n_frames--;
	t->depth -= 2;
	return true;
}

static int check_return(struct cet_thread *t, const struct cet_block *b, cet_report_fn report)
{
	uint64_t dst = b->pc;

	t->rets++;
	if (t->depth > 0) {
		uint64_t top = t->shadow[t->depth - 1];
		if (top == dst || top == CET_ANY_RETURN) {
			t->depth--;
			return 0;
		}
		if (was_called_handler(t, dst))
			return 0;
		/* System mode sees no signal delivery: a handler returning to its restorer is
		 * recognised by the restorer's code and leaves the stack alone. */
		if (b->sigreturn_stub)
			return 0;
		/* A return to a deeper entry: longjmp or an unwinder without INCSSP. The hardware
		 * faults; a CET-less userland does this legitimately, so it is its own kind. */
		for (size_t i = t->depth - 1; i-- > 0;) {
			if (t->shadow[i] == dst) {
				struct violation v = {
					VIOL_SHSTK_UNWIND,	     t->src, dst, true, top,
					(unsigned)(t->depth - 1 - i)
				};
				t->depth = i;
				/* Signal frames whose restorer entry was unwound past are gone too. */
				while (t->n_frames > 0 &&
				       t->frames[t->n_frames - 1].shadow_depth >= i)
					t->n_frames--;
				report(&v);
				return 1;
			}
		}
	}
	/* A mismatch faults on hardware, leaving the shadow stack as it was: keep it so. */
	struct violation v = {
		VIOL_SHSTK, t->src, dst, t->depth > 0, t->depth > 0 ? t->shadow[t->depth - 1] : 0, 0
	};
	report(&v);
	return 1;
}

int cet_arrive(struct cet_thread *t, const struct cet_block *b, cet_report_fn report)
{
	enum cet_pending pending = t->pending;
	bool pushed = t->pushed;
	int found = 0;
	t->pending = PENDING_NONE;
	t->pushed = false;
	/* A block starting at the branch itself: the branch faulted (a page fault on the stack
	 * write of a CALL, in system mode) and runs again. It never happened: undo its push. */
	if (pending != PENDING_NONE && b->pc == t->src) {
		if (pushed && t->depth > 0)
			t->depth--;
		return 0;
	}
	switch (pending) {
	case PENDING_TRACKED:
		if (!t->ibt)
			break;
		t->tracked++;
		if (!b->starts_with_endbr && b->ibt_in_scope) {
			struct violation v = { VIOL_IBT, t->src, b->pc, false, 0, 0 };
			report(&v);
			found = 1;
		}
		break;
	case PENDING_RET:
		if (t->shstk)
			found = check_return(t, b, report);
		break;
	default:
		break;
	}
	return found;
}

bool cet_is_signal_entry(const struct cet_thread *t, uint64_t pc)
{
	return t->pending != PENDING_DIRECT_CALL || t->target != pc;
}

void cet_signal_enter(struct cet_thread *t, uint64_t restorer)
{
	if (t->n_frames == t->cap_frames) {
		size_t cap = t->cap_frames ? 2 * t->cap_frames : 8;
		struct cet_sigframe *grown = realloc(t->frames, cap * sizeof(*grown));
		if (!grown)
			return;
		t->frames = grown, t->cap_frames = cap;
	}
	bool ambiguous = t->pending == PENDING_TRACKED || t->pending == PENDING_UNTRACKED;
	t->pushed = false;
	t->frames[t->n_frames++] =
		(struct cet_sigframe){ ambiguous, t->pending, t->src, t->target, t->depth };
	t->pending = PENDING_NONE;
	if (t->shstk)
		shadow_push(t, restorer);
}

void cet_sigreturn(struct cet_thread *t)
{
	if (t->n_frames == 0)
		return;
	struct cet_sigframe f = t->frames[--t->n_frames];
	t->pending = f.pending;
	t->src = f.src;
	t->target = f.target;
	if (f.shadow_depth <= t->depth)
		t->depth = f.shadow_depth;
}
