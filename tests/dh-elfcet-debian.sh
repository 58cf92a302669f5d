#!/usr/bin/env bash
# dh_elfcet on a real package from Debian's archive: GNU hello's Debian 12 source
# (downloaded once into the cache with a private apt configuration, the mirror taken from
# this machine's apt sources), built with dpkg-buildpackage and the addon added by
# DH_EXTRA_ADDONS=elfcet (its debian/rules untouched) and debian/elfcet.conf asking for
# IBT and SHSTK; the .deb unpacked and audited, and its program run in the VM on the CET
# kernel (vm/verify, with the dynamic checker) when the kernel is built.
# Exit 77 when the mirror cannot be reached.
set -uo pipefail
: "${ELFCET:?}" "${top_srcdir:?}" "${top_builddir:?}"
cache=${ELFCET_CACHE:-/var/cache/elfcet}/dh-debian
fail=0
pass() { echo "PASS: dh-elfcet-debian: $*"; }
failed() { echo "FAIL: dh-elfcet-debian: $*"; fail=1; }
apt_private() {
	apt-get -q -o Dir::Etc::SourceList="$cache/apt/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$cache/apt/lists" \
		-o Dir::Cache="$cache/apt/cache" -o Debug::NoLocking=1 "$@"
}
if [ ! -f "$cache/src/.complete" ]; then
	mirror=$("$top_srcdir/tests/debian-mirror") || { echo "SKIP: dh-elfcet-debian: no Debian mirror"; exit 77; }
	rm -rf "$cache" && mkdir -p "$cache/apt/lists/partial" "$cache/apt/cache/archives/partial" "$cache/src"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-bookworm-stable.gpg] $mirror bookworm main" \
		> "$cache/apt/sources.list"
	apt_private update > "$cache/update.log" 2>&1 || { echo "SKIP: dh-elfcet-debian: apt-get update failed"; exit 77; }
	(cd "$cache/src" && apt_private source --download-only hello) > "$cache/source.log" 2>&1 ||
		{ echo "SKIP: dh-elfcet-debian: cannot download hello's source"; exit 77; }
	touch "$cache/src/.complete"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-dhdeb.XXXXXX")
trap 'rm -rf "$work"' EXIT
dpkg-source -x "$cache"/src/hello_*.dsc "$work/hello" > /dev/null 2>&1 || { failed "dpkg-source -x"; exit 1; }
printf 'ibt = yes\nshstk = yes\n' > "$work/hello/debian/elfcet.conf"
export PATH="$top_srcdir/debhelper:$PATH" PERL5LIB="$top_srcdir/debhelper${PERL5LIB:+:$PERL5LIB}" ELFCET
(cd "$work/hello" && DEB_BUILD_OPTIONS=nocheck DH_EXTRA_ADDONS=elfcet dpkg-buildpackage -us -uc -b -d) > "$work/build.log" 2>&1
rc=$?
deb=$(ls "$work"/hello_*_amd64.deb 2>/dev/null | head -n 1)
if [ "$rc" -eq 0 ] && [ -n "$deb" ] && grep -q '^dh_elfcet: elfcet audit of hello' "$work/build.log"; then
	pass "$(basename "$deb") built by dpkg-buildpackage with DH_EXTRA_ADDONS=elfcet: $(grep -c '^   dh_elfcet' "$work/build.log") dh_elfcet run"
else
	failed "the build exited $rc:"; tail -n 10 "$work/build.log"; exit 1
fi
dpkg-deb -x "$deb" "$work/root"
line=$("$ELFCET" audit "$work/root/usr/bin/hello" 2>/dev/null)
case $line in
*": ibt=not-ready shstk=marked-ok "*) pass "unpacked and audited: ${line#*: }" ;;
*) failed "unpacked and audited: $line" ;;
esac
# The -dbgsym package still pairs with the marked program, and the report stayed out of
# the package.
ddeb=$(ls "$work"/hello-dbgsym_*.*deb 2>/dev/null | head -n 1)
dpkg-deb -x "$ddeb" "$work/dbg" 2>/dev/null
debugfile=$(find "$work/dbg" -name '*.debug' | head -n 1)
if [ -n "$debugfile" ] && eu-unstrip -o "$work/unstripped" "$work/root/usr/bin/hello" "$debugfile" 2> "$work/unstrip.err"; then
	pass "eu-unstrip pairs the marked hello with $(basename "$ddeb")"
else
	failed "eu-unstrip of the marked hello: $(cat "$work/unstrip.err" 2>/dev/null)"
fi
if [ -f "$work/hello/debian/.debhelper/elfcet/hello.json" ] && ! dpkg-deb -c "$deb" | grep -q elfcet-audit; then
	pass "the report is beside the build (debian/.debhelper/elfcet/hello.json), not in the package"
else
	failed "the report: $(ls "$work/hello/debian/.debhelper/elfcet/" 2>&1) $(dpkg-deb -c "$deb" | grep -o '\./.*elfcet-audit.*')"
fi
if "$ELFCET" run -- "$work/root/usr/bin/hello" > "$work/run.out" 2> "$work/run.err" && grep -q 'Hello, world!' "$work/run.out"; then
	pass "under the checker: $(tail -n 1 "$work/run.err" | sed 's/^[^:]*: [^:]*: //')"
else
	failed "under the checker: $(tail -n 2 "$work/run.err")"
fi
# In the VM on the CET kernel, with the checker attached.
if [ -z "$(ls "${ELFCET_CACHE:-/var/cache/elfcet}"/kernel/cet/*/bzImage 2>/dev/null)" ] && [ -z "${VM_KERNEL:-}" ]; then
	echo "SKIP: dh-elfcet-debian: no CET kernel built (kernel/build), not run in the VM"
	exit "$fail"
fi
(cd "$top_builddir" && ELFCET_VM_RUNNER="$top_builddir/vm/guest/runner" "$top_srcdir/vm/verify" \
	${VM_KERNEL:+--kernel "$VM_KERNEL"} --plugin "$top_builddir/vm/plugin/elfcet-qemu-plugin.so" \
	--expect 'hello=Hello, world!' --json "$work/vm.json" "$work/root/usr/bin/hello") > "$work/vm.txt" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
	pass "run in the VM (CET kernel, checker attached): $(grep -m 1 -i 'hello' "$work/vm.txt" | sed 's/^ *//' | cut -c 1-150)"
else
	failed "vm/verify exited $rc:"; tail -n 15 "$work/vm.txt"
fi
exit "$fail"
