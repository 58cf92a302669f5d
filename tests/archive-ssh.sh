#!/usr/bin/env bash
# The archive recipe across machines (tools/elfcet-audit-archive --sshloginfile, issue 34):
# the jobs run on "machines" that see none of this machine's files, yet every package is
# audited there, every shard comes back whatever its name ('~', '%3a' and '+' of Debian
# versions), a package without ELF files merges, a relative --sshloginfile works, an
# interrupted run resumes without redoing a shard, and the merged summary equals a
# single local run. A machine whose jobs fail or return nothing fails the run, non-zero,
# each package named.
#
# The machines: an ssh stand-in (written below) that GNU parallel and rsync call as they
# call ssh; it runs the command in the machine's own home directory, in a mount namespace
# where the local side's directory is an empty tmpfs. Not sshd itself: a test with an
# sshd on 127.0.0.1 in its own namespace is still to be written (issue 34).
# Exit 77 (skipped) without GNU parallel, rsync, dpkg-deb or mount namespaces.
set -uo pipefail
: "${ELFCET:?}" "${top_srcdir:?}"
recipe=$top_srcdir/tools/elfcet-audit-archive
fail=0
pass() { echo "PASS: archive-ssh: $*"; }
failed() { echo "FAIL: archive-ssh: $*"; fail=1; }
skip() { echo "SKIP: archive-ssh: $*"; exit 77; }
for tool in parallel rsync dpkg-deb unshare; do
	command -v "$tool" > /dev/null || skip "$tool is not installed"
done
# Root makes a mount namespace directly; anyone else in a user namespace of their own.
userns=-r
[ "$(id -u)" = 0 ] && userns=
unshare $userns -m --propagation private true 2> /dev/null || skip "no mount namespaces here"
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-archive-ssh.XXXXXX")
trap 'rm -rf "$work"' EXIT
local_side=$work/local
mkdir -p "$local_side/debs" "$work/hosts/machine-a" "$work/hosts/machine-b" \
	"$work/hosts/empty-output" "$work/hosts/crashing"

# The ssh stand-in: "ssh [OPTIONS] HOST [--] COMMAND..." runs COMMAND by bash in HOST's
# home. On the host empty-output, elfcet is replaced by a program that writes nothing and
# exits 0; on crashing, by one that dies as by SIGSEGV.
cat > "$work/fake-ssh" << 'EOF'
#!/usr/bin/env bash
while [ $# -gt 0 ]; do
	case $1 in
	-[oplieFScmJbDLRW]) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
host=${1#*@}
shift
[ "${1:-}" = -- ] && shift
home=$FAKE_SSH_HOSTS/$host
[ -d "$home" ] || { echo "fake-ssh: $host: no such machine" >&2; exit 255; }
case $host in
empty-output) replace=/bin/true ;;
crashing) replace=$FAKE_SSH_HOSTS/../crash ;;
*) replace= ;;
esac
exec unshare $FAKE_SSH_USERNS -m --propagation private bash -c '
	mount -t tmpfs none "$1" || exit 255
	if [ -n "$4" ]; then mount --bind "$4" "$ELFCET" || exit 255; fi
	cd "$2" && export HOME="$2" && exec bash -c "$3"' fake-ssh "$FAKE_SSH_HIDE" "$home" "$*" "$replace"
EOF
printf '#!/bin/sh\nkill -SEGV $$\n' > "$work/crash"
chmod +x "$work/fake-ssh" "$work/crash"
# CI runs with neither SHELL nor HOME set: the recipe must not depend on them.
unset SHELL HOME
export FAKE_SSH_HOSTS=$work/hosts FAKE_SSH_HIDE=$local_side FAKE_SSH_USERNS=$userns ELFCET
if ! "$work/fake-ssh" machine-a "test ! -e '$local_side/debs' && test -x '$ELFCET'"; then
	skip "the ssh stand-in cannot hide the local files (mount namespace)"
fi

