#!/usr/bin/env bash
# elfcet audit in bounded memory and time on the inputs that could exhaust them (issue
# 19): a 2 GB sparse file whose valid header claims huge sizes, symbolic-link loops, and
# 10,000 tiny files. Each run prints its peak RSS.
set -euo pipefail
hostile=$top_builddir/tests/elf-hostile
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
limit=$((200 * 1024))                                  # KB
[ -z "${ELFCET_SANITIZED:-}" ] || limit=$((800 * 1024))  # ASan's shadow and arenas

measure() { # NAME EXPECTED-STATUSES ARGS... : one audit, its peak RSS and time
	local name=$1 ok=$2 status rss start end
	shift 2
	start=$(date +%s%N)
	set +e
	/usr/bin/time -f '%M' -o "$dir/rss" timeout 120 "$ELFCET" audit -q "$@" \
		>"$dir/out" 2>"$dir/err"
	status=$?
	set -e
	end=$(date +%s%N)
	rss=$(tail -n 1 "$dir/rss")
	echo "$name: exit $status, peak RSS $((rss / 1024)) MB, $(((end - start) / 1000000)) ms"
	if [[ " $ok " == *" $status "* ]] && [ "$rss" -le "$limit" ]; then
		echo "PASS: $name in bounded memory"
	else
		echo "FAIL: $name (limit $((limit / 1024)) MB, statuses $ok)"
		head -n 3 "$dir/err"
		fail=1
	fi
}

# A valid program whose dynamic table and sections claim huge sizes, grown to 2 GB with
# a hole: only the pages the audit reads may count.
printf 'int main(void) { return 0; }\n' >"$dir/h.c"
gcc -O2 "$dir/h.c" -o "$dir/h64"
"$hostile" set-dyn 27 0x7ffffffffff00000 "$dir/h64" "$dir/a"
"$hostile" set-shdr .text size 0x7ffffffffff00000 "$dir/a" "$dir/b"
"$hostile" set-shdr .plt size 0x7ffffffffff00000 "$dir/b" "$dir/sparse"
truncate -s 2G "$dir/sparse"
measure "2 GB sparse file with huge claimed sizes" "0 1 2" "$dir/sparse"

# Links that loop: named directly (ELOOP), and inside a tree (a link to a parent).
ln -s "$dir/loop-b" "$dir/loop-a"
ln -s "$dir/loop-a" "$dir/loop-b"
mkdir -p "$dir/tree/inner"
ln -s .. "$dir/tree/inner/up"
cp "$dir/h64" "$dir/tree/inner/prog"
measure "symbolic-link loop named" "2" "$dir/loop-a"
measure "symbolic-link loop in a tree" "0 1" "$dir/tree"
if grep -q "Too many levels of symbolic links" "$dir/err" ||
	[ "$(grep -c '/prog: ' "$dir/out" || true)" -le 1 ]; then
	echo "PASS: the tree loop is not followed"
else
	echo "FAIL: the tree loop was followed"
	fail=1
fi

# 10,000 tiny files: 192-byte ELF files made from nothing, cut from one stream.
mkdir "$dir/many"
"$hostile" eh-hdr-at-end "$dir/tiny"
cp "$dir/tiny" "$dir/stream"
for i in $(seq 14); do cat "$dir/stream" "$dir/stream" >"$dir/stream2"; mv "$dir/stream2" "$dir/stream"; done
truncate -s $((10000 * $(stat -c %s "$dir/tiny"))) "$dir/stream"
split -b "$(stat -c %s "$dir/tiny")" -d -a 5 "$dir/stream" "$dir/many/f"
rm -f "$dir/stream"
measure "10,000 tiny files" "0 1 2" "$dir/many"
audited=$(grep -c ': ibt=' "$dir/out" || true)
if [ "$audited" -eq 10000 ]; then
	echo "PASS: all 10,000 tiny files audited"
else
	echo "FAIL: $audited of 10,000 tiny files audited"
	fail=1
fi
exit $fail
