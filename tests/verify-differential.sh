#!/usr/bin/env bash
# Differential test of the two CET enforcers (make check-verify-differential): the same
# corpus programs verified by vm/verify under the plugin executor (our QEMU TCG plugin,
# which EMULATES IBT and shadow stacks) and under the bochs executor (Bochs' CET, real
# enforcement by a CPU model we did not write). For each program both must report the same
# first violation that counts (the kernel enables its feature), kind and object+offset, or
# both none. The programs, all 64-bit (the plugin checks no 32-bit process in system mode):
#   sys-fnptr, sys-pushret,   corpus/dynamic/sys_cases marked IBT+SHSTK, one case each: an
#   sys-signal, sys-loop      indirect call to a function without ENDBR, push;ret, a signal
#                             handler and its restorer, 400000 tracked calls
#   nolibc-ibt-shstk          marked-ok, no libc
#   gcc-ibt-shstk-static      marked-broken, static glibc (the first violation is in
#                             init_cpu_features: QEMU is given an Intel CPU like Bochs')
#   fault64                   jmp to an unmapped address (a page fault, no #CP)
#   prog-interp-ld-ibt-shstk.so, ld-ibt-shstk.so, ld-ibt.so, ld-shstk.so
#                             Debian's ld.so given a note, run directly and as PT_INTERP
# Needs the plugin (ELFCET_PLUGIN), a cet kernel (VM_KERNEL, else kernel/build) and
# vm/bochs-boot (ELFCET_BOCHS_BOOT) with Bochs: without them, SKIP and the reason.
set -uo pipefail
boot="${ELFCET_BOCHS_BOOT:-$top_srcdir/vm/bochs-boot}"
[ -x "$boot" ] || { echo "SKIP: verify-differential: $boot: no Bochs boot script"; exit 77; }
plugin="${ELFCET_PLUGIN:-$top_builddir/vm/plugin/elfcet-qemu-plugin.so}"
[ -r "$plugin" ] || { echo "FAIL: verify-differential: $plugin: no plugin (build vm/plugin or set ELFCET_PLUGIN)"; exit 1; }
kernel="${VM_KERNEL:-}"
[ -n "$kernel" ] || kernel="$("$top_srcdir/kernel/build" --variant cet | tail -n1)" ||
	{ echo "FAIL: verify-differential: no cet kernel (kernel/build failed)"; exit 1; }
export ELFCET ELFCET_VM_RUNNER="${ELFCET_VM_RUNNER:-$top_builddir/vm/guest/runner}"
export ELFCET_BOCHS_BOOT="$boot"
work="$(mktemp -d "$top_builddir/tests/verify-differential.XXXXXX")"
trap 'rm -rf "$work"' EXIT

"$top_srcdir/corpus/notes/build" "$work/notes" "$top_builddir/tests/elf-damage" >/dev/null
"$top_srcdir/corpus/vm/build" "$work/ld" "$top_builddir/tests/add-property-note" \
	"$top_builddir/tests/elf-damage" "$ELFCET" >/dev/null
src="$top_srcdir/corpus/dynamic"
mkdir -p "$work/sys"
gcc -O1 -fcf-protection -fno-stack-protector -ffreestanding -nostdlib -static -no-pie \
	-Wl,-z,ibt,-z,shstk -o "$work/sys/sys-fnptr" \
	"$src/sys_start.S" "$src/noendbr_asm.S" "$src/shstk_asm.S" "$src/sys_cases.c"
for c in pushret signal loop; do cp "$work/sys/sys-fnptr" "$work/sys/sys-$c"; done
files=("$work"/sys/sys-* "$work/notes/nolibc-ibt-shstk" "$work/notes/gcc-ibt-shstk-static"
	"$work/ld/fault64" "$work/ld/prog-interp-ld-ibt-shstk.so" "$work/ld/ld-ibt.so" "$work/ld/ld-shstk.so")
args=(--args 'sys-fnptr=fnptr' --args 'sys-pushret=pushret' --args 'sys-signal=signal'
	--args 'sys-loop=loop' --args 'ld-*=--version')

