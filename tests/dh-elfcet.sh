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
#   4. Nothing outside debian/cethello is written (issue 35): bin/prog is an absolute link
#      to a program the package also ships (at a path the host has too), and a .deb whose
#      member's path is a host file is shipped inside: the package's program is marked,
#      the host's files keep every byte, the inner .deb is no package of this build.
#   5. A file marked-broken by a warning (vsyscall-data) fails the build; overridden, it
#      builds.
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

# 4. An absolute link to a file the package ships, and a .deb inside the package, both
# naming host paths that exist: only the package's own files may be written.
host=$work/host
mkdir -p "$host" "$work/inner/DEBIAN" "$work/inner$host"
cp /usr/bin/true "$host/prog" && cp /usr/bin/true "$host/inner"
cp /usr/bin/true "$work/inner$host/inner"
printf '%s\n' 'Package: inner' 'Version: 1' 'Architecture: amd64' 'Maintainer: t <t@localhost>' \
	'Description: a package inside a package' > "$work/inner/DEBIAN/control"
dpkg-deb --root-owner-group -b "$work/inner" "$work/inner.deb" > /dev/null
before=$(sha256sum "$host/prog" "$host/inner")
prepare='printf "%s\n" "execute_after_dh_auto_install:" \
	"	install -D -m 755 /usr/bin/true debian/cethello\$(HOSTPROG)" \
	"	mkdir -p debian/cethello/bin && ln -s \$(HOSTPROG) debian/cethello/bin/prog" \
	"	install -D -m 644 \$(INNERDEB) debian/cethello/usr/share/cethello/inner.deb" >> debian/rules'
build links HOSTPROG="$host/prog" INNERDEB="$work/inner.deb"
rc=$?
if [ "$rc" -eq 0 ] && [ "$(sha256sum "$host/prog" "$host/inner")" = "$before" ]; then
	pass "absolute link and nested .deb: the host's files keep every byte"
else
	failed "absolute link and nested .deb: build exited $rc, host files: $(sha256sum "$host/prog" "$host/inner" | diff - <(echo "$before") | tr '\n' ' ')"
fi
root=$work/links/root
dpkg-deb -x "$work"/links/cethello_1.0_*.deb "$root" 2>/dev/null
line=$("$ELFCET" audit "$root$host/prog" 2>/dev/null)
case $line in
*": ibt=not-ready shstk=marked-ok "*) pass "the package's own copy behind the link is marked: ${line#*: }" ;;
*) failed "the package's copy behind the link: $line" ;;
esac
report=$(sed -n '/^dh_elfcet: elfcet audit of cethello/{n;p}' "$work/links.log")
if [ -n "$report" ] && jq -e '[.files[] | select(.package != null)] == [] and ([.files[].path] | index("'"$host"'/prog") != null)' <<<"$report" > /dev/null; then
	pass "the nested .deb is not audited as a package of this build"
else
	failed "the report of the build with a nested .deb: $(sed -n '/^dh_elfcet: elfcet audit of cethello/{n;p}' "$work/links.log" | jq -c '[.files[] | [.path, .package]]' 2>&1)"
fi

# 5. A vsyscall entry point kept in data (a warning) in a program linked with SHSTK.
prepare='printf "%s\n" "typedef long (*vtime_fn)(long *);" \
	"vtime_fn volatile kept = (vtime_fn)0xffffffffff600400UL;" >> hello.c'
build vsyscall ELFCET_TEST_LDFLAGS="-Wl,-z,shstk"
rc=$?
if [ "$rc" -ne 0 ] && grep -q '/usr/bin/cethello: shstk marked-broken: vsyscall-data' "$work/vsyscall.log"; then
	pass "marked-broken by a warning fails the build: $(grep -m 1 'shstk marked-broken' "$work/vsyscall.log" | sed 's/^ *//')"
else
	failed "marked-broken by vsyscall-data: build exited $rc"; grep -A3 'dh_elfcet' "$work/vsyscall.log" | tail -n 6
fi
prepare="$prepare"' && echo "vsyscall-data usr/bin/cethello # never called: kept for a test" > debian/cethello.elfcet-overrides'
build vsyscall-override ELFCET_TEST_LDFLAGS="-Wl,-z,shstk"
rc=$?
[ "$rc" -eq 0 ] && pass "the vsyscall-data finding overridden, it builds" ||
	{ failed "vsyscall-data overridden: build exited $rc"; grep -A3 'dh_elfcet: error' "$work/vsyscall-override.log" | head -n 6; }
exit "$fail"
