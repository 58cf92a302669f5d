#!/usr/bin/env bash
# Keeps the verdicts of bench/precision-sample.tsv, the findings of elfcet audit on real
# Debian 13 binaries judged by hand from the disassembly (issue 18):
#   - every finding labelled true must still be reported (same file, address and rule):
#     losing one is a lost detection, and fails;
#   - for every finding labelled false, says whether the audit still reports it (a known
#     false positive, counted) or no longer does; neither fails.
# When a rule changes, re-judge the affected rows (bench/precision lists the oracles'
# disagreements with the sample). The packages are the set of bench/precision, downloaded
# once by tests/debian13-fetch into ${ELFCET_CACHE:-/var/cache/elfcet}/precision; only the
# files the sample names are audited. Exit 77 (skipped) when the mirror cannot be reached.
set -uo pipefail
elfcet=${ELFCET:-$PWD/elfcet/elfcet}
src=${top_srcdir:-$(dirname "$0")/..}
sample=${PRECISION_SAMPLE:-$src/bench/precision-sample.tsv}
cache=${ELFCET_CACHE:-/var/cache/elfcet}/precision

note() { echo "precision-sample: $*"; }
[ -x "$elfcet" ] || { note "$elfcet: not found (build first or set ELFCET)"; exit 2; }
# shellcheck disable=SC2046 # a word list
"$src/tests/debian13-fetch" "$cache" $(sed 's/#.*//' "$src/bench/precision-packages" | awk 'NF { print $1 }')
rc=$?
[ "$rc" -eq 0 ] || { [ "$rc" -eq 77 ] && note "SKIP: no Debian 13 packages"; exit "$rc"; }
root=$cache/root

work=$(mktemp -d "${TMPDIR:-/tmp}/precision-sample.XXXXXX")
trap 'rm -rf "$work"' EXIT
grep -v '^#' "$sample" | awk -F'\t' 'NF >= 7' > "$work/rows"
[ -s "$work/rows" ] || { note "FAIL: $sample: no labelled row"; exit 1; }
cut -f1 "$work/rows" | sort -u | sed "s|^|$root/|" > "$work/files"
# A row names a regular file of the tree: a link may lead out of it (etc/rmt) or give a
# file a second name under which the audit does not report it.
while read -r f; do
	[ -f "$f" ] && [ ! -L "$f" ] ||
		{ note "FAIL: $sample names $f, not a regular file of the tree"; exit 1; }
done < "$work/files"

"$elfcet" audit -q --format=json --fail-on=never - < "$work/files" > "$work/audit.json" \
	2> "$work/stderr"
rc=$?
[ "$rc" -eq 0 ] || { note "FAIL: elfcet audit exited $rc: $(head -n 1 "$work/stderr")"; exit 1; }
# FILE ADDRESS RULE of every reported finding, the address in the sample's hex form.
jq -r --arg r "$root/" '.files[] | (.path | ltrimstr($r)) as $f | .findings[]? |
	"\($f)\t\(.address)\t\(.rule)"' "$work/audit.json" |
	awk -F'\t' '{ printf "%s\t0x%x\t%s\n", $1, $2, $3 }' | sort -u > "$work/reported"

fail=0 kept=0 lost=0 fp_still=0 fp_gone=0
while IFS=$'\t' read -r file addr rule via verdict insn reason; do
	addr=$(printf '0x%x' "$((addr))")
	if grep -qxF "$file"$'\t'"$addr"$'\t'"$rule" "$work/reported"; then
		reported=1
	else
		reported=0
	fi
	case $verdict:$reported in
	true:1) kept=$((kept + 1)) ;;
	true:0)
		echo "FAIL: precision-sample: $file $addr $rule ($via) is no longer reported, but it is true: $insn: $reason"
		lost=$((lost + 1))
		fail=1
		;;
	false:1)
		echo "  still reported, judged false: $file $addr $rule ($via): $insn"
		fp_still=$((fp_still + 1))
		;;
	false:0) fp_gone=$((fp_gone + 1)) ;;
	*) echo "FAIL: precision-sample: $file $addr: verdict '$verdict' is not true or false"; fail=1 ;;
	esac
done < "$work/rows"

total=$((kept + lost))
if [ "$lost" -eq 0 ]; then
	echo "PASS: precision-sample: all $total findings labelled true are still reported"
fi
echo "precision-sample: findings labelled false: $fp_still still reported, $fp_gone no longer reported"
echo "precision-sample: precision of the audit on the sample: $kept true of $((kept + fp_still)) reported"
exit "$fail"
