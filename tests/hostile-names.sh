#!/usr/bin/env bash
# Hostile names in the output (issue 35): copies of /usr/bin/true named with a newline that
# forges a report line, ESC sequences (terminal title, clear screen), CR, DEL, a C1 control,
# the bytes \xff\xfe, Latin-1 \xe9 beside UTF-8 é, and a name spelled like an escape;
# a truncated ELF file with ESC and a newline in its name (an error on stderr); a program
# whose symbol holds ESC, a newline and \xff (-v, findings). The tree is audited as a
# directory, in every format:
#   - text (stdout, -v, stderr): one line per file, each name escaped by the rule of
#     elfcet(1) (\\ \n \r \t \xHH), no control byte and nothing but UTF-8 on the terminal;
#   - JSON, JSON Lines: each path and symbol read back (the _hex member when there is one,
#     else the string's UTF-8) is exactly the file's name in bytes, all distinct;
#   - SARIF: each result's URI percent-decodes to a file of the tree;
#   - elfcet report reads the JSON Lines of such names;
#   - elfcet mark's result line and refusal name such a file escaped.
set -uo pipefail
: "${ELFCET:?}" "${top_srcdir:?}"
for tool in gcc objcopy python3; do
	command -v "$tool" > /dev/null || { echo "SKIP: hostile-names: $tool is missing"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-names.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
pass() { echo "PASS: hostile-names: $*"; }
failed() { echo "FAIL: hostile-names: $*"; fail=1; }

tree=$work/tree
mkdir -p "$tree/sym"
names=(
	$'forged\nx: ibt=ready shstk=ready feature_1_and=IBT,SHSTK (pt_gnu_property)'
	$'\xff\xfe' $'\xe9' $'\xc3\xa9' $'\e]0;owned\a\e[2J\roverwritten' $'csi\xc2\x9b31m'
	$'del\x7f' '\xff\xfe' 'back\slash' $'tab\there' plain
)
for n in "${names[@]}"; do
	cp /usr/bin/true "$tree/$n" || failed "cannot create a file named $(printf %q "$n")"
done
printf '\177ELF' > "$tree/"$'trunc\e[2J\nated'
gcc -fcf-protection "$top_srcdir/corpus/mark/shstk_hazard.S" -o "$work/hazard" &&
	objcopy --redefine-sym jump=$'\e[2Jsym\n\xff' "$work/hazard" "$tree/sym/hazard" ||
	failed "cannot build the program with a hostile symbol"
files=$(find "$tree" -type f -printf x | wc -c)

"$ELFCET" audit --fail-on=never -v "$tree" > "$work/text" 2> "$work/text.err"
"$ELFCET" audit --fail-on=never "$tree" > "$work/plain" 2> /dev/null
"$ELFCET" audit --fail-on=never --format=json "$tree" > "$work/json" 2> /dev/null
"$ELFCET" audit --fail-on=never --format=jsonl "$tree" > "$work/jsonl" 2> /dev/null
"$ELFCET" audit --fail-on=never --format=sarif "$tree" > "$work/sarif" 2> /dev/null

# Checks in Python, reading every output as bytes; the text rule is written here again,
# apart from elfcet's code, from elfcet(1).
python3 - "$tree" "$work" "$files" <<'PY'
import json, os, re, sys, urllib.parse
sys.path.insert(0, os.path.join(os.environ['top_srcdir'], 'tests'))
from name_rule import name_bytes, terminal_safe, visible

tree, work, nfiles = os.fsencode(sys.argv[1]), sys.argv[2], int(sys.argv[3])
status = 0
def result(ok, what):
    global status
    print(("PASS" if ok else "FAIL") + ": hostile-names: " + what)
    if not ok:
        status = 1

paths = set()
for d, _, fs in os.walk(tree):
    paths |= {os.path.join(d, f) for f in fs}
trunc = [p for p in paths if b'trunc' in p][0]
audited = paths - {trunc}
sym = os.path.join(tree, b'sym', b'hazard')

# Text: one line per audited file, each the escaped name then ": ibt=".
plain = open(work + '/plain', 'rb').read()
lines = plain.split(b'\n')[:-1]
starts = sorted(visible(p) + b': ibt=' for p in audited)
found = sorted(next((s for s in starts if l.startswith(s)), l) for l in lines)
result(len(lines) == len(audited) and found == starts and terminal_safe(plain),
       "text: %d lines for %d files, each the escaped name, no control byte" % (len(lines), len(audited)))
forged = [l for l in lines if l.startswith(b'x: ibt=ready')]
result(not forged, "text: the newline in a name forges no line")
verbose = open(work + '/text', 'rb').read()
want = b' ' + visible(b'\x1b[2Jsym\n\xff') + b'+0xc (via code-ref)'
result(want in verbose and terminal_safe(verbose),
       "-v: the symbol is escaped (%s), no control byte" % want.decode())
err = open(work + '/text.err', 'rb').read()
errline = b'elfcet: ' + visible(trunc) + b': '
result(sum(l.startswith(errline) for l in err.split(b'\n')) == 1 and terminal_safe(err),
       "stderr: the unreadable file's line names it escaped (%s...)" % errline.decode())

# JSON: each name read back exactly.
doc = json.load(open(work + '/json', 'rb'))
got = [name_bytes(f, 'path') for f in doc['files']]
errs = [name_bytes(f, 'path') for f in doc['errors']]
result(sorted(got) == sorted(audited) and errs == [trunc],
       "json: %d audited paths and the error's path read back exactly, all distinct" % len(set(got)))
h = [f for f in doc['files'] if name_bytes(f, 'path') == sym][0]
syms = {name_bytes(x, 'symbol') for x in h['findings'] if x['symbol'] is not None}
result(b'\x1b[2Jsym\n\xff+0xc' in syms, "json: the finding's symbol read back exactly")
recs = [json.loads(l) for l in open(work + '/jsonl', 'rb')]
got = sorted(name_bytes(r, 'path') for r in recs)
result(got == sorted(paths), "jsonl: %d records, each path read back exactly" % len(recs))

# SARIF: each URI, resolved against its uriBaseId, percent-decodes to the file's name.
sarif = json.load(open(work + '/sarif', 'rb'))
bases = sarif['runs'][0]['originalUriBaseIds']
uris = set()
for r in sarif['runs'][0]['results']:
    for loc in r['locations']:
        art = loc['physicalLocation']['artifactLocation']
        uris.add(urllib.parse.unquote_to_bytes(bases[art['uriBaseId']]['uri'] + art['uri']))
want = {b'file://' + p if p.startswith(b'/') else p for p in audited}
result(uris == want, "sarif: %d URIs, each decodes to its file's name" % len(uris))
props = [r['properties'] for r in sarif['runs'][0]['results'] if 'symbol' in r['properties']]
syms = {bytes.fromhex(p['symbolHex']) if 'symbolHex' in p else (p['symbol'] or '').encode() for p in props}
result(b'\x1b[2Jsym\n\xff+0xc' in syms, "sarif: the symbol read back exactly from properties.symbolHex")
try:
    import jsonschema
    schema = json.load(open(os.environ['top_srcdir'] + '/tests/sarif-subset.schema.json'))
    errors = list(jsonschema.validators.validator_for(schema)(schema).iter_errors(sarif))
    result(not errors, "sarif: valid against tests/sarif-subset.schema.json" +
           "".join("; " + e.message[:80] for e in errors[:2]))
except ImportError:
    print("SKIP: hostile-names: python3-jsonschema is missing: the SARIF document is not validated")
sys.exit(status)
PY
[ $? -eq 0 ] || fail=1

# elfcet mark names the file escaped too: its result line, and a refusal on stderr.
m=$work/$'mark\e[2J\nx: unchanged'
cp /usr/bin/true "$m"
"$ELFCET" mark --shstk "$m" > "$work/mark.out" 2> "$work/mark.err"
"$ELFCET" mark --ibt "$m" > /dev/null 2> "$work/refused.err"
if [ "$(wc -l < "$work/mark.out")" -eq 1 ] && grep -qF "$work/mark\x1b[2J\nx: unchanged: none -> SHSTK" "$work/mark.out" &&
	grep -qF "elfcet mark: $work/mark\x1b[2J\nx: unchanged: refused: " "$work/refused.err" &&
	! grep -q $'\e' "$work/mark.out" "$work/refused.err"; then
	pass "mark: the result line and the refusal name the file escaped: $(cut -c 1-70 "$work/mark.out")..."
else
	failed "mark: $(cat -v "$work/mark.out" "$work/refused.err" | head -n 4)"
fi

"$ELFCET" report "$work/jsonl" > "$work/report" 2> "$work/report.err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q "^elfcet: $((files - 1)) audited, 0 skipped, 1 unreadable" "$work/report"; then
	pass "elfcet report reads the JSON Lines: $(head -c 50 "$work/report")..."
else
	failed "elfcet report exited $rc: $(head -n 2 "$work/report" "$work/report.err")"
fi
exit "$fail"
