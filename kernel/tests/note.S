/*
 * glibc-free test programs for the kernel's reading of the CET property
 * note.  Each is built with one CASE_* macro; _start only exits with 42,
 * so an exit status of 42 proves that exec succeeded.  With a BODY_*
 * macro it first makes the indirect branch an IBT check is about.  The
 * note goes in .note.elfcet (not .note.gnu.property, which ld would merge
 * or reject) and the linker script (prog.lds.S) gives it its
 * PT_GNU_PROPERTY header.
 */
#define NT_GNU_PROPERTY_TYPE_0		5
#define GNU_PROPERTY_X86_FEATURE_1_AND	0xc0000002
#define GNU_PROPERTY_X86_ISA_1_NEEDED	0xc0008002

#define UC_RIP		168		/* ucontext: uc_mcontext.rip */
#define UC_EFLAGS	176		/* uc_mcontext.eflags */
#define UC_FPSTATE	224		/* uc_mcontext.fpstate */
#define ALT_SIZE	(3 * 4096)	/* BODY_SIGNAL_FRAME_FAILS' altstack */

/* rt_sigaction(signo, &act, NULL, 8), or exit 44 when it is refused */
.macro sigaction_or_exit44 signo, act
	mov	$13, %eax
	mov	$\signo, %edi
	lea	\act(%rip), %rsi
	xor	%edx, %edx
	mov	$8, %r10d
	syscall
	test	%rax, %rax
	jnz	exit44
.endm

/*
 * Jump to step_target (no ENDBR) through a register with TF set: the trap
 * comes after the jump, with the IBT tracker waiting for ENDBR.
 */
.macro single_step_to_target
	lea	step_target(%rip), %rax
	pushfq
	orq	$0x100, (%rsp)		/* TF: trap after the instruction after popfq */
	popfq
	jmp	*%rax
.endm

	.text
	.globl	_start
_start:
	endbr64
#if defined(BODY_CALL_ENDBR)
	/* An indirect call to a target with ENDBR: fine under IBT */
	lea	with_endbr(%rip), %rax
	call	*%rax
#elif defined(BODY_CALL_NO_ENDBR)
	/* An indirect call to a target without ENDBR: #CP under IBT */
	lea	without_endbr(%rip), %rax
	call	*%rax
#elif defined(BODY_NOTRACK_JMP)
	/* notrack jumps are exempt, as NO_TRACK_EN is set */
	lea	without_endbr(%rip), %rax
	notrack jmp *%rax
#elif defined(BODY_DISABLE_THEN_CALL)
	/*
	 * Turn IBT off, then call a target without ENDBR.  Exit 42 when the
	 * arch_prctl succeeded, 43 when it failed (no CPU support).
	 */
	mov	$158, %eax		/* arch_prctl(ARCH_X86_CET_DISABLE, IBT) */
	mov	$0x3002, %edi
	mov	$1, %esi
	syscall
	test	%rax, %rax
	jnz	exit43
	lea	without_endbr(%rip), %rax
	call	*%rax
#elif defined(BODY_THREAD_SCOPE)
	/*
	 * DISABLE and LOCK act on the calling thread only.  A second thread
	 * turns IBT off, calls a target without ENDBR (fine: its IBT is off)
	 * and locks; the main thread then still has IBT (STATUS), is not
	 * locked, and the same call is #CP in it.  Exit 42 would mean the
	 * thread's DISABLE reached the main thread; 43: the arch_prctl failed
	 * (no CPU support); 45: clone failed; 46: STATUS lost IBT in the main
	 * thread; 47: the main thread is locked; 48: the thread's own LOCK
	 * did not hold.
	 */
	mov	$56, %eax		/* clone(VM|FS|FILES|SIGHAND|THREAD, stack) */
	mov	$0x10f00, %edi
	lea	thread_stack_top(%rip), %rsi
	xor	%edx, %edx
	xor	%r10d, %r10d
	xor	%r8d, %r8d
	syscall
	test	%rax, %rax
	js	exit45
	jz	scope_thread
