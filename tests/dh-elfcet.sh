#!/usr/bin/env bash
# The debhelper addon end to end: corpus/debhelper/cethello, a small C source package,
# built with dpkg-buildpackage using dh_elfcet (debhelper/), then the .deb unpacked,
# audited and its program run under the checker.
#   1. Build-Depends: dh-sequence-elfcet, debian/elfcet.conf asks for IBT and SHSTK: the
#      program is SHSTK-ready and marked, IBT not-ready (Debian 12's crt files) and left;
#      the JSON report is in the build log and debian/.debhelper/elfcet/, not in the
#      package; the flags and the crt files are explained; -dbgsym still pairs.
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
#   6. Two packages broken: every finding of both listed and counted; overridden, with
#      dh_installdocs --link-doc, Multi-Arch: same and a udeb, it builds and records the
#      overrides.
#   7. Overrides by symbol names the stripped program lost (_start, _init, main...) and
#      by the real file name when a link to it sorts first.
#   8. A classic debian/rules without dh.
#   9. -fcf-protection and -z ibtplt in the flags: no flag advice.
#  10. Hostile names (issue 35): copies of the program named \xff\xfe, Latin-1 \xe9, UTF-8
#      café and with an ESC sequence: each copy is found back from the JSON and marked
#      like the program, the report beside the build reads each name back exactly with
#      no build path in path_hex either, no ESC reaches the build log; linked for IBT,
#      the build fails naming each copy escaped; an override by the exact bytes of a
#      name lets its copy build.
#  11. A shared library beside the program: marking it grows its program header table,
#      which moves the sections after it; the -dbgsym file still pairs with it.
#  12. A program with a second name (a hard link, as bzip2's bunzip2): both names marked,
#      still one file.
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
# The report beside the build, not in the package (udebs, Multi-Arch: same, reproducible).
report=$work/seq/cethello-1.0/debian/.debhelper/elfcet/cethello.json
if jq -e '.files[0].verdicts == {"ibt": "not-ready", "shstk": "marked-ok"} and .marked == ["/usr/bin/cethello"]' "$report" > /dev/null &&
	! grep -q "$work" "$report"; then
	pass "debian/.debhelper/elfcet/cethello.json: ibt not-ready, shstk marked-ok, no build path inside"
else
	failed "the report beside the build: $(jq -c '[.files[0].verdicts, .marked]' "$report" 2>&1; grep -c "$work" "$report")"
fi
if ! dpkg-deb -c "$deb" | grep -q elfcet-audit; then
	pass "no report inside the package"
else
	failed "the package holds a report: $(dpkg-deb -c "$deb" | grep -o '\./.*elfcet-audit.*')"
fi
# What the packager would otherwise learn by failing: flags and Debian 12's crt files.
for advice in 'lack -fcf-protection .*DEB_CFLAGS_MAINT_APPEND = -fcf-protection' \
	'link with -z ibtplt' "IBT is not ready: .*glibc's crt1.o, crti.o and crtn.o"; do
	if grep -q "^dh_elfcet: warning: .*$advice" "$work/seq.log"; then
		pass "advice in the build log: $(grep -o "$advice" "$work/seq.log" | head -n 1 | cut -c 1-60)"
	else
		failed "no advice '$advice' in the build log"
	fi
done
# The -dbgsym package still pairs with the marked program (eu-unstrip matches sections).
ddeb=$(ls "$work"/seq/cethello-dbgsym_1.0_*.*deb 2>/dev/null | head -n 1)
dpkg-deb -x "$ddeb" "$work/seq/dbg" 2>/dev/null
debugfile=$(find "$work/seq/dbg" -name '*.debug' | head -n 1)
if [ -n "$debugfile" ] && eu-unstrip -o "$work/seq/unstripped" "$root/usr/bin/cethello" "$debugfile" 2> "$work/unstrip.err" &&
	"$ELFCET" audit "$work/seq/unstripped" 2>/dev/null | grep -q 'shstk=marked-ok'; then
	pass "eu-unstrip pairs the marked program with its -dbgsym file: shstk=marked-ok"