# QEMU's default CPU is an AMD one; glibc's start-up code branches on the vendor and
# model, so QEMU gets Bochs' (Intel family 6 model 85, Skylake-SP) for the paths to match.
export ELFCET_VM_QEMU_CPU="${ELFCET_VM_QEMU_CPU:-Skylake-Server}"
declare -A took
for executor in bochs plugin; do   # Bochs first: without it, nothing else to run
	start=$SECONDS
	"$top_srcdir/vm/verify" --kernel "$kernel" --executor "$executor" ${args[@]+"${args[@]}"} \
		$([ "$executor" = plugin ] && echo --plugin "$plugin") \
		--json "$work/$executor.json" "${files[@]}" >"$work/$executor.txt" 2>"$work/$executor.err"
	rc=$?
	took[$executor]=$((SECONDS - start))
	if [ $rc -ge 2 ] || [ ! -s "$work/$executor.json" ]; then
		# vm/bochs-boot's status 4: Bochs cannot be had here (not built, cannot be fetched).
		if [ "$executor" = bochs ] && grep -q '(bochs-boot status 4)' "$work/$executor.err"; then
			echo "SKIP: verify-differential: $(grep -m1 '(bochs-boot status 4)' "$work/$executor.err" | sed 's/.*(bochs-boot status 4): //')"
			exit 77
		fi
		echo "FAIL: verify-differential: vm/verify --executor $executor: status $rc: $(tail -n1 "$work/$executor.err")"
		exit 1
	fi
done
echo "verify-differential: plugin run ${took[plugin]} s, bochs run ${took[bochs]} s"
jq -e '.environment.cet_hardware' "$work/bochs.json" >/dev/null ||
	{ echo "FAIL: verify-differential: the Bochs guest reports no CET: nothing enforced"; exit 1; }

# One line per program run: FILE<TAB>FIRST-VIOLATION (kind at object+offset, or none).
firsts() {
	jq -r '.files[] | .path as $p | .runs[] | select(.guest.exec.ok)
		| "\($p | split("/") | .[-1])\t\(if .first_violation then "\(.first_violation.kind) at \(.first_violation.at)" else "none" end)"' "$1" |
		sed "s|$work/||g" | sort
}
firsts "$work/plugin.json" >"$work/plugin.first"
firsts "$work/bochs.json" >"$work/bochs.first"
pass=0 fail=0
while IFS=$'\t' read -r name emulated; do
	real="$(awk -F'\t' -v n="$name" '$1 == n { print $2; exit }' "$work/bochs.first")"
	if [ -z "$real" ]; then
		echo "FAIL: verify-differential: $name: run by the plugin executor only"; fail=$((fail + 1))
	elif [ "$real" = "$emulated" ]; then
		echo "PASS: verify-differential: $name: $real"; pass=$((pass + 1))
	else
		echo "FAIL: verify-differential: $name: plugin (emulated): $emulated; bochs (real): $real"; fail=$((fail + 1))
	fi
done <"$work/plugin.first"
[ "$pass" -gt 0 ] || { echo "FAIL: verify-differential: no program compared"; fail=$((fail + 1)); }

# Under Bochs each marked-broken verdict here must be confirmed by a real #CP at one of
# its findings, each marked-ok one by a run without one; nothing may be contradicted.
want_confirmed="sys-fnptr:ibt sys-pushret:shstk gcc-ibt-shstk-static:ibt prog-interp-ld-ibt-shstk.so:ibt
	ld-ibt.so:ibt nolibc-ibt-shstk:ibt nolibc-ibt-shstk:shstk"
for want in $want_confirmed; do
	name=${want%%:*} check=${want#*:}
	line="$(jq -r --arg n "$name" --arg c "$check" '.files[] | select(.path | endswith("/" + $n)) | .checks[]
		| select(.check == $c) | "\(.result) \(.confirmed_by // "-") (\(.verdict)) \(.evidence)"' "$work/bochs.json")"
	case "$line" in
	"confirmed bochs-cet "*) echo "PASS: verify-differential: bochs: $name $check ${line#confirmed bochs-cet }"; pass=$((pass + 1)) ;;
	*) echo "FAIL: verify-differential: bochs: $name $check not confirmed by bochs-cet: ${line:-no such check}"; fail=$((fail + 1)) ;;
	esac
done
jq -r '.files[] | .path as $p | .checks[] | select(.result == "contradicted")
	| "FAIL: verify-differential: bochs: \($p | split("/") | .[-1]) \(.check) contradicted: \(.evidence)"' "$work/bochs.json" >"$work/contradicted"
cat "$work/contradicted"
fail=$((fail + $(wc -l <"$work/contradicted")))
if [ -n "${VERIFY_DIFFERENTIAL_KEEP:-}" ]; then cp "$work"/*.json "$work"/*.txt "$VERIFY_DIFFERENTIAL_KEEP"/; fi
echo "verify-differential: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
