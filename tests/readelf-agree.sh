#!/usr/bin/env bash
# elfcet and binutils' readelf must read the same FEATURE_1_AND and ISA_1_NEEDED from
# every ELF file: /usr/bin (as the issue asks) and the undamaged note corpus.
set -euo pipefail
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(/usr/bin "$top_builddir/tests/corpus-notes.out")

# PATH F1 ISA from readelf -n (property names as readelf prints them).
from_readelf() {
	local f=$1 notes f1 isa
	notes=$(readelf -nW "$f" 2>/dev/null | sed 's/, x86 /\nx86 /g')
	f1=$(sed -n 's/.*x86 feature: \(.*\)$/\1/p' <<<"$notes" | head -1 | tr -d ' ')
	isa=$(sed -n 's/.*x86 ISA needed: \(.*\)$/\1/p' <<<"$notes" | head -1 | tr -d ' ')
	echo "$f ${f1:--} ${isa:--}"
}

"$ELFCET" audit -q --fail-on=never --format=json "${dirs[@]}" | jq -r '
  .files[] | select(.properties.source != "none" or true) |
  [.path,
   ((.properties.list | map(select(.name == "x86_feature_1_and" and .datasz == 4))
     | first | .bits // [] | join(",")) as $f | if $f == "" then "-" else $f end),
   ((.properties.list | map(select(.name == "x86_isa_1_needed" and .datasz == 4))
     | first | .bits // [] | join(",")) as $i | if $i == "" then "-" else $i end)]
  | join(" ")' > "${TMPDIR:-/tmp}/elfcet-agree.$$"

fail=0 n=0
while read -r path f1 isa; do
	case "$path" in *.bad-*|*.unsorted|*.duplicate|*-overrun|*.feature-size|*.header-short|*.truncated|*.too-large|*.misaligned|*.pt-note-only|*.section-only) continue ;; esac
	read -r _ rf1 risa < <(from_readelf "$path")
	n=$((n + 1))
	if [ "$f1" != "$rf1" ] || [ "$isa" != "$risa" ]; then
		echo "FAIL $path: elfcet says feature_1_and=$f1 isa_1_needed=$isa, readelf says $rf1 $risa"
		fail=$((fail + 1))
	fi
done < "${TMPDIR:-/tmp}/elfcet-agree.$$"
rm -f "${TMPDIR:-/tmp}/elfcet-agree.$$"
echo "readelf-agree: $n files compared with readelf -n, $fail disagree"
[ "$n" -gt 0 ] && [ "$fail" -eq 0 ]