1:	pause
	cmpb	$0, thread_state(%rip)
	je	1b
	cmpb	$2, thread_state(%rip)
	je	exit43
	cmpb	$3, thread_state(%rip)
	je	exit48
	mov	$158, %eax		/* arch_prctl(ARCH_X86_CET_STATUS, buf) */
	mov	$0x3001, %edi
	lea	cet_status(%rip), %rsi
	syscall
	test	%rax, %rax
	jnz	exit46
	testb	$1, cet_status(%rip)
	jz	exit46
	mov	$158, %eax		/* DISABLE(nothing): EPERM only if locked */
	mov	$0x3002, %edi
	xor	%esi, %esi
	syscall
	test	%rax, %rax
	jnz	exit47
	lea	without_endbr(%rip), %rax
	call	*%rax
#elif defined(BODY_SIGNAL_WAIT_ENDBR) || defined(BODY_SIGNAL_NULL_FPSTATE)
	/*
	 * Single-step an indirect jump to a target without ENDBR: the trap
	 * comes after the jump, with the IBT tracker waiting for ENDBR.  The
	 * SIGTRAP handler must start without that wait and the return to the
	 * target must find it again: #CP at the target under IBT.  Without
	 * IBT the target runs and exits 42 if the handler saw the trap there
	 * (43 if it did not, 44 if the handler could not be installed).
	 * BODY_SIGNAL_NULL_FPSTATE: the handler also sets the frame's fpstate
	 * to NULL, which must be a valid frame for an IBT task; it has no IBT
	 * record then, so the target runs with the tracker idle: exit 42.
	 */
	sigaction_or_exit44 5, trap_act	/* SIGTRAP */
	single_step_to_target
#elif defined(BODY_SIGNAL_FRAME_FAILS)
	/*
	 * The same single-stepped jump, but the SIGTRAP frame fails after its
	 * FPU state and IBT record are written (an unwritable altstack would
	 * fail at the FPU state, before the record): a probe signal measures
	 * how far below the altstack's top the FPU state goes, and the top is
	 * then put so that it starts 64 bytes above a read-only page, which
	 * the rest of the frame reaches.  The SIGSEGV (SI_KERNEL) sent instead
	 * must still find the tracker in WAIT_ENDBR: its handler stops the
	 * stepping and returns, and under IBT the target is #CP.  Exits: 42
	 * the target ran (43 without the trap seen there), 10 SEGV_CPERR in
	 * the handler; 44 set-up failed, 45 the SIGTRAP frame was written,
	 * 46 it failed before its FPU state, 47 another SIGSEGV.
	 */
	mov	$9, %eax		/* mmap(0, 3 pages, RW, private anon) */
	xor	%edi, %edi
	mov	$ALT_SIZE, %esi
	mov	$3, %edx
	mov	$0x22, %r10d
	mov	$-1, %r8
	xor	%r9d, %r9d
	syscall
	cmp	$-4095, %rax
	jae	exit44
	mov	%rax, %r12		/* base; base + 4096: the boundary */
	mov	%rax, alt_ss(%rip)
	movq	$ALT_SIZE, alt_ss + 16(%rip)
	mov	$131, %eax		/* sigaltstack(&alt_ss, 0): all 3 pages */
	lea	alt_ss(%rip), %rdi
	xor	%esi, %esi
	syscall
	test	%rax, %rax
	jnz	exit44
	sigaction_or_exit44 10, probe_act	/* SIGUSR1 */
	mov	$39, %eax		/* kill(getpid(), SIGUSR1) */
	syscall
	mov	%eax, %edi
	mov	$62, %eax
	mov	$10, %esi
	syscall
	test	%rax, %rax
	jnz	exit44
	lea	ALT_SIZE(%r12), %r13	/* off = top - fpstate, a multiple of 64 */
	sub	probe_fpstate(%rip), %r13
	jbe	exit44
	cmp	$ALT_SIZE - 4096 - 64, %r13
	ja	exit44
	lea	4096 + 64(%r13), %rax	/* ss_size: top = boundary + off + 64 */
	mov	%rax, alt_ss + 16(%rip)
	mov	$131, %eax
	lea	alt_ss(%rip), %rdi
	xor	%esi, %esi
	syscall
	test	%rax, %rax
	jnz	exit44
	lea	4096 + 64(%r12), %rax	/* where the SIGTRAP frame's FPU state goes */
	mov	%rax, frame_fpstate(%rip)
	movl	$0, 24(%rax)		/* its mxcsr, which the FPU save writes */
	mov	$10, %eax		/* mprotect(base, 4096, PROT_READ) */
	mov	%r12, %rdi
	mov	$4096, %esi
	mov	$1, %edx
	syscall
	test	%rax, %rax
	jnz	exit44
	sigaction_or_exit44 5, trap_act	/* SIGTRAP */
	sigaction_or_exit44 11, segv_act	/* SIGSEGV */
	single_step_to_target
