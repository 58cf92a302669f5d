/* Code addresses a position-dependent program forms as immediates (mov $label,%reg),
 * judged by where they go (built nolibc: a program at a fixed address). The kernels are
 * local symbols with no CFI and no ENDBR, as in valgrind's tools, where nothing but the
 * flow of the immediate shows they are targets.
 *   - kernel_imm_stored: mov $kernel_imm_stored,%eax; mov %rax,(%rdi): stored into a
 *     context and called through it: a code-ref finding;
 *   - kernel_imm_passed: mov $kernel_imm_passed,%esi; call run_imm_kernel, which calls
 *     through it (valgrind's mov $label,%rdi; call): a code-ref finding;
 *   - imm_bound: mov $imm_bound,%edx; cmp %rdx,%rdi: a bound, no finding;
 *   - imm_size_end: mov $imm_size_end,%eax; sub $imm_size_start,%eax: a size, no
 *     finding;
 *   - number_in_cfi: a number passed to a call that lands on an aligned instruction
 *     inside a function with CFI (node's V8 passes opcodes such as 0xc00118 so): compiled
 *     code, whose labels no immediate names, no finding. */
	.text
	.globl	main
	.type	main, @function
main:
	.cfi_startproc
	endbr64
	sub	$40, %rsp
	.cfi_def_cfa_offset 48
	mov	%rsp, %rdi
	call	install_imm
	mov	%rsp, %rdi
	call	*(%rdi)
	mov	$kernel_imm_passed, %esi
	xor	%edi, %edi
	call	run_imm_kernel
	mov	%rsp, %rdi
	call	below_bound
	mov	$imm_size_end, %eax
	sub	$imm_size_start, %eax
	mov	$number_in_cfi, %esi
	xor	%edi, %edi
	call	emit_number
	add	$40, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	main, . - main

/* install_imm(ctx): ctx->fn = kernel_imm_stored */
	.globl	install_imm
	.type	install_imm, @function
install_imm:
	.cfi_startproc
	endbr64
	mov	$kernel_imm_stored, %eax
	mov	%rax, (%rdi)
	ret
	.cfi_endproc
	.size	install_imm, . - install_imm

/* run_imm_kernel(x, fn): fn(x) */
	.globl	run_imm_kernel
	.type	run_imm_kernel, @function
run_imm_kernel:
	.cfi_startproc
	endbr64
	jmp	*%rsi
	.cfi_endproc
	.size	run_imm_kernel, . - run_imm_kernel

/* below_bound(p): whether p lies below imm_bound */
	.globl	below_bound
	.type	below_bound, @function
below_bound:
	.cfi_startproc
	endbr64
	mov	$imm_bound, %edx
	xor	%eax, %eax
	cmp	%rdx, %rdi
	setb	%al
	ret
	.cfi_endproc
	.size	below_bound, . - below_bound

/* emit_number(x, opcode): a compiled function with CFI; 16 bytes on, an aligned
 * instruction the opcode passed to it happens to name. */
	.globl	emit_number
	.type	emit_number, @function
emit_number:
	.cfi_startproc
	endbr64
	mov	%esi, %eax
	ret
	.p2align 4
number_in_cfi:
	xor	%eax, %eax
	ret
	.cfi_endproc
	.size	emit_number, . - emit_number

/* Hand-written kernels: local symbols, no CFI, no ENDBR. */
	.p2align 4
imm_size_start:
kernel_imm_stored:
	xor	%eax, %eax
	ret
	.p2align 4
kernel_imm_passed:
	mov	%rdi, %rax
	ret
	.p2align 4
	nop
imm_bound:
	pause
	ret
imm_size_end:
	.section .note.GNU-stack, "", @progbits
