#!/usr/bin/env bash
# elfcet run on bad input: each case one clear line on stderr naming the problem, exit 2.
set -euo pipefail
: "${ELFCET_PLUGIN:=$top_builddir/vm/plugin/elfcet-qemu-plugin.so}"
export ELFCET_PLUGIN
tmp="$top_builddir/tests/dynrun-errors.out"
rm -rf "$tmp" && mkdir -p "$tmp"
printf '#!/bin/sh\necho hi\n' >"$tmp/script.sh" && chmod +x "$tmp/script.sh"
# The start of an ELF64 header for EM_AARCH64 (183 = 0267).
{ printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000\267\000'
  head -c 44 /dev/zero; } >"$tmp/arm.elf"
fail=0

# expect NAME PATTERN COMMAND...: exit 2 and one stderr line matching PATTERN (plus QEMU's
# own line when QEMU itself refuses: max_lines=2).
max_lines=1
expect() {
	local name=$1 pattern=$2
	shift 2
	set +e
	"$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	local status=$?
	set -e
	local lines
	lines=$(grep -vc '^Try ' "$tmp/$name.err" || true)
	if [ "$status" -eq 2 ] && [ "$lines" -ge 1 ] && [ "$lines" -le "$max_lines" ] && grep -q -- "$pattern" "$tmp/$name.err"; then
		echo "ok   $name: $(tail -1 "$tmp/$name.err")"
	else
		echo "FAIL $name: exit $status, stderr:"; sed 's/^/     /' "$tmp/$name.err"
		fail=$((fail + 1))
	fi
}

expect no-program 'no program given' "$ELFCET" run
expect bad-option 'unrecognized option' "$ELFCET" run --bogus -- /bin/true
expect missing-program '/nonexistent/prog: No such file' "$ELFCET" run -- /nonexistent/prog
expect not-in-path 'no-such-prog-elfcet: No such file' "$ELFCET" run -- no-such-prog-elfcet
expect not-elf "script.sh: not an ELF file" "$ELFCET" run -- "$tmp/script.sh"
expect not-x86 'not an x86-64 or i386 program' "$ELFCET" run -- "$tmp/arm.elf"
expect missing-qemu '/nonexistent/qemu: cannot run' \
	env ELFCET_QEMU_X86_64=/nonexistent/qemu "$ELFCET" run --ibt -- /bin/true
expect missing-plugin 'checker plugin not readable' \
	env ELFCET_PLUGIN=/nonexistent/plugin.so "$ELFCET" run -- /bin/true
max_lines=2 expect not-a-plugin 'did not load the checker plugin' \
	env ELFCET_PLUGIN=/usr/lib/x86_64-linux-gnu/libm.so.6 "$ELFCET" run -- /bin/true
expect bad-json-path '/nonexistent/dir/out.json' "$ELFCET" run --json /nonexistent/dir/out.json -- /bin/true
echo "dynrun-errors: $fail failed"
[ "$fail" -eq 0 ]
