#!/usr/bin/env bash
# Differential test (issue 8): every violation elfcet run observed in the corpus/dynamic
# programs must have been predicted by `elfcet audit` (0 misses); audit findings that no run
# exercised are listed. Reuses the runs of dynrun-e2e.sh.
#   ibt:   predicted by an ibt-* finding in the target's file at the target address (or at
#          the branch itself, as for a tracked jump table flagged at its jmp; a lazy PLT
#          slot by the file's ibt-non-ibt-plt finding);
#   shstk: predicted by a shstk-* finding in the same function as the faulting RET.
# shstk-unwind (longjmp, unwinders) and transfers outside the corpus files (ld.so's lazy
# resolver on i386) are counted but not compared: the audit of issue 3 does not cover them.
set -euo pipefail
out="$top_builddir/tests/dynrun-e2e.out"
[ -d "$out/bin" ] || { echo "dynrun-e2e.sh has not run"; exit 99; }
bin=$(cd "$out/bin" && pwd -P)
"$ELFCET" audit -q --format=json --fail-on=never "$bin" >"$out/audit.json"
findings=$(jq '[.files[].findings[]] | length' "$out/audit.json")
if [ "$findings" -eq 0 ]; then
	echo "skip: elfcet audit reports no code findings on the corpus yet (issue 3)"
	exit 77
fi

# One line per audit finding: FILE RULE ADDRESS FUNCTION
jq -r '.files[] | (.path | split("/") | last) as $f | .findings[] |
  "\($f) \(.rule) \(.address) \((.symbol // "") | sub("\\+0x[0-9a-f]+$"; ""))"' \
	"$out/audit.json" | sort -u >"$out/predicted"
# One line per observed violation: KIND SRCFILE SRCADDR SRCFUNC DSTFILE DSTADDR, a file
# outside the corpus written @basename.
cat "$out"/*.json | jq -r --arg bin "$bin/" '
  select(.event == "violation") |
  def f: if (.object // "" | startswith($bin)) then (.object | ltrimstr($bin))
         else "@" + (.object // "?" | split("/") | last) end;
  "\(.kind) \(.source | f) \(.source.vaddr // 0) \((.source.symbol // "") | sub("\\+0x[0-9a-f]+$"; "")) \(.target | f) \(.target.vaddr // 0)"' \
	| sort -u >"$out/observed"

misses=0 matched=0 skipped=0
: >"$out/exercised"
while read -r kind sfile saddr sfunc dfile daddr; do
	case $kind in
	ibt)
		[ "${dfile:0:1}" != "@" ] || { skipped=$((skipped + 1)); continue; }
		# A lazy slot of a non-IBT PLT is predicted by the one ibt-non-ibt-plt
		# finding that stands for all of them.
		hit=$(awk -v f="$dfile" -v a="$daddr" -v s="$sfile" -v b="$saddr" -v fn="$sfunc" \
			'$2 ~ /^ibt-/ && (($1 == f && $3 == a) || ($1 == s && $3 == b) ||
			  ($2 == "ibt-non-ibt-plt" && $1 == f && fn == ".plt"))' "$out/predicted")
		;;
	shstk)
		[ "${sfile:0:1}" != "@" ] || { skipped=$((skipped + 1)); continue; }
		hit=$(awk -v f="$sfile" -v fn="$sfunc" '$2 ~ /^shstk-/ && $1 == f && $4 == fn' "$out/predicted")
		;;
	*)
		skipped=$((skipped + 1))
		continue
		;;
	esac
	if [ -n "$hit" ]; then
		matched=$((matched + 1))
		echo "$hit" >>"$out/exercised"
	else
		printf 'MISS %s %s:%s -> %s+%#x: not predicted by elfcet audit\n' "$kind" "$sfile" \
			"$sfunc" "$dfile" "$daddr"
		misses=$((misses + 1))
	fi
done <"$out/observed"

echo "predicted by the audit but not exercised by any run:"
sort -u "$out/exercised" | comm -23 "$out/predicted" - | sed 's/^/  /'
echo "dynrun-differential: $matched violations predicted, $misses missed, $skipped not compared"
[ "$misses" -eq 0 ]
