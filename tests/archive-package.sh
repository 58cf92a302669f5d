# shellcheck shell=bash
# Uses the caller's $work and $local_side.
# shellcheck disable=SC2154
# Sourced by tests/archive-ssh.sh and tests/archive-sshd.sh: archive_package NAME VERSION
# ARCH FILE... builds a .deb of FILEs under usr/bin into $local_side/debs, named as Debian
# names it (an epoch's ':' as '%3a'); staging in $work/pkg. Returns non-zero on failure.
archive_package() {
	local name=$1 version=$2 arch=$3 root=$work/pkg/$1 f
	shift 3
	mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/doc/$name" || return 1
	printf 'Package: %s\nVersion: %s\nArchitecture: %s\nMaintainer: elfcet tests <tests@elfcet.invalid>\nDescription: test package\n test package\n' \
		"$name" "$version" "$arch" > "$root/DEBIAN/control"
	echo "$name" > "$root/usr/share/doc/$name/README"
	for f in "$@"; do cp "$f" "$root/usr/bin/" || return 1; done
	dpkg-deb -Zgzip -b --root-owner-group "$root" \
		"$local_side/debs/${name}_${version/:/%3a}_$arch.deb" > /dev/null
}
