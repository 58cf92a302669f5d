#!/usr/bin/env bash
# elfcet's own Debian packages, as a packager meets them (issue 34): the repository's
# tracked files copied to a fresh tree, `dpkg-buildpackage -us -uc -b` builds elfcet and
# dh-elfcet, lintian finds no error or warning, the addon is in perl's vendor path (no
# PERL5LIB once installed), `Build-Depends: dh-sequence-elfcet` is satisfied by the
# packages (dpkg-checkbuilddeps against a dpkg database holding only them), and the
# packaged dh_elfcet and elfcet build corpus/debhelper/cethello and a real Debian 12 source
# package, GNU-less and tiny: tree (downloaded once into the cache with a private apt
# configuration, the mirror taken from this machine's apt sources; skipped, and said so,
# when the mirror cannot be reached), with Build-Depends: dh-sequence-elfcet added.
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

# A real Debian 12 source package, its Build-Depends given dh-sequence-elfcet.
cache=${ELFCET_CACHE:-/var/cache/elfcet}/debian-package
apt_private() {
	apt-get -q -o Dir::Etc::SourceList="$cache/apt/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$cache/apt/lists" \
		-o Dir::Cache="$cache/apt/cache" -o Debug::NoLocking=1 "$@"
}
if [ ! -f "$cache/src/.complete" ]; then
	if mirror=$("$top_srcdir/tests/debian-mirror" 2> /dev/null); then
		rm -rf "$cache" && mkdir -p "$cache/apt/lists/partial" "$cache/apt/cache/archives/partial" "$cache/src"
		echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-bookworm-stable.gpg] $mirror bookworm main" \
			> "$cache/apt/sources.list"
		apt_private update > "$cache/update.log" 2>&1 &&
			(cd "$cache/src" && apt_private source --download-only tree) > "$cache/source.log" 2>&1 &&
			touch "$cache/src/.complete"
	fi
fi
if [ ! -f "$cache/src/.complete" ]; then
	echo "SKIP: debian-package: tree's Debian 12 source cannot be downloaded (no mirror)"
	exit "$fail"
fi
dpkg-source -x "$cache"/src/tree_*.dsc "$work/tree" > /dev/null 2>&1 || { failed "dpkg-source -x tree"; exit 1; }
sed -i 's/^Build-Depends: .*/&, dh-sequence-elfcet/' "$work/tree/debian/control"
printf 'shstk = yes\n' > "$work/tree/debian/elfcet.conf"
(cd "$work/tree" && PATH="$root/usr/bin:$PATH" PERL5LIB="$root$vendorlib" ELFCET_RULES_DIR="$root/usr/share/elfcet/rules" \
	ELFCET= DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b -d) > "$work/tree.log" 2>&1
rc=$?
tree_deb=$(ls "$work"/tree_*_"$arch".deb 2>/dev/null | head -n 1)
[ -n "$tree_deb" ] && dpkg-deb -x "$tree_deb" "$work/tree-root" 2> /dev/null
line=$("$root/usr/bin/elfcet" audit --rules="$root/usr/share/elfcet/rules" "$work/tree-root/usr/bin/tree" 2>/dev/null)
if [ "$rc" -eq 0 ] && grep -q '^   dh_elfcet' "$work/tree.log" && [[ $line == *" shstk=marked-ok "* ]] &&
	! dpkg-deb -c "$tree_deb" | grep -q elfcet-audit; then
	pass "tree (Debian 12 source) with Build-Depends: dh-sequence-elfcet: $(basename "$tree_deb"), ${line#*: }"
else
	failed "tree with dh-sequence-elfcet: build exited $rc: $line"; tail -n 8 "$work/tree.log"
fi
exit "$fail"
