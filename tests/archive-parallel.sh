#!/usr/bin/env bash
# The GNU parallel recipe (tools/elfcet-audit-archive) over the Debian 13 set: one JSON
# Lines shard per package, merged by elfcet report into the summary a single run prints;
# resumed after an interruption without redoing a finished shard. Prints the files/s and
# MB/s of a single run. Exit 77 when the set is not in the cache.
set -uo pipefail
elfcet=${ELFCET:-$PWD/elfcet/elfcet}
recipe=${top_srcdir:?}/tools/elfcet-audit-archive
cache=${ELFCET_CACHE:-/var/cache/elfcet}/debian13
[ -f "$cache/debs/.complete" ] || {
	echo "SKIP: archive-parallel: no Debian 13 set in $cache (tests/debian13.sh downloads it)"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-archive.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
pass() { echo "PASS: archive-parallel: $*"; }
failed() { echo "FAIL: archive-parallel: $*"; fail=1; }
debs=("$cache"/debs/*.deb)
export ELFCET=$elfcet

# One run over every package, timed.
start=$(date +%s.%N)
"$elfcet" audit --format=jsonl "${debs[@]}" > "$work/single.jsonl" 2> /dev/null
end=$(date +%s.%N)
"$elfcet" report "$work/single.jsonl" > "$work/single.txt"
"$elfcet" report --format=json "$work/single.jsonl" > "$work/single.json"
# elfcet report says what the audit itself says at the end of a text run.
"$elfcet" audit "${debs[@]}" 2>&1 > /dev/null | grep -v '^elfcet: /' > "$work/single.audit-summary"
if diff -q "$work/single.txt" "$work/single.audit-summary" > /dev/null; then
	pass "elfcet report of a single run equals that run's own summary and table"
else
	failed "elfcet report differs from the audit's summary"; diff "$work/single.txt" "$work/single.audit-summary" | head
fi
files=$(jq -s 'map(select(.verdicts)) | length' "$work/single.jsonl")
deb_mb=$(du -cb "${debs[@]}" | tail -n 1 | cut -f 1)
elf_mb=$(du -cb $(jq -r 'select(.verdicts) | .path' "$work/single.jsonl" | sed "s|^|$cache/root|") 2>/dev/null |
	tail -n 1 | cut -f 1)
echo "archive-parallel: one run, $(nproc) cores: ${#debs[@]} packages ($((deb_mb / 1000000)) MB of .deb), $files ELF files ($((elf_mb / 1000000)) MB) in $(echo "$end - $start" | bc | cut -c 1-5) s:" \
	"$(echo "$files / ($end - $start)" | bc) files/s, $(echo "$elf_mb / 1000000 / ($end - $start)" | bc) MB/s of ELF, $(echo "$deb_mb / 1000000 / ($end - $start)" | bc -l | cut -c 1-5) MB/s of .deb"

# The recipe, interrupted: the first five packages are done, a sixth was cut off (its
# temporary shard left behind), then the whole set is run on 4 jobs.
out=$work/out
"$recipe" -o "$out" -j 2 "${debs[@]:0:5}" > /dev/null 2> "$work/first.err" ||
	failed "first run: $(tail -n 3 "$work/first.err")"
stat -c '%n %i %Y.%y' "$out"/shards/*.jsonl > "$work/first.stat"
sixth=$(basename "${debs[5]}" .deb)
head -c 1000 "$work/single.jsonl" > "$out/shards/$sixth.jsonl.tmp"
sleep 1
"$recipe" -o "$out" -j 4 "$cache/debs" > "$work/recipe.txt" 2> "$work/recipe.err"
rc=$?
nshards=$(ls "$out"/shards/*.jsonl | wc -l)
if [ "$rc" -eq 0 ] && [ "$nshards" -eq "${#debs[@]}" ] && [ "$nshards" -ge 4 ]; then
	pass "recipe: $nshards shards, one per package, on 4 jobs ($(head -n 1 "$work/recipe.err" | sed 's/^elfcet-audit-archive: //'))"
else
	failed "recipe exited $rc with $nshards shards for ${#debs[@]} packages: $(tail -n 3 "$work/recipe.err")"
fi
if stat -c '%n %i %Y.%y' $(cut -d ' ' -f 1 "$work/first.stat") | cmp -s - "$work/first.stat"; then
	pass "resumed: the 5 shards finished before were not redone"
else
	failed "the shards of the first run were rewritten"
fi
if [ -z "$(find "$out/shards" -name '*.tmp')" ] && cmp -s "$out/shards/$sixth.jsonl" \
	<(jq -c --arg v "$(dpkg-deb -f "${debs[5]}" Version)" --arg p "$(dpkg-deb -f "${debs[5]}" Package)" \
		'select(.package == $p and .package_version == $v)' "$work/single.jsonl"); then
	pass "the interrupted package was redone whole, its temporary shard gone"
else
	failed "the interrupted package's shard is not whole, or a .tmp is left"
fi
if cmp -s "$out/summary.txt" "$work/single.txt" && cmp -s "$out/summary.txt" "$work/recipe.txt"; then
	pass "merged summary of $nshards shards equals the single run's ($(head -n 1 "$work/single.txt" | cut -c 1-60)...)"
else
	failed "merged summary differs from the single run's:"; diff "$out/summary.txt" "$work/single.txt" | head
fi
if [ "$(jq -S -c . "$out/summary.json")" = "$(jq -S -c . "$work/single.json")" ]; then
	pass "merged JSON summary equals the single run's"
else
	failed "merged JSON summary differs"
fi
exit "$fail"