else
	failed "eu-unstrip of the marked program and $(basename "$ddeb"): $(cat "$work/unstrip.err")"
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
if [ "$rc" -ne 0 ] && grep -q 'dh_elfcet: error: marked for CET but would break: 1 file verdict(s) in 1 package(s), 5 finding(s)' "$work/broken.log" &&
	grep -q 'cethello: /usr/bin/cethello: ibt marked-broken, 5 finding(s):' "$work/broken.log"; then
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
if [ "$rc" -ne 0 ] && grep -A1 'cethello: /usr/bin/cethello: shstk marked-broken, 1 finding(s)' "$work/vsyscall.log" | grep -q 'vsyscall-data'; then
	pass "marked-broken by a warning fails the build: $(grep -m 1 -A1 'shstk marked-broken' "$work/vsyscall.log" | tail -n 1 | sed 's/^ *//' | cut -c 1-60)"
else
	failed "marked-broken by vsyscall-data: build exited $rc"; grep -A3 'dh_elfcet' "$work/vsyscall.log" | tail -n 6
fi
prepare="$prepare"' && echo "vsyscall-data usr/bin/cethello # never called: kept for a test" > debian/cethello.elfcet-overrides'
build vsyscall-override ELFCET_TEST_LDFLAGS="-Wl,-z,shstk"
rc=$?
[ "$rc" -eq 0 ] && pass "the vsyscall-data finding overridden, it builds" ||
	{ failed "vsyscall-data overridden: build exited $rc"; grep -A3 'dh_elfcet: error' "$work/vsyscall-override.log" | head -n 6; }

# 6. Two packages, both broken: every finding of every package, counted; then overridden
# in both, with dh_installdocs --link-doc (the second's doc directory is a link).
prepare='printf "%s\n" "" "Package: cethello-extra" "Architecture: any" "Multi-Arch: same" \
	"Depends: cethello (= \${binary:Version}), \${shlibs:Depends}, \${misc:Depends}" \
	"Description: second package" " A copy of the program." >> debian/control &&
	echo usr/bin/cethello > debian/cethello.install &&
	printf "%s\n" "execute_after_dh_install:" \
	"	install -D -m 755 debian/tmp/usr/bin/cethello debian/cethello-extra/usr/lib/cethello-extra/cethello2" \
	"override_dh_installdocs:" "	dh_installdocs --link-doc=cethello" >> debian/rules'
build two ELFCET_TEST_LDFLAGS="-Wl,-z,ibt -Wl,-z,shstk"
rc=$?
if [ "$rc" -ne 0 ] && grep -q 'marked for CET but would break: 2 file verdict(s) in 2 package(s), 10 finding(s)' "$work/two.log" &&
	[ "$(grep -cE '^ +ibt-missing-endbr 0x' "$work/two.log")" -eq 10 ] &&
	grep -q 'cethello-extra: /usr/lib/cethello-extra/cethello2: ibt marked-broken, 5 finding(s):' "$work/two.log"; then
	pass "two packages broken: both listed, 10 findings, each shown"
else
	failed "two packages broken: build exited $rc:"; grep -A14 'dh_elfcet: error' "$work/two.log" | head -n 16
fi
prepare="$prepare"' && echo "ibt-missing-endbr * # crt files and -fcf-protection: known" |
	tee debian/cethello.elfcet-overrides debian/cethello-udeb.elfcet-overrides > debian/cethello-extra.elfcet-overrides &&
	printf "%s\n" "" "Package: cethello-udeb" "Package-Type: udeb" "Section: debian-installer" "Architecture: any" \
	"Depends: \${shlibs:Depends}, \${misc:Depends}" "Description: the program for the installer" >> debian/control &&
	printf "%s\n" "execute_after_dh_link:" \
	"	install -D -m 755 debian/tmp/usr/bin/cethello debian/cethello-udeb/bin/cethello" >> debian/rules'
build two-override ELFCET_TEST_LDFLAGS="-Wl,-z,ibt -Wl,-z,shstk"
rc=$?
extra_report=$work/two-override/cethello-1.0/debian/.debhelper/elfcet/cethello-extra.json
if [ "$rc" -eq 0 ] && [ -L "$work/two-override/cethello-1.0/debian/cethello-extra/usr/share/doc/cethello-extra" ] &&
	jq -e '[.overrides_applied[] | select(.override == "ibt-missing-endbr *" and .path == "/usr/lib/cethello-extra/cethello2")] | length == 5' "$extra_report" > /dev/null; then
	pass "overridden in both, dh_installdocs --link-doc: builds, the report records the 5 overrides applied"
else
	failed "two packages overridden, --link-doc: build exited $rc:"; grep -B2 -A4 'dh_elfcet: error\|File exists' "$work/two-override.log" | head -n 8
