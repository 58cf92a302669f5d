/* long window_detach_wait(pid_t pid, siginfo_t *info)
 *
 * For the dynamic CET checker (QEMU plugin, system mode): opens the checking window
 * with the begin marker, lets the traced child (stopped at its exec) go with
 * PTRACE_DETACH, waits for its end with waitid(P_PID, pid, info, WEXITED), and closes
 * the window with the end marker. Between the markers the runner executes no call, no
 * return and no indirect branch, so the only user code the checker sees in the window
 * is the program's (one vCPU). Returns waitid's result (0 or -errno: -EINTR when the job
 * time limit's SIGALRM came, whose handler then ran inside the window), or the detach's
 * error. Markers (shared with vm/plugin): nopl 0x43455431(%rax) begin,
 * nopl 0x43455430(%rax) end. */
	.text
	.globl	window_detach_wait
	.type	window_detach_wait, @function
window_detach_wait:
	push	%r12
	push	%r13
	mov	%edi, %r12d		/* pid */
	mov	%rsi, %r13		/* info */
	nopl	0x43455431(%rax)	/* begin */
	mov	$101, %eax		/* ptrace(PTRACE_DETACH, pid, 0, 0) */
	mov	$17, %edi
	mov	%r12d, %esi
	xor	%edx, %edx
	xor	%r10d, %r10d
	syscall
	test	%rax, %rax
	js	1f
	mov	$247, %eax		/* waitid(P_PID, pid, info, WEXITED, NULL) */
	mov	$1, %edi
	mov	%r12d, %esi
	mov	%r13, %rdx
	mov	$4, %r10d
	xor	%r8d, %r8d
	syscall
1:	nopl	0x43455430(%rax)	/* end */
	pop	%r13
	pop	%r12
	ret
	.size	window_detach_wait, . - window_detach_wait
	.section .note.GNU-stack, "", @progbits
