/* An exported assembler label with no type (no .type @function: ruby's
 * coroutine_transfer), no CFI and no ENDBR, which the library itself calls through its
 * PLT (built shared): the PLT's tracked jmp *GOT lands on it once ld.so binds the slot to
 * the library's own definition. Neither a function symbol nor an FDE says it is code's
 * entry; its JUMP_SLOT relocation does: an ibt-missing-endbr finding (reloc). */
	.text
	.globl	switch_to
	.type	switch_to, @function
switch_to:
	.cfi_startproc
	endbr64
	jmp	transfer@PLT
	.cfi_endproc
	.size	switch_to, . - switch_to

	.globl	transfer
transfer:
	mov	%rdi, %rax
	ret
	.section .note.GNU-stack, "", @progbits
