#!/usr/bin/env bash
# The vsyscall check of vm/verify (make check-vm-vsyscall): corpus/vm/vsyscall64 calls
# gettimeofday through the vsyscall page. Under the cet kernel (no vsyscall emulation)
# it must die with SIGSEGV at 0xffffffffff600000, and the check is confirmed exactly when
# the audit flags the use (a vsyscall-* finding of the code audit), contradicted when it
# does not; under the nocet kernel it must run.
#   VM_KERNEL, VM_KERNEL_NOCET   default: kernel/build --variant cet / nocet
set -uo pipefail
export ELFCET ELFCET_VM_RUNNER="${ELFCET_VM_RUNNER:-$top_builddir/vm/guest/runner}"
work="$(mktemp -d "$top_builddir/tests/vm-vsyscall.XXXXXX")"
trap 'rm -rf "$work"' EXIT
kernel_of() { [ -n "$2" ] && echo "$2" || "$top_srcdir/kernel/build" --variant "$1" | tail -n1; }
cet="$(kernel_of cet "${VM_KERNEL:-}")" || exit 1
nocet="$(kernel_of nocet "${VM_KERNEL_NOCET:-}")" || exit 1
prog="$work/vsyscall64"
gcc -nostdlib -static -Wl,-z,ibt,-z,shstk -o "$prog" "$top_srcdir/corpus/vm/vsyscall64.S"
flagged=$("$ELFCET" audit -q --fail-on=never --format=json "$prog" |
	jq '[.files[0].findings[]? | select(.rule | startswith("vsyscall"))] | length > 0')
echo "the audit flags the vsyscall use: $flagged"

pass=0 fail=0
result() { # NAME CONDITION-TEXT STATUS
	if [ "$3" -eq 0 ]; then echo "PASS: vm-vsyscall: $1: $2"; pass=$((pass + 1));
	else echo "FAIL: vm-vsyscall: $1: $2"; fail=$((fail + 1)); fi
}

"$top_srcdir/vm/verify" --kernel "$cet" --json "$work/cet.json" "$prog" >"$work/cet.txt"
rc=$?
jq -e '.files[0].runs[0].guest.end | .signal == "SIGSEGV" and .siginfo.addr == "0xffffffffff600000"' \
	"$work/cet.json" >/dev/null
result cet "died with SIGSEGV at 0xffffffffff600000 (vm/verify exit $rc)" $?
want=$([ "$flagged" = true ] && echo confirmed || echo contradicted)
jq -e --arg want "$want" '[.files[0].checks[] | select(.check == "vsyscall")][0].result == $want' \
	"$work/cet.json" >/dev/null
result cet "vsyscall check $want" $?

"$top_srcdir/vm/verify" --kernel "$nocet" --variant nocet --json "$work/nocet.json" "$prog" >"$work/nocet.txt"
rc=$?
jq -e '.files[0].runs[0].guest.end == {how: "exited", code: 0}' "$work/nocet.json" >/dev/null
result nocet "ran to exit 0: the vsyscall page is emulated (vm/verify exit $rc)" $?
echo "vm-vsyscall: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
