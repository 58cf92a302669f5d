#!/usr/bin/env bash
# vm/verify with the dynamic CET checker attached (make check-vm-plugin): each program runs
# in the plugin's window, and the IBT/SHSTK verdicts are confirmed or contradicted by what
# it observes, counting a violation only where the kernel's reading of the note enables
# the feature. Needs the plugin (ELFCET_PLUGIN, default the build's vm/plugin) and a
# kernel with the elfcet series (VM_KERNEL, default kernel/build).
set -uo pipefail
plugin="${ELFCET_PLUGIN:-$top_builddir/vm/plugin/elfcet-qemu-plugin.so}"
[ -r "$plugin" ] || { echo "FAIL: vm-plugin: $plugin: no plugin (build vm/plugin or set ELFCET_PLUGIN)"; exit 1; }
kernel="${VM_KERNEL:-}"
[ -n "$kernel" ] || kernel="$("$top_srcdir/kernel/build" --variant cet | tail -n1)" || exit 1
export ELFCET ELFCET_VM_RUNNER="${ELFCET_VM_RUNNER:-$top_builddir/vm/guest/runner}"
work="$(mktemp -d "$top_builddir/tests/vm-plugin.XXXXXX")"
trap 'rm -rf "$work"' EXIT
"$top_srcdir/corpus/notes/build" "$work/notes" "$top_builddir/tests/elf-damage" >/dev/null
gcc -nostdlib -static -Wl,-z,ibt,-z,shstk -o "$work/fault64" "$top_srcdir/corpus/vm/fault64.S"

"$top_srcdir/vm/verify" --kernel "$kernel" --plugin "$plugin" --json "$work/report.json" \
	--expect-signal 'fault64=SIGSEGV' \
	"$work/notes/nolibc-ibt-shstk" "$work/notes/gcc-ibt-shstk-pie" "$work/notes/gcc-ibt-shstk-static" \
	"$work/fault64" >"$work/report.txt"
rc=$?

pass=0 fail=0
check() { # DESCRIPTION JQ-CONDITION (on the report)
	if jq -e "$2" "$work/report.json" >/dev/null 2>&1; then
		echo "PASS: vm-plugin: $1"; pass=$((pass + 1))
	else
		echo "FAIL: vm-plugin: $1"; fail=$((fail + 1))
	fi
}
file() { printf '.files[] | select(.path | endswith("/%s"))' "$1"; }
chk() { printf '[%s | .checks[] | select(.check == "%s")][0]' "$(file "$1")" "$2"; }
[ "$rc" -eq 0 ] && { echo "PASS: vm-plugin: exit status 0 (no contradiction)"; pass=$((pass + 1)); } ||
	{ echo "FAIL: vm-plugin: exit status $rc, expected 0"; fail=$((fail + 1)); }
check "the checker attached, one window per program" \
	'[.guest_checks[] | select(.check == "dynamic-checker")][0].result == "confirmed"'
check "the report says IBT and shadow stacks are emulated" '.environment.statement | test("EMULATED")'
check "nolibc-ibt-shstk: no violation where IBT and SHSTK are enabled: both confirmed" \
	"$(chk nolibc-ibt-shstk ibt).result == \"confirmed\" and $(chk nolibc-ibt-shstk shstk).result == \"confirmed\""
check "fault64: jmp *%rax to the unmapped 0xdead0000 page-faults before any #CP (as under Bochs): no ibt violation, the runner's code after it none either: ibt confirmed" \
	"$(chk fault64 ibt).result == \"confirmed\" and $(chk fault64 runs).result == \"confirmed\""
check "gcc-ibt-shstk-static: IBT violations into case labels of jump tables the audit flags (their labels): ibt confirmed" \
	"$(chk gcc-ibt-shstk-static ibt) | .result == \"confirmed\" and (.evidence | test(\"each predicted\"))"
check "gcc-ibt-shstk-pie: Debian's ld.so has no note, the kernel enables no IBT: not exercised" \
	"$(chk gcc-ibt-shstk-pie ibt) | .result == \"not exercised\" and (.evidence | test(\"would not fault\"))"
echo "vm-plugin: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
