#!/usr/bin/env bash
# elfcet audit on real Debian 13 (trixie) binaries: most are built with -fcf-protection,
# carry ENDBR64 and are still unmarked. Downloads a fixed set of .debs once into
# ${ELFCET_CACHE:-/var/cache/elfcet}/debian13 with a private apt configuration
# (tests/debian13-fetch; the system's apt is never touched), unpacks them, audits the
# tree and checks what a packager relies on: exit status 0 or 1 (never 2, never a
# signal), no error on stderr, every x86 ELF program and library present in the JSON.
# Prints a summary of the verdicts.
# Exit 77 (skipped) when the mirror cannot be reached.
#
# Usage: tests/debian13.sh   (from the build directory, or set ELFCET)
set -uo pipefail
elfcet=${ELFCET:-$PWD/elfcet/elfcet}
cache=${ELFCET_CACHE:-/var/cache/elfcet}/debian13
packages="bash coreutils dash diffutils findutils grep sed tar gzip xz-utils util-linux
	procps iproute2 openssh-client curl libcurl4t64 libssl3t64 libc6 libstdc++6
	libsystemd0 systemd perl-base python3.13-minimal vim-tiny git zstd"
fail=0

note() { echo "debian13: $*"; }
[ -x "$elfcet" ] || { note "$elfcet: not found (build first or set ELFCET)"; exit 2; }

# Downloaded and unpacked once (tests/debian13-fetch: a private apt, the machine's mirror).
# shellcheck disable=SC2086 # the package list is a word list
"$(dirname "$0")/debian13-fetch" "$cache" $packages
rc=$?
[ "$rc" -eq 0 ] || { [ "$rc" -eq 77 ] && note "SKIP: no Debian 13 packages"; exit "$rc"; }
ndebs=$(ls "$cache"/debs/*.deb | wc -l)

work=$(mktemp -d "${TMPDIR:-/tmp}/debian13.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$elfcet" audit --format=json "$cache/root" > "$work/audit.json" 2> "$work/stderr"
rc=$?
if [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]; then
	echo "PASS: debian13: elfcet audit of $ndebs packages exited $rc"
else
	echo "FAIL: debian13: elfcet audit exited $rc (0 or 1 expected)"
	fail=1
fi
# Links that lead out of the tree are said on stderr, one line each, and not errors.
grep -v ': skipped: symbolic link to ' "$work/stderr" > "$work/errors" || true
if [ -s "$work/errors" ]; then
	echo "FAIL: debian13: elfcet wrote errors:"
	head -n 10 "$work/errors" | sed 's/^/    /'
	fail=1
else
	echo "PASS: debian13: no error on stderr"
fi
# tar's etc/rmt -> /usr/sbin/rmt names the host's rmt (the package has none): skipped,
# never audited as the package's.
if { [ ! -f /usr/sbin/rmt ] ||
     grep -q "^elfcet: $cache/root/etc/rmt: skipped: symbolic link to /usr/sbin/rmt" "$work/stderr"; } &&
   ! jq -e --arg p "$cache/root/etc/rmt" 'any(.files[]; .path == $p)' "$work/audit.json" >/dev/null; then
	echo "PASS: debian13: the absolute link etc/rmt is not followed out of the tree"
else
	echo "FAIL: debian13: etc/rmt was followed to the host, or not said to be skipped"
	fail=1
fi

# Every x86 ELF program or library must be in the report: compared by inode, since
# hard links (perl and perl5.40.1) and symlinks (linux64 -> setarch) are audited once,
# under the first name met.
inodes() { tr '\n' '\0' | xargs -0 -r stat -L -c '%d:%i' -- | sort -u; }
"$(dirname "$0")/x86-elf-files" "$cache/root" > "$work/expected"
jq -r '.files[].path' "$work/audit.json" 2>/dev/null > "$work/reported"
inodes < "$work/expected" > "$work/expected.inodes"
inodes < "$work/reported" > "$work/reported.inodes"
missing=$(comm -23 "$work/expected.inodes" "$work/reported.inodes" | wc -l)
total=$(wc -l < "$work/expected.inodes")
if [ "$missing" -eq 0 ] && [ "$total" -gt 0 ]; then
	echo "PASS: debian13: all $total x86 ELF files ($(wc -l < "$work/expected") names) are in the JSON report"
else
	echo "FAIL: debian13: $missing of $total x86 ELF files missing from the report"
	fail=1
fi

note "summary of $(wc -l < "$work/reported") files from $ndebs Debian 13 packages (static audit; no CET hardware here):"
for feature in ibt shstk; do
	echo "  $feature: $(jq -r --arg f "$feature" '[.files[].verdicts[$f]] | group_by(.) |
		map("\(.[0])=\(length)") | join(" ")' "$work/audit.json")"
done
echo "  IBT targets without ENDBR, by evidence: $(jq -r '[.files[].findings[]? |
	select(.rule == "ibt-missing-endbr") | .via] | group_by(.) |
	map("\(.[0])=\(length)") | join(" ")' "$work/audit.json")"
echo "  findings by rule:"
jq -r '[.files[].findings[]?.rule] | group_by(.) | map([length, .[0]]) | sort | reverse |
	.[:8][] | "    \(.[0])  \(.[1])"' "$work/audit.json"
exit "$fail"
