#!/usr/bin/env bash
# elfcet audit --format=sarif: the document validates against the SARIF 2.1.0 JSON schema
# (python3-jsonschema, a real validator), lists every rule of the catalogue with its
# description and default level, and holds one result per finding and per problem of the
# note, the same as the JSON report, with address, symbol and via in message and properties.
#
# The schemas: the standard's own SARIF 2.1.0 schema (sarif-2.1.0-rtm.5.json, the final
# one), which no Debian 12 package ships: it is taken once from the npm registry, from the
# package @microsoft/jest-sarif that carries it (npm pack, pinned version and SHA-256, cached
# under ${ELFCET_CACHE:-/var/cache/elfcet}/sarif; skipped, and said so, when npm or the
# registry cannot be had: npm is not in tests/deps.txt, as Debian's npm package conflicts with
# the nodejs of machines that carry NodeSource's, which brings its own npm); and tests/sarif-subset.schema.json, written for elfcet from the
# standard for the objects it emits, closed, so a member the standard does not have fails.
# Each PASS line names the schema it used.
set -uo pipefail
: "${ELFCET:?}" "${top_srcdir:?}" "${top_builddir:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-sarif.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
pass() { echo "PASS: sarif: $*"; }
failed() { echo "FAIL: sarif: $*"; fail=1; }

# The standard's schema, fetched once (exit status 1 when it cannot be had).
official_schema() {
	local cache=${ELFCET_CACHE:-/var/cache/elfcet}/sarif pkg=@microsoft/jest-sarif@1.0.0-beta.0
	local file=sarif-2.1.0-rtm.5.json
	local sum=2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8
	if [ ! -f "$cache/$file" ]; then
		command -v npm > /dev/null || return 1
		mkdir -p "$cache/npm" || return 1
		(cd "$work" && timeout 120 npm pack --silent --cache "$cache/npm" "$pkg" > npm.out 2>&1 &&
			tar xzf "$(tail -n 1 npm.out)" "package/lib/schemas/$file") || return 1
		echo "$sum  $work/package/lib/schemas/$file" | sha256sum -c --quiet > /dev/null || return 1
		mv "$work/package/lib/schemas/$file" "$cache/$file" || return 1
	fi
	echo "$cache/$file"
}
schemas=() names=()
if standard=$(official_schema); then
	schemas+=("$standard")
	names+=("the standard's SARIF 2.1.0 schema ($(basename "$standard"), from npm's @microsoft/jest-sarif)")
else
	echo "SKIP: sarif: the standard's schema could not be fetched from the npm registry; only elfcet's subset schema is checked"
fi
schemas+=("$top_srcdir/tests/sarif-subset.schema.json")
names+=("elfcet's closed schema of the SARIF 2.1.0 subset it writes")
schema=
validate() {
	python3 - "$schema" "$1" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
cls = jsonschema.validators.validator_for(schema)
errors = sorted(cls(schema, format_checker=jsonschema.FormatChecker()).iter_errors(doc),
                key=lambda e: list(e.path))
for e in errors[:5]:
    print("    %s: %s" % ("/".join(map(str, e.path)), e.message[:200]))
sys.exit(1 if errors else 0)
PY
}

# Inputs: the note corpus (problems of the note) and the target corpus (findings), plus a
# file that cannot be read.
inputs=("$top_builddir/tests/corpus-notes.out" "$top_builddir/tests/corpus-targets.out")
for d in "${inputs[@]}"; do
	[ -d "$d" ] || { failed "$d: not built (run make check)"; exit 1; }
done
printf '\177ELF' > "$work/truncated"
"$ELFCET" audit --format=sarif --fail-on=never "${inputs[@]}" "$work/truncated" > "$work/out.sarif" 2> "$work/err"
rc=$?
"$ELFCET" audit --format=json --fail-on=never "${inputs[@]}" "$work/truncated" > "$work/out.json" 2>/dev/null
if [ "$rc" -eq 2 ] && jq -e . "$work/out.sarif" > /dev/null; then
	pass "written as JSON, exit 2 for the unreadable file"
else
	failed "exit $rc (2 expected), or not JSON: $(head -c 300 "$work/out.sarif")"
fi

