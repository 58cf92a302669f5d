#!/usr/bin/env bash
# elfcet audit on .deb files read as they are (libarchive, nothing unpacked to disk): the
# same records, file for file, as the audit of the tree dpkg-deb -x unpacks, for the
# Debian 13 set tests/debian13.sh downloads (run it first: make check-debian13 does);
# paths as installed, with the package's name and version; a damaged .deb is one error.
# Exit 77 when the set is not in the cache.
set -uo pipefail
elfcet=${ELFCET:-$PWD/elfcet/elfcet}
cache=${ELFCET_CACHE:-/var/cache/elfcet}/debian13
[ -f "$cache/debs/.complete" ] && [ -f "$cache/root/.complete" ] || {
	echo "SKIP: deb-input: no Debian 13 set in $cache (tests/debian13.sh downloads it)"; exit 77; }
root=$cache/root
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
pass() { echo "PASS: deb-input: $*"; }
failed() { echo "FAIL: deb-input: $*"; fail=1; }
ndebs=$(ls "$cache"/debs/*.deb | wc -l)

# A directory of .debs, and the unpacked tree.
"$elfcet" audit --format=jsonl "$cache/debs" > "$work/debs.jsonl" 2> "$work/debs.err"
rc=$?
"$elfcet" audit --format=jsonl "$root" > "$work/tree.jsonl" 2> /dev/null
if [ "$rc" -le 1 ] && [ ! -s "$work/debs.err" ]; then
	pass "elfcet audit DIR-of-$ndebs-debs exited $rc, nothing on stderr"
else
	failed "exit $rc: $(head -n 3 "$work/debs.err")"
fi

# Keyed by the file itself (device:inode in the unpacked tree), since a file with several
# names (hard links, symbolic links) is audited once under whichever name comes first:
# the tree in name order, the package in archive order. Files the tree reaches through
# absolute links outside it are not the packages'.
key_records() { # PREFIX < jsonl  ->  "dev:ino<TAB>record without path and package"
	python3 -c '
import json, os, sys
prefix, root = sys.argv[1], sys.argv[2]
out = []
for line in sys.stdin:
    rec = json.loads(line)
    if "verdicts" not in rec:
        continue
    f = prefix + rec["path"]
    try:
        real = os.path.realpath(f, strict=True)
        st = os.stat(f)
    except OSError:
        continue
    if not real.startswith(root + "/"):
        continue
    for k in ("path", "package", "package_version"):
        rec.pop(k, None)
    out.append("%d:%d\t%s" % (st.st_dev, st.st_ino, json.dumps(rec, sort_keys=True)))
print("\n".join(sorted(out)))
' "$1" "$root"
}
key_records "$root" < "$work/debs.jsonl" > "$work/debs.keyed"
key_records "" < "$work/tree.jsonl" > "$work/tree.keyed"
n=$(wc -l < "$work/debs.keyed")
if [ "$n" -gt 100 ] && diff "$work/tree.keyed" "$work/debs.keyed" > "$work/diff"; then
	pass "$n ELF files: the same verdicts, properties, problems and findings as the unpacked tree"
else
	failed "$n files; the package audit differs from the tree's ($(grep -c '^[<>]' "$work/diff") lines):"
	cut -c 1-200 "$work/diff" | head -n 6
fi

# Paths as installed, the package's name and version from its control file.
deb=$(ls "$cache"/debs/coreutils_*.deb)
want="coreutils $(dpkg-deb -f "$deb" Version)"
got=$(jq -r 'select(.path == "/usr/bin/ls") | "\(.package) \(.package_version)"' "$work/debs.jsonl")
if [ "$got" = "$want" ]; then
	pass "/usr/bin/ls is reported as installed, from $got"
else
	failed "/usr/bin/ls: package '$got', expected '$want'"
fi
"$elfcet" audit "$deb" > "$work/coreutils.txt" 2>/dev/null
if grep -q "^/usr/bin/ls ($want): ibt=" "$work/coreutils.txt"; then
	pass "text report: /usr/bin/ls ($want): ..."
else
	failed "text report does not name /usr/bin/ls ($want)"
fi

# A damaged package: one line naming it, exit 2, the rest still audited.
head -c 300000 "$deb" > "$work/broken_1.0_amd64.deb"
"$elfcet" audit -q "$work/broken_1.0_amd64.deb" "$(ls "$cache"/debs/dash_*.deb)" > "$work/broken.out" 2> "$work/broken.err"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(wc -l < "$work/broken.err")" -eq 1 ] &&
	grep -q "broken_1.0_amd64.deb: " "$work/broken.err" && grep -q '^/usr/bin/dash (dash ' "$work/broken.out"; then
	pass "a truncated .deb: $(cat "$work/broken.err"); the other package still audited"
else
	failed "a truncated .deb: exit $rc, stderr: $(head -n 3 "$work/broken.err")"
fi
exit "$fail"