#endif
exit42:
	mov	$60, %eax		/* exit(42) */
	mov	$42, %edi
	syscall
	hlt
exit43:
	mov	$60, %eax
	mov	$43, %edi
	syscall
	hlt

exit44:
	mov	$60, %eax
	mov	$44, %edi
	syscall
	hlt

with_endbr:
	endbr64
	jmp	exit42
without_endbr:
	nop
	jmp	exit42

#ifdef BODY_THREAD_SCOPE
exit45:
	mov	$60, %eax
	mov	$45, %edi
	syscall
	hlt
exit46:
	mov	$60, %eax
	mov	$46, %edi
	syscall
	hlt
exit47:
	mov	$60, %eax
	mov	$47, %edi
	syscall
	hlt
exit48:
	mov	$60, %eax
	mov	$48, %edi
	syscall
	hlt

/* The second thread: state 1 done, 2 DISABLE failed, 3 its LOCK did not hold */
scope_thread:
	mov	$158, %eax		/* arch_prctl(ARCH_X86_CET_DISABLE, IBT) */
	mov	$0x3002, %edi
	mov	$1, %esi
	syscall
	test	%rax, %rax
	jnz	2f
	lea	returns_without_endbr(%rip), %rax
	call	*%rax
	mov	$158, %eax		/* arch_prctl(ARCH_X86_CET_LOCK, 0) */
	mov	$0x3003, %edi
	xor	%esi, %esi
	syscall
	test	%rax, %rax
	jnz	3f
	mov	$158, %eax		/* DISABLE(nothing) once locked: -EPERM */
	mov	$0x3002, %edi
	xor	%esi, %esi
	syscall
	cmp	$-1, %rax		/* -EPERM */
	jne	3f
	movb	$1, thread_state(%rip)
	jmp	4f
2:	movb	$2, thread_state(%rip)
	jmp	4f
3:	movb	$3, thread_state(%rip)
4:	mov	$60, %eax		/* exit this thread only */
	xor	%edi, %edi
	syscall
	hlt
returns_without_endbr:
	nop
	ret

	.data
	.p2align 4
thread_stack:
	.fill	4096, 1, 0
thread_stack_top:
cet_status:
	.quad	0, 0, 0
thread_state:
	.byte	0
	.text
#endif

#if defined(BODY_SIGNAL_WAIT_ENDBR) || defined(BODY_SIGNAL_NULL_FPSTATE) || \
	defined(BODY_SIGNAL_FRAME_FAILS)
step_target:				/* no ENDBR */
	cmpb	$1, trapped_at_target(%rip)
	jne	exit43
	jmp	exit42
#endif

#if defined(BODY_SIGNAL_WAIT_ENDBR) || defined(BODY_SIGNAL_NULL_FPSTATE)
/* handler(sig, info, ucontext): note where the trap was, stop stepping */
trap_handler:
	endbr64
	lea	step_target(%rip), %rcx
	cmp	%rcx, UC_RIP(%rdx)
	jne	1f
	movb	$1, trapped_at_target(%rip)
1:	andq	$~0x100, UC_EFLAGS(%rdx)
#ifdef BODY_SIGNAL_NULL_FPSTATE
	movq	$0, UC_FPSTATE(%rdx)
#endif
	ret
trap_restorer:
	mov	$15, %eax		/* rt_sigreturn */
	syscall
	hlt
#endif

#ifdef BODY_SIGNAL_FRAME_FAILS
/* SIGUSR1 handler(sig, info, ucontext): where did the FPU state go? */
probe_handler:
	endbr64
	mov	UC_FPSTATE(%rdx), %rax
	mov	%rax, probe_fpstate(%rip)
	ret

/* SIGTRAP handler: its frame was written, so this tests nothing */
trap_handler:
	endbr64
	mov	$45, %edi
	jmp	exit_edi

/*
 * SIGSEGV handler(sig, info, ucontext), on the normal stack: exit 10 for
 * SEGV_CPERR; for the failed SIGTRAP delivery (SI_KERNEL) check that the
 * frame got as far as its FPU state, note where the trap was, stop
 * stepping and return.
 */
