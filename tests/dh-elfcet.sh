#!/usr/bin/env bash
# The debhelper addon end to end: corpus/debhelper/cethello, a small C source package,
# built with dpkg-buildpackage using dh_elfcet (debhelper/), then the .deb unpacked,
# audited and its program run under the checker.
#   1. Build-Depends: dh-sequence-elfcet, debian/elfcet.conf asks for IBT and SHSTK: the
#      program is SHSTK-ready and marked, IBT not-ready (Debian 12's crt files) and left;
#      the JSON report is in the build log and in usr/share/doc/cethello/.
#   2. dh $@ --with elfcet, linked with -z ibt -z shstk: IBT marked-broken, the build fails
#      naming the file and the findings.
#   3. The same with debian/cethello.elfcet-overrides covering those findings: it builds,
#      and an override that matches nothing is warned about.
#   4. Hostile names (issue 35): copies of the program named \xff\xfe, Latin-1 \xe9, UTF-8
#      café and with an ESC sequence: each copy is
#      found back from the JSON and marked like the program, the report in the package
#      reads each name back exactly, no ESC reaches the build log; linked for IBT, the
#      build fails naming each copy escaped.
set -uo pipefail
: "${ELFCET:?}" "${top_srcdir:?}"
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-dh.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
pass() { echo "PASS: dh-elfcet: $*"; }
failed() { echo "FAIL: dh-elfcet: $*"; fail=1; }
for tool in dpkg-buildpackage dh; do
	command -v "$tool" > /dev/null || { failed "$tool is missing (debhelper, dpkg-dev)"; exit 1; }
done
export PATH="$top_srcdir/debhelper:$PATH" PERL5LIB="$top_srcdir/debhelper${PERL5LIB:+:$PERL5LIB}"
export ELFCET

# build NAME [VAR=VALUE...]: copies the package to $work/NAME/cethello-1.0 and builds it
# there (no build-dependency check: dh-sequence-elfcet is not an installed package here).
build() {
	local name=$1
	shift
	mkdir -p "$work/$name"
	cp -r "$top_srcdir/corpus/debhelper/cethello" "$work/$name/cethello-1.0"
	[ -n "${prepare:-}" ] && (cd "$work/$name/cethello-1.0" && eval "$prepare")
	(cd "$work/$name/cethello-1.0" && env "$@" dpkg-buildpackage -us -uc -b -d) > "$work/$name.log" 2>&1
}

# 1. dh-sequence-elfcet in Build-Depends, features from debian/elfcet.conf.
prepare='sed -i "s/^Build-Depends: .*/&, dh-sequence-elfcet/" debian/control &&
	sed -i "s/dh \$@ --with elfcet/dh \$@/" debian/rules'
build seq
rc=$?
deb=$(ls "$work"/seq/cethello_1.0_*.deb 2>/dev/null)
if [ "$rc" -eq 0 ] && [ -n "$deb" ] && grep -q '^   dh_elfcet' "$work/seq.log"; then
	pass "Build-Depends: dh-sequence-elfcet: dh ran dh_elfcet, $(basename "$deb") built"
else
	failed "build 1 exited $rc:"; tail -n 15 "$work/seq.log"
fi
order=$(grep -Eo '^   dh_(strip|elfcet|gencontrol)( |$)' "$work/seq.log" | tr -d ' ' | tr '\n' ' ')
[ "$order" = "dh_strip dh_elfcet dh_gencontrol " ] && pass "sequence: $order" || failed "sequence: $order"
if grep -q '^dh_elfcet: elfcet audit of cethello (1 file(s) marked):' "$work/seq.log" &&
	sed -n '/^dh_elfcet: elfcet audit of cethello/{n;p}' "$work/seq.log" | jq -e '.files[0].path == "/usr/bin/cethello"' > /dev/null; then
	pass "the JSON report is in the build log"
else
	failed "no JSON report in the build log"
fi
root=$work/seq/root
dpkg-deb -x "$deb" "$root" 2>/dev/null
if jq -e '.files[0].verdicts == {"ibt": "not-ready", "shstk": "marked-ok"}' "$root/usr/share/doc/cethello/elfcet-audit.json" > /dev/null; then
	pass "usr/share/doc/cethello/elfcet-audit.json: ibt not-ready, shstk marked-ok"
else
	failed "the report in the package: $(jq -c '.files[0].verdicts' "$root/usr/share/doc/cethello/elfcet-audit.json" 2>&1)"
fi
line=$("$ELFCET" audit "$root/usr/bin/cethello" 2>/dev/null)
case $line in
*": ibt=not-ready shstk=marked-ok feature_1_and=SHSTK "*) pass "unpacked and audited: ${line#*: }" ;;
*) failed "unpacked and audited: $line" ;;
esac
line=$("$ELFCET" audit "$deb" 2>/dev/null)
case $line in
"/usr/bin/cethello (cethello 1.0): ibt=not-ready shstk=marked-ok"*) pass "the .deb audited as it is: ${line%% feature*}" ;;
*) failed "the .deb audited as it is: $line" ;;
esac
if "$ELFCET" run -- "$root/usr/bin/cethello" "the test" > "$work/run.out" 2> "$work/run.err" &&
	grep -q '^hello from the test$' "$work/run.out" && grep -q 'checked shstk; 0 ibt, 0 shstk' "$work/run.err"; then
	pass "runs marked under the checker: $(tail -n 1 "$work/run.err" | sed 's/^[^:]*: [^:]*: //')"
else
	failed "running the marked program: $(tail -n 2 "$work/run.err")"
fi

