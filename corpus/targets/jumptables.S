/* Jump tables read as the code really indexes them (built nolibc, pie): each dispatch a
 * tracked jmp into labels without ENDBR, named by local symbols so that
 * tests/jump-table-labels.sh can hold the finding's labels to them:
 *   - unbounded_pair: an index masked to 0-3 (no cmp/ja) into a table of four labels
 *     (pair_a0-3) that another table of the same function (pair_b0-1) follows: only
 *     the first four are its labels;
 *   - mid_insn: a table of three labels (mid_0-2) whose next word points inside an
 *     instruction of the function: labels are instruction starts;
 *   - duplicates: a bounded table of five entries, two of them the same label
 *     (dup_0-3): the message counts four labels;
 *   - negative_index: a table indexed from a displacement past its end with a negative
 *     index (gmp's mod_34lsub1: movslq 0xc(%r8,%rsi,4) with %rsi from -3 to -1), the
 *     entry added to the table's address in the register: its three labels (neg_0-2);
 *   - context_tail: a notrack table dispatch, then a tail call through a pointer of a
 *     context structure (mov 0x10(%rdi),%rax; jmp *%rax) that does not index that table:
 *     no jump-table finding (the notrack table needs no ENDBR);
 *   - go_closure: Go's lea fn(%rip),%rax; jmp *%rax, with no FDE and no symbol at the
 *     target (a local label, as in a stripped Go program): no table, and go_target,
 *     without ENDBR, is an ibt-missing-endbr code-ref. */
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

	.globl	unbounded_pair
	.type	unbounded_pair, @function
unbounded_pair:
	.cfi_startproc
	endbr64
	and	$3, %edi
	lea	pair_table_a(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	add	%rdx, %rax
	jmp	*%rax
pair_a0:
	mov	$10, %eax
	ret
pair_a1:
	mov	$11, %eax
	ret
pair_a2:
	mov	$12, %eax
	ret
pair_a3:
	mov	$13, %eax
	ret
second:
	and	$1, %esi
	lea	pair_table_b(%rip), %rdx
	movslq	(%rdx,%rsi,4), %rax
	add	%rdx, %rax
	notrack jmp *%rax
pair_b0:
	mov	$20, %eax
	ret
pair_b1:
	mov	$21, %eax
	ret
	.cfi_endproc
	.size	unbounded_pair, . - unbounded_pair

	.globl	mid_insn
	.type	mid_insn, @function
mid_insn:
	.cfi_startproc
	endbr64
	and	$3, %edi
	lea	mid_table(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	add	%rdx, %rax
	jmp	*%rax
mid_0:
	mov	$30, %eax
	ret
mid_1:
	movabs	$0x1122334455667788, %rax
	ret
mid_2:
	mov	$32, %eax
	ret
	.cfi_endproc
	.size	mid_insn, . - mid_insn

	.globl	duplicates
	.type	duplicates, @function
duplicates:
	.cfi_startproc
	endbr64
	cmp	$4, %edi
	ja	dup_3
	mov	%edi, %edi
	lea	dup_table(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	add	%rdx, %rax
	jmp	*%rax
dup_0:
	mov	$40, %eax
	ret
dup_1:
	mov	$41, %eax
	ret
dup_2:
	mov	$42, %eax
	ret
dup_3:
	mov	$43, %eax
	ret
	.cfi_endproc
	.size	duplicates, . - duplicates

	.globl	negative_index
	.type	negative_index, @function
negative_index:
	.cfi_startproc
	endbr64
	mov	%rdi, %rsi
	sub	$3, %rsi
	lea	neg_table(%rip), %r8
	movslq	0xc(%r8,%rsi,4), %r10
	add	%r10, %r8
	jmp	*%r8
neg_0:
	mov	$60, %eax
	ret
neg_1:
	mov	$61, %eax
	ret
neg_2:
	mov	$62, %eax
	ret
	.cfi_endproc
	.size	negative_index, . - negative_index

	.globl	context_tail
	.type	context_tail, @function
context_tail:
	.cfi_startproc
	endbr64
	cmp	$1, %esi
	ja	ctx_call
	lea	ctx_table(%rip), %rdx
	movslq	(%rdx,%rsi,4), %rax
	add	%rdx, %rax
	notrack jmp *%rax
ctx_0:
	add	$1, %esi
ctx_call:
	mov	0x10(%rdi), %rax
	jmp	*%rax
ctx_1:
	mov	$50, %eax
	ret
	.cfi_endproc
	.size	context_tail, . - context_tail

/* Go's code: no CFI, no ENDBR. */
	.globl	go_closure
	.type	go_closure, @function
go_closure:
	endbr64
	lea	go_target(%rip), %rax
	jmp	*%rax
	.size	go_closure, . - go_closure
	int3
	int3
go_target:
	mov	$60, %eax
	add	%edi, %eax
	ret
	int3

	.section .rodata
	.balign	4
pair_table_a:
	.long	pair_a0 - pair_table_a, pair_a1 - pair_table_a
	.long	pair_a2 - pair_table_a, pair_a3 - pair_table_a
pair_table_b:
	.long	pair_b0 - pair_table_b, pair_b1 - pair_table_b
	.long	0x7fffffff
mid_table:
	.long	mid_0 - mid_table, mid_1 - mid_table, mid_2 - mid_table
	.long	mid_1 + 2 - mid_table
	.long	0x7fffffff
dup_table:
	.long	dup_0 - dup_table, dup_1 - dup_table, dup_2 - dup_table
	.long	dup_1 - dup_table, dup_0 - dup_table
neg_table:
	.long	neg_0 - neg_table, neg_1 - neg_table, neg_2 - neg_table
	.long	0x7fffffff
ctx_table:
	.long	ctx_0 - ctx_table, ctx_1 - ctx_table
	.long	0x7fffffff
	.section .note.GNU-stack, "", @progbits
