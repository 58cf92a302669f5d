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
#
# Then what code-scanning services need beyond the schema, checked by an independent
# validator: the SARIF Multitool of Microsoft's SARIF SDK (`validate` with its GitHub
# ingestion rules, GH*, and its SARIF best-practice rules, SARIF*), version 5.7.0 of the npm
# package @microsoft/sarif-multitool-linux, installed here by npm pack (pinned version and
# SHA-256, cached beside the schema; a SKIP line when the registry cannot be reached): a
# $schema, every rule with fullDescription and help, a region in every result. And by
# this script: the texts are the catalogue's, each finding's region is the byte its
# address maps to (by readelf's program headers), URIs are relative to a uriBaseId (no
# file:///usr/...), levels are the report's severities (warnings stay warnings), and the
# fingerprints stay the same when unrelated code moves.
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

# One rule per catalogue entry, with its description and level (rule lines start in the
# first column; indented lines under them are the rule's details and help).
level() { case $1 in info) echo note ;; *) echo "$1" ;; esac; }
grep -v '^[[:space:]]*#' "$top_srcdir/rules/catalogue.rules" | grep -v '^[[:space:]]' | grep -v '^$' |
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
# A location's file: its uriBaseId's URI, then its own (still percent-encoded).
file_of='def file_of($bases): .physicalLocation.artifactLocation |
	($bases[.uriBaseId].uri + .uri | sub("^file://"; ""));'
jq -r "$file_of"'.runs[0].originalUriBaseIds as $bases | .runs[0].results[] |
	(.locations[0] | file_of($bases)) as $p |
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
if jq -e --arg p "$work/truncated" "$file_of"'.runs[0].originalUriBaseIds as $bases |
	.runs[0].invocations[0] | .executionSuccessful == false and
	([.toolExecutionNotifications[] | select(.locations[0] | file_of($bases) == $p)] | length == 1)' \
	"$work/out.sarif" > /dev/null; then
	pass "the unreadable file is a notification, executionSuccessful false"
else
	failed "no notification for the unreadable file"
fi

# The rules' full descriptions and help are the catalogue's details and help, parsed here
# on their own (an indented "details:"/"help:" line under a rule, continued by indented
# lines), and every rule of the shipped catalogue has both, each more than its one line.
python3 - "$top_srcdir/rules/catalogue.rules" > "$work/texts" <<'PY'
import sys
rules, order, field = {}, [], None
for line in open(sys.argv[1]):
    text = line.split("#", 1)[0].strip()
    if not text:
        continue
    if not line[0].isspace():
        rid, sev, desc = text.split(None, 2)
        rules[rid] = {"short": desc, "details": "", "help": ""}
        order.append(rid)
        field = None
        continue
    for key in ("details", "help"):
        if text.startswith(key + ":"):
            field, text = key, text[len(key) + 1:].strip()
    rules[order[-1]][field] = (rules[order[-1]][field] + " " + text).strip()
for rid in order:
    r = rules[rid]
    print("\t".join([rid, r["details"], r["help"]]))
PY
jq -r '.runs[0].tool.driver.rules[] | [.id, .fullDescription.text, .help.text] | @tsv' \
	"$work/out.sarif" > "$work/sarif-texts"
short=$(awk -F'\t' '$2 == "" || $3 == ""' "$work/texts" | cut -f1 | tr '\n' ' ')
if [ -z "$short" ] && diff "$work/texts" "$work/sarif-texts" > "$work/texts.diff"; then
	pass "every rule has fullDescription and help, the catalogue's details and help"
else
	failed "rules without details or help in the catalogue (${short:-none}), or SARIF differs:"
	head -n 6 "$work/texts.diff"
fi

