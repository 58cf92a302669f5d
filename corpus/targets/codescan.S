/* Code addresses taken in position-dependent code (built nolibc only), hand-written:
 *   - a size computed from two code addresses (mov $region_end,%r12d;
 *     sub $region_start,%r12, as CPython measures its trampoline): region_end is a
 *     function start without ENDBR, but no address is taken, so no finding;
 *   - the address of a global label that is no function start (resume, inside
 *     with_label), taken and jumped to: a finding, which the stripped twin cannot show
 *     (nothing names resume there);
 *   - such a label loaded only to be compared with (resume_end, as qemu bounds its
 *     safe_syscall_start/end): no finding;
 *   - a tracked jump table whose lea is hoisted out of the loop, farther back than the
 *     instructions the sweep keeps (far_switch, as in glibc's vfprintf and ld.so:
 *     lea table(%rip),%rsi; a loop; cmp $3,%edx; ja; movslq (%rsi,%rdx,4),%rdx;
 *     add %rsi,%rdx; jmp *%rdx): its labels lack ENDBR, a finding at the jmp. */
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
	mov	%eax, %edi
	call	far_switch
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

/* far_switch(n): the lea of the table, then more instructions than the sweep keeps, then
 * the bounded, tracked dispatch into four labels without ENDBR. */
	.globl	far_switch
	.type	far_switch, @function
far_switch:
	.cfi_startproc
	endbr64
	lea	far_table(%rip), %rsi
	xor	%eax, %eax
	mov	%edi, %edx
	add	$1, %eax
	add	$2, %eax
	add	$3, %eax
	add	$4, %eax
	add	$5, %eax
	add	$6, %eax
	add	$7, %eax
	and	$7, %edx
	cmp	$3, %edx
	ja	.Lfar_out
	movslq	(%rsi,%rdx,4), %rdx
	add	%rsi, %rdx
	jmp	*%rdx
.Lfar_0:
	add	$10, %eax
	ret
.Lfar_1:
	add	$11, %eax
	ret
.Lfar_2:
	add	$12, %eax
	ret
.Lfar_3:
	add	$13, %eax
.Lfar_out:
	ret
	.cfi_endproc
	.size	far_switch, . - far_switch

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
	.section .rodata
	.p2align 2
far_table:
	.long	.Lfar_0 - far_table, .Lfar_1 - far_table, .Lfar_2 - far_table
	.long	.Lfar_3 - far_table
	.section .note.GNU-stack, "", @progbits
