/* The shadow-stack hazards of hand-written code, one function each, every function with
 * ENDBR64 (so no IBT finding), plus ENDBR bytes hidden in an immediate (endbr-stray) and
 * a function that manages the shadow stack itself (shstk-aware-instruction). */
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

/* push then ret: a jump through the return address. */
	.globl	ret_as_jump
	.type	ret_as_jump, @function
ret_as_jump:
	.cfi_startproc
	endbr64
	push	%rdi
	ret
	.cfi_endproc
	.size	ret_as_jump, . - ret_as_jump

/* The return address overwritten in place. */
	.globl	slot_write
	.type	slot_write, @function
slot_write:
	.cfi_startproc
	endbr64
	mov	%rdi, (%rsp)
	ret
	.cfi_endproc
	.size	slot_write, . - slot_write

/* A return on another stack. */
	.globl	pivot
	.type	pivot, @function
pivot:
	.cfi_startproc
	endbr64
	mov	%rdi, %rsp
	ret
	.cfi_endproc
	.size	pivot, . - pivot

/* The other stack set a few instructions before the ret, as Go's runtime switches stacks. */
	.globl	pivot_later
	.type	pivot_later, @function
pivot_later:
	.cfi_startproc
	endbr64
	mov	%rsi, %rsp
	mov	%eax, 0x20(%rsp)
	pop	%rbp
	ret
	.cfi_endproc
	.size	pivot_later, . - pivot_later

/* No finding: %rsp saved in %rbx, realigned, and put back (ld.so's trampolines). */
	.globl	realign
	.type	realign, @function
realign:
	.cfi_startproc
	endbr64
	push	%rbx
	mov	%rsp, %rbx
	and	$-64, %rsp
	sub	$64, %rsp
	mov	%rbx, %rsp
	pop	%rbx
	ret
	.cfi_endproc
	.size	realign, . - realign

/* No finding: an address on this stack, from lea, put back after an alloca. */
	.globl	alloca_restore
	.type	alloca_restore, @function
alloca_restore:
	.cfi_startproc
	endbr64
	lea	8(%rsp), %r8
	sub	%rdi, %rsp
	mov	%r8, %rsp
	sub	$8, %rsp
	ret
	.cfi_endproc
	.size	alloca_restore, . - alloca_restore

/* No finding: whatever %rsp held, the frame pointer puts it back before the ret. */
	.globl	frame_restore
	.type	frame_restore, @function
frame_restore:
	.cfi_startproc
	endbr64
	push	%rbp
	mov	%rsp, %rbp
	mov	(%rdi), %rsp
	mov	%rbp, %rsp
	pop	%rbp
	ret
	.cfi_endproc
	.size	frame_restore, . - frame_restore

/* A return through pop and jmp. */
	.globl	pop_jmp
	.type	pop_jmp, @function
pop_jmp:
	.cfi_startproc
	endbr64
	pop	%rcx
	jmp	*%rcx
	.cfi_endproc
	.size	pop_jmp, . - pop_jmp

/* ENDBR64's bytes (f3 0f 1e fa) as an immediate. */
	.globl	stray
	.type	stray, @function
stray:
	.cfi_startproc
	endbr64
	mov	$0xfa1e0ff3, %eax
	ret
	.cfi_endproc
	.size	stray, . - stray

/* No finding: ENDBR32's bytes (f3 0f 1e fb) in 64-bit code are no landing pad. */
	.globl	stray_other_class
	.type	stray_other_class, @function
stray_other_class:
	.cfi_startproc
	endbr64
	mov	$0xfb1e0ff3, %eax
	ret
	.cfi_endproc
	.size	stray_other_class, . - stray_other_class

/* Reads the shadow-stack pointer. */
	.globl	read_ssp
	.type	read_ssp, @function
read_ssp:
	.cfi_startproc
	endbr64
	xor	%eax, %eax
	rdsspq	%rax
	ret
	.cfi_endproc
	.size	read_ssp, . - read_ssp

/* No finding: the return address popped and pushed back around dropping the arguments
 * (node's builtins): ret returns where CALL said. */
	.globl	pop_push_ret
	.type	pop_push_ret, @function
pop_push_ret:
	.cfi_startproc
	endbr64
	pop	%r10
	lea	(%rsp,%rcx,8), %rsp
	push	%r10
	ret
	.cfi_endproc
	.size	pop_push_ret, . - pop_push_ret

/* No shstk-pop-jmp: the shadow stack unwound with incssp first (libgcc's unwinder); the
 * shadow-stack instructions are reported. */
	.globl	unwinder
	.type	unwinder, @function
unwinder:
	.cfi_startproc
	endbr64
	rdsspq	%rax
	incsspq	%rdx
	mov	%rcx, %rsp
	pop	%rcx
	jmp	*%rcx
	.cfi_endproc
	.size	unwinder, . - unwinder

