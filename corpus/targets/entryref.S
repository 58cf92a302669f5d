/* A program the kernel starts, taking its own entry point's address (built nolibc, linked
 * with -e own_start). glibc's ld.so does so: _dl_sysdep_parse_arguments stores the address
 * of its _start as AT_ENTRY's default, and rtld later compares the program's entry with
 * it; nothing branches there. own_start, like ld.so's _start (RTLD_START), has no ENDBR
 * and no CFI: the kernel enters it directly, so it is no target, and the stored address
 * makes it none either: no finding. */
	.text
	.globl	own_start
own_start:
	mov	(%rsp), %rdi
	lea	8(%rsp), %rsi
	and	$-16, %rsp
	call	main
	mov	%eax, %edi
	mov	$60, %eax
	syscall
	hlt

/* main(argc, argv): auxv[AT_ENTRY] = own_start, compared with, never called */
	.globl	main
	.type	main, @function
main:
	.cfi_startproc
	endbr64
	sub	$24, %rsp
	.cfi_def_cfa_offset 32
	lea	own_start(%rip), %rcx
	mov	%rcx, 8(%rsp)
	mov	8(%rsp), %rax
	xor	%edx, %edx
	cmp	%rax, %rsi
	sete	%dl
	mov	%edx, %eax
	add	$24, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	main, . - main
	.section .note.GNU-stack, "", @progbits
