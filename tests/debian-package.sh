#!/usr/bin/env bash
# elfcet's own Debian packages, as a packager meets them (issue 34): the repository's
# tracked files copied to a fresh tree, `dpkg-buildpackage -us -uc -b` builds elfcet and
# dh-elfcet, lintian finds no error or warning, the addon is in perl's vendor path (no
# PERL5LIB once installed), `Build-Depends: dh-sequence-elfcet` is satisfied by the
# packages (dpkg-checkbuilddeps against a dpkg database holding only them), and the
# packaged dh_elfcet and elfcet build corpus/debhelper/cethello.
# Exit 77 when this is no git checkout (a release tarball) or lintian is missing.
set -uo pipefail
: "${top_srcdir:?}"
fail=0
pass() { echo "PASS: debian-package: $*"; }
failed() { echo "FAIL: debian-package: $*"; fail=1; }
for tool in dpkg-buildpackage lintian git; do
	command -v "$tool" > /dev/null || { echo "SKIP: debian-package: $tool is missing"; exit 77; }
done
git -C "$top_srcdir" rev-parse --git-dir > /dev/null 2>&1 || { echo "SKIP: debian-package: not a git checkout"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-debpkg.XXXXXX")
trap 'rm -rf "$work"' EXIT
version=$(dpkg-parsechangelog -l "$top_srcdir/debian/changelog" -S Version)
src=$work/elfcet-$version
mkdir -p "$src"
(cd "$top_srcdir" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$src"

(cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL dpkg-buildpackage -us -uc -b) > "$work/build.log" 2>&1
rc=$?
arch=$(dpkg --print-architecture)
tool_deb=$work/elfcet_${version}_$arch.deb addon_deb=$work/dh-elfcet_${version}_all.deb
if [ "$rc" -eq 0 ] && [ -f "$tool_deb" ] && [ -f "$addon_deb" ]; then
	pass "dpkg-buildpackage -us -uc -b built $(basename "$tool_deb") and $(basename "$addon_deb")"
else
	failed "dpkg-buildpackage exited $rc:"; tail -n 20 "$work/build.log"; exit 1
fi
grep -q '^PASS: tests/test_' "$work/build.log" && pass "the build ran the unit tests: $(grep -c '^PASS: tests/test_' "$work/build.log") passed" ||
	failed "no unit test ran in the package build"

# lintian: no error, no warning (pedantic and info tags are shown, not counted).
lintian --display-info --pedantic "$work/elfcet_${version}_$arch.changes" > "$work/lintian.txt" 2>&1
tags=$(grep -E '^[EW]: ' "$work/lintian.txt")
if [ -z "$tags" ] && ! grep -q '^internal error' "$work/lintian.txt"; then
	pass "lintian: no error, no warning ($(grep -cE '^[IPX]: ' "$work/lintian.txt") info/pedantic tags)"
else
	failed "lintian:"; sed 's/^/    /' <<<"$tags"; grep '^internal error' "$work/lintian.txt"
fi

provides=$(dpkg-deb -f "$addon_deb" Provides)
[ "$provides" = "dh-sequence-elfcet" ] && pass "dh-elfcet provides $provides" || failed "dh-elfcet provides '$provides'"
vendorlib=$(perl -MConfig -e 'print $Config{vendorlib}')
if dpkg-deb -c "$addon_deb" | grep -q " \./${vendorlib#/}/Debian/Debhelper/Sequence/elfcet.pm$"; then
	pass "the addon is in perl's vendor path $vendorlib"
else
	failed "the addon is not under $vendorlib: $(dpkg-deb -c "$addon_deb" | grep -o '\./.*elfcet\.pm')"
fi

# Build-Depends: dh-sequence-elfcet against a dpkg database that holds only these packages
# (installed into the test's own root, never into /).
root=$work/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
# dpkg-checkbuilddeps always adds build-essential: a stand-in for it beside the two.
mkdir -p "$work/be/DEBIAN"
printf '%s\n' 'Package: build-essential' 'Version: 12.9' "Architecture: $arch" 'Maintainer: t <t@localhost>' \
	'Description: stand-in for the test' > "$work/be/DEBIAN/control"
dpkg-deb --root-owner-group -b "$work/be" "$work/be.deb" > /dev/null
if dpkg --root="$root" --force-depends --force-not-root --force-script-chrootless \
	-i "$work/be.deb" "$tool_deb" "$addon_deb" > "$work/dpkg.log" 2>&1; then
	printf 'Source: t\nBuild-Depends: dh-sequence-elfcet\n\nPackage: t\nArchitecture: any\n' > "$work/control"
	if dpkg-checkbuilddeps --admindir="$root/var/lib/dpkg" "$work/control" > "$work/checkbuilddeps.log" 2>&1; then
		pass "dpkg-checkbuilddeps: Build-Depends: dh-sequence-elfcet is satisfied by the packages"
	else
		failed "dpkg-checkbuilddeps: $(cat "$work/checkbuilddeps.log")"
	fi
else
	failed "dpkg --root -i: $(tail -n 3 "$work/dpkg.log")"
fi

# The packaged programs build a package with the addon (installed under $root, so its
# paths are given; installed in / they are where dh and elfcet look by themselves).
cp -r "$top_srcdir/corpus/debhelper/cethello" "$work/cethello-1.0"
(cd "$work/cethello-1.0" && PATH="$root/usr/bin:$PATH" PERL5LIB="$root$vendorlib" \
	ELFCET_RULES_DIR="$root/usr/share/elfcet/rules" ELFCET= dpkg-buildpackage -us -uc -b -d) > "$work/cethello.log" 2>&1
rc=$?
dpkg-deb -x "$work"/cethello_1.0_*.deb "$work/cethello-root" 2> /dev/null
if [ "$rc" -eq 0 ] && grep -q '^dh_elfcet: elfcet audit of cethello' "$work/cethello.log" &&
	"$root/usr/bin/elfcet" audit --rules="$root/usr/share/elfcet/rules" "$work/cethello-root/usr/bin/cethello" 2>/dev/null | grep -q 'shstk=marked-ok'; then
	pass "the packaged dh_elfcet built cethello and marked it for SHSTK"
else
	failed "cethello with the packaged addon exited $rc:"; tail -n 10 "$work/cethello.log"
fi
exit "$fail"
