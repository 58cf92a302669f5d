/* _start of the glibc-free static i386 programs: main(argc, argv), then exit(2). */
	.text
	.globl	_start
	.type	_start, @function
_start:
	.cfi_startproc
	.cfi_undefined eip
	endbr32
	mov	(%esp), %eax
	lea	4(%esp), %edx
	and	$-16, %esp
	sub	$8, %esp
	push	%edx
	push	%eax
	call	main
	mov	%eax, %ebx
	mov	$1, %eax
	int	$0x80
	hlt
	.cfi_endproc
	.size	_start, . - _start
	.section .note.GNU-stack, "", @progbits
