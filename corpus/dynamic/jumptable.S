/* dispatch(n): a jump table whose case labels have no ENDBR, reached by a tracked jmp
 * (ibt violations), and dispatch_notrack(n): the same with notrack (clean). */
	.text
	.globl	dispatch
	.type	dispatch, @function
dispatch:
	endbr64
	lea	table(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	add	%rdx, %rax
	jmp	*%rax
case0:
	mov	$10, %eax
	ret
case1:
	mov	$11, %eax
	ret
	.size	dispatch, .-dispatch

	.globl	dispatch_notrack
	.type	dispatch_notrack, @function
dispatch_notrack:
	endbr64
	lea	table_nt(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	add	%rdx, %rax
	notrack jmp *%rax
nt_case0:
	mov	$20, %eax
	ret
nt_case1:
	mov	$21, %eax
	ret
	.size	dispatch_notrack, .-dispatch_notrack

	.section .rodata
	.align 4
table:
	.long	case0 - table, case1 - table
table_nt:
	.long	nt_case0 - table_nt, nt_case1 - table_nt
	.section .note.GNU-stack,"",@progbits
