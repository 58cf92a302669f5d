#!/usr/bin/env bash
# elfcet mark on hostile layouts (issue 19): a change that would move or overwrite bytes
# another header refers to is refused (exit 1, one line, file untouched), and a file cut
# short by another process during the run gives an error, never SIGBUS.
set -euo pipefail
hostile=$top_builddir/tests/elf-hostile
damage=$top_builddir/tests/elf-damage
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
pass() { echo "PASS: $*"; }
failed() { echo "FAIL: $*"; fail=1; }

printf 'int main(void) { return 0; }\n' >"$dir/h.c"
gcc -m32 -pie -fPIE -O2 "$dir/h.c" -o "$dir/pie32"
gcc -static-pie -O2 "$dir/h.c" -o "$dir/static-pie"
gcc -O2 -fcf-protection -Wl,-z,ibt,-z,shstk "$dir/h.c" -o "$dir/cet"

# The interpreter path inside the program header table of a 32-bit PIE: rewriting the
# table would overwrite it.
"$hostile" interp-in-phdrs "$dir/pie32" "$dir/interp-in-phdrs"
# PT_INTERP starting at the end of the file: appended bytes would land under it.
"$hostile" interp-past-end "$dir/static-pie" "$dir/interp-past-end"
# The only note in a section (no segment), the section running past the end.
"$damage" section-only "$dir/cet" "$dir/section-only"
size=$(stat -c %s "$dir/section-only")
"$hostile" set-shdr .note.gnu.property offset $((size - 16)) "$dir/section-only" \
	"$dir/note-past-end"

refused() { # FILE MARK-OPTIONS... : exit 1, one line naming the file, file untouched
	local f=$1
	shift
	cp "$dir/$f" "$dir/$f.try"
	set +e
	"$ELFCET" mark --force "$@" "$dir/$f.try" >"$dir/$f.out" 2>"$dir/$f.err"
	local status=$?
	set -e
	if [ "$status" -eq 1 ] && cmp -s "$dir/$f" "$dir/$f.try" &&
		[ "$(grep -c "^elfcet mark: $dir/$f.try: refused: " "$dir/$f.err")" -eq 1 ]; then
		pass "$f: refused ($(sed -n 's/.*refused: //p' "$dir/$f.err"))"
	else
		failed "$f: mark exit $status, file $(cmp -s "$dir/$f" "$dir/$f.try" &&
			echo untouched || echo changed)"
		cat "$dir/$f.out" "$dir/$f.err"
	fi
}
refused interp-in-phdrs --ibt
refused interp-past-end --shstk
refused note-past-end --shstk

# A PT_LOAD mapping more of the file than its memory size (p_filesz > p_memsz, which no
# linker writes): the padding mark would fill may be loaded by it. Damaged: exit 2, one
# line naming the file and the header, file untouched (found by fuzz_mark).
gcc -O2 "$dir/h.c" -o "$dir/h64"
"$hostile" set-phdr 1 memsz 16 "$dir/h64" "$dir/filesz-above-memsz"
cp "$dir/filesz-above-memsz" "$dir/filesz-above-memsz.try"
set +e
"$ELFCET" mark --force --ibt --shstk "$dir/filesz-above-memsz.try" 2>"$dir/fm.err"
status=$?
set -e
if [ "$status" -eq 2 ] && cmp -s "$dir/filesz-above-memsz" "$dir/filesz-above-memsz.try" &&
	[ "$(wc -l <"$dir/fm.err")" -eq 1 ] &&
	grep -q "^elfcet mark: $dir/filesz-above-memsz.try: program header [0-9]*: PT_LOAD with p_filesz > p_memsz" "$dir/fm.err"; then
	pass "filesz-above-memsz: damaged, exit 2 ($(cat "$dir/fm.err"))"
else
	failed "filesz-above-memsz: mark exit $status, file $(cmp -s "$dir/filesz-above-memsz" \
		"$dir/filesz-above-memsz.try" && echo untouched || echo changed)"
	cat "$dir/fm.err"
fi

# The normal files these come from still mark, and keep their interpreter.
cp "$dir/pie32" "$dir/pie32.m"
"$ELFCET" mark --force --ibt "$dir/pie32.m" >/dev/null 2>&1 || failed "pie32 no longer marks"
if [ "$(readelf -lW "$dir/pie32.m" | grep -c 'interpreter: /lib/ld-linux.so.2')" -eq 1 ]; then
	pass "a normal 32-bit PIE still marks, with its interpreter"
else
	failed "a normal 32-bit PIE: marked result lost its interpreter"
fi

# Another process cuts the file short while it is marked: an error, never a signal.
big=$(command -v gdb || command -v ld.bfd || echo /usr/bin/ld)
signals=0 errors=0 done_ok=0
for i in $(seq 1 20); do
	cp "$big" "$dir/race"
	set +e
	"$ELFCET" mark --force --dry-run --shstk "$dir/race" >/dev/null 2>&1 &
	pid=$!
	sleep "0.0$((i % 10))"
	truncate -s 4096 "$dir/race"
	wait $pid
	status=$?
	cp "$big" "$dir/race"
	"$ELFCET" mark --force --shstk "$dir/race" >/dev/null 2>"$dir/race.err" &
	pid=$!
	sleep "0.0$((i % 10))"
	truncate -s 4096 "$dir/race"
	wait $pid
	status2=$?
	set -e
	for s in $status $status2; do
		if [ "$s" -ge 128 ]; then signals=$((signals + 1));
		elif [ "$s" -eq 0 ]; then done_ok=$((done_ok + 1));
		else errors=$((errors + 1)); fi
	done
done
echo "truncation race, 40 runs: $done_ok marked before the cut, $errors clear errors, $signals signals"
if [ "$signals" -eq 0 ]; then
	pass "a file cut short during mark never kills it with a signal"
else
	failed "mark died of a signal $signals time(s) out of 40"
fi
exit $fail
