#!/usr/bin/env bash
# The property-note corpus: builds real binaries with gcc and clang in every marking plus
# damaged copies, audits them, and compares every field with corpus/notes/manifest.
set -euo pipefail
out="$top_builddir/tests/corpus-notes.out"
rm -rf "$out"
"$top_srcdir/corpus/notes/build" "$out" "$top_builddir/tests/elf-damage" >/dev/null

# The same columns as the manifest, from the JSON report.
"$ELFCET" audit -q --fail-on=never --format=json "$out" | jq -r '
  .files[] | [(.path | split("/") | last), .class, .type,
    (if .interpreter then "ld" else "-" end), .properties.source,
    (.properties.feature_1_and // "-"), (.properties.isa_1_needed // "-"),
    (if (.consumers.kernel.sees_note | not) then "none"
     elif .consumers.kernel.accepted then "ok"
     else .consumers.kernel.errno + ":" + .consumers.kernel.rule end),
    (if .consumers.glibc.accepted then "ok" else "ignored" end),
    ([.problems[] | .rule + ":" + (.rejected_by | join("+"))]
     | if length == 0 then "-" else join(",") end)]
  | map(tostring) | join(" ")' | sort > "$out.actual"
grep -v '^#' "$top_srcdir/corpus/notes/manifest" | tr -s ' ' | sed 's/ $//' | sort > "$out.expected"

columns=(binary class type interp source feature_1_and isa_1_needed kernel glibc problems)
fail=0 checked=0
while read -r -a exp; do
	act=$(grep -m1 "^${exp[0]} " "$out.actual" || true)
	if [ -z "$act" ]; then
		echo "FAIL ${exp[0]}: in the manifest but not audited"
		fail=$((fail + 1))
		continue
	fi
	read -r -a got <<<"$act"
	for i in "${!columns[@]}"; do
		if [ "${exp[$i]-}" != "${got[$i]-}" ]; then
			echo "FAIL ${exp[0]}: ${columns[$i]} is '${got[$i]-}', expected '${exp[$i]-}'"
			fail=$((fail + 1))
		fi
	done
	checked=$((checked + 1))
done < "$out.expected"
for name in $(cut -d' ' -f1 "$out.actual"); do
	grep -q "^$name " "$out.expected" || { echo "FAIL $name: audited but not in the manifest"; fail=$((fail + 1)); }
done
echo "corpus-notes: $checked binaries compared field by field, $fail mismatches"
[ "$fail" -eq 0 ]
