#!/usr/bin/env bash
# A data object in .text (a symbol of type OBJECT, as OpenSSL's K256 table in node) is not
# code: its bytes 55 c3 are no push %rbp; ret. Stripped of its symbols the file gives no
# sign of it, and the bytes are read as code again (the check that this test can fail).
# Nor is a ret right after bytes no decoder reads (06, push %es, is none in 64-bit mode):
# data in .text (GHC's info tables) decoded as code.
set -euo pipefail
for tool in gcc jq strip; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/t.S" <<'ASM'
	.text
	.globl	_start
	.type	_start, @function
_start:
	endbr64
	xor	%edi, %edi
	mov	$60, %eax
	syscall
	.size	_start, . - _start
	.type	other, @function
other:
	endbr64
	.byte	0x06		/* push %es: no instruction in 64-bit mode */
	push	%rcx
	ret
	.size	other, . - other
	.type	table, @object
table:
	.byte	0x55, 0xc3, 0x55, 0xc3, 0x5c, 0xc3, 0x90, 0x90
	.size	table, . - table
	.section .note.GNU-stack, "", @progbits
ASM
gcc -nostdlib -static -o "$work/t" "$work/t.S"
strip -o "$work/t.stripped" "$work/t"
shstk() { "$ELFCET" audit -q --fail-on=never --format=json "$1" |
	jq '[.files[0].findings[] | select(.rule | startswith("shstk-"))] | length'; }
fail=0
with=$(shstk "$work/t") without=$(shstk "$work/t.stripped")
if [ "$with" -eq 0 ]; then echo "ok: no shadow-stack finding in the object"; else
	echo "FAIL: $with shadow-stack findings in the object's bytes"; fail=1; fi
if [ "$without" -gt 0 ]; then echo "ok: stripped, its bytes are read as code ($without)"; else
	echo "FAIL: the stripped file has no finding: the test no longer tests anything"; fail=1; fi
exit $fail
