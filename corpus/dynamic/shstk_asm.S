/* Return-address abuse the shadow stack catches.
 * push_ret_jump: "push; ret" used as a jump (the target then returns for it).
 * corrupt_return: overwrites its own return address; the landing site exits the process,
 * since nothing sensible can follow a hijacked return. */
	.text
	.globl	push_ret_jump
	.type	push_ret_jump, @function
push_ret_jump:
	endbr64
	lea	push_ret_target(%rip), %rax
	push	%rax
	ret
	.size	push_ret_jump, .-push_ret_jump

	.globl	push_ret_target
	.type	push_ret_target, @function
push_ret_target:
	mov	$7, %eax
	ret
	.size	push_ret_target, .-push_ret_target

	.globl	corrupt_return
	.type	corrupt_return, @function
corrupt_return:
	endbr64
	lea	hijacked(%rip), %rax
	mov	%rax, (%rsp)
	ret
	.size	corrupt_return, .-corrupt_return

	.globl	hijacked
	.type	hijacked, @function
hijacked:
	mov	$231, %eax	/* exit_group(42) */
	mov	$42, %edi
	syscall
	.size	hijacked, .-hijacked
	.section .note.GNU-stack,"",@progbits
