#!/bin/bash
# elfcet mark on a read-only filesystem and on a full one: one line on stderr, exit
# status 2, the original byte for byte as it was, no temporary file left. Needs mount
# (root in a namespace that allows it): skipped with status 77 otherwise.
set -u
: "${ELFCET:?}" "${top_srcdir:?}"
export ELFCET_RULES_DIR="${ELFCET_RULES_DIR:-$top_srcdir/rules}"

work=$(mktemp -d)
mounted=()
cleanup() {
	local m
	for m in "${mounted[@]}"; do umount "$m" 2>/dev/null; done
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

mkdir "$work/src" "$work/ro" "$work/full"
cp /usr/bin/ls "$work/src/ls"
if ! mount --bind "$work/src" "$work/ro" 2>/dev/null; then
	echo "SKIP: mounting is not permitted here (need root and a mount namespace)"
	exit 77
fi
mounted+=("$work/ro")
if ! mount -o remount,bind,ro "$work/ro" 2>/dev/null; then
	echo "SKIP: cannot remount a bind mount read-only here"
	exit 77
fi

refused_on() { # WHAT FILE
	local what=$1 f=$2 status
	echo "== $what"
	cp -p "$f" "$work/keep"
	"$ELFCET" mark --ibt --shstk --force "$f" >/dev/null 2>"$work/err"
	status=$?
	sed 's/^/    stderr: /' "$work/err"
	check "exit status 2 (got $status)" test $status -eq 2
	check "one line on stderr naming the file" test "$(wc -l <"$work/err")" -eq 1 -a -n "$(grep -F "$f" "$work/err")"
	check "the file is byte for byte unchanged" cmp -s "$f" "$work/keep"
	check "no temporary file left" test -z "$(ls -A "$(dirname "$f")" | grep elfcet-)"
}

refused_on "read-only filesystem (bind mount, ro)" "$work/ro/ls"

# A tmpfs with room for the file but not for a second copy of it.
size=$(stat -c %s /usr/bin/ls)
if mount -t tmpfs -o size=$(( (size * 3 / 2 + 4095) / 4096 * 4096 )) tmpfs "$work/full" 2>/dev/null; then
	mounted+=("$work/full")
	cp /usr/bin/ls "$work/full/ls"
	refused_on "no space left on the filesystem (small tmpfs)" "$work/full/ls"
else
	echo "  FAIL: cannot mount a tmpfs although bind mounts work"
	failures=$((failures + 1))
fi

echo "mark-mounts: $failures failure(s)"
[ $failures -eq 0 ]