/* No shstk-pop-jmp, no shstk-ret-as-jump: code that reads the shadow-stack pointer and
 * picks its way back by it (glibc's vfork: the child jumps back through the popped return
 * address, leaving the shadow stack it shares with the parent alone; otherwise the address
 * is pushed back and returned to). The shadow-stack instruction is reported. */
	.globl	vfork_like
	.type	vfork_like, @function
vfork_like:
	.cfi_startproc
	endbr64
	mov	(%rsp), %rdi
	xor	%esi, %esi
	rdsspq	%rsi
	test	%rsi, %rsi
	je	1f
	test	%eax, %eax
	jnz	1f
	pop	%rcx
	jmp	*%rcx
1:	push	%rsi
	ret
	.cfi_endproc
	.size	vfork_like, . - vfork_like

/* No shstk-ret-as-jump, no shstk-stack-pivot: a context switch that restores the target's
 * shadow stack with rstorssp first, then switches %rsp and returns to the saved address
 * (glibc's setcontext). The shadow-stack instructions are reported. */
	.globl	context_like
	.type	context_like, @function
context_like:
	.cfi_startproc
	endbr64
	rdsspq	%rax
	rstorssp -8(%rsi)
	saveprevssp
	mov	8(%rdi), %rcx
	mov	16(%rdi), %rsp
	push	%rcx
	ret
	.cfi_endproc
	.size	context_like, . - context_like

/* No finding: zero padding, then code no symbol names (mov 0x50(%rdi),%rax; ret), which
 * decoding through the zeros reads as push %r8; ret. */
	.globl	padded
	.type	padded, @function
padded:
	.cfi_startproc
	endbr64
	xor	%eax, %eax
	ret
	.byte	0, 0, 0
	mov	0x50(%rdi), %rax
	ret
	.cfi_endproc
	.size	padded, . - padded

/* No finding: a stack switch that jumps away; the ret after it is another path's. */
	.globl	switch_and_jump
	.type	switch_and_jump, @function
switch_and_jump:
	.cfi_startproc
	endbr64
	mov	%rsi, %rsp
	jmp	*%rdx
	pop	%rbp
	ret
	.cfi_endproc
	.size	switch_and_jump, . - switch_and_jump
/* No finding: %rsp saved in a slot of the realigned stack and loaded back from it
 * (x86inc in dav1d and FFmpeg: mov 0x80(%rsp),%rsp; vzeroupper; ret). */
	.globl	slot_realign
	.type	slot_realign, @function
slot_realign:
	.cfi_startproc
	endbr64
	mov	%rsp, %rax
	sub	$0x100, %rsp
	and	$-32, %rsp
	mov	%rax, 0x80(%rsp)
	mov	0x80(%rsp), %rsp
	ret
	.cfi_endproc
	.size	slot_realign, . - slot_realign

/* No finding: Go's asmcgocall keeps the old %rsp at (%rsp) across the C call. */
	.globl	slot_cgocall
	.type	slot_cgocall, @function
slot_cgocall:
	.cfi_startproc
	endbr64
	push	%rbp
	mov	%rsp, %rbx
	and	$-16, %rsp
	mov	%rbx, (%rsp)
	call	*%rax
	mov	(%rsp), %rsp
	pop	%rbp
	ret
	.cfi_endproc
	.size	slot_cgocall, . - slot_cgocall
/* No finding: xchg %eax,%esp truncates a 64-bit stack pointer; no compiler writes it, and
 * 94 c3 is how data in .text (GHC's info tables) reads as a pivot. */
	.globl	esp_exchange
	.type	esp_exchange, @function
esp_exchange:
	.cfi_startproc
	endbr64
	xchg	%eax, %esp
	ret
	.cfi_endproc
	.size	esp_exchange, . - esp_exchange
/* No finding: libjpeg-turbo's SIMD prologue: the entry %rsp copied to %rax, the stack
 * realigned, the copy stored at the bottom of the new frame, %rbp pointing at it; the
 * epilogue takes %rsp back from %rbp and pops the saved copy into %rsp. */
	.globl	realign_pop_rsp
	.type	realign_pop_rsp, @function
realign_pop_rsp:
	.cfi_startproc
	endbr64
	push	%rbp
	mov	%rsp, %rax
	sub	$4, %rsp
	and	$-32, %rsp
	mov	%rax, (%rsp)
	mov	%rsp, %rbp
	lea	-0x40(%rbp), %rsp
	push	%r10
	pop	%r10
	mov	%rbp, %rsp
	pop	%rsp
	pop	%rbp
	ret
	.cfi_endproc
	.size	realign_pop_rsp, . - realign_pop_rsp

/* No finding: the entry %rsp saved by push %rsp, the frame pointer at it, realigned;
 * the same epilogue. */
	.globl	realign_push_rsp
	.type	realign_push_rsp, @function
realign_push_rsp:
	.cfi_startproc
	endbr64
	push	%rbp
	push	%rsp
	mov	%rsp, %rbp
	and	$-32, %rsp
	sub	$0x60, %rsp
	mov	%rbp, %rsp
	pop	%rsp
	pop	%rbp
	ret
	.cfi_endproc
	.size	realign_push_rsp, . - realign_push_rsp

