#!/usr/bin/env bash
# elfcet audit --format=jsonl and elfcet report: one record per file, the audited ones
# equal to the JSON document's "files"; shards audited apart and merged by elfcet report
# give the summary line and table of one audit of everything, and the JSON summary.
set -uo pipefail
: "${ELFCET:?}" "${top_builddir:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-jsonl.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
pass() { echo "PASS: jsonl-report: $*"; }
failed() { echo "FAIL: jsonl-report: $*"; fail=1; }

for d in "$top_builddir/tests/corpus-notes.out" "$top_builddir/tests/corpus-targets.out"; do
	[ -d "$d" ] || { failed "$d: not built"; exit 1; }
done
# Every file of both corpora, a truncated ELF file (an error) and an object file (skipped).
printf '\177ELF' > "$work/truncated"
printf 'int f(void) { return 1; }\n' > "$work/obj.c" && gcc -c -o "$work/obj.o" "$work/obj.c"
# Only ELF files: a non-ELF file named in a list is an error, found in a directory it is
# not; the shards below name their files.
find "$top_builddir/tests/corpus-notes.out" "$top_builddir/tests/corpus-targets.out" -type f |
	sort | while IFS= read -r f; do
		[ "$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ] && echo "$f"
	done > "$work/list"
printf '%s\n' "$work/truncated" "$work/obj.o" >> "$work/list"

"$ELFCET" audit --format=jsonl --fail-on=never - < "$work/list" > "$work/all.jsonl" 2>/dev/null
"$ELFCET" audit --format=json --fail-on=never - < "$work/list" > "$work/all.json" 2>/dev/null
# The summary line and table, without the line naming the unreadable file.
"$ELFCET" audit --fail-on=never - < "$work/list" 2>&1 > /dev/null | grep -v '^elfcet: /' > "$work/all.text-summary"

records=$(wc -l < "$work/all.jsonl")
expected=$(jq '.summary.audited + .summary.skipped + .summary.errors' "$work/all.json")
if jq -e -c . "$work/all.jsonl" > /dev/null && [ "$records" -eq "$expected" ] && [ "$records" -gt 100 ]; then
	pass "$records records, one JSON object per line, one per file"
else
	failed "$records records for $expected files, or a line that is not JSON"
fi
jq -S -c 'select(.verdicts)' "$work/all.jsonl" > "$work/audited.jsonl"
jq -S -c '.files[]' "$work/all.json" > "$work/files.jsonl"
if cmp -s "$work/audited.jsonl" "$work/files.jsonl"; then
	pass "audited records equal the JSON document's files, in order"
else
	failed "audited records differ from the JSON document's files"
fi
if jq -e --arg t "$work/truncated" --arg o "$work/obj.o" -s \
	'(map(select(.path == $t and .error)) | length == 1) and (map(select(.path == $o and .skipped)) | length == 1)' \
	"$work/all.jsonl" > /dev/null; then
	pass "the unreadable file is an error record, the object file a skipped one"
else
	failed "no error record for $work/truncated or no skipped record for $work/obj.o"
fi

# Four shards, audited apart, merged.
split -n l/4 -d "$work/list" "$work/part."
for p in "$work"/part.0[0-3]; do
	"$ELFCET" audit --format=jsonl --fail-on=never - < "$p" > "$p.jsonl" 2>/dev/null
done
"$ELFCET" report "$work"/part.0[0-3].jsonl > "$work/merged.txt" 2> "$work/merged.err"
rc=$?
if [ "$rc" -eq 0 ] && diff "$work/all.text-summary" "$work/merged.txt" > "$work/diff"; then
	pass "elfcet report of 4 shards prints the single audit's summary and table ($(wc -l < "$work/merged.txt") lines)"
else
	failed "elfcet report exited $rc, or differs from the single audit's summary:"; head -n 20 "$work/diff"
fi
"$ELFCET" report --format=json "$work"/part.0[0-3].jsonl > "$work/merged.json"
if [ "$(jq -S -c .summary "$work/merged.json")" = "$(jq -S -c .summary "$work/all.json")" ]; then
	pass "elfcet report --format=json gives the single JSON document's summary"
else
	failed "JSON summaries differ: $(jq -c .summary "$work/merged.json") vs $(jq -c .summary "$work/all.json")"
fi

# A damaged shard: one line naming it, exit 2.
{ head -n 2 "$work/all.jsonl"; echo '{"path": "x", "verdicts": '; } > "$work/bad.jsonl"
"$ELFCET" report "$work/bad.jsonl" > /dev/null 2> "$work/bad.err"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(wc -l < "$work/bad.err")" -eq 1 ] && grep -q "bad.jsonl:3: " "$work/bad.err"; then
	pass "a damaged shard: $(cat "$work/bad.err")"
else
	failed "a damaged shard: exit $rc, $(cat "$work/bad.err")"
fi

# Exactly one record per line (issue 35): two records on one line, a record followed by
# garbage, a line with only part of a record, a blank line, a path_hex that is not hex:
# each one line naming the shard and the line, exit 2.
rec=$(head -n 1 "$work/all.jsonl")
cases=("two records" "$rec$rec" "a record and garbage" "$rec x" "a record and a brace" "$rec}"
	"two records and a comma" "$rec,$rec" "a truncated record" "${rec%?}" "a blank line" ""
	"a path_hex that is not hex" "${rec/\"path\":/\"path_hex\":\"0g\",\"path\":}")
for ((i = 0; i < ${#cases[@]}; i += 2)); do
	what=${cases[i]} bad=${cases[i + 1]}
	{ head -n 2 "$work/all.jsonl"; printf '%s\n' "$bad"; tail -n 1 "$work/all.jsonl"; } > "$work/strict$i.jsonl"
	"$ELFCET" report "$work/strict$i.jsonl" > /dev/null 2> "$work/strict.err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l < "$work/strict.err")" -eq 1 ] && grep -q "strict$i.jsonl:3: " "$work/strict.err"; then
		pass "$what on line 3: exit 2, $(sed 's/.*jsonl:3: //' "$work/strict.err")"
	else
		failed "$what on line 3: exit $rc, $(cat "$work/strict.err")"
	fi
done
# Trailing white space and a last record without its newline are still one record per line.
{ head -n 2 "$work/all.jsonl" | sed 's/$/ \t/'; printf '%s' "$rec"; } > "$work/lenient.jsonl"
if "$ELFCET" report "$work/lenient.jsonl" > /dev/null 2> "$work/lenient.err"; then
	pass "trailing blanks and a last line without newline are accepted"
else
	failed "trailing blanks or a last line without newline: $(cat "$work/lenient.err")"
fi
# Rule ids come from the shards too: one with ESC and a newline is printed escaped in the
# table, and forges no line.
jq -c '.findings[0].rule = "\u001b[2Jevil\nx" | .problems = []' <<< "$rec" > "$work/rule.jsonl"
"$ELFCET" report "$work/rule.jsonl" > "$work/rule.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -qF '\x1b[2Jevil\nx ' "$work/rule.out" && ! grep -q $'\e' "$work/rule.out" &&
	! grep -q '^x ' "$work/rule.out"; then
	pass "a rule id with ESC and a newline is escaped in the table: $(grep -F 'evil' "$work/rule.out")"
else
	failed "a rule id with ESC and a newline: exit $rc, $(cat -v "$work/rule.out" | tail -n 3)"
fi
exit "$fail"