# The packages: real programs of this machine, under Debian's version characters; one
# package without ELF files.
# shellcheck source=tests/archive-package.sh
. "$top_srcdir/tests/archive-package.sh"
package() { archive_package "$@" || exit 1; }
package tilde 1.0~rc1-1 amd64 /bin/ls /bin/cat
package epoch 1:2.0+dfsg-3 amd64 /bin/sed
package plain 1.0-1 amd64 /bin/true /bin/false
package docs 1.0-1 all
debs=("$local_side"/debs/*.deb)
single() { # the packages audited here in one run, merged like shards
	"$ELFCET" audit --format=jsonl -j 1 "$@" 2> /dev/null | grep -v '^{"path":null,'
}
single "${debs[@]}" > "$work/single.jsonl"
"$ELFCET" report - < "$work/single.jsonl" > "$work/single.txt"
nfiles=$(grep -c . "$work/single.jsonl")

# Two machines, through a relative --sshloginfile; first two packages (then interrupted,
# as it were), then all of them.
cd "$local_side" || exit 1
printf '2/%s machine-a\n2/%s machine-b\n' "$work/fake-ssh" "$work/fake-ssh" > logins
out=$local_side/out
"$recipe" -o "$out" --sshloginfile logins "${debs[@]:0:2}" > /dev/null 2> "$work/first.err"
rc=$?
first_shards=$(ls "$out/shards" 2> /dev/null | wc -l)
stat -c '%n %i %Y' "$out"/shards/*.jsonl > "$work/first.stat" 2> /dev/null
if [ "$rc" = 0 ] && [ "$first_shards" = 2 ]; then
	pass "two packages over two machines by a relative --sshloginfile: 2 shards"
else
	failed "first run: exit $rc, $first_shards shards: $(tail -n 3 "$work/first.err")"
fi
sleep 1
start=$(date +%s.%N)
"$recipe" -o "$out" --sshloginfile logins debs > "$work/recipe.txt" 2> "$work/recipe.err"
rc=$?
end=$(date +%s.%N)
nshards=$(ls "$out/shards" | wc -l)
if [ "$rc" = 0 ] && [ "$nshards" = "${#debs[@]}" ] && [ -s "$out/shards/tilde_1.0+7Erc1-1_amd64.jsonl" ] &&
	[ -s "$out/shards/epoch_1+253a2.0+2Bdfsg-3_amd64.jsonl" ] && [ -e "$out/shards/docs_1.0-1_all.jsonl" ]; then
	pass "resumed over all ${#debs[@]} packages: a shard each, '~', '%3a' and '+' in their names ($(ls "$out/shards" | tr '\n' ' '))"
else
	failed "second run: exit $rc, $nshards shards for ${#debs[@]} packages: $(tail -n 3 "$work/recipe.err")"
fi
if stat -c '%n %i %Y' $(cut -d ' ' -f 1 "$work/first.stat") 2> /dev/null | cmp -s - "$work/first.stat"; then
	pass "the 2 shards of the first run were not redone"
else
	failed "the first run's shards were redone"
fi
if cmp -s "$out/summary.txt" "$work/single.txt" && [ "$nfiles" -gt 0 ]; then
	pass "the merged summary equals a single local run ($nfiles files, the package without ELF files included)"
else
	failed "the merged summary differs from a single run:"; diff "$out/summary.txt" "$work/single.txt" | head -n 5
fi
if [ -z "$(find "$work/hosts" -mindepth 2 -print -quit)" ]; then
	pass "nothing left on the machines"
else
	failed "left on the machines: $(find "$work/hosts" -mindepth 2 | head -n 3 | tr '\n' ' ')"
fi
echo "archive-ssh: ${#debs[@]} packages, $nfiles ELF files over two stand-in ssh machines in $(echo "$end - $start" | bc | cut -c 1-5) s (not a measure of ssh: no network, no sshd)"

# This machine (':') beside another: its jobs write their shards into OUT/shards, and
# the run leaves nothing but shards and summaries, here or there.
printf ':\n1/%s machine-a\n' "$work/fake-ssh" > "$work/local-login"
"$recipe" -o "$work/out-here" --sshloginfile "$work/local-login" debs > /dev/null 2> "$work/here.err"
rc=$?
if [ "$rc" = 0 ] && [ "$(ls "$work/out-here/shards" | wc -l)" = "${#debs[@]}" ] &&
	cmp -s "$work/out-here/summary.txt" "$work/single.txt" &&
	[ "$(ls -A "$work/out-here" | tr '\n' ' ')" = "shards summary.json summary.txt " ] &&
	[ -z "$(find "$work/hosts" -mindepth 2 -print -quit)" ]; then
	pass "this machine (':') and another: every shard in OUT/shards, nothing else left"
else
	failed "this machine (':') and another: exit $rc, left: $(ls -A "$work/out-here" "$work/out-here/shards" | tr '\n' ' '): $(tail -n 2 "$work/here.err")"
fi

# A machine whose elfcet writes nothing: each package with ELF files is named, its empty
# shard removed, and the run fails; the package without ELF files is fine.
printf '1/%s empty-output\n' "$work/fake-ssh" > "$work/empty-login"
"$recipe" -o "$work/out-empty" --sshloginfile "$work/empty-login" debs > /dev/null 2> "$work/empty.err"
rc=$?
named=$(grep -c "empty shard for a package with [0-9]* ELF files" "$work/empty.err")
if [ "$rc" = 2 ] && [ "$named" = 3 ] && ! grep -q docs_ "$work/empty.err" &&
	[ "$(ls "$work/out-empty/shards")" = docs_1.0-1_all.jsonl ]; then
	pass "empty shards fail the run (exit 2), each named: $(grep -m 1 'empty shard' "$work/empty.err")"
else
	failed "a machine that writes empty shards: exit $rc, $named of 3 named: $(head -n 3 "$work/empty.err")"
fi
# A machine where elfcet dies: no shard comes back, each package named.
printf '1/%s crashing\n' "$work/fake-ssh" > "$work/crash-login"
"$recipe" -o "$work/out-crash" --sshloginfile "$work/crash-login" debs > /dev/null 2> "$work/crash.err"
rc=$?
named=$(grep -c "no shard came back" "$work/crash.err")
if [ "$rc" = 2 ] && [ "$named" = "${#debs[@]}" ]; then
	pass "missing shards fail the run (exit 2), each named: $(grep -m 1 'no shard came back' "$work/crash.err")"
else
	failed "a machine whose elfcet crashes: exit $rc, $named of ${#debs[@]} named: $(head -n 3 "$work/crash.err")"
fi
# A package named but not there: named, and the run fails.
"$recipe" -o "$work/out-missing" debs/plain_1.0-1_amd64.deb debs/gone_1.0_amd64.deb > /dev/null 2> "$work/missing.err"
rc=$?
if [ "$rc" = 2 ] && grep -q "debs/gone_1.0_amd64.deb: cannot read the package" "$work/missing.err" &&
	[ -s "$work/out-missing/shards/plain_1.0-1_amd64.jsonl" ]; then
	pass "a package that is not there fails the run (exit 2), named; the others are audited"
else
	failed "a package that is not there: exit $rc: $(head -n 2 "$work/missing.err")"
fi
exit "$fail"
