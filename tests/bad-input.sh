#!/usr/bin/env bash
# Bad input never crashes elfcet audit: each broken file gets one clear line on stderr
# naming it, the good files around it are still audited, and the exit status is 2.
set -euo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
good=/usr/bin/true
cp "$good" "$dir/good"

# Damaged ELF files, each with a different header field wrong.
printf '\177ELF' > "$dir/magic-only"
head -c 40 "$good" > "$dir/truncated-header"
head -c 4096 "$good" > "$dir/truncated-body"
cp "$good" "$dir/phoff-absurd"
printf '\xff\xff\xff\xff\xff\xff\xff\x7f' | dd of="$dir/phoff-absurd" bs=1 seek=32 conv=notrunc 2>/dev/null
cp "$good" "$dir/phnum-absurd"
printf '\xff\xfe' | dd of="$dir/phnum-absurd" bs=1 seek=56 conv=notrunc 2>/dev/null
cp "$good" "$dir/bad-class"
printf '\x07' | dd of="$dir/bad-class" bs=1 seek=4 conv=notrunc 2>/dev/null
cp "$good" "$dir/shoff-absurd"
printf '\xff\xff\xff\xff\xff\xff\xff\x7f' | dd of="$dir/shoff-absurd" bs=1 seek=40 conv=notrunc 2>/dev/null
# Not ELF at all: skipped silently inside a directory.
echo '#!/bin/sh' > "$dir/script"
: > "$dir/empty"
# A directory loop through a symbolic link, and a dangling link.
mkdir -p "$dir/loop/inner"
ln -s .. "$dir/loop/inner/up"
ln -s "$dir/nowhere" "$dir/dangling"

fail=0
check() { # DESCRIPTION CONDITION...
	local what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}

set +e
"$ELFCET" audit -q "$dir" >"$dir.out" 2>"$dir.err"
status=$?
set -e
echo "--- stderr:"; cat "$dir.err"; echo "---"
check "exit status 2 when some files cannot be read (got $status)" test "$status" -eq 2
for f in magic-only truncated-header truncated-body phoff-absurd phnum-absurd bad-class; do
	check "$f named on exactly one stderr line" \
		test "$(grep -c "^elfcet: $dir/$f: " "$dir.err")" -eq 1
done
check "the good file is still audited" grep -q "^$dir/good: ibt=" "$dir.out"
check "a file with an absurd section header offset is still audited (sections are optional)" \
	grep -q "^$dir/shoff-absurd: ibt=" "$dir.out"
check "non-ELF files inside a directory are skipped silently" \
	bash -c "! grep -q -e '/script' -e '/empty' '$dir.err'"
check "the loop through loop/inner/up is not followed" \
	test "$(grep -c "/good: " "$dir.out")" -eq 1
check "a dangling link inside a tree is not an error" bash -c "! grep -q dangling '$dir.err'"

# Named directly, a non-ELF file and a missing file are errors; a directory is walked.
set +e
"$ELFCET" audit -q "$dir/script" "$dir/missing" >/dev/null 2>"$dir.err2"
status=$?
set -e
check "a non-ELF file named directly is an error" grep -q "^elfcet: $dir/script: not an ELF file" "$dir.err2"
check "a missing file is an error" grep -q "^elfcet: $dir/missing: No such file" "$dir.err2"
check "both give exit status 2 (got $status)" test "$status" -eq 2

# An unreadable file: run as nobody, since root reads everything.
if command -v setpriv >/dev/null && [ "$(id -u)" -eq 0 ]; then
	mkdir -p "$dir/private"
	cp "$good" "$dir/private/secret"
	cp "$good" "$dir/private/open"
	chmod 000 "$dir/private/secret"
	chmod 755 "$dir" "$dir/private" "$dir/private/open"
	set +e
	setpriv --reuid=65534 --regid=65534 --clear-groups "$ELFCET" audit -q \
		--rules "$ELFCET_RULES_DIR" "$dir/private" >"$dir.out3" 2>"$dir.err3"
	status=$?
	set -e
	check "an unreadable file is named with the reason" \
		grep -q "^elfcet: $dir/private/secret: cannot open: Permission denied" "$dir.err3"
	check "the readable file next to it is audited" grep -q "/private/open: ibt=" "$dir.out3"
	check "exit status 2 (got $status)" test "$status" -eq 2
fi

# Paths from standard input, one per line.
printf '%s\n%s\n' "$dir/good" "$good" | "$ELFCET" audit -q - >"$dir.out4"
check "'-' reads paths from standard input" test "$(wc -l <"$dir.out4")" -eq 2

# Usage errors exit 2 with a message.
set +e
"$ELFCET" audit --format=xml "$good" 2>"$dir.err5"; s1=$?
"$ELFCET" audit 2>/dev/null; s2=$?
"$ELFCET" frobnicate 2>/dev/null; s3=$?
set -e
check "unknown format: exit 2 and a message" bash -c "[ $s1 -eq 2 ] && grep -q 'unknown format' '$dir.err5'"
check "no PATH: exit 2" test "$s2" -eq 2
check "unknown command: exit 2" test "$s3" -eq 2
exit $fail