# 2. --with elfcet, the linker marks IBT although the crt files lack ENDBR.
prepare=
build broken ELFCET_TEST_LDFLAGS="-Wl,-z,ibt -Wl,-z,shstk"
rc=$?
if [ "$rc" -ne 0 ] && grep -q 'dh_elfcet: error: cethello: marked for CET but would break' "$work/broken.log" &&
	grep -q '/usr/bin/cethello: ibt marked-broken: ibt-missing-endbr' "$work/broken.log"; then
	pass "marked-broken fails the build: $(grep -m 1 'ibt marked-broken' "$work/broken.log" | sed 's/^ *//')"
else
	failed "build 2 exited $rc:"; tail -n 8 "$work/broken.log"
fi

# 3. The same, each finding overridden with a reason; one override matches nothing.
# The program is stripped: the findings name sections and sub_ADDR, not _init or _start.
prepare='printf "%s\n" "# crt1.o, crti.o and crtn.o of Debian 12 glibc have no ENDBR" \
	"ibt-missing-endbr usr/bin/cethello .init # glibc crti.o: _init" \
	"ibt-missing-endbr /usr/bin/* .fini # glibc crtn.o: _fini" \
	"ibt-missing-endbr usr/bin/cethello sub_* # libc calls these through pointers" \
	"ibt-missing-endbr usr/bin/cethello # the rest: _start, from crt1.o" \
	"shstk-ret-as-jump usr/lib/* # nothing matches this one" > debian/cethello.elfcet-overrides'
build override ELFCET_TEST_LDFLAGS="-Wl,-z,ibt -Wl,-z,shstk"
rc=$?
if [ "$rc" -eq 0 ] && ls "$work"/override/cethello_1.0_*.deb > /dev/null 2>&1; then
	pass "with the findings overridden the package builds"
else
	failed "build 3 exited $rc:"; grep -A4 'dh_elfcet: error' "$work/override.log" | head -n 8
fi
if grep -q 'warning: .*cethello.elfcet-overrides:6: override for shstk-ret-as-jump matches nothing' "$work/override.log"; then
	pass "an override that matches nothing is warned about"
else
	failed "no warning for the unused override"
fi

# 4. Hostile names. The copies are made after dh_auto_install, by a script (make's recipes
# and dpkg take these bytes as they are; not a newline, which dpkg refuses in a package).
cat > "$work/copy-names" <<'SH'
set -e
d=debian/cethello/usr/bin
for n in $'\xff\xfe' $'\xe9' $'caf\xc3\xa9' $'esc\e[2J\e]0;t\a'; do
	cp "$d/cethello" "$d/$n"
done
SH
prepare="cp '$work/copy-names' debian/copy-names &&
	printf 'override_dh_auto_install:\n\tdh_auto_install\n\tbash debian/copy-names\n' >> debian/rules"
build names
rc=$?
deb=$(ls "$work"/names/cethello_1.0_*.deb 2>/dev/null)
if [ "$rc" -eq 0 ] && [ -n "$deb" ]; then
	pass "hostile names: the package builds"
else
	failed "hostile names: build 4 exited $rc:"; grep -B2 -A4 'dh_elfcet\|error' "$work/names.log" | tail -n 12
fi
root=$work/names/root
dpkg-deb -x "$deb" "$root" 2>/dev/null
# Each copy audited from the .deb as it ships: marked as the program is.
marked=$("$ELFCET" audit --format=jsonl "$deb" 2>/dev/null | jq -s '[.[] | select(.verdicts.shstk == "marked-ok")] | length')
if [ "$marked" = 5 ]; then
	pass "hostile names: the program and its 4 copies are marked (shstk marked-ok)"
else
	failed "hostile names: $marked of 5 files marked"; grep -A3 'dh_elfcet' "$work/names.log" | tail -n 8
fi
if python3 - "$root" <<'PY'
import json, os, sys
root = sys.argv[1]
doc = json.load(open(root + '/usr/share/doc/cethello/elfcet-audit.json', 'rb'))
def name(o):
    return bytes.fromhex(o['path_hex']) if 'path_hex' in o else o['path'].encode()
got = sorted(name(f) for f in doc['files'] + doc['errors'])
want = sorted(b'/usr/bin/' + n for n in os.listdir(os.fsencode(root + '/usr/bin')))
print('    read back: %r' % got)
sys.exit(got != want)
PY
then
	pass "hostile names: usr/share/doc/cethello/elfcet-audit.json names each file exactly"
else
	failed "hostile names: the report in the package does not name the files"
fi
if grep -aq 'marked)' "$work/names.log" && ! grep -aq $'\e' "$work/names.log"; then
	pass "hostile names: no ESC in the build log"
else
	failed "hostile names: ESC in the build log: $(grep -a $'\e' "$work/names.log" | head -n 2 | cat -v)"
fi
# The same copies linked for IBT: marked-broken, the build fails naming each one escaped.
build names-broken ELFCET_TEST_LDFLAGS="-Wl,-z,ibt -Wl,-z,shstk"
rc=$?
if [ "$rc" -ne 0 ] && grep -aqF '/usr/bin/esc\x1b[2J\x1b]0;t\x07: ibt marked-broken: ' "$work/names-broken.log" &&
	grep -aqF '/usr/bin/\xff\xfe: ibt marked-broken: ' "$work/names-broken.log" &&
	grep -aq '/usr/bin/café: ibt marked-broken: ' "$work/names-broken.log" &&
	! grep -aq $'\e' "$work/names-broken.log"; then
	pass "hostile names: marked-broken names each file escaped: $(grep -a -m 1 'esc.*marked-broken' "$work/names-broken.log" | cut -c 1-60)..."
else
	failed "hostile names, marked-broken: exit $rc:"; grep -a 'marked-broken' "$work/names-broken.log" | cat -v | head -n 6
fi
exit "$fail"
