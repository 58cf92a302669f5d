/* A glibc-free static program that calls gettimeofday through the legacy vsyscall page
 * (0xffffffffff600000): under the cet kernel, which has no vsyscall emulation, it dies
 * with SIGSEGV at that address; under a kernel without CET it exits 0. */
	.text
	.globl _start
	.type _start, @function
_start:
	endbr64
	xor	%edi, %edi		/* gettimeofday(NULL, NULL) */
	xor	%esi, %esi
	mov	$0xffffffffff600000, %rax
	call	*%rax
	mov	$60, %eax		/* exit(0) */
	xor	%edi, %edi
	syscall
	.size _start, . - _start
	.section .note.GNU-stack, "", @progbits
