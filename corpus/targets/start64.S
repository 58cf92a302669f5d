/* _start of the glibc-free static programs: main(argc, argv), then exit(2) with its
 * result. The kernel enters it directly, so it is no indirect-branch target. */
	.text
	.globl	_start
	.type	_start, @function
_start:
	.cfi_startproc
	.cfi_undefined rip
	endbr64
	mov	(%rsp), %rdi
	lea	8(%rsp), %rsi
	and	$-16, %rsp
	call	main
	mov	%eax, %edi
	mov	$60, %eax
	syscall
	hlt
	.cfi_endproc
	.size	_start, . - _start
	.section .note.GNU-stack, "", @progbits
