/* long run_marked(path, argv, envp, int *status): fork; the child waits until the parent
 * sleeps in wait4 (wait_parent_asleep, in C: the window is not open yet), then execve's
 * right after the begin marker; the parent goes straight from fork to wait4 and executes
 * the end marker right after wait4 returns. Returns wait4's result. Markers:
 * nopl 0x43455431(%rax) begin, nopl 0x43455430(%rax) end. */
	.text
	.globl	run_marked
	.type	run_marked, @function
run_marked:
	endbr64
	push	%rbx
	push	%r12
	push	%r13
	push	%r14
	mov	%rcx, %rbx		/* status pointer survives the syscalls */
	mov	%rdi, %r12		/* execve's arguments survive the child's call */
	mov	%rsi, %r13
	mov	%rdx, %r14
	mov	$57, %eax		/* fork */
	syscall
	test	%rax, %rax
	jnz	1f
	sub	$8, %rsp		/* child: align the stack for the call */
	call	wait_parent_asleep
	mov	%r12, %rdi		/* execve(path, argv, envp) */
	mov	%r13, %rsi
	mov	%r14, %rdx
	mov	$59, %eax
	nopl	0x43455431(%rax)
	syscall
	mov	$127, %edi
	mov	$60, %eax		/* exit(127) if execve failed */
	syscall
1:	mov	%rax, %rdi		/* parent: wait4(pid, status, 0, NULL) */
	mov	%rbx, %rsi
	xor	%edx, %edx
	xor	%r10d, %r10d
	mov	$61, %eax
	syscall
	nopl	0x43455430(%rax)
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbx
	ret
	.size	run_marked, .-run_marked
	.section .note.GNU-stack,"",@progbits
