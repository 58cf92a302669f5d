/* A glibc-free static program: the kernel reads its own property note at exec (it has
 * no interpreter), which is what the note tests need. Prints a line and exits 0. */
	.section .rodata
msg:	.ascii "nolibc corpus program\n"
	.set msglen, . - msg

	.text
	.globl _start
	.type _start, @function
_start:
	endbr64
	mov	$1, %eax		/* write(1, msg, msglen) */
	mov	$1, %edi
	lea	msg(%rip), %rsi
	mov	$msglen, %edx
	syscall
	mov	$60, %eax		/* exit(0) */
	xor	%edi, %edi
	syscall
	.size _start, . - _start
	.section .note.GNU-stack, "", @progbits
