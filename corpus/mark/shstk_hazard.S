/* A program whose code the shadow stack refuses: jump() returns through push; ret.
 * Every function starts with ENDBR64, so IBT is ready and only SHSTK is blocked. */
	.text
	.globl main
	.type main, @function
main:
	endbr64
	call	jump
	xor	%eax, %eax
	ret
	.size main, . - main

	.type jump, @function
jump:
	endbr64
	lea	target(%rip), %rax
	push	%rax
	ret
target:
	endbr64
	ret
	.size jump, . - jump
	.section .note.GNU-stack, "", @progbits
