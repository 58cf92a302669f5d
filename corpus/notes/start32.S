/* The i386 twin of start64.S. */
	.section .rodata
msg:	.ascii "nolibc corpus program\n"
	.set msglen, . - msg

	.text
	.globl _start
	.type _start, @function
_start:
	endbr32
	mov	$4, %eax		/* write(1, msg, msglen) */
	mov	$1, %ebx
	mov	$msg, %ecx
	mov	$msglen, %edx
	int	$0x80
	mov	$1, %eax		/* exit(0) */
	xor	%ebx, %ebx
	int	$0x80
	.size _start, . - _start
	.section .note.GNU-stack, "", @progbits