fi
if dpkg-deb -c "$work"/two-override/cethello-extra_1.0_*.deb > "$work/extra.contents" 2>&1 && ! grep -q elfcet-audit "$work/extra.contents"; then
	pass "the Multi-Arch: same package has no report in a shared path"
else
	failed "a report in the Multi-Arch: same package"
fi
if dpkg-deb -c "$work"/two-override/cethello-udeb_1.0_*.udeb > "$work/udeb.contents" 2>&1 &&
	grep -q '\./bin/cethello$' "$work/udeb.contents" && ! grep -q 'elfcet-audit\|usr/share/doc' "$work/udeb.contents"; then
	pass "the udeb: its program audited, no report, no documentation"
else
	failed "the udeb: $(cat "$work/udeb.contents")"
fi

# 7. Overrides by the names a stripped program no longer has (from its debug file), and by
# the file's own name when a link to it sorts first.
prepare='printf "%s\n" "ibt-missing-endbr usr/bin/cethello _init # glibc crti.o" \
	"ibt-missing-endbr usr/bin/cethello _fini # glibc crtn.o" \
	"ibt-missing-endbr usr/bin/cethello _start # glibc crt1.o" \
	"ibt-missing-endbr usr/bin/cethello main # built without -fcf-protection" \
	"ibt-missing-endbr usr/bin/cethello greet # built without -fcf-protection" > debian/cethello.elfcet-overrides &&
	printf "%s\n" "execute_after_dh_install:" "	ln -s cethello debian/cethello/usr/bin/a-link" >> debian/rules'
build symbols ELFCET_TEST_LDFLAGS="-Wl,-z,ibt -Wl,-z,shstk"
rc=$?
symbols_report=$work/symbols/cethello-1.0/debian/.debhelper/elfcet/cethello.json
if [ "$rc" -eq 0 ] && jq -e '[.overrides_applied[].symbols[]] | sort == ["_fini", "_init", "_start", "greet", "main"]' "$symbols_report" > /dev/null; then
	pass "overrides by symbol name after stripping and by the real file name: $(jq -c '[.overrides_applied[] | .symbol + "=" + .symbols[0]]' "$symbols_report")"
else
	failed "overrides by symbol name: build exited $rc:"; grep -A8 'dh_elfcet: error' "$work/symbols.log" | head -n 9
fi

# 8. A classic debian/rules, no dh: dh_elfcet called after dh_strip like any other.
prepare='cat > debian/rules <<"RULES"
#!/usr/bin/make -f
DPKG_EXPORT_BUILDFLAGS = 1
include /usr/share/dpkg/buildflags.mk
build build-arch build-indep:
	$(MAKE)
clean:
	dh_testdir
	$(MAKE) clean
	dh_clean
binary binary-arch: build
	dh_testroot
	dh_prep
	$(MAKE) install DESTDIR=$(CURDIR)/debian/cethello
	dh_installdocs
	dh_installchangelogs
	dh_strip
	dh_elfcet
	dh_compress
	dh_fixperms
	dh_shlibdeps
	dh_installdeb
	dh_gencontrol
	dh_md5sums
	dh_builddeb
binary-indep:
.PHONY: build build-arch build-indep clean binary binary-arch binary-indep
RULES'
build classic
rc=$?
dpkg-deb -x "$work"/classic/cethello_1.0_*.deb "$work/classic/root" 2>/dev/null
line=$("$ELFCET" audit "$work/classic/root/usr/bin/cethello" 2>/dev/null)
case "$rc $line" in
"0 "*": ibt=not-ready shstk=marked-ok "*) pass "classic debian/rules: built and marked: ${line#*: }" ;;
*) failed "classic debian/rules: exited $rc: $line"; tail -n 5 "$work/classic.log" ;;
esac

# 9. With -fcf-protection and -z ibtplt in the flags, no flag advice; the crt files remain.
prepare=
build flags DEB_CFLAGS_MAINT_APPEND=-fcf-protection DEB_LDFLAGS_MAINT_APPEND=-Wl,-z,ibtplt
rc=$?
if [ "$rc" -eq 0 ] && ! grep -q 'fcf-protection (Debian\|link with -z ibtplt' "$work/flags.log" &&
	grep -q "IBT is not ready: .*crt1.o" "$work/flags.log"; then
	pass "with the flags set: no flag advice, the crt explanation stays"
