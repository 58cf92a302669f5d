/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /tests/ia32-shstk: a 32-bit program linked with -z shstk, for shstktest's
 * hw.shstk.exec_32bit.  Shadow stacks are for 64-bit programs only, so a
 * task with one that execs this must get a 32-bit program without one,
 * whatever its note says, and it must run as any 32-bit program does: a
 * call and its return, then a signal delivered to a 32-bit handler (an
 * ia32 rt frame) and returned from through rt_sigreturn.  No libc: plain
 * int $0x80 system calls.  Exit status 0, or the number of the step that
 * went wrong (kept in %ebp, which no call here uses as an argument).
 */
#define NR_getpid	20
#define NR_kill		37
#define NR_rt_sigreturn	173
#define NR_rt_sigaction	174
#define NR_exit_group	252
#define SIGUSR1		10
#define SA_SIGINFO	4
#define SA_RESTORER	0x04000000

	.code32
	.text
	.globl	_start
_start:
	/* 1: a call and its return */
	mov	$1, %ebp
	xor	%eax, %eax
	call	callee
	cmp	$0x1234, %eax
	jne	out

	/* 2: rt_sigaction(SIGUSR1, &act, NULL, 8) */
	mov	$2, %ebp
	mov	$NR_rt_sigaction, %eax
	mov	$SIGUSR1, %ebx
	mov	$act, %ecx
	xor	%edx, %edx
	mov	$8, %esi
	int	$0x80
	test	%eax, %eax
	jnz	out

	/* 3: kill(getpid(), SIGUSR1); the handler runs on the way back */
	mov	$3, %ebp
	mov	$NR_getpid, %eax
	int	$0x80
	mov	%eax, %ebx
	mov	$NR_kill, %eax
	mov	$SIGUSR1, %ecx
	int	$0x80
	test	%eax, %eax
	jnz	out

	/* 4: the handler saw the signal, and rt_sigreturn brought us here */
	mov	$4, %ebp
	cmpl	$SIGUSR1, seen
	jne	out
	xor	%ebp, %ebp
out:
	mov	%ebp, %ebx
	mov	$NR_exit_group, %eax
	int	$0x80
	hlt

callee:
	mov	$0x1234, %eax
	ret

/* handler(sig, info, uc), cdecl: the signal number is at 4(%esp) */
handler:
	mov	4(%esp), %eax
	mov	%eax, seen
	ret

/* The handler returns here (the frame's return address) */
restorer:
	mov	$NR_rt_sigreturn, %eax
	int	$0x80
	hlt

	.data
	.balign	4
/* struct compat_sigaction: handler, flags, restorer, mask (two words) */
act:
	.long	handler, SA_SIGINFO | SA_RESTORER, restorer, 0, 0
seen:
	.long	0
	.section .note.GNU-stack, "", @progbits
