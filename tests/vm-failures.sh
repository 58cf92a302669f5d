#!/usr/bin/env bash
# vm/verify's failure paths: each must be one clear error and a non-zero exit, never a
# pass. Needs QEMU and bootable kernels (make check-vm-failures; not part of make check):
#   VM_KERNEL            a kernel with the elfcet CET series (default: kernel/build)
#   VM_KERNEL_UNPATCHED  Debian's 6.1 without it (default: kernel/build --variant unpatched)
# and the environment of tests/local.mk (ELFCET, top_srcdir, top_builddir).
set -uo pipefail
verify="$top_srcdir/vm/verify"
export ELFCET ELFCET_VM_RUNNER="${ELFCET_VM_RUNNER:-$top_builddir/vm/guest/runner}"
work="$(mktemp -d "$top_builddir/tests/vm-failures.XXXXXX")"
trap 'rm -rf "$work"' EXIT

kernel_of() { # VARIANT OVERRIDE
	if [ -n "$2" ]; then echo "$2"; return; fi
	[ -x "$top_srcdir/kernel/build" ] || { echo "vm-failures: no kernel/build and no VM_KERNEL" >&2; exit 1; }
	"$top_srcdir/kernel/build" --variant "$1" | tail -n1
}
cet_kernel="$(kernel_of cet "${VM_KERNEL:-}")" || exit 1
unpatched_kernel="$(kernel_of unpatched "${VM_KERNEL_UNPATCHED:-}")" || exit 1

# The programs: a static glibc-free one, and one whose note cannot be read (EIO): a note
# the parser rejects is ignored where the kernel offers no user CET, as under QEMU TCG,
# a read error fails the exec everywhere.
"$top_srcdir/corpus/notes/build" "$work/notes" "$top_builddir/tests/elf-damage" >/dev/null
prog="$work/notes/nolibc-ibt-shstk"
damaged="$work/notes/nolibc-ibt-shstk.truncated"

pass=0 fail=0
# expect NAME STATUS PATTERN -- COMMAND...: the exit status and one stderr/stdout line.
expect() {
	local name=$1 want=$2 pattern=$3
	shift 4
	local start=$SECONDS out rc
	out="$("$@" 2>&1)"
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -qE -e "$pattern" <<<"$out"; then
		echo "PASS: $name: exit $rc in $((SECONDS - start)) s: $(grep -m1 -E -e "$pattern" <<<"$out")"
		pass=$((pass + 1))
	else
		echo "FAIL: $name: exit $rc (expected $want), output matching '$pattern' expected; got:"
		sed 's/^/    /' <<<"$out" | tail -n 15
		fail=$((fail + 1))
	fi
}

# 1. A kernel that does not boot: random bytes, and a real bzImage cut short.
head -c 800000 /dev/urandom >"$work/garbage.bzImage"
expect "garbage kernel" 3 'VM run failed.*(did not boot|QEMU failed|panic)' -- \
	"$verify" --kernel "$work/garbage.bzImage" --timeout 60 "$prog"
head -c 300000 "$cet_kernel" >"$work/truncated.bzImage"
expect "truncated kernel" 3 'VM run failed.*(did not boot|QEMU failed|panic)' -- \
	"$verify" --kernel "$work/truncated.bzImage" --timeout 60 "$prog"

# 2. A guest that hangs: a program that never ends, a boot time limit shorter than it.
expect "guest hangs" 3 'VM run failed.*time limit' -- \
	"$verify" --kernel "$cet_kernel" --timeout 20 --job-timeout 3600 \
	--args 'busybox=sleep 3600' /bin/busybox
# ... and the same program under the per-program limit: killed, the run completes.
expect "program hangs, job limit" 0 'run +\[sleep 3600\] killed at the job time limit' -- \
	"$verify" --kernel "$cet_kernel" --timeout 120 --job-timeout 2 \
	--args 'busybox=sleep 3600' /bin/busybox

# 3. No QEMU: a PATH holding every command of this machine but qemu-system-*.
mkdir -p "$work/bin"
for dir in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
	for f in "$dir"/*; do
		name="${f##*/}"
		case "$name" in qemu-system-*) continue ;; esac
		[ -e "$work/bin/$name" ] || ln -s "$f" "$work/bin/$name"
	done
done
expect "no QEMU" 3 'VM run failed.*qemu-system-x86_64: not found' -- \
	env PATH="$work/bin" "$verify" --kernel "$cet_kernel" "$prog"

# 4. A runner that reports nothing (busybox prints its usage): no result is a failure.
expect "silent runner" 3 'VM run failed|never reported' -- \
	env ELFCET_VM_RUNNER=/bin/busybox "$verify" --kernel "$cet_kernel" "$prog"

# 5. A real contradiction: a kernel without the series told to be the cet one runs the
# program elfcet says it rejects.
expect "contradiction" 1 'contradicted +\(EIO:property-truncated\)' -- \
	"$verify" --kernel "$unpatched_kernel" --variant cet "$damaged"

# ... and a run that does not end as expected is a contradiction too.
expect "wrong output" 1 'runs +contradicted +expected exit 0 and first line "no such line"' -- \
	"$verify" --kernel "$cet_kernel" --expect 'nolibc-*=no such line' "$prog"

# 5b. KVM asked for where there is none: one clear error, no attempt to boot.
expect "no KVM" 3 'VM run failed.*--accel kvm: /nonexistent/kvm is missing or not usable' -- \
	env ELFCET_KVM_DEVICE=/nonexistent/kvm "$verify" --kernel "$cet_kernel" --accel kvm "$prog"

# 6. Usage errors.
expect "bad accelerator" 2 "--accel: tcg or kvm, not 'hvf'" -- "$verify" --accel hvf "$prog"
expect "plugin under KVM" 2 '--plugin needs --accel tcg' -- \
	"$verify" --accel kvm --plugin /dev/null "$prog"
expect "no such file" 2 'no such file' -- "$verify" --kernel "$cet_kernel" "$work/none"
expect "bad option" 2 "unknown option '--bogus'" -- "$verify" --bogus "$prog"

echo "vm-failures: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
