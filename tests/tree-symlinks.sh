#!/usr/bin/env bash
# Symbolic links in an audited tree resolve inside the tree, as in a chroot there: an
# absolute link names the tree's file, never the host's (an unpacked package's
# etc/rmt -> /usr/sbin/rmt is not the build machine's rmt); a link that leads out of
# the tree is skipped with a one-line note and counted, never followed and never
# silently dropped; a relative link inside the tree is followed as before. A file the
# walk reaches by its own name too is listed once, under that name (as in a package),
# however the links to it sort.
set -euo pipefail
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root/usr/bin" "$root/usr/libexec" "$root/etc/alternatives" "$root/a" "$root/bin"
# The tree's own "ls" is another program than the host's.
cp /usr/bin/true "$root/usr/bin/ls"
cp /usr/bin/true "$root/usr/bin/prog"
cp /usr/bin/true "$root/usr/libexec/relprog"
ln -s /usr/bin/ls "$root/bin/ls"                       # absolute, inside the tree
ln -s /etc/alternatives/editor "$root/a/editor"        # absolute, through another link
ln -s /usr/bin/prog "$root/etc/alternatives/editor"
ln -s ../usr/libexec/relprog "$root/a/rel"             # relative, inside the tree
ln -s /usr/bin/cat "$root/etc/hostcat"                 # only the host has it
ln -s ../../../../../../../../../../usr/bin/cat "$root/usr/bin/escape" # climbs out
ln -s /nowhere/at/all "$root/etc/dangling"            # dangling everywhere: no file

fail=0
check() { # DESCRIPTION CONDITION...
	local what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
findings() { # FILE: the number of findings the audit of FILE named directly gives
	"$ELFCET" audit -q --fail-on=never --format=json "$1" | jq '.files[0].findings | length'
}

set +e
"$ELFCET" audit -q --fail-on=never --format=json "$root" >"$work/out.json" 2>"$work/err"
status=$?
set -e
echo "--- stderr:"; cat "$work/err"; echo "---"
check "exit status 0: a link left unfollowed is no error (got $status)" test "$status" -eq 0
paths=$(jq -r '.files[].path' "$work/out.json")
echo "audited:"; echo "$paths"
tree_ls=$(findings "$root/usr/bin/ls") host_ls=$(findings /usr/bin/ls)
# Each link leads to a file of the tree, which is listed under its own name; a link
# that led to the host's file (one the walk does not reach) would be listed.
check "the absolute link bin/ls leads to the tree's usr/bin/ls, listed once as itself" \
	test "$(grep -c -x -e "$root/bin/ls" -e "$root/usr/bin/ls" <<<"$paths")" = 1 -a \
	"$(grep -c -x "$root/usr/bin/ls" <<<"$paths")" = 1
check "an absolute link through another absolute link resolves in the tree" \
	test "$(grep -c -x -e "$root/a/editor" -e "$root/usr/bin/prog" <<<"$paths")" = 1
check "a relative link inside the tree is followed" \
	test "$(grep -c -x -e "$root/a/rel" -e "$root/usr/libexec/relprog" <<<"$paths")" = 1
check "three files audited, each once" test "$(wc -l <<<"$paths")" = 3
check "the host's cat is never audited as the tree's" \
	bash -c "! grep -q -e hostcat -e escape <<<'$paths'"
for link in etc/hostcat usr/bin/escape; do
	check "$link is named on exactly one stderr line" \
		test "$(grep -c "^elfcet: $root/$link: skipped: symbolic link" "$work/err")" -eq 1
	check "$link is listed as skipped in the JSON" test "$(jq --arg p "$root/$link" \
		'[.skipped[] | select(.path == $p)] | length' "$work/out.json")" -eq 1
done
check "the two are counted as skipped" test "$(jq .summary.skipped "$work/out.json")" -eq 2
check "a link dangling on the host too is no file, as before" \
	bash -c "! grep -q dangling '$work/err'"
check "the host's ls differs from the tree's (the test means something)" \
	test "$host_ls" -ne "$tree_ls"

# Named on the command line, a link is the user's choice: followed.
check "a link named directly is audited" \
	bash -c "'$ELFCET' audit -q --fail-on=never '$root/etc/hostcat' | grep -q '^$root/etc/hostcat: ibt='"

exit $fail
