#!/usr/bin/env bash
# elfcet run end to end: builds the programs of corpus/dynamic, runs each case of
# corpus/dynamic/cases under QEMU with the checking plugin, and compares the report with
# corpus/dynamic/expected/NAME exactly (no missing and no extra line).
#
# Report lines, from --json: "KIND SRC -> DST [top EXPECTED] [depth N]". An address in a test
# program is "program:symbol" (targets keep the offset: they are the exact instruction;
# sources and shadow-stack tops are named by their function); in a system library, its file
# name and symbol without offset, since Debian updates move its code.
set -euo pipefail
: "${ELFCET_PLUGIN:=$top_builddir/vm/plugin/elfcet-qemu-plugin.so}"
export ELFCET_PLUGIN
command -v qemu-x86_64 >/dev/null || { echo "qemu-x86_64 missing (apt-get install qemu-user)"; exit 1; }
out="$top_builddir/tests/dynrun-e2e.out"
rm -rf "$out"
"$top_srcdir/corpus/dynamic/build" "$out/bin"
bin=$(cd "$out/bin" && pwd -P)

canon() { # JSON lines of elfcet run -> report lines
	jq -r --arg bin "$bin/" '
	  def place(keep_offset):
	    if (.object // "" | startswith($bin)) then
	      (.object | ltrimstr($bin)) + ":" +
	      (if .symbol then (if keep_offset then .symbol else (.symbol | sub("\\+0x[0-9a-f]+$"; "")) end)
	       else "0x" + (.vaddr | tostring) end)
	    else (.object // "?" | split("/") | last)
	      + (if .symbol then ":" + (.symbol | sub("\\+0x[0-9a-f]+$"; "")) else "" end) end;
	  if .event == "violation" then
	    [.kind, (.source | place(false)), "->", (.target | place(true))]
	    + (if .expected then ["top", (.expected | place(false))] else [] end)
	    + (if .depth then ["depth", (.depth | tostring)] else [] end) | join(" ")
	  elif .event == "run" then
	    "program " + (if .signal then "signal \(.signal)" else "exit \(.exit_status)" end)
	    + " checked" + (if .ibt then " ibt" else "" end) + (if .shstk then " shstk" else "" end)
	  else empty end'
}

fail=0 cases=0
while IFS='|' read -r name prog opts args; do
	name=$(echo $name) prog=$(echo $prog) opts=$(echo $opts) args=$(echo $args)
	[ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
	cases=$((cases + 1))
	set +e
	# shellcheck disable=SC2086 # options and arguments are word lists
	"$ELFCET" run $opts --json "$out/$name.json" -- "$bin/$prog" $args \
		>"$out/$name.stdout" 2>"$out/$name.stderr"
	status=$?
	set -e
	{ echo "elfcet exit $status"; canon <"$out/$name.json"; } | sort >"$out/$name.actual"
	{ grep -v '^#' "$top_srcdir/corpus/dynamic/expected/$name" || true; } | sort >"$out/$name.expected"
	if diff -u "$out/$name.expected" "$out/$name.actual" >"$out/$name.diff"; then
		echo "ok   $name: $(grep -c ' -> ' "$out/$name.actual" || true) violations as expected ($opts $prog $args)"
	else
		echo "FAIL $name ($opts $prog $args):"
		sed 's/^/     /' "$out/$name.diff"
		sed 's/^/     stderr: /' "$out/$name.stderr"
		fail=$((fail + 1))
	fi
done <"$top_srcdir/corpus/dynamic/cases"
echo "dynrun-e2e: $cases cases, $fail failed"
[ "$fail" -eq 0 ]