# The validator and each schema can fail: a level SARIF does not have.
jq '.runs[0].results[0].level = "fatal"' "$work/out.sarif" > "$work/bad.sarif"
for i in "${!schemas[@]}"; do
	schema=${schemas[$i]} which=${names[$i]}
	if validate "$work/out.sarif" > "$work/validate" 2>&1; then
		pass "validates against $which"
	else
		failed "does not validate against $which:"; cat "$work/validate"
	fi
	if validate "$work/bad.sarif" > /dev/null 2>&1; then
		failed "a result with level \"fatal\" validates against $which: the check cannot fail"
	else
		pass "a result with level \"fatal\" is refused by $which"
	fi
done

# One rule per catalogue entry, with its description and level.
level() { case $1 in info) echo note ;; *) echo "$1" ;; esac; }
grep -v '^[[:space:]]*#' "$top_srcdir/rules/catalogue.rules" | grep -v '^[[:space:]]*$' |
	while read -r id sev desc; do printf '%s\t%s\t%s\n' "$id" "$(level "$sev")" "$desc"; done > "$work/catalogue"
jq -r '.runs[0].tool.driver.rules[] | [.id, .defaultConfiguration.level, .shortDescription.text] | @tsv' \
	"$work/out.sarif" > "$work/rules"
if [ -s "$work/catalogue" ] && diff "$work/catalogue" "$work/rules" > "$work/rules.diff"; then
	pass "$(wc -l < "$work/rules") rules, one per catalogue entry, with description and default level"
else
	failed "rules differ from the catalogue:"; head -n 10 "$work/rules.diff"
fi

# The results are the JSON report's problems and findings, one each.
jq -r '.files[] | .path as $p | (.problems[] | [$p, .rule, .severity, "-", "-", "-"]),
	(.findings[] | [$p, .rule, .severity, (.address | tostring), .symbol // "?", .via // "-"]) | @tsv' \
	"$work/out.json" | sort > "$work/expected"
jq -r '.runs[0].results[] |
	(.locations[0].physicalLocation.artifactLocation.uri | sub("^file://"; "")) as $p |
	(if .level == "note" then "info" else .level end) as $sev |
	if .properties.address then [$p, .ruleId, $sev, (.properties.address | tostring),
		.properties.symbol // "?", .properties.via // "-"]
	else [$p, .ruleId, $sev, "-", "-", "-"] end | @tsv' "$work/out.sarif" |
	python3 -c 'import sys, urllib.parse; sys.stdout.write(urllib.parse.unquote(sys.stdin.read()))' |
	sort > "$work/actual"
nprob=$(jq '[.files[].problems[]] | length' "$work/out.json")
nfind=$(jq '[.files[].findings[]] | length' "$work/out.json")
if [ "$nprob" -gt 0 ] && [ "$nfind" -gt 0 ] && diff "$work/expected" "$work/actual" > "$work/results.diff"; then
	pass "$nfind findings and $nprob problems as results, as in the JSON report"
else
	failed "results differ from the JSON report ($nfind findings, $nprob problems):"
	head -n 10 "$work/results.diff"
fi
# The message says it all too, and ruleIndex points at the rule.
hex() { printf '%x' "$1"; }
bad=$(jq -r '.runs[0] as $run | $run.results[] | select(.properties.address) | . as $x |
	[$x.message.text, $x.properties.address, ($x.properties.symbol // "?"), $x.properties.via,
	 ($run.tool.driver.rules[$x.ruleIndex].id == $x.ruleId)] | @tsv' "$work/out.sarif" |
	while IFS=$'\t' read -r text addr sym via idx_ok; do
		case $text in
		*"0x$(hex "$addr")"*"$sym"*"(via $via)"*) [ "$idx_ok" = true ] || echo bad ;;
		*) echo bad ;;
		esac
	done | wc -l)
if [ "$bad" = 0 ]; then
	pass "each finding's message names its address, symbol and via; ruleIndex matches ruleId"
else
	failed "$bad results whose message or ruleIndex is wrong"
fi
# The unreadable file is a notification of a failed invocation.
if jq -e --arg p "$work/truncated" '.runs[0].invocations[0] | .executionSuccessful == false and
	([.toolExecutionNotifications[] | select(.locations[0].physicalLocation.artifactLocation.uri == "file://" + $p)] | length == 1)' \
	"$work/out.sarif" > /dev/null; then
	pass "the unreadable file is a notification, executionSuccessful false"
else
	failed "no notification for the unreadable file"
fi
exit "$fail"
