#!/usr/bin/env bash
# elfcet run with hostile file names (issue 35): corpus/dynamic's ibt_fnptr (four IBT
# violations, one into its no_endbr_func) copied into a directory named \xff\xfe as a program
# named with a newline, Latin-1 \xe9, ESC and BEL, its no_endbr_func renamed to ESC, a
# newline and \xff. Then:
#   - the run finds the same violations as a copy with a plain name (QEMU's map of the file
#     names the newline as \012: the plugin must still read the file's marking);
#   - JSON: the program, every object and the symbol read back (the _hex member when there
#     is one, else the string's UTF-8) are exactly the names in bytes;
#   - text (stderr): the names escaped by the rule of elfcet(1), no control byte;
#   - a shell (checked, --shstk, so that the plugin watches its execve) that execs the
#     program: the note names it escaped, and the JSON run record's
#     "execs" holds it exactly.
set -uo pipefail
: "${ELFCET:?}" "${top_srcdir:?}" "${top_builddir:?}"
: "${ELFCET_PLUGIN:=$top_builddir/vm/plugin/elfcet-qemu-plugin.so}"
export ELFCET_PLUGIN
for tool in gcc objcopy python3 qemu-x86_64; do
	command -v "$tool" > /dev/null || { echo "SKIP: dynrun-names: $tool is missing"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-runnames.XXXXXX")
trap 'rm -rf "$work"' EXIT
work=$(cd "$work" && pwd -P)

src=$top_srcdir/corpus/dynamic
hostile=$work/$'d\xff\xfe'/$'pr\nog\xe9\e]0;t\a'
symbol=$'\e[2Jsym\n\xff'
mkdir -p "$work/plain" "$(dirname "$hostile")"
gcc -O2 -fcf-protection -Wl,-z,ibt -o "$work/plain/prog" "$src/ibt_fnptr.c" \
	"$src/noendbr_asm.S" &&
	objcopy --redefine-sym no_endbr_func="$symbol" "$work/plain/prog" "$hostile" ||
	{ echo "FAIL: dynrun-names: cannot build the programs"; exit 1; }

"$ELFCET" run --json "$work/plain.json" -- "$work/plain/prog" > /dev/null 2> "$work/plain.err"
"$ELFCET" run --json "$work/hostile.json" -- "$hostile" > /dev/null 2> "$work/hostile.err"
"$ELFCET" run --shstk --json "$work/exec.json" -- /bin/sh -c 'exec "$0"' "$hostile" \
	> /dev/null 2> "$work/exec.err"

python3 - "$work" "$hostile" "$symbol" <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(os.environ['top_srcdir'], 'tests'))
from name_rule import name_bytes, terminal_safe, visible

work, hostile, symbol = sys.argv[1], os.fsencode(sys.argv[2]), os.fsencode(sys.argv[3])
status = 0
def result(ok, what):
    global status
    print(("PASS" if ok else "FAIL") + ": dynrun-names: " + what)
    if not ok:
        status = 1

def records(name):
    return [json.loads(l) for l in open(os.path.join(work, name), 'rb')]

def violations_into(recs, obj):
    return [r for r in recs if r['event'] == 'violation'
            and 'object' in r['target'] and name_bytes(r['target'], 'object') == obj]

plain, recs = records('plain.json'), records('hostile.json')
want = len(violations_into(plain, os.fsencode(work) + b'/plain/prog'))
got = violations_into(recs, hostile)
result(want == 4 and len(got) == want,
       "the hostile name's run finds the %d IBT violations into the program the plain "
       "name's finds (found %d)" % (want, len(got)))
run = [r for r in recs if r['event'] == 'run']
result(len(run) == 1 and name_bytes(run[0], 'program') == hostile,
       "json: the run record's program reads back exactly")
objects = {name_bytes(e, 'object') for r in recs if r['event'] == 'violation'
           for e in (r['source'], r['target']) if 'object' in e}
result(hostile in objects and all(os.path.exists(o) for o in objects),
       "json: every object reads back as a file that exists (%d objects)" % len(objects))
syms = {name_bytes(r['target'], 'symbol') for r in got if 'symbol' in r['target']}
result(symbol in syms, "json: the renamed symbol reads back exactly")

err = open(os.path.join(work, 'hostile.err'), 'rb').read()
line = b'elfcet run: ' + visible(hostile) + b': checked ibt; '
result(any(l.startswith(line) for l in err.split(b'\n')) and terminal_safe(err),
       "text: the summary names the program escaped, no control byte on stderr")
result(b'<' + visible(symbol) + b'>' in err, "text: the symbol is escaped")

err = open(os.path.join(work, 'exec.err'), 'rb').read()
note = b"elfcet run: note: a process exec'd " + visible(hostile) + b", which ran unchecked"
result(note in err.split(b'\n') and terminal_safe(err),
       "text: the exec note names the program escaped, no control byte on stderr")
run = [r for r in records('exec.json') if r['event'] == 'run']
execs = [name_bytes(e, 'path') for e in run[0].get('execs', [])] if run else []
result(execs == [hostile], "json: the run record's execs hold the program exactly")
sys.exit(status)
PY
