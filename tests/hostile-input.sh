#!/usr/bin/env bash
# Hostile input never hangs elfcet audit, never makes it grow with a table it cannot
# back, and never blocks it on a FIFO (issue 19). Each input is a patched copy of a small
# program built here, or a small file tests/elf-hostile makes from nothing.
set -euo pipefail
hostile=$top_builddir/tests/elf-hostile
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
pass() { echo "PASS: $*"; }
failed() { echo "FAIL: $*"; fail=1; }

printf 'int main(void) { return 0; }\n' >"$dir/h.c"
# A section the linker keeps under the name the PLT reader looks for.
printf '%s\n' 'int main(void) { return 0; }' \
	'__asm__(".section .plt.sec,\"ax\",@progbits\n.fill 32,1,0x90\n.text\n");' >"$dir/ps.c"
gcc -O2 "$dir/h.c" -o "$dir/h64"
gcc -m32 -O2 "$dir/h.c" -o "$dir/h32"
gcc -static -O2 "$dir/h.c" -o "$dir/hstatic"
gcc -O2 "$dir/ps.c" -o "$dir/hpltsec"

# A size far beyond the file, that does not wrap when added to the address.
big64=0x7ffffffffff00000
"$hostile" set-dyn 27 $big64 "$dir/h64" "$dir/init-arraysz-64"
"$hostile" set-dyn 27 0xfffff000 "$dir/h32" "$dir/init-arraysz-32"
"$hostile" set-shdr .init_array size $big64 "$dir/hstatic" "$dir/init-array-static"
"$hostile" set-shdr .plt size $big64 "$dir/h64" "$dir/plt-size"
"$hostile" set-shdr .plt.got size $big64 "$dir/h64" "$dir/plt-got-size"
"$hostile" set-shdr .plt.sec size $big64 "$dir/hpltsec" "$dir/plt-sec-size"
# PLT sections at the top of the address space, in a separate debug file (no code bytes
# anywhere) and in a program: an entry address plus its size wraps.
objcopy --only-keep-debug "$dir/h64" "$dir/h64.debug"
"$hostile" set-shdr .plt.got addr 0xffffffffffffffff "$dir/h64.debug" "$dir/plt-got-top-debug"
"$hostile" set-shdr .plt addr 0xfffffffffffffff8 "$dir/h64.debug" "$dir/plt-top-debug"
"$hostile" set-shdr .plt.sec addr 0xfffffffffffffff0 "$dir/hpltsec" "$dir/plt-sec-top"
"$hostile" no-sections "$dir/h64" "$dir/no-sections"
size=$(stat -c %s "$dir/h64")
head -c $((size - 100)) "$dir/h64" >"$dir/sections-cut"
"$hostile" eh-hdr-at-end "$dir/eh-hdr-at-end"
"$hostile" eh-hdr-wrap "$dir/eh-hdr-wrap"

# Each audit must end within 10 s (a second is plenty; sanitizers are slow), without a
# signal: exit 0, 1 or 2.
for f in init-arraysz-64 init-arraysz-32 init-array-static plt-size plt-got-size \
	plt-sec-size plt-got-top-debug plt-top-debug plt-sec-top no-sections sections-cut \
	eh-hdr-at-end eh-hdr-wrap; do
	set +e
	timeout 10 "$ELFCET" audit -q "$dir/$f" >"$dir/$f.out" 2>"$dir/$f.err"
	status=$?
	set -e
	if [ "$status" -eq 124 ]; then
		failed "$f: audit still running after 10 s"
	elif [ "$status" -gt 2 ]; then
		failed "$f: audit exit status $status"; cat "$dir/$f.err"
	else
		pass "$f: audited in bounded time (exit $status)"
	fi
done

# The RELR table relocates the same words 130,000 times over: memory must not follow.
"$hostile" relr-repeat 2097152 "$dir/relr-repeat"
set +e
/usr/bin/time -f '%M' -o "$dir/relr.rss" timeout 20 "$ELFCET" audit -q "$dir/relr-repeat" \
	>/dev/null 2>&1
status=$?
set -e
rss=$(tail -n 1 "$dir/relr.rss")
limit=$((60 * 1024))
[ -z "${ELFCET_SANITIZED:-}" ] || limit=$((400 * 1024))  # ASan's own arenas
echo "relr-repeat: 2 MB table, peak RSS $((rss / 1024)) MB (limit $((limit / 1024)) MB)"
if [ "$status" -le 2 ] && [ "$rss" -le "$limit" ]; then
	pass "relr-repeat: bounded memory"
else
	failed "relr-repeat: exit $status, peak RSS $rss KB"
fi

# A FIFO named on the command line, or in the '-' list, is named and skipped.
mkfifo "$dir/fifo"
for how in arg list; do
	set +e
	if [ $how = arg ]; then
		timeout 10 "$ELFCET" audit -q "$dir/fifo" "$dir/h64" >"$dir/fifo.out" 2>"$dir/fifo.err"
	else
		printf '%s\n' "$dir/fifo" "$dir/h64" |
			timeout 10 "$ELFCET" audit -q - >"$dir/fifo.out" 2>"$dir/fifo.err"
	fi
	status=$?
	set -e
	if [ "$status" -eq 2 ] && grep -qx "elfcet: $dir/fifo: not a regular file" "$dir/fifo.err" &&
		grep -q "^$dir/h64: ibt=" "$dir/fifo.out"; then
		pass "a FIFO in the $how is skipped with one line, the rest audited"
	else
		failed "a FIFO in the $how: exit $status"; cat "$dir/fifo.err"
	fi
done
exit $fail