segv_handler:
	endbr64
	mov	8(%rsi), %eax		/* si_code */
	mov	$10, %edi
	cmp	$10, %eax		/* SEGV_CPERR */
	je	exit_edi
	mov	$47, %edi
	cmp	$0x80, %eax		/* SI_KERNEL */
	jne	exit_edi
	mov	$46, %edi
	mov	frame_fpstate(%rip), %rax
	cmpl	$0, 24(%rax)
	je	exit_edi
	lea	step_target(%rip), %rcx
	cmp	%rcx, UC_RIP(%rdx)
	jne	1f
	movb	$1, trapped_at_target(%rip)
1:	andq	$~0x100, UC_EFLAGS(%rdx)
	ret
frame_restorer:
	mov	$15, %eax		/* rt_sigreturn */
	syscall
	hlt
exit_edi:
	mov	$60, %eax
	syscall
	hlt
#endif

	.data
	.quad	0
#if defined(BODY_SIGNAL_WAIT_ENDBR) || defined(BODY_SIGNAL_NULL_FPSTATE)
trap_act:				/* struct kernel_sigaction */
	.quad	trap_handler
	.quad	0x04000004		/* SA_RESTORER | SA_SIGINFO */
	.quad	trap_restorer
	.quad	0			/* no signal blocked */
trapped_at_target:
	.byte	0
#endif

#ifdef BODY_SIGNAL_FRAME_FAILS
probe_act:				/* SA_RESTORER | SA_ONSTACK | SA_SIGINFO */
	.quad	probe_handler, 0x0c000004, frame_restorer, 0
trap_act:
	.quad	trap_handler, 0x0c000004, frame_restorer, 0
segv_act:				/* on the normal stack */
	.quad	segv_handler, 0x04000004, frame_restorer, 0
alt_ss:					/* stack_t: ss_sp, ss_flags, ss_size */
	.quad	0, 0, 0
probe_fpstate:
	.quad	0
frame_fpstate:
	.quad	0
trapped_at_target:
	.byte	0
#endif

#ifdef INTERP_PATH
	.section .interp, "a"
	.asciz	INTERP_PATH
#endif

/* One property: type, datasz, one 32-bit word of data, padded to 8 */
#define PROP(type, value)		\
	.long	type;			\
	.long	4;			\
	.long	value;			\
	.long	0

#if !defined(CASE_NONE)
	.section .note.elfcet, "a"
	.p2align 3
	.long	4				/* n_namesz */
	.long	2f - 1f				/* n_descsz */
	.long	NT_GNU_PROPERTY_TYPE_0
#ifdef CASE_BAD_NAME
	.asciz	"GNX"
#else
	.asciz	"GNU"
#endif
1:
#if defined(CASE_IBT) || defined(CASE_BAD_NAME)
	PROP(GNU_PROPERTY_X86_FEATURE_1_AND, 1)
#elif defined(CASE_IBT_SHSTK)
	PROP(GNU_PROPERTY_X86_FEATURE_1_AND, 3)
#elif defined(CASE_ZERO)
	PROP(GNU_PROPERTY_X86_FEATURE_1_AND, 0)
#elif defined(CASE_OTHER)
	PROP(GNU_PROPERTY_X86_ISA_1_NEEDED, 1)
#elif defined(CASE_SORTED)
	PROP(GNU_PROPERTY_X86_FEATURE_1_AND, 1)
	PROP(GNU_PROPERTY_X86_ISA_1_NEEDED, 1)
#elif defined(CASE_UNSORTED)
	PROP(GNU_PROPERTY_X86_ISA_1_NEEDED, 1)
	PROP(GNU_PROPERTY_X86_FEATURE_1_AND, 1)
#elif defined(CASE_BAD_DATASZ)
	/* FEATURE_1_AND carries 8 bytes instead of 4 */
	.long	GNU_PROPERTY_X86_FEATURE_1_AND
	.long	8
	.quad	1
#elif defined(CASE_OVERRUN)
	/* pr_datasz says 4 bytes, but the descriptor ends after the header */
	.long	GNU_PROPERTY_X86_FEATURE_1_AND
	.long	4
2:
	.long	1
	.long	0
#else
#error "no CASE_* given"
#endif
#ifndef CASE_OVERRUN
2:
#endif
#endif
