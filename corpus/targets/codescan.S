/* Code addresses taken in position-dependent code (built nolibc only), hand-written:
 *   - a size computed from two code addresses (mov $region_end,%r12d;
 *     sub $region_start,%r12, as CPython measures its trampoline): region_end is a
 *     function start without ENDBR, but no address is taken, so no finding;
 *   - the address of a global label that is no function start (resume, inside
 *     with_label), taken and jumped to: a finding, which the stripped twin cannot show
 *     (nothing names resume there);
 *   - such a label loaded only to be compared with (resume_end, as qemu bounds its
 *     safe_syscall_start/end): no finding. */
	.text
	.globl	main
	.type	main, @function
main:
	.cfi_startproc
	endbr64
	push	%r12
	.cfi_def_cfa_offset 16
	mov	$region_end, %r12d
	xor	%eax, %eax
	sub	$region_start, %r12
	mov	%r12d, %edi
	mov	$resume_end, %edx
	cmp	%rdx, %rdi
	mov	$resume, %ecx
	call	with_label
	pop	%r12
	.cfi_def_cfa_offset 8
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
	.globl	resume_end
resume_end:
	ret
	.cfi_endproc
	.size	with_label, . - with_label

	.globl	region_start
region_start:
	.fill	16, 1, 0x90
	.globl	region_end
	.type	region_end, @function
region_end:
	.cfi_startproc
	xor	%eax, %eax
	ret
	.cfi_endproc
	.size	region_end, . - region_end
	.section .note.GNU-stack, "", @progbits