else
	failed "with the flags set: build exited $rc:"; grep 'dh_elfcet: warning' "$work/flags.log"
fi

# 10. Hostile names. The copies are made after dh_auto_install, by a script (make's recipes
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
	failed "hostile names: build 10 exited $rc:"; grep -aB2 -A4 'dh_elfcet\|error' "$work/names.log" | tail -n 12 | cat -v
fi
root=$work/names/root
dpkg-deb -x "$deb" "$root" 2>/dev/null
# Each copy audited from the .deb as it ships: marked as the program is.
marked=$("$ELFCET" audit --format=jsonl "$deb" 2>/dev/null | jq -s '[.[] | select(.verdicts.shstk == "marked-ok")] | length')
if [ "$marked" = 5 ]; then
	pass "hostile names: the program and its 4 copies are marked (shstk marked-ok)"
else
	failed "hostile names: $marked of 5 files marked"; grep -a -A3 'dh_elfcet' "$work/names.log" | tail -n 8 | cat -v
fi
# The report beside the build and its copy in the build log: each name's exact bytes
# (files, marked), nothing of the build directory, in path nor in path_hex.
sed -n '/^dh_elfcet: elfcet audit of cethello/{n;p}' "$work/names.log" > "$work/names-log.json"
for report in "$work/names/cethello-1.0/debian/.debhelper/elfcet/cethello.json" "$work/names-log.json"; do
	if python3 - "$root" "$report" "$work/names/cethello-1.0" <<'PY'
import json, os, sys
root, report, build = sys.argv[1], sys.argv[2], os.fsencode(sys.argv[3])
doc = json.load(open(report, 'rb'))
def name(o):
    return bytes.fromhex(o['path_hex']) if 'path_hex' in o else o['path'].encode()
got = sorted(name(f) for f in doc['files'] + doc['errors'])
hexes = doc.get('marked_hex') or [m.encode().hex() for m in doc['marked']]
marked = sorted(bytes.fromhex(h) for h in hexes)
want = sorted(b'/usr/bin/' + n for n in os.listdir(os.fsencode(root + '/usr/bin')))
print('    read back: %r' % got)
raw = open(report, 'rb').read()
sys.exit(got != want or marked != want or build in raw or build.hex().encode() in raw)
PY
	then
		pass "hostile names: $(basename "$report") (beside the build, in the log) names each file exactly, no build path"
	else
		failed "hostile names: $report does not name the files"
	fi
done
if grep -aq 'marked)' "$work/names.log" && ! grep -aq $'\e' "$work/names.log" &&
	grep -aqF 'dh_elfcet:   /usr/bin/\xff\xfe: ibt=not-ready shstk=marked-ok' "$work/names.log"; then
	pass "hostile names: no ESC in the build log, names escaped: $(grep -a -m 1 'dh_elfcet:   /usr/bin/esc' "$work/names.log")"
else
	failed "hostile names: the build log: $(grep -a 'dh_elfcet:  \|'$'\e' "$work/names.log" | head -n 6 | cat -v)"
fi
# The same copies linked for IBT: marked-broken, the build fails naming each one escaped.
build names-broken ELFCET_TEST_LDFLAGS="-Wl,-z,ibt -Wl,-z,shstk"
rc=$?
if [ "$rc" -ne 0 ] && grep -aqF 'cethello: /usr/bin/esc\x1b[2J\x1b]0;t\x07: ibt marked-broken, 5 finding(s):' "$work/names-broken.log" &&
	grep -aqF 'cethello: /usr/bin/\xff\xfe: ibt marked-broken, 5 finding(s):' "$work/names-broken.log" &&
	grep -aq 'cethello: /usr/bin/café: ibt marked-broken, 5 finding(s):' "$work/names-broken.log" &&
	grep -aq 'marked for CET but would break: 5 file verdict(s) in 1 package(s), 25 finding(s)' "$work/names-broken.log" &&
	! grep -aq $'\e' "$work/names-broken.log"; then
	pass "hostile names: marked-broken names each file escaped: $(grep -a -m 1 'esc.*marked-broken' "$work/names-broken.log" | cut -c 1-60)..."
else
	failed "hostile names, marked-broken: exit $rc:"; grep -a 'marked-broken' "$work/names-broken.log" | cat -v | head -n 6
