/* 32-bit: a function without ENDBR32 reached through a pointer, and push; ret. */
	.text
	.globl	no_endbr32
	.type	no_endbr32, @function
no_endbr32:
	mov	4(%esp), %eax
	inc	%eax
	ret
	.size	no_endbr32, .-no_endbr32

	.globl	push_ret32
	.type	push_ret32, @function
push_ret32:
	endbr32
	push	$push_ret32_target	/* built -no-pie: an absolute address */
	ret
	.size	push_ret32, .-push_ret32

	.globl	push_ret32_target
	.type	push_ret32_target, @function
push_ret32_target:
	mov	$5, %eax
	ret
	.size	push_ret32_target, .-push_ret32_target
	.section .note.GNU-stack,"",@progbits
