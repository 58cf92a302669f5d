#!/usr/bin/env bash
# Progress of a long audit: on a terminal (script(1) gives elfcet one) a text audit shows
# "N/TOTAL files (P%), R files/s, ETA M:SS" on stderr and clears it; never when stderr is
# a pipe or a file, never with --format=json, even on a terminal. The report on stdout is
# the same either way, and a run of several files ends with the summary table.
#
# What a person sees, from tmux (a terminal of 80 columns whose screen the test reads
# while the audit runs): the progress line is on the screen in nearly every sample taken
# while files are audited, whether the report goes to a file or to the same terminal,
# and is gone at the end; the summary table fits in the 80 columns without wrapping.
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

command -v tmux > /dev/null || { failed "tmux is missing"; exit "$fail"; }
sock=$work/tmux.sock
tmux_cleanup() { tmux -S "$sock" kill-server 2> /dev/null; rm -rf "$work"; }
trap tmux_cleanup EXIT
# Runs COMMAND in a new 80x40 terminal and samples its screen every 20 ms until the
# command is done: "SAMPLES SHOWN", the samples from the first that shows the progress
# line on, and how many of them show it. The last screen is left in $work/screen.
sample_screen() {
	local started=false samples=0 shown=0 screen
	rm -f "$work/done"
	TMUX= tmux -S "$sock" -f /dev/null new-session -d -x 80 -y 40 \
		"$1; touch '$work/done'; sleep 600" || return 1
	while [ ! -e "$work/done" ]; do
		screen=$(tmux -S "$sock" capture-pane -p)
		if grep -Eq "elfcet: [0-9]+/[0-9]+ files \([0-9]+%\)" <<< "$screen"; then
			started=true
			shown=$((shown + 1))
		fi
		$started && samples=$((samples + 1))
		sleep 0.02
	done
	tmux -S "$sock" capture-pane -p -J > "$work/screen"
	tmux -S "$sock" kill-server
	echo "$samples $shown"
}
# A long audit: the programs of /usr/bin, one at a time.
long=/usr/bin
for where in "the report in a file" "the report on the same terminal"; do
	case $where in
	*file) out="> '$work/long.out'" ;;
	*) out= ;;
	esac
	read -r samples shown < <(sample_screen "'$ELFCET' audit --fail-on=never -j 1 $long $out")
	if [ "${samples:-0}" -ge 10 ] && [ $((shown * 100)) -ge $((samples * 90)) ]; then
		pass "$where: the progress line is on the screen in $shown of $samples samples"
	else
		failed "$where: the progress line is on the screen in ${shown:-0} of ${samples:-0} samples (90% wanted)"
	fi
	if grep -q "files/s" "$work/screen"; then
		failed "$where: the progress line is left on the screen at the end"
	else
		pass "$where: the progress line is gone at the end"
	fi
done

# The table in 80 columns: its lines (from the verdicts' heading to the end) are each
# one line of the screen; a wrapped line is longer than 80 once joined (capture-pane -J).
# (The one-line summary before it is prose, wrapped like any long line.)
sample_screen "'$ELFCET' audit --fail-on=never -j 1 '$dir' > /dev/null" > /dev/null
sed -n '/^ *marked-ok  *marked-broken/,$p' "$work/screen" | grep -v '^$' > "$work/table"
wide=$(awk 'length > 80' "$work/table" | wc -l)
width=$(awk '{ if (length > w) w = length } END { print w + 0 }' "$work/table")
if grep -q "^ibt " "$work/table" && grep -q "^shstk " "$work/table" && grep -q "^rule " "$work/table" &&
	[ "$wide" = 0 ]; then
	pass "the summary table fits 80 columns ($width wide, $(wc -l < "$work/table") lines)"
else
	failed "the summary table is $width columns wide, $wide lines wrap at 80:"; head -n 4 "$work/table"
fi
exit "$fail"