# A catalogue copied before it had details and help still makes complete rules (its one
# line three times); a stray indented line is a one-line error naming file and line.
mkdir -p "$work/rules-old" "$work/rules-bad"
cp "$top_srcdir"/rules/*.list "$work/rules-old/" && cp "$top_srcdir"/rules/*.list "$work/rules-bad/"
grep -v '^[[:space:]]' "$top_srcdir/rules/catalogue.rules" > "$work/rules-old/catalogue.rules"
{ sed -n '1,/^property-too-large/p' "$top_srcdir/rules/catalogue.rules"; echo "    see: elsewhere"; } \
	> "$work/rules-bad/catalogue.rules"
bad_line=$(wc -l < "$work/rules-bad/catalogue.rules")
"$ELFCET" audit --rules="$work/rules-old" --format=sarif --fail-on=never "$work/truncated" \
	> "$work/old-rules.sarif" 2> /dev/null
"$ELFCET" audit --rules="$work/rules-bad" --format=sarif "$work/truncated" > /dev/null 2> "$work/bad-rules.err"
rc=$?
if jq -e '[.runs[0].tool.driver.rules[] | .shortDescription.text == .fullDescription.text and
	.shortDescription.text == .help.text] | length > 0 and all' "$work/old-rules.sarif" > /dev/null &&
	[ "$rc" = 2 ] && [ "$(wc -l < "$work/bad-rules.err")" = 1 ] &&
	grep -q "rules-bad/catalogue.rules:$bad_line: " "$work/bad-rules.err"; then
	pass "a catalogue without details and help still gives full rules; a stray line: $(cat "$work/bad-rules.err")"
else
	failed "old catalogue or stray line (exit $rc): $(head -n 2 "$work/bad-rules.err")"
fi

# A program built twice, the second time with unrelated code before the functions the
# findings are in, so that their addresses move; no -fcf-protection, so it has
# ibt-missing-endbr findings, warnings since the file is not marked.
cat > "$work/prog.c" <<'EOF'
#ifdef MOVED
int unrelated(int x)
{
	int s = 0;
	for (int i = 0; i < x; i++)
		s += i * x;
	return s;
}
#endif
int target(int x) { return x * 3; }
int (*volatile pointer)(int) = target;
int main(void) { return pointer(1) != 3; }
EOF
build_and_audit() { # VARIANT-FLAGS OUT
	gcc -O0 -fcf-protection=none $1 -o "$work/prog" "$work/prog.c" &&
		"$ELFCET" audit --format=sarif --fail-on=never "$work/prog" > "$2" 2> /dev/null
}
if ! build_and_audit "" "$work/prog1.sarif" || ! cp "$work/prog" "$work/prog1" ||
	! build_and_audit -DMOVED "$work/prog2.sarif"; then
	failed "the test program did not build or audit"
	exit 1
fi

# Each finding's region is the byte its address maps to through readelf's PT_LOAD headers.
readelf -lW "$work/prog1" | awk '$1 == "LOAD" { print $2, $3, $5 }' > "$work/loads1"
readelf -lW "$work/prog" | awk '$1 == "LOAD" { print $2, $3, $5 }' > "$work/loads2"
region_errors=$(
	for n in 1 2; do
		jq -r '.runs[0].results[] | [.properties.address, .locations[0].physicalLocation.region.byteOffset // "none"] | @tsv' \
			"$work/prog$n.sarif" |
			python3 -c '
import sys
loads = [tuple(int(x, 16) for x in l.split()) for l in open(sys.argv[1])]
for line in sys.stdin:
    addr, off = line.split()
    addr = int(addr)
    want = [o + addr - v for o, v, sz in loads if v <= addr < v + sz]
    if off == "none" or not want or int(off) != want[0]:
        print("0x%x: byteOffset %s, readelf says %s" % (addr, off, want))' "$work/loads$n"
	done)
nres=$(jq '.runs[0].results | length' "$work/prog1.sarif")
if [ "$nres" -gt 0 ] && [ -z "$region_errors" ]; then
	pass "$nres findings of a test program: byteOffset is the address's file offset by readelf"
else
	failed "regions differ from readelf's program headers ($nres results):"; head -n 5 <<< "$region_errors"
fi
# Every result of every document has a location with a URI and a region.
empty=$(jq -s '[.[] | .runs[0].results[] | select((.locations | length) == 0 or
	any(.locations[]; (.physicalLocation.artifactLocation.uri // "") == "" or
		.physicalLocation.region.byteOffset == null))] | length' \
	"$work/out.sarif" "$work/prog1.sarif")
if [ "$empty" = 0 ]; then
	pass "no result without a location, a URI and a region"
else
	failed "$empty results with an empty location"
fi

# URIs: relative references under a uriBaseId that originalUriBaseIds defines, never an
# absolute file URI; resolved, they name the files audited (the corpora under the build
# directory where the suite runs, %SRCROOT%, and the program under $TMPDIR, ROOT).
bad_uris=$(jq -r -s '.[] | .runs[0] as $run | [$run.results[].locations[], $run.invocations[].toolExecutionNotifications[].locations[]] |
	.[].physicalLocation.artifactLocation | select((.uri | test("^[a-z]+:|^/")) or
		($run.originalUriBaseIds[.uriBaseId].uri // "" | test("^file:///(.*/)?$") | not)) | .uri' \
	"$work/out.sarif" "$work/prog1.sarif" | head -n 3)
