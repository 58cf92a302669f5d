#!/usr/bin/env bash
# elfcet audit stays valgrind-clean (no invalid access, no leak) on real binaries, the
# damaged corpus and broken files, on one thread and on several.
set -euo pipefail
if [ -n "${ELFCET_SANITIZED:-}" ]; then echo "skip: sanitizer build (valgrind cannot run it)"; exit 77; fi
command -v valgrind >/dev/null || { echo "skip: valgrind is not installed"; exit 77; }
corpus="$top_builddir/tests/corpus-notes.out"
# A Debian package too (its members streamed to the report), and one without ELF files.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
debs=()
if command -v dpkg-deb >/dev/null; then
	mkdir -p "$work/p/DEBIAN" "$work/p/usr/bin" "$work/e/DEBIAN"
	printf 'Package: p\nVersion: 1\nArchitecture: amd64\nMaintainer: n\nDescription: p\n' \
		| tee "$work/p/DEBIAN/control" >"$work/e/DEBIAN/control"
	cp /usr/bin/true /usr/bin/ls "$work/p/usr/bin/"
	ln -s ls "$work/p/usr/bin/dir"
	dpkg-deb --root-owner-group -Zxz --build "$work/p" "$work/p_1_amd64.deb" >/dev/null
	dpkg-deb --root-owner-group --build "$work/e" "$work/e_1_amd64.deb" >/dev/null
	debs=("$work/p_1_amd64.deb" "$work/e_1_amd64.deb")
fi
for jobs in 1 2; do
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		"$ELFCET" audit -q -j $jobs --format=json --fail-on=never \
		/usr/bin/ls /usr/bin/bash /usr/lib/x86_64-linux-gnu/libc.so.6 "$corpus" \
		"${debs[@]}" >/dev/null
	echo "ok: valgrind clean with -j $jobs"
done
