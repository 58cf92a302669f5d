/* Two-level dispatch as GCC emits glibc's printf parser (built nolibc): a character is
 * bounded to ' '..'z' (cmp $0x5a; ja: 91 values), turned into a class by a table of
 * bytes, and the class indexes a table of offsets from a base label:
 *   lea class_of(%rip),%rdx; lea steps(%rip),%rsi; movzbl (%rdx,%rax,1),%eax;
 *   lea base(%rip),%rdx; movslq (%rsi,%rax,4),%rax; add %rdx,%rax; jmp *%rax
 * The offsets table holds three entries (the largest class is 2), not 91: the next
 * function's table follows it, offsets from that function's own base.
 *   - classes_ok: every label has ENDBR: no finding. Its table read for 91 entries runs
 *     into classes_gap's offsets, which from classes_ok's base land on instructions of
 *     classes_ok without ENDBR (cls_ok_one+4, cls_ok_two+4);
 *   - classes_gap: the same code with the ENDBR of one label left out (cls_gap_two): a
 *     finding naming that label alone (tests/jump-table-labels.sh). */
	.section .rodata
	.p2align 2
steps_ok:
	.long	cls_ok_base - cls_ok_base
	.long	cls_ok_one - cls_ok_base
	.long	cls_ok_two - cls_ok_base
steps_gap:
	.long	cls_gap_base - cls_gap_base
	.long	cls_gap_one - cls_gap_base
	.long	cls_gap_two - cls_gap_base
/* ' ' and others 0, digits 1, letters 2 */
class_of:
	.byte	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
	.byte	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0
	.byte	0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2
	.byte	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0
	.byte	0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2
	.byte	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2

	.text
	.globl	main
	.type	main, @function
main:
	.cfi_startproc
	endbr64
	xor	%eax, %eax
	ret
	.cfi_endproc
	.size	main, . - main

/* Counts digits (%r8) and letters (%r9) of the string at %rdi. */
	.globl	classes_ok
	.type	classes_ok, @function
classes_ok:
	.cfi_startproc
	endbr64
	xor	%r8d, %r8d
	xor	%r9d, %r9d
cls_ok_next:
	movzbl	(%rdi), %ecx
	add	$1, %rdi
	lea	-0x20(%rcx), %eax
	cmp	$0x5a, %eax
	ja	cls_ok_base
	lea	class_of(%rip), %rdx
	lea	steps_ok(%rip), %rsi
	movzbl	(%rdx,%rax,1), %eax
	lea	cls_ok_base(%rip), %rdx
	movslq	(%rsi,%rax,4), %rax
	add	%rdx, %rax
	jmp	*%rax
cls_ok_base:
	endbr64
	lea	(%r8,%r9), %rax
	ret
cls_ok_one:
	endbr64
	add	$1, %r8
	jmp	cls_ok_next
cls_ok_two:
	endbr64
	add	$1, %r9
	jmp	cls_ok_next
	.cfi_endproc
	.size	classes_ok, . - classes_ok

/* The same, its labels four bytes farther from the base (a longer return path: its
 * offsets from classes_ok's base are cls_ok_one+4 and cls_ok_two+4), and no ENDBR at
 * cls_gap_two. */
	.globl	classes_gap
	.type	classes_gap, @function
classes_gap:
	.cfi_startproc
	endbr64
	xor	%r8d, %r8d
	xor	%r9d, %r9d
cls_gap_next:
	movzbl	(%rdi), %ecx
	add	$1, %rdi
	lea	-0x20(%rcx), %eax
	cmp	$0x5a, %eax
	ja	cls_gap_base
	lea	class_of(%rip), %rdx
	lea	steps_gap(%rip), %rsi
	movzbl	(%rdx,%rax,1), %eax
	lea	cls_gap_base(%rip), %rdx
	movslq	(%rsi,%rax,4), %rax
	add	%rdx, %rax
	jmp	*%rax
cls_gap_base:
	endbr64
	lea	(%r8,%r9), %rax
	.byte	0x0f, 0x1f, 0x40, 0x00 /* nopl 0(%rax), 4 bytes */
	ret
cls_gap_one:
	endbr64
	add	$1, %r8
	jmp	cls_gap_next
cls_gap_two:
	add	$1, %r9
	jmp	cls_gap_next
	.cfi_endproc
	.size	classes_gap, . - classes_gap
	.section .note.GNU-stack, "", @progbits
