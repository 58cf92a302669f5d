/* plt: an IBT PLT (.plt.sec) whose entries lack ENDBR. No linker makes one; this file
 * names its own section .plt.sec, as a broken or foreign linker would, to check that
 * every .plt.sec entry is treated as a target. Two 16-byte entries, the second with
 * ENDBR64. */
	.section .plt.sec, "ax", @progbits
	.p2align 4
	.globl	plt_entry0
	.type	plt_entry0, @function
plt_entry0:
	jmp	*slot0(%rip)
	.p2align 4, 0x90
	.size	plt_entry0, . - plt_entry0
	.globl	plt_entry1
	.type	plt_entry1, @function
plt_entry1:
	endbr64
	jmp	*slot1(%rip)
	.p2align 4, 0x90
	.size	plt_entry1, . - plt_entry1

	.text
	.globl	main
	.type	main, @function
main:
	.cfi_startproc
	endbr64
	xor	%eax, %eax
	ret
	.cfi_endproc
	.size	main, . - main

	.data
	.p2align 3
slot0:	.quad	main
slot1:	.quad	main
	.section .note.GNU-stack, "", @progbits
