#!/bin/bash
# elfcet mark never harms a file: each bad input or unsafe target gets one clear line on
# stderr, exit status 2 and the original byte for byte as it was, with no temporary file
# left behind; --dry-run writes nothing; --backup keeps the original; marking is
# idempotent; owner, mode, file capabilities and (when asked) timestamps survive.
# Read-only and full filesystems are in tests/mark-mounts.sh (they need mount).
set -u
: "${ELFCET:?}" "${top_srcdir:?}"
export ELFCET_RULES_DIR="${ELFCET_RULES_DIR:-$top_srcdir/rules}"

work=$(mktemp -d)
sleeper=
cleanup() {
	[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
failures=0

check() {
	local what=$1
	shift
	if "$@"; then
		echo "  ok: $what"
	else
		echo "  FAIL: $what"
		failures=$((failures + 1))
	fi
}

no_temp_left() { ! ls -A "$work" | grep -q 'elfcet-'; }

# refused WHAT FILE [OPTIONS...]: mark must fail with status 2, one line on stderr naming
# the file, the file unchanged (when it exists) and no temporary file left.
refused() {
	local what=$1 f=$2 status lines
	shift 2
	echo "== $what"
	[ -f "$f" ] && cp -p "$f" "$work/.keep"
	"$ELFCET" mark --ibt --force "$@" "$f" >"$work/out" 2>"$work/err"
	status=$?
	lines=$(wc -l <"$work/err")
	sed 's/^/    stderr: /' "$work/err"
	check "exit status 2 (got $status)" test $status -eq 2
	check "one line on stderr naming the file" test "$lines" -eq 1 -a -n "$(grep -F "$f" "$work/err")"
	if [ -f "$work/.keep" ]; then
		check "the file is byte for byte unchanged" cmp -s "$f" "$work/.keep"
		rm -f "$work/.keep"
	fi
	check "no temporary file left" no_temp_left
}

cp /usr/bin/ls "$work/ls"

head -c 3000 /usr/bin/ls >"$work/truncated"
refused "truncated file" "$work/truncated"

# A note whose n_descsz runs past its segment: patched in a copy of a marked binary.
printf 'int main(void) { return 0; }\n' >"$work/t.c"
gcc -O2 -fcf-protection -Wl,-z,ibt,-z,shstk -o "$work/badnote" "$work/t.c"
off=$(readelf -lW "$work/badnote" | awk '$1 == "GNU_PROPERTY" { print $2 }')
printf '\xff\x00\x00\x00' | dd of="$work/badnote" bs=1 seek=$((off + 4)) conv=notrunc status=none
refused "property note with a bad n_descsz" "$work/badnote" --no-shstk

printf 'not an ELF file\n' >"$work/text"
refused "not an ELF file" "$work/text"

mkdir "$work/dir"
refused "a directory" "$work/dir"

refused "a missing file" "$work/missing"

cp /usr/bin/ls "$work/linked"
ln "$work/linked" "$work/linked2"
refused "a hard-linked file" "$work/linked"
rm -f "$work/linked2"

cp /usr/bin/ls "$work/readonly"
chmod 0444 "$work/readonly"
refused "a read-only file" "$work/readonly"

cp /usr/bin/sleep "$work/running"
"$work/running" 60 &
sleeper=$!
sleep 0.5
refused "a file being executed" "$work/running"
kill "$sleeper" 2>/dev/null
wait "$sleeper" 2>/dev/null
sleeper=

echo "== --dry-run writes nothing"
cp -p "$work/ls" "$work/ls.keep"
inode=$(stat -c %i "$work/ls")
out=$("$ELFCET" mark --ibt --shstk --force --dry-run "$work/ls" 2>/dev/null)
echo "    $out"
check "exit 0 and says what would change" grep -q "would change" <<<"$out"
check "the file is unchanged" cmp -s "$work/ls" "$work/ls.keep"
check "same inode, same mtime" test "$(stat -c %i.%Y "$work/ls")" = "$inode.$(stat -c %Y "$work/ls.keep")"
check "no temporary file left" no_temp_left

echo "== owner, group, mode, file capabilities and timestamps survive"
chown 1234:5678 "$work/ls"
chmod 0751 "$work/ls"
touch -d '2020-01-02 03:04:05' "$work/ls"
if command -v setcap >/dev/null && setcap cap_net_raw+ep "$work/ls" 2>/dev/null; then
	caps_before=$(getcap "$work/ls" | sed 's/^[^ ]* //')
else
	caps_before=
	echo "  note: setcap not usable here; capabilities not checked"
fi
stat_before=$(stat -c '%u:%g %a %Y' "$work/ls")
cp -p "$work/ls" "$work/ls.keep"
"$ELFCET" mark --ibt --shstk --force --preserve-timestamps --backup "$work/ls" >/dev/null 2>&1
check "mark exits 0" test $? -eq 0
check "owner, group, mode and mtime kept ($stat_before)" \
	test "$(stat -c '%u:%g %a %Y' "$work/ls")" = "$stat_before"
if [ -n "$caps_before" ]; then
	check "security.capability kept ($caps_before)" \
		test "$(getcap "$work/ls" | sed 's/^[^ ]* //')" = "$caps_before"
fi
check "readelf -n shows the new bits" grep -q "x86 feature: IBT, SHSTK" <(readelf -n "$work/ls")
echo "== --backup keeps the original"
check "the backup FILE~ is the original byte for byte" cmp -s "$work/ls~" "$work/ls.keep"
check "the backup has the original's mtime" test "$(stat -c %Y "$work/ls~")" = "$(stat -c %Y "$work/ls.keep")"
check "no temporary file left" no_temp_left

echo "== marking twice changes nothing the second time"
inode=$(stat -c %i "$work/ls")
cp -p "$work/ls" "$work/ls.keep"
out=$("$ELFCET" mark --ibt --shstk --force --backup=.second "$work/ls" 2>/dev/null)
echo "    $out"
check "exit 0, says unchanged" grep -q "unchanged" <<<"$out"
check "same bytes, same inode" test "$(stat -c %i "$work/ls")" = "$inode" -a -z "$(cmp "$work/ls" "$work/ls.keep")"
check "no backup made when nothing changes" test ! -e "$work/ls.second"

echo "== a symbolic link marks its target"
cp /usr/bin/ls "$work/target"
ln -s target "$work/symlink"
"$ELFCET" mark --ibt --force "$work/symlink" >/dev/null 2>&1
check "the link is still a link" test -L "$work/symlink"
check "its target carries the bit" grep -q "x86 feature: IBT" <(readelf -n "$work/target")

echo "== refusal without --force lists the blockers (exit 1)"
# A 32-bit file has no shadow stack: SHSTK is not-applicable, so it is refused.
if gcc -m32 -O2 -o "$work/t32" "$work/t.c" 2>/dev/null; then
	cp -p "$work/t32" "$work/t32.keep"
	"$ELFCET" mark --shstk "$work/t32" >/dev/null 2>"$work/err"
	status=$?
	sed 's/^/    stderr: /' "$work/err"
	check "exit status 1 (got $status)" test $status -eq 1
	check "the reason is given" grep -q "64-bit processes only" "$work/err"
	check "the file is unchanged" cmp -s "$work/t32" "$work/t32.keep"
	"$ELFCET" mark --shstk --force "$work/t32" >/dev/null 2>"$work/err"
	check "--force marks anyway and says so on stderr" grep -q -- "--force" "$work/err"
fi

echo "== usage errors (exit 2)"
"$ELFCET" mark "$work/ls" >/dev/null 2>&1
check "no bit requested" test $? -eq 2
"$ELFCET" mark --ibt --no-ibt "$work/ls" >/dev/null 2>&1
check "a bit both set and cleared" test $? -eq 2

echo "== valgrind finds no error and no leak in mark"
if ldd "$ELFCET" 2>/dev/null | grep -q libasan; then
	echo "  note: this elfcet is built with AddressSanitizer; valgrind skipped"
elif command -v valgrind >/dev/null; then
	cp /usr/bin/ls "$work/vg-ls"
	printf 'x' >"$work/vg-text"
	gcc -m32 -O2 -o "$work/vg-32" "$work/t.c" 2>/dev/null || cp /usr/bin/ls "$work/vg-32"
	for args in "--ibt --shstk --force --backup $work/vg-ls" "--ibt --force $work/vg-32" \
		"--no-ibt --dry-run $work/vg-ls" "--ibt $work/vg-text" "--shstk $work/vg-32"; do
		# shellcheck disable=SC2086
		valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 \
			"$ELFCET" mark $args >/dev/null 2>"$work/vg.err"
		status=$?
		check "mark $args: no valgrind error (status $status)" test $status -ne 99
	done
else
	echo "  note: valgrind not installed; skipped"
fi

echo "mark-safety: $failures failure(s)"
[ $failures -eq 0 ]
