/* Words of data whose values fall in the code, in a position-dependent program (built
 * nolibc only); none of these is an indirect-branch target:
 *   - not_a_pointer: a word whose value is inside an instruction of a function with an
 *     FDE, as the tail of a string often is; no decoding from the function's start
 *     reaches it.
 *   - split_table: a notrack jump table of hot_switch without a bound, whose labels lie
 *     partly in hot_switch's cold part (its own FDE, as GCC's .text.unlikely split
 *     makes): the table runs on past the cold label, and none of its labels is left to
 *     the data scan.
 *   - in_padding: a word pointing into the nops after padded's ret, which no FDE or
 *     symbol covers (GCC's alignment between functions, where python3.13's "doc"
 *     (0x636f64) and 0x6c145c pointed).
 *   - lone_word: a word pointing to an instruction start inside lone, between two
 *     numbers: no pointer's company (a string or a number, never a pointer, in what
 *     Debian 13 shows).
 *   - label_table: two labels of lone, between numbers: a table of one function's
 *     labels the sweep does not recover is no dispatch table (valgrind's blksys_*
 *     bounds, compared with, never branched to).
 *   - text_word: a word pointing into textual, whose address (8 KB-aligned + 0x20) is
 *     printable ASCII, after a word of text and before a function pointer: a string
 *     tail, even in a pointer's company.
 * One case has a row: dispatch_table holds dispatched (a function start with ENDBR)
 * and a label inside it without ENDBR, a dispatch table that an indirect branch reads:
 * the label is reported (data-pointer, dispatched+*). */
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

/* A function, then nops up to the next one. */
	.globl	padded
	.type	padded, @function
padded:
	.cfi_startproc
	endbr64
	xor	%eax, %eax
	ret
	.cfi_endproc
	.size	padded, . - padded
	.byte	0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00	/* nopw 0(%rax,%rax,1) */
.Lpad:
	.byte	0x0f, 0x1f, 0x40, 0x00			/* nopl 0(%rax) */
	.byte	0x90, 0x90

	.globl	lone
	.type	lone, @function
lone:
	.cfi_startproc
	endbr64
	mov	$1, %eax
.Llone_a:
	mov	$2, %edx
.Llone_b:
	add	%edx, %eax
.Llone_c:
	ret
	.cfi_endproc
	.size	lone, . - lone

	.globl	dispatched
	.type	dispatched, @function
dispatched:
	.cfi_startproc
	endbr64
	mov	$3, %eax
.Ldispatched_label:
	add	$4, %eax
	ret
	.cfi_endproc
	.size	dispatched, . - dispatched

/* An 8 KB boundary: textual+0x20 is 0x40N020, bytes " ", 0xN0, "@" (N even, below 8). */
	.p2align 13
	.globl	textual
	.type	textual, @function
textual:
	.cfi_startproc
	endbr64
	.rept	7
	.byte	0x0f, 0x1f, 0x40, 0x00			/* nopl 0(%rax) */
	.endr
.Ltext:
	mov	$5, %eax
	ret
	.cfi_endproc
	.size	textual, . - textual

	.section .rodata
	.p2align 3
split_table:
	.quad	case0, case1, case2, case1, case0
	.quad	0
not_a_pointer:
	.quad	holder + 6
	.quad	7
in_padding:
	.quad	.Lpad
	.quad	7
lone_word:
	.quad	.Llone_a
	.quad	9
label_table:
	.quad	.Llone_b, .Llone_c
	.quad	11
dispatch_table:
	.quad	dispatched, .Ldispatched_label
	.quad	13
	.ascii	"a string"
text_word:
	.quad	.Ltext
	.quad	textual
	.section .note.GNU-stack, "", @progbits
