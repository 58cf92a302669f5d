/* Code addresses taken in position-dependent code (built nolibc only), hand-written:
 *   - the address of a global label that is no function start (resume, inside
 *     with_label), taken and jumped to: a finding, which the stripped twin cannot show
 *     (nothing names resume there). */
	.text
	.globl	main
	.type	main, @function
main:
	.cfi_startproc
	endbr64
	xor	%edi, %edi
	mov	$resume, %ecx
	call	with_label
	ret
	.cfi_endproc
	.size	main, . - main

/* Jumps to the address in %rcx: resume, below. */
	.globl	with_label
	.type	with_label, @function
with_label:
	.cfi_startproc
	endbr64
	mov	%edi, %eax
	jmp	*%rcx
	.globl	resume
resume:
	add	$1, %eax
	ret
	.cfi_endproc
	.size	with_label, . - with_label

	.section .note.GNU-stack, "", @progbits
