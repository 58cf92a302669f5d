#!/usr/bin/env bash
# Progress of a long audit: on a terminal (script(1) gives elfcet one) a text audit shows
# "N/TOTAL files (P%), R files/s, ETA M:SS" on stderr and clears it; never when stderr is
# a pipe or a file, never with --format=json, even on a terminal. The report on stdout is
# the same either way, and a run of several files ends with the summary table.
set -uo pipefail
: "${ELFCET:?}" "${top_builddir:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-progress.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
pass() { echo "PASS: progress: $*"; }
failed() { echo "FAIL: progress: $*"; fail=1; }
dir=$top_builddir/tests/corpus-targets.out
[ -d "$dir" ] || { failed "$dir: not built"; exit 1; }
command -v script > /dev/null || { failed "script(1) (bsdutils) is missing"; exit 1; }
total=$(find "$dir" -type f | wc -l)

# A terminal: script runs the audit on a pseudo-terminal; stdout goes to a file.
script -q -e -c "'$ELFCET' audit --fail-on=never -j 1 '$dir' > '$work/tty.out'" "$work/tty.typescript" > /dev/null 2>&1
tr '\r' '\n' < "$work/tty.typescript" > "$work/tty.err"
if grep -Eq "^(.\[K)?elfcet: [0-9]+/$total files \([0-9]+%\), [0-9]+ files/s, ETA [0-9]+:[0-9]{2}" "$work/tty.err"; then
	pass "on a terminal: $(grep -Eo "elfcet: [0-9]+/$total files.*ETA [0-9:]+" "$work/tty.err" | tail -n 1)"
else
	failed "no progress line on the terminal:"; head -c 400 "$work/tty.err"
fi
if grep -q "^ibt  " "$work/tty.err" && grep -q "^rule  " "$work/tty.err"; then
	pass "the summary table ends the text report"
else
	failed "no summary table"
fi

# A pipe and a file: no progress, no carriage return.
"$ELFCET" audit --fail-on=never -j 1 "$dir" 2>&1 > "$work/pipe.out" | cat > "$work/pipe.err"
if ! grep -q $'\r' "$work/pipe.err" && ! grep -q "files/s" "$work/pipe.err" && grep -q "audited" "$work/pipe.err"; then
	pass "into a pipe: the summary only"
else
	failed "progress written into a pipe"
fi
if cmp -s "$work/tty.out" "$work/pipe.out"; then
	pass "the report on stdout is the same with and without a terminal"
else
	failed "the report on stdout differs on a terminal"
fi
# JSON on a terminal: nothing but the document.
script -q -e -c "'$ELFCET' audit --format=json --fail-on=never -j 1 '$dir' > '$work/tty.json'" "$work/json.typescript" > /dev/null 2>&1
if [ ! -s "$work/json.typescript" ] || ! grep -q "files/s" "$work/json.typescript"; then
	if jq -e .summary "$work/tty.json" > /dev/null; then
		pass "--format=json on a terminal: no progress"
	else
		failed "--format=json on a terminal: not JSON"
	fi
else
	failed "--format=json on a terminal shows progress"
fi
exit "$fail"
