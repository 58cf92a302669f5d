/* A glibc-free static program that jumps to an unmapped address: it must die with
 * SIGSEGV, si_code SEGV_MAPERR, fault address 0xdead0000 (the runner's siginfo path,
 * which on CET hardware carries SEGV_CPERR). */
	.text
	.globl _start
	.type _start, @function
_start:
	endbr64
	mov	$0xdead0000, %eax
	jmp	*%rax
	.size _start, . - _start
	.section .note.GNU-stack, "", @progbits