fi
# Overrides match the names' bytes: every copy but \xff\xfe overridden by its exact name,
# \xff\xfe alone still fails the build.
printf 'ibt-missing-endbr usr/bin/%s # a copy\n' cethello $'\xe9' $'caf\xc3\xa9' 'esc*' > "$work/names-overrides"
prepare="$prepare && cp '$work/names-overrides' debian/cethello.elfcet-overrides"
build names-override ELFCET_TEST_LDFLAGS="-Wl,-z,ibt -Wl,-z,shstk"
rc=$?
if [ "$rc" -ne 0 ] && grep -aq 'marked for CET but would break: 1 file verdict(s) in 1 package(s), 5 finding(s)' "$work/names-override.log" &&
	grep -aqF 'cethello: /usr/bin/\xff\xfe: ibt marked-broken, 5 finding(s):' "$work/names-override.log"; then
	pass "hostile names: overrides match each name's bytes, only \\xff\\xfe is left"
else
	failed "hostile names, overrides by name: exit $rc:"; grep -a -A2 'dh_elfcet: error\|marked-broken' "$work/names-override.log" | cat -v | head -n 8
fi
# 11. A shared library: its note is created behind a program header table grown in place,
# which moves .note.gnu.build-id and .gnu.hash; the debug file must follow (eu-unstrip).
prepare='cat >> debian/rules <<"END"
execute_after_dh_auto_build:
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -shared -fPIC -Wl,-soname,libcethello.so.1 -o libcethello.so.1 hello.c
execute_after_dh_auto_install:
	install -D -m 644 libcethello.so.1 debian/cethello/usr/lib/libcethello.so.1
END'
build library
rc=$?
deb=$(ls "$work"/library/cethello_1.0_*.deb 2>/dev/null)
ddeb=$(ls "$work"/library/cethello-dbgsym_1.0_*.*deb 2>/dev/null | head -n 1)
dpkg-deb -x "$deb" "$work/library/root" 2>/dev/null
dpkg-deb -x "$ddeb" "$work/library/dbg" 2>/dev/null
lib=$work/library/root/usr/lib/libcethello.so.1
debugfile=
[ -f "$lib" ] && debugfile=$(find "$work/library/dbg" -name "$(readelf -n "$lib" | sed -n 's/^ *Build ID: \(..\)\(.*\)/\2/p').debug" | head -n 1)
if [ "$rc" -eq 0 ] && [ -n "$debugfile" ] && grep -q 'libcethello.so.1: none -> SHSTK.*program header table grown' "$work/library.log" &&
	eu-unstrip -o "$work/library/unstripped" "$lib" "$debugfile" 2> "$work/unstrip.err" &&
	"$ELFCET" audit "$work/library/unstripped" 2>/dev/null | grep -q 'shstk=marked-ok'; then
	pass "a library whose program header table grew: built, and eu-unstrip pairs it with its -dbgsym file"
else
	failed "a library whose program header table grew: build exited $rc: $(grep -m 1 -E '^(dh_elfcet: error|objcopy|make.*Error)' "$work/library.log") $(cat "$work/unstrip.err" 2>/dev/null)"
fi
# 12. The program and a hard link to it (bzip2, bunzip2 and bzcat are one file): elfcet
# mark refuses to split the links, dh_elfcet marks the file under both names.
prepare='cat >> debian/rules <<"END"
execute_after_dh_auto_install:
	ln debian/cethello/usr/bin/cethello debian/cethello/usr/bin/cethello-again
END'
build hardlink
rc=$?
deb=$(ls "$work"/hardlink/cethello_1.0_*.deb 2>/dev/null)
dpkg-deb -x "$deb" "$work/hardlink/root" 2>/dev/null
bin=$work/hardlink/root/usr/bin
if [ "$rc" -eq 0 ] && [ "$(stat -c %i "$bin/cethello" 2>/dev/null)" = "$(stat -c %i "$bin/cethello-again" 2>/dev/null)" ] &&
	"$ELFCET" audit "$bin/cethello" 2>/dev/null | grep -q 'shstk=marked-ok' &&
	"$ELFCET" audit "$bin/cethello-again" 2>/dev/null | grep -q 'shstk=marked-ok'; then
	pass "a program with a hard link: marked, both names one file"
else
	failed "a program with a hard link: build exited $rc: $(grep -m 1 -E '^(dh_elfcet: error|elfcet mark)' "$work/hardlink.log")"
fi
exit "$fail"
