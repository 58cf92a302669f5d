/* Code addresses hand-written assembly forms with lea label(%rip), judged by where they
 * go (built nolibc). The kernels are local symbols with no CFI and no ENDBR, as x86inc
 * code in a stripped library, where nothing names them: only the flow of the address
 * shows they are targets.
 *   - kernel_stored: its address stored into a context structure, called through it
 *     later (a codec's DSP function table): a code-ref finding;
 *   - kernel_passed: its address copied to %rsi and passed to a call (run_kernel, which
 *     calls through it): a code-ref finding;
 *   - kernel_pair: its address moved into %xmm0 beside another one and the pair stored
 *     at once, as GCC stores two pointers: a code-ref finding;
 *   - continuation: its address put in %r8 before AVX-512 instructions and jumped to
 *     (x86inc's jmp r8): a code-ref finding;
 *   - bound_end: a global label whose address is compared with a few instructions after
 *     the lea, never branched to (qemu's safe_syscall_end): no finding;
 *   - .Lpic_base: a label taken only as the base of data reads and offsets (x86inc's PIC
 *     base register): no finding. */
	.text
	.globl	main
	.type	main, @function
main:
	.cfi_startproc
	endbr64
	sub	$40, %rsp
	.cfi_def_cfa_offset 48
	mov	%rsp, %rdi
	call	install
	mov	%rsp, %rdi
	call	*(%rdi)
	lea	kernel_passed(%rip), %rax
	mov	%rax, %rsi
	xor	%edi, %edi
	call	run_kernel
	mov	%rsp, %rdi
	call	in_bounds
	call	with_continuation
	call	read_table
	add	$40, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	main, . - main

/* install(ctx): ctx->fn = kernel_stored; ctx->pair = { kernel_pair, the rest } */
	.globl	install
	.type	install, @function
install:
	.cfi_startproc
	endbr64
	lea	kernel_stored(%rip), %rax
	mov	%rax, (%rdi)
	lea	kernel_pair(%rip), %rdx
	movq	%rdx, %xmm0
	movhps	8(%rdi), %xmm0
	movups	%xmm0, 8(%rdi)
	ret
	.cfi_endproc
	.size	install, . - install

/* run_kernel(x, fn): fn(x) */
	.globl	run_kernel
	.type	run_kernel, @function
run_kernel:
	.cfi_startproc
	endbr64
	jmp	*%rsi
	.cfi_endproc
	.size	run_kernel, . - run_kernel

/* in_bounds(p): whether p lies in [bound_start, bound_end) */
	.globl	in_bounds
	.type	in_bounds, @function
in_bounds:
	.cfi_startproc
	endbr64
	lea	bound_end(%rip), %rdx
	xor	%eax, %eax
	mov	%rdi, %rcx
	add	$1, %rcx
	cmp	%rdx, %rcx
	setb	%al
	ret
	.cfi_endproc
	.size	in_bounds, . - in_bounds

/* with_continuation: lea continuation,%r8; AVX-512 work; jmp *%r8 */
	.globl	with_continuation
	.type	with_continuation, @function
with_continuation:
	.cfi_startproc
	endbr64
	lea	continuation(%rip), %r8
	vpxorq	%zmm16, %zmm16, %zmm16
	vpaddq	%zmm16, %zmm16, %zmm17
	jmp	*%r8
	.cfi_endproc
	.size	with_continuation, . - with_continuation

/* read_table: .Lpic_base as a base register: data reads and an offset, no branch */
	.globl	read_table
	.type	read_table, @function
read_table:
	.cfi_startproc
	endbr64
	lea	.Lpic_base(%rip), %r11
	mov	16(%r11), %eax
	add	$8, %r11
	ret
	.cfi_endproc
	.size	read_table, . - read_table

/* Hand-written kernels: no CFI, no ENDBR, local symbols (stripped: nothing). */
	.p2align 4
kernel_stored:
	xor	%eax, %eax
	ret
	.p2align 4
kernel_passed:
	mov	$1, %eax
	ret
	.p2align 4
kernel_pair:
	mov	$2, %eax
	ret
	.p2align 4
continuation:
	vzeroupper
	ret
	.p2align 4
.Lpic_base:
	mov	$3, %eax
	ret
	.globl	bound_end
bound_end:
	ret
	.section .note.GNU-stack, "", @progbits
