/* Functions without ENDBR, as hand-written assembly often is. */
	.text
	.globl	no_endbr_func
	.type	no_endbr_func, @function
no_endbr_func:
	lea	1(%rdi), %eax
	ret
	.size	no_endbr_func, .-no_endbr_func
	.section .note.GNU-stack,"",@progbits
