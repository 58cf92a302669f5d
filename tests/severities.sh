#!/usr/bin/env bash
# Severities fit a pipeline: a finding that cannot fault in a file as it is marked does
# not fail the default --fail-on=error; one that would fault does.
#   - a shadow-stack hazard in an unmarked program: warning, exit 0; marked: error, exit 1
#   - a vsyscall entry point kept in data, never called: warning, exit 0
#   - a vsyscall call (a CET kernel emulates none, for any process): error, exit 1
set -euo pipefail
for tool in gcc jq; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/vdata.c" <<'C'
typedef long (*vtime_fn)(long *);
vtime_fn volatile kept = (vtime_fn)0xffffffffff600400UL;
int main(void) { return kept == 0; }
C
gcc -O2 -fcf-protection "$work/vdata.c" -o "$work/vdata"
gcc -O2 -fcf-protection "$top_srcdir/corpus/mark/vsyscall_user.c" -o "$work/vcall"
gcc -fcf-protection "$top_srcdir/corpus/mark/shstk_hazard.S" -o "$work/hazard"
gcc -fcf-protection "$top_srcdir/corpus/mark/shstk_hazard.S" -Wl,-z,shstk -o "$work/hazard-marked"

fail=0
expect() { # FILE RULE SEVERITY EXIT
	local status severity
	set +e
	"$ELFCET" audit -q --format=json "$work/$1" > "$work/$1.json"
	status=$?
	set -e
	severity=$(jq -r --arg r "$2" '[.files[0].findings[] | select(.rule == $r) | .severity] |
		unique | join(",")' "$work/$1.json")
	if [ "$severity" = "$3" ] && [ "$status" -eq "$4" ]; then
		echo "ok: $1: $2 is $3, exit $4"
	else
		echo "FAIL: $1: $2 is '$severity' (expected $3), exit $status (expected $4)"
		fail=1
	fi
}
expect hazard shstk-ret-as-jump warning 0
expect hazard-marked shstk-ret-as-jump error 1
expect vdata vsyscall-data warning 0
expect vcall vsyscall-call error 1
exit $fail
