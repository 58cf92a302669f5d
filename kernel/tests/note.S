/*
 * glibc-free test programs for the kernel's reading of the CET property
 * note.  Each is built with one CASE_* macro; _start only exits with 42,
 * so an exit status of 42 proves that exec succeeded.  With a BODY_*
 * macro it first makes the indirect branch an IBT check is about.  The
 * note goes in .note.elfcet (not .note.gnu.property, which ld would merge
 * or reject) and the linker script (prog.lds.S) gives it its
 * PT_GNU_PROPERTY header.
 */
#define NT_GNU_PROPERTY_TYPE_0		5
#define GNU_PROPERTY_X86_FEATURE_1_AND	0xc0000002
#define GNU_PROPERTY_X86_ISA_1_NEEDED	0xc0008002

	.text
	.globl	_start
_start:
	endbr64
#if defined(BODY_CALL_ENDBR)
	/* An indirect call to a target with ENDBR: fine under IBT */
	lea	with_endbr(%rip), %rax
	call	*%rax
#elif defined(BODY_CALL_NO_ENDBR)
	/* An indirect call to a target without ENDBR: #CP under IBT */
	lea	without_endbr(%rip), %rax
	call	*%rax
#elif defined(BODY_NOTRACK_JMP)
	/* notrack jumps are exempt, as NO_TRACK_EN is set */
	lea	without_endbr(%rip), %rax
	notrack jmp *%rax
#elif defined(BODY_DISABLE_THEN_CALL)
	/*
	 * Turn IBT off, then call a target without ENDBR.  Exit 42 when the
	 * arch_prctl succeeded, 43 when it failed (no CPU support).
	 */
	mov	$158, %eax		/* arch_prctl(ARCH_X86_CET_DISABLE, IBT) */
	mov	$0x3002, %edi
	mov	$1, %esi
	syscall
	test	%rax, %rax
	jnz	exit43
	lea	without_endbr(%rip), %rax
	call	*%rax
#endif
exit42:
	mov	$60, %eax		/* exit(42) */
	mov	$42, %edi
	syscall
	hlt
exit43:
	mov	$60, %eax
	mov	$43, %edi
	syscall
	hlt

with_endbr:
	endbr64
	jmp	exit42
without_endbr:
	nop
	jmp	exit42

	.data
	.quad	0

#ifdef INTERP_PATH
	.section .interp, "a"
	.asciz	INTERP_PATH
#endif

/* One property: type, datasz, one 32-bit word of data, padded to 8 */
#define PROP(type, value)		\
	.long	type;			\
	.long	4;			\
	.long	value;			\
	.long	0

#if !defined(CASE_NONE)
	.section .note.elfcet, "a"
	.p2align 3
	.long	4				/* n_namesz */
	.long	2f - 1f				/* n_descsz */
	.long	NT_GNU_PROPERTY_TYPE_0
#ifdef CASE_BAD_NAME
	.asciz	"GNX"
#else
	.asciz	"GNU"
#endif
1:
#if defined(CASE_IBT) || defined(CASE_BAD_NAME)
	PROP(GNU_PROPERTY_X86_FEATURE_1_AND, 1)
#elif defined(CASE_IBT_SHSTK)
	PROP(GNU_PROPERTY_X86_FEATURE_1_AND, 3)
#elif defined(CASE_ZERO)
	PROP(GNU_PROPERTY_X86_FEATURE_1_AND, 0)
#elif defined(CASE_OTHER)
	PROP(GNU_PROPERTY_X86_ISA_1_NEEDED, 1)
#elif defined(CASE_SORTED)
	PROP(GNU_PROPERTY_X86_FEATURE_1_AND, 1)
	PROP(GNU_PROPERTY_X86_ISA_1_NEEDED, 1)
#elif defined(CASE_UNSORTED)
	PROP(GNU_PROPERTY_X86_ISA_1_NEEDED, 1)
	PROP(GNU_PROPERTY_X86_FEATURE_1_AND, 1)
#elif defined(CASE_BAD_DATASZ)
	/* FEATURE_1_AND carries 8 bytes instead of 4 */
	.long	GNU_PROPERTY_X86_FEATURE_1_AND
	.long	8
	.quad	1
#elif defined(CASE_OVERRUN)
	/* pr_datasz says 4 bytes, but the descriptor ends after the header */
	.long	GNU_PROPERTY_X86_FEATURE_1_AND
	.long	4
2:
	.long	1
	.long	0
#else
#error "no CASE_* given"
#endif
#ifndef CASE_OVERRUN
2:
#endif
#endif
