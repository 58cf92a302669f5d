/* Words of data whose values fall in the code, in a position-dependent program (built
 * nolibc only): none of them is an indirect-branch target, so this case has no rows.
 *   - not_a_pointer: a word whose value is inside an instruction of a function with an
 *     FDE, as the tail of a string often is; no decoding from the function's start
 *     reaches it.
 *   - split_table: a notrack jump table of hot_switch without a bound, whose labels lie
 *     partly in hot_switch's cold part (its own FDE, as GCC's .text.unlikely split
 *     makes): the table runs on past the cold label, and none of its labels is left to
 *     the data scan. */
	.text
	.globl	main
	.type	main, @function
main:
	.cfi_startproc
	endbr64
	mov	(%rdi), %eax
	and	$3, %eax
	call	hot_switch
	xor	%eax, %eax
	ret
	.cfi_endproc
	.size	main, . - main

/* A function with ENDBR; a word of data points 2 bytes into its mov $imm32. */
	.globl	holder
	.type	holder, @function
holder:
	.cfi_startproc
	endbr64
	mov	$0x12345678, %eax
	ret
	.cfi_endproc
	.size	holder, . - holder

	.globl	hot_switch
	.type	hot_switch, @function
hot_switch:
	.cfi_startproc
	endbr64
	mov	%edi, %eax
	notrack jmp *split_table(,%rax,8)
case0:
	mov	$10, %eax
	ret
case1:
	mov	$11, %eax
	ret
back:
	mov	$13, %eax
	ret
	.cfi_endproc
	.size	hot_switch, . - hot_switch

/* hot_switch's cold part, far from it as .text.unlikely is: reached only through the
 * table, it jumps back (jcc rel32). */
	.skip	256, 0xcc
	.type	hot_switch.cold, @function
hot_switch.cold:
	.cfi_startproc
case2:
	test	%edi, %edi
	jne	back
	mov	$12, %eax
	ret
	.cfi_endproc
	.size	hot_switch.cold, . - hot_switch.cold

	.section .rodata
	.p2align 3
split_table:
	.quad	case0, case1, case2, case1, case0
	.quad	0
not_a_pointer:
	.quad	holder + 6
	.section .note.GNU-stack, "", @progbits
