#!/usr/bin/env bash
# elfcet audit gives the same report on one thread and on several: valgrind's helgrind
# finds no data race in the audit's own code or in the libraries it decodes with, and
# runs with -j1 and -j4 print the same findings.
set -uo pipefail
if [ -n "${ELFCET_SANITIZED:-}" ]; then echo "skip: sanitizer build (valgrind cannot run it)"; exit 77; fi
command -v valgrind >/dev/null || { echo "skip: valgrind is not installed"; exit 77; }
files=(/usr/bin/bash /usr/bin/perl /usr/lib/x86_64-linux-gnu/libc.so.6 /usr/bin/ls)
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-races.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0

valgrind --tool=helgrind --fair-sched=yes -q "$ELFCET" audit -q -j 4 --fail-on=never "${files[@]}" \
	> /dev/null 2> "$work/helgrind"
# --fair-sched: threads take turns, so two start decoding before either is done.
# One report per "Possible data race"; libelf's own elf_version() init, which we call
# under pthread_once (an order helgrind does not see), is the one known and harmless.
races=$(awk '/Possible data race/ { if (r != "" && r !~ /elf_version/) n++; r = $0; next }
	     /^==[0-9]+== -----/ { if (r != "" && r !~ /elf_version/) n++; r = ""; next }
	     r != "" { r = r "\n" $0 }
	     END { if (r != "" && r !~ /elf_version/) n++; print n + 0 }' "$work/helgrind")
if [ "$races" = 0 ]; then
	echo "PASS: thread-races: helgrind finds no data race on -j 4"
else
	echo "FAIL: thread-races: helgrind finds $races data race(s):"
	grep -A8 "Possible data race" "$work/helgrind" | grep -v elf_version | head -40
	fail=1
fi

"$ELFCET" audit -q -v -j 1 --fail-on=never "${files[@]}" | sort > "$work/j1"
for run in 1 2 3; do
	"$ELFCET" audit -q -v -j 4 --fail-on=never "${files[@]}" | sort > "$work/j4"
	if ! cmp -s "$work/j1" "$work/j4"; then
		echo "FAIL: thread-races: run $run with -j 4 differs from -j 1:"
		diff "$work/j1" "$work/j4" | head -10
		fail=1
	fi
done
[ "$fail" = 1 ] || echo "PASS: thread-races: -j 4 prints what -j 1 prints, three times"
exit $fail