/* No finding: x86inc's saved stack pointer (as slot_realign) in a function whose body
 * between the save and the restore is longer than 64 KB (x265's AVX-512 kernels). */
	.globl	realign_far_slot
	.type	realign_far_slot, @function
realign_far_slot:
	.cfi_startproc
	endbr64
	push	%rbx
	mov	%rsp, %rbx
	and	$-64, %rsp
	sub	$0xc40, %rsp
	mov	%rbx, 0xc00(%rsp)
	.skip	70000, 0x90
	mov	0xc00(%rsp), %rsp
	pop	%rbx
	ret
	.cfi_endproc
	.size	realign_far_slot, . - realign_far_slot

/* A pivot by pop %rsp: the value popped is an argument, no copy of the stack pointer. */
	.globl	pivot_pop
	.type	pivot_pop, @function
pivot_pop:
	.cfi_startproc
	endbr64
	push	%rdi
	pop	%rsp
	ret
	.cfi_endproc
	.size	pivot_pop, . - pivot_pop

/* A pivot in a function that also saves and realigns its stack: %rsp comes from an
 * argument, not from the saved copy. */
	.globl	pivot_after_realign
	.type	pivot_after_realign, @function
pivot_after_realign:
	.cfi_startproc
	endbr64
	mov	%rsp, %rbx
	and	$-32, %rsp
	mov	%rbx, (%rsp)
	mov	%rdi, %rsp
	ret
	.cfi_endproc
	.size	pivot_after_realign, . - pivot_after_realign
/* No finding: libvpx's stack alignment: the entry %rsp copied to %rax, the stack
 * realigned and the copy pushed; the epilogue pops the copy back into %rsp. */
	.globl	realign_push_copy
	.type	realign_push_copy, @function
realign_push_copy:
	.cfi_startproc
	endbr64
	mov	%rsp, %rax
	and	$-16, %rsp
	lea	-8(%rsp), %rsp
	push	%rax
	sub	$0x100, %rsp
	movdqa	%xmm0, (%rsp)
	add	$0x100, %rsp
	pop	%rsp
	ret
	.cfi_endproc
	.size	realign_push_copy, . - realign_push_copy

/* A fiber switch (the shape of ruby's coroutine_transfer): the callee-saved registers
 * stored below the stack pointer, the stack pointer saved through the first argument
 * and loaded through the second, the registers reloaded from the other stack, and a ret
 * nine instructions (39 bytes) after the pivot, to the other fiber's caller. */
	.globl	pivot_fiber
	.type	pivot_fiber, @function
pivot_fiber:
	.cfi_startproc
	endbr64
	sub	$0x30, %rsp
	mov	%rbp, 0x28(%rsp)
	mov	%rbx, 0x20(%rsp)
	mov	%r12, 0x18(%rsp)
	mov	%r13, 0x10(%rsp)
	mov	%r14, 0x8(%rsp)
	mov	%r15, (%rsp)
	mov	%rsp, (%rdi)
	mov	(%rsi), %rsp
	mov	0x28(%rsp), %rbp
	mov	0x20(%rsp), %rbx
	mov	0x18(%rsp), %r12
	mov	0x10(%rsp), %r13
	mov	0x8(%rsp), %r14
	mov	(%rsp), %r15
	add	$0x30, %rsp
	mov	%rdi, %rax
	ret
	.cfi_endproc
	.size	pivot_fiber, . - pivot_fiber
/* No finding: Go's systemstack: the stack switched to another one to call a function
 * there, then switched back (the stack pointer saved in the goroutine, read through the
 * thread's g) and a ret on the stack the function entered with, to the caller the shadow
 * stack holds. */
	.globl	switch_call_back
	.type	switch_call_back, @function
switch_call_back:
	.cfi_startproc
	endbr64
	push	%rbp
	mov	%rsp, %rbp
	mov	%rdx, %r14
	mov	0x38(%rdx), %rsp
	mov	%rdi, %rdx
	call	*(%rdi)
	mov	%fs:-8, %rax
	mov	0x30(%rax), %rbx
	mov	0xc0(%rbx), %rax
	mov	0x38(%rax), %rsp
	mov	0x68(%rax), %rbp
	movq	$0, 0x38(%rax)
	pop	%rbp
	ret
	.cfi_endproc
	.size	switch_call_back, . - switch_call_back

/* No finding: bytes of a constant table in .text read as code (libcrypto's precomputed
 * nistp521 points: 8b 62 01 ... c3): a write of %esp alone, which truncates the stack
 * pointer of 64-bit code to 32 bits and no compiler emits. */
	.globl	esp_table
	.type	esp_table, @function
esp_table:
	mov	0x1(%rdx), %esp
	test	$0x219bb72b, %eax
	pop	%rax
	pop	%rsi
	ret
	.size	esp_table, . - esp_table

	.section .note.GNU-stack, "", @progbits
