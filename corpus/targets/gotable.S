/* Go's own table of its functions (.gopclntab, the Go 1.20 layout: pcHeader, then one
 * (entry offset, data offset) pair per function and the end of the text), written by
 * hand for two Go-like functions without CFI, ENDBR or symbol in the stripped twin
 * (built nolibc):
 *   - go_fn: its address put in %rax, the first argument register of Go's calling
 *     convention, for a call (Go's systemstack(fn) or newproc(fn)): a code-ref finding,
 *     which only the table shows to be a function's entry;
 *   - c_after: the C function right after Go's text, with CFI: the word of data that
 *     holds the end of Go's text (the runtime's etext and maxpc in moduledata) points
 *     there, but no branch goes there through it: no data-pointer finding;
 *   - go_number: a word of data whose value falls inside go_first's first instruction
 *     (a number, as restic's 0x480000 words): no data-pointer finding, stripped or
 *     not. */
	.text
	.globl	main
	.type	main, @function
main:
	.cfi_startproc
	endbr64
	lea	go_fn(%rip), %rax
	call	call_rax
	ret
	.cfi_endproc
	.size	main, . - main

	.globl	call_rax
	.type	call_rax, @function
call_rax:
	.cfi_startproc
	endbr64
	jmp	*%rax
	.cfi_endproc
	.size	call_rax, . - call_rax

	.p2align 5
go_text:
go_first:
	xor	%eax, %eax
	ret
	.p2align 5
go_fn:
	mov	$1, %eax
	ret
	.p2align 5
go_text_end:
	.type	c_after, @function
c_after:
	.cfi_startproc
	mov	$2, %eax
	ret
	.cfi_endproc
	.size	c_after, . - c_after

	.data
	.p2align 3
	.globl	moduledata_etext
moduledata_etext:
	.quad	go_text_end
	.globl	go_number
go_number:
	.quad	go_first + 1

	.section .gopclntab, "a"
	.p2align 5
pcln:
	.long	0xfffffff1
	.byte	0, 0, 1, 8
	.quad	2			/* nfunc */
	.quad	0			/* nfiles */
	.quad	go_text			/* textStart */
	.quad	0, 0, 0, 0		/* funcname, cu, filetab, pctab offsets */
	.quad	ftab - pcln		/* pclnOffset */
ftab:
	.long	go_first - go_text, 0
	.long	go_fn - go_text, 0
	.long	go_text_end - go_text, 0
	.section .note.GNU-stack, "", @progbits
