#!/usr/bin/env bash
# elfcet mark and what happens to the file while it runs (issue 35). An LD_PRELOAD shim
# (tests/mark_race_shim.c) acts at a chosen moment, elfcet itself unchanged:
# - another process changes the file after mark has read it, while mark checks and
#   re-audits its result (a chmod, an append, a truncation, one byte changed, a copy
#   renamed over it): mark fails with exit 2 and one line naming the file, and the file
#   is left as that process made it (nothing of the change undone), no temporary file;
# - SIGINT or SIGTERM while the temporary file is written or re-audited: mark dies of
#   the signal, the original is untouched (same inode, same bytes) and no temporary
#   file is left.
. "$(dirname "$0")/mark-prologue.sh"
no_temp_left() { ! ls -A "$work/d" | grep -q 'elfcet-'; }

gcc -shared -fPIC -O2 -o "$work/shim.so" "$top_srcdir/tests/mark_race_shim.c" -ldl || exit 99
# An ASan build wants its runtime first; the shim only forwards calls.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
orig=/usr/bin/ls
mkdir "$work/d"
f=$work/d/prog

# What the other process's change alone makes of the original.
expected() { # ACTION
	cp "$orig" "$work/expected"
	chmod 0755 "$work/expected"
	case $1 in
	chmod) chmod 0700 "$work/expected" ;;
	append) printf appended >>"$work/expected" ;;
	truncate) truncate -s $(($(stat -c %s "$orig") / 2)) "$work/expected" ;;
	modify) printf '\x55' | dd of="$work/expected" bs=1 seek=12 conv=notrunc status=none ;;
	esac
}

run_mark() { # ACTION WHEN: runs mark on a fresh copy under the shim; sets status
	cp "$orig" "$f"
	chmod 0755 "$f"
	SHIM_FILE=$f SHIM_ACTION=$1 SHIM_WHEN=$2 LD_PRELOAD=$work/shim.so \
		"$ELFCET" mark --force --ibt --shstk "$f" >"$work/out" 2>"$work/err"
	status=$?
}

for action in chmod append truncate modify replace; do
	for when in open:1 open:2 open:3; do
		echo "== $action at $when of the temporary file"
		expected "$action"
		run_mark "$action" "$when"
		sed 's/^/    stderr: /' "$work/err"
		check "exit status 2 (got $status)" test "$status" -eq 2
		check "one line on stderr naming the file" \
			test "$(wc -l <"$work/err")" -eq 1 -a -n "$(grep -F "$f" "$work/err")"
		check "the file is as the other process left it (bytes)" cmp -s "$f" "$work/expected"
		check "the file is as the other process left it (mode $(stat -c %a "$f"))" \
			test "$(stat -c %a "$f")" = "$(stat -c %a "$work/expected")"
		check "no temporary file left" no_temp_left
		rm -rf "$work/d" && mkdir "$work/d"
	done
done

for sig in SIGINT SIGTERM; do
	for when in fsync open:1 open:2 open:3; do
		echo "== $sig at $when of the temporary file"
		cp "$orig" "$f"
		chmod 0755 "$f"
		inode=$(stat -c %i "$f")
		# A runner that started us in the background (nohup, `cmd &`) leaves SIGINT
		# ignored, and mark rightly keeps an inherited ignore: give it the default.
		SHIM_FILE=$f SHIM_ACTION=$sig SHIM_WHEN=$when LD_PRELOAD=$work/shim.so \
			env --default-signal=INT,TERM "$ELFCET" mark --force --ibt --shstk "$f" >"$work/out" 2>"$work/err"
		status=$?
		want=$((128 + $(kill -l "${sig#SIG}")))
		check "mark died of $sig (exit $status, want $want)" test "$status" -eq "$want"
		check "the original is untouched (same inode, same bytes)" \
			test "$(stat -c %i "$f")" = "$inode" -a -z "$(cmp "$f" "$orig" 2>&1)"
		check "no temporary file left ($(ls -A "$work/d" | tr '\n' ' '))" no_temp_left
		rm -rf "$work/d" && mkdir "$work/d"
	done
done

# Without the shim the same run marks the file: the failures above are the races'.
cp "$orig" "$f"
"$ELFCET" mark --force --ibt --shstk "$f" >/dev/null 2>&1
check "without a race the copy marks (exit $?)" test $? -eq 0
exit $fail
