#!/usr/bin/env bash
# The plugin in system mode: boots a kernel under qemu-system-x86_64 (TCG, one vCPU) with an
# initramfs whose /init runs each case of corpus/dynamic/sys_cases.c inside a marker window,
# and checks the plugin's report window by window:
#   fnptr     one ibt violation, cases_main -> no_endbr_func
#   loop      none, with tracked transfers interrupted by the timer between branch and target,
#             the runner's child scheduled first after fork (its parent's code must stay
#             out of the window)
#   pagefault none, with the target page-faulting between the call and its first instruction
#   pushret   one shstk violation, push_ret_jump's ret -> push_ret_target
#   signal    none: a handler entered by the kernel and left through its restorer
# Needs a bzImage: $ELFCET_VM_KERNEL, else one from the kernel cache (kernel/build); skips
# (77) without one, as `make check` on a machine with no kernel built yet does. make
# check-vm runs it again with the cet kernel it builds (check-vm-plugin-system).
set -euo pipefail
: "${ELFCET_PLUGIN:=$top_builddir/vm/plugin/elfcet-qemu-plugin.so}"
command -v qemu-system-x86_64 >/dev/null || { echo "skip: qemu-system-x86_64 not installed"; exit 77; }
kernel=${ELFCET_VM_KERNEL:-}
if [ -z "$kernel" ]; then
	# The newest cached cet build, else the newest of any variant.
	for pattern in cet/*/bzImage '*/*/bzImage'; do
		kernel=$(ls -t "${ELFCET_CACHE:-/var/cache/elfcet}"/kernel/$pattern 2>/dev/null | head -n1 || true)
		[ -n "$kernel" ] && break
	done
fi
[ -n "$kernel" ] && [ -r "$kernel" ] || { echo "skip: no kernel (set ELFCET_VM_KERNEL or build one with kernel/build)"; exit 77; }
out="$top_builddir/tests/plugin-system.out"
rm -rf "$out"
"$top_srcdir/corpus/dynamic/build-sys" "$out"
cases=(fnptr loop pagefault pushret signal)
echo "kernel: $kernel"
set +e
timeout 300 qemu-system-x86_64 -accel tcg -m 256 -smp 1 -nographic -no-reboot -net none \
	-kernel "$kernel" -initrd "$out/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 quiet no_timer_check rdinit=/init -- ${cases[*]}" \
	-plugin "$ELFCET_PLUGIN,out=$out/report.json,ibt=on,shstk=on" >"$out/console" 2>&1
status=$?
set -e
if [ "$status" -ne 0 ] || ! grep -aq elfcet-sys-done "$out/console"; then
	echo "FAIL: the guest did not finish (qemu exit $status); console tail:"
	tail -n 20 "$out/console" | sed 's/^/     /'
	exit 1
fi

if grep -aq elfcet-sys-warning "$out/console"; then
	echo "FAIL: the guest could not set up the run: $(grep -a elfcet-sys-warning "$out/console")"
	exit 1
fi

bin="$out/root/sys_cases"
sym() { printf '%d' "0x$(nm "$bin" | awk -v s="$1" '$3 == s { print $1 }')"; }
no_endbr=$(sym no_endbr_func) target=$(sym push_ret_target)
cases_main=$(sym cases_main) far=$(sym far_function)

# Per window: "VIOLATIONS INTERRUPTED KIND:SRC:DST,..."
jq -rs '
  reduce .[] as $e ({w: -1, out: []};
    if $e.event == "window" and $e.open then .w += 1 | .out[.w] = {v: [], i: 0}
    elif $e.event == "window" then .out[.w].i = $e.interrupted_transfers
    elif $e.event == "violation" then .out[.w].v += ["\($e.kind):\($e.src):\($e.dst)"]
    else . end)
  | .out[] | "\(.v | length) \(.i) \(.v | join(","))"' "$out/report.json" >"$out/windows"

fail=0
check() { # CASE CONDITION-DESCRIPTION TEST...
	local name=$1 what=$2
	shift 2
	if "$@"; then echo "ok   $name: $what"; else echo "FAIL $name: $what"; fail=$((fail + 1)); fi
}
[ "$(wc -l <"$out/windows")" -eq ${#cases[@]} ] || { echo "FAIL: $(wc -l <"$out/windows") windows for ${#cases[@]} cases"; cat "$out/windows"; exit 1; }
for i in "${!cases[@]}"; do
	name=${cases[$i]}
	read -r count interrupted list < <(sed -n "$((i + 1))p" "$out/windows")
	grep -aq "elfcet-sys-case $name status 0" "$out/console" || { echo "FAIL $name: did not exit 0"; fail=$((fail + 1)); }
	case $name in
	fnptr)
		src=$(echo "$list" | cut -d: -f2)
		check $name "one ibt violation cases_main -> no_endbr_func ($list)" \
			test "$count" = 1 -a "$(echo "$list" | cut -d: -f1,3)" = "ibt:$no_endbr" \
			-a "$src" -gt "$cases_main" -a "$src" -lt "$far" ;;
	loop)
		check $name "no violation; $interrupted transfers interrupted by the kernel (>= 1)" \
			test "$count" = 0 -a "$interrupted" -ge 1 ;;
	pagefault)
		check $name "no violation; the page fault on the target came in between ($interrupted)" \
			test "$count" = 0 -a "$interrupted" -ge 1 ;;
	pushret)
		check $name "one shstk violation push_ret_jump -> push_ret_target ($list)" \
			test "$count" = 1 -a "$list" = "shstk:$((target - 1)):$target" ;;
	signal)
		check $name "no violation across the handler" test "$count" = 0 ;;
	esac
done
echo "plugin-system: ${#cases[@]} cases, $fail failed"
[ "$fail" -eq 0 ]