if [ -z "$bad_uris" ] && jq -e --arg p "$work/prog" "$file_of"'.runs[0].originalUriBaseIds as $bases |
	[.runs[0].results[].locations[0] | file_of($bases)] | unique == [$p]' "$work/prog1.sarif" > /dev/null; then
	pass "URIs relative to %SRCROOT% or ROOT, resolving to the audited files ($(jq -r '.runs[0].results[0].locations[0].physicalLocation.artifactLocation | .uriBaseId + " " + .uri' "$work/prog1.sarif"))"
else
	failed "absolute or unresolvable URIs: $bad_uris"
fi

# Levels: the report's severities. The test program's findings are warnings (rules whose
# default is error, in a file not marked): a consumer reading level, else the rule's
# default, must see warnings.
levels=$(jq -r '.runs[0] as $run | [$run.results[] | .level // $run.tool.driver.rules[.ruleIndex].defaultConfiguration.level] |
	group_by(.) | map("\(length) \(.[0])") | join(", ")' "$work/prog1.sarif")
json_levels=$("$ELFCET" audit --format=json --fail-on=never "$work/prog1" 2> /dev/null |
	jq -r '[.files[].findings[].severity] | group_by(.) | map("\(length) \(.[0])") | join(", ")')
if [ -n "$levels" ] && [ "$levels" = "$json_levels" ]; then
	pass "levels are the report's severities: $levels (the JSON report: $json_levels)"
else
	failed "levels '$levels', the JSON report's severities '$json_levels'"
fi

# Fingerprints: the same for the same finding when the code moved, different for
# different findings, and never two alike in a document.
jq -r '.runs[0].results[] | [.properties.symbol, .properties.address, .partialFingerprints["elfcetResult/v1"]] | @tsv' \
	"$work/prog1.sarif" | sort > "$work/prints1"
jq -r '.runs[0].results[] | [.properties.symbol, .properties.address, .partialFingerprints["elfcetResult/v1"]] | @tsv' \
	"$work/prog2.sarif" | sort > "$work/prints2"
moved=$(join -t $'\t' "$work/prints1" "$work/prints2" | awk -F'\t' '$2 != $4' | wc -l)
same=$(join -t $'\t' "$work/prints1" "$work/prints2" | awk -F'\t' '$3 == $5' | wc -l)
both=$(join -t $'\t' "$work/prints1" "$work/prints2" | wc -l)
dups=$(jq -r '.runs[0].results[].partialFingerprints["elfcetResult/v1"] // "none"' "$work/out.sarif" | sort | uniq -d | wc -l)
distinct=$(cut -f3 "$work/prints1" | sort -u | wc -l)
if [ "$both" -gt 0 ] && [ "$moved" -gt 0 ] && [ "$same" = "$both" ] &&
	[ "$distinct" = "$(wc -l < "$work/prints1")" ] && [ "$dups" = 0 ] &&
	! grep -q none "$work/prints1"; then
	pass "fingerprints: $same of $both findings keep theirs when $moved of them move; none alike in $(jq '.runs[0].results | length' "$work/out.sarif") results"
else
	failed "fingerprints: $same of $both kept ($moved moved), $dups duplicated"
	join -t $'\t' "$work/prints1" "$work/prints2" | head -n 5
fi

# The independent validator: the SARIF Multitool's GitHub and SARIF rules.
MULTITOOL_VERSION=5.7.0
multitool() {
	local cache=${ELFCET_CACHE:-/var/cache/elfcet}/sarif pkg=@microsoft/sarif-multitool-linux@$MULTITOOL_VERSION
	local sum=27d8e3e96dde578a23b7c45035b8d741fece5731e2700aa068015b8c44d1514e
	local dir=$cache/sarif-multitool-$MULTITOOL_VERSION tarball
	if [ ! -x "$dir/Sarif.Multitool" ]; then
		command -v npm > /dev/null || { echo "npm is not installed"; return 2; }
		mkdir -p "$cache/npm" "$work/mt" || return 1
		if ! (cd "$work/mt" && timeout 600 npm pack --silent --cache "$cache/npm" "$pkg" > npm.out 2>&1); then
			timeout 60 npm ping > /dev/null 2>&1 || { echo "the npm registry cannot be reached"; return 2; }
			echo "npm pack $pkg failed: $(tail -n 2 "$work/mt/npm.out")"; return 1
		fi
		tarball=$work/mt/$(tail -n 1 "$work/mt/npm.out")
		echo "$sum  $tarball" | sha256sum -c --quiet > /dev/null 2>&1 ||
			{ echo "$pkg: SHA-256 is not $sum"; return 1; }
		tar xzf "$tarball" -C "$work/mt" package/Sarif.Multitool || return 1
		chmod +x "$work/mt/package/Sarif.Multitool"
		# Installed whole or not at all (another worktree's suite may install it too).
		mkdir -p "$cache/tmp" && mv "$work/mt/package" "$cache/tmp/$$" &&
			{ mv -T "$cache/tmp/$$" "$dir" 2> /dev/null || rm -rf "$cache/tmp/$$"; }
	fi
	echo "$dir/Sarif.Multitool"
}
validator_findings() { # SARIF OUT: the validator's results, "RULE: message" per line
	rm -f "$2.sarif"
	DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 DOTNET_BUNDLE_EXTRACT_BASE_DIR=$work/dotnet \
		"$mt" validate --rule-kind "Gh;Sarif" --level "Error;Warning" -o "$2.sarif" "$1" > "$2.log" 2>&1 &&
		jq -e '.runs[0].invocations[0].executionSuccessful' "$2.sarif" > /dev/null || return 1
	jq -r '.runs[0].results[] | "\(.ruleId): \(.locations[0].physicalLocation.region.startLine // "")"' "$2.sarif" > "$2"
}
if mt=$(multitool); then
	mt_version=$(DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 DOTNET_BUNDLE_EXTRACT_BASE_DIR=$work/dotnet "$mt" --version 2>&1 | head -n 1)
	which="the independent validator ($mt_version, npm @microsoft/sarif-multitool-linux@$MULTITOOL_VERSION), validate --rule-kind Gh;Sarif"
	if validator_findings "$work/out.sarif" "$work/mt-out" && [ ! -s "$work/mt-out" ]; then
		pass "no error or warning from $which"
	else
		failed "$which:"; sort "$work/mt-out" | uniq -c | head -n 10; tail -n 3 "$work/mt-out.log"
	fi
	# It can fail: the same document without $schema, one rule's help and one region.
	jq 'del(."$schema") | del(.runs[0].tool.driver.rules[0].help) |
		del(.runs[0].results[0].locations[0].physicalLocation.region)' "$work/out.sarif" > "$work/broken.sarif"
	validator_findings "$work/broken.sarif" "$work/mt-broken"
	caught=$(cut -d: -f1 "$work/mt-broken" | sort -u | tr '\n' ' ')
	case $caught in
	*GH1013*GH2012*SARIF2017*) pass "the validator refuses a document without \$schema, help and a region: $caught" ;;
	*) failed "the validator let a document without \$schema, help and a region through: ${caught:-nothing}" ;;
	esac
elif [ $? -eq 2 ]; then
	echo "SKIP: sarif: the code-scanning validator could not be installed ($mt); only the schemas and this script's checks ran"
else
	failed "the validator could not be installed: $mt"
fi
exit "$fail"
