/* _start and the signal restorer of sys_cases (no libc). */
	.text
	.globl	_start
	.type	_start, @function
_start:
	endbr64
	mov	(%rsp), %rdi		/* argc */
	lea	8(%rsp), %rsi		/* argv */
	and	$-16, %rsp
	call	cases_main
	mov	%eax, %edi
	mov	$231, %eax		/* exit_group */
	syscall
	hlt
	.size	_start, .-_start

	.globl	restore_rt
	.type	restore_rt, @function
restore_rt:
	mov	$15, %rax		/* rt_sigreturn */
	syscall
	.size	restore_rt, .-restore_rt
	.section .note.GNU-stack,"",@progbits
