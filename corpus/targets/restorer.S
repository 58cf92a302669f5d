/* Signal restorers: main takes the address of a function that only makes the
 * rt_sigreturn system call (what sigaction stores in sa_restorer) and of an ordinary
 * function, neither with ENDBR. A handler returns into the restorer with ret, so it is no
 * indirect-branch target and has no finding; the ordinary one has (code-ref). */
	.text
	.globl	main
	.type	main, @function
main:
	.cfi_startproc
#ifdef __x86_64__
	endbr64
	lea	restorer(%rip), %rax
	lea	not_restorer(%rip), %rdx
#else
	endbr32
	mov	$restorer, %eax
	mov	$not_restorer, %edx
#endif
	xor	%eax, %eax
	ret
	.cfi_endproc
	.size	main, . - main

	.globl	restorer
	.type	restorer, @function
restorer:
	.cfi_startproc
#ifdef __x86_64__
	mov	$15, %rax
	syscall
#else
	mov	$173, %eax
	int	$0x80
#endif
	hlt
	.cfi_endproc
	.size	restorer, . - restorer

	.globl	not_restorer
	.type	not_restorer, @function
not_restorer:
	.cfi_startproc
	xor	%eax, %eax
	ret
	.cfi_endproc
	.size	not_restorer, . - not_restorer
	.section .note.GNU-stack, "", @progbits
