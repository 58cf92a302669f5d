#!/usr/bin/env bash
# elfcet mark refuses each kind of audit blocker with exit 1, the blocking findings listed
# and the file untouched; --force marks anyway and says so. The blockers are real audit
# findings on real binaries: Debian 12's crt code without ENDBR (IBT), push;ret (SHSTK),
# a vsyscall call (both).
. "$(dirname "$0")/mark-prologue.sh"

# refuse NAME FILE FLAG RULE: marking FLAG must be refused because of RULE.
refuse() {
	local name=$1 f=$2 flag=$3 rule=$4 status
	echo "== $name: $flag refused because of $rule"
	cp "$f" "$work/before"
	"$ELFCET" mark "$flag" "$f" >"$work/out" 2>"$work/err"
	status=$?
	check "exit status 1 (got $status)" test "$status" -eq 1
	check "the blocking finding $rule is listed" grep -q -- "$rule" "$work/err"
	check "the file is unchanged" cmp -s "$f" "$work/before"
	"$ELFCET" mark --force "$flag" "$f" >"$work/out" 2>"$work/err"
	status=$?
	check "--force marks it (exit $status)" test "$status" -eq 0
	check "--force says so on stderr" grep -q -- "force" "$work/err"
	check "readelf shows the bit" bash -c "readelf -n '$f' | grep -q 'x86 feature:.*$( [ "$flag" = --ibt ] && echo IBT || echo SHSTK)'"
}

# IBT blocker: -fcf-protection code linked with Debian 12's crt files (no ENDBR at
# _start, _init, _fini), not yet marked.
printf '#include <stdio.h>\nint main(void){puts("hi");return 0;}\n' >"$work/hi.c"
gcc -O2 -fcf-protection "$work/hi.c" -o "$work/cf"
refuse "crt without ENDBR" "$work/cf" --ibt ibt-missing-endbr
check "the marked program still runs" bash -c "'$work/cf' | grep -q hi"

# SHSTK blocker: push; ret.
gcc -fcf-protection "$top_srcdir/corpus/mark/shstk_hazard.S" -o "$work/hazard"
refuse "push; ret" "$work/hazard" --shstk shstk-ret-as-jump

# Both: a vsyscall call.
gcc -O2 -fcf-protection "$top_srcdir/corpus/mark/vsyscall_user.c" -o "$work/vsys"
cp "$work/vsys" "$work/vsys2"
refuse "vsyscall call (IBT)" "$work/vsys" --ibt vsyscall-call
refuse "vsyscall call (SHSTK)" "$work/vsys2" --shstk vsyscall-call

# A ready file is marked without --force: a glibc-free program with ENDBR everywhere.
gcc -nostdlib -static "$top_srcdir/corpus/notes/start64.S" -o "$work/ready"
echo "== a ready file"
"$ELFCET" mark --ibt --shstk "$work/ready" >"$work/out" 2>"$work/err"
status=$?
check "marked without --force (exit $status)" test "$status" -eq 0
check "no warning about --force" bash -c "! grep -q force '$work/err'"
check "the audit now says marked-ok" bash -c \
	"'$ELFCET' audit -q --format=json '$work/ready' | jq -e '.files[0].verdicts == {\"ibt\":\"marked-ok\",\"shstk\":\"marked-ok\"}' >/dev/null"
exit $fail
