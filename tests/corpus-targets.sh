#!/usr/bin/env bash
# elfcet audit on the indirect-branch-target corpus (corpus/targets): every source of
# targets, gcc and clang, PIE, non-PIE, i386 and shared, must give exactly the findings
# corpus/targets/manifest lists, no more and no fewer; each stripped twin must give the
# same findings at the same addresses.  Prints one line per binary and ends with
# "N passed, N failed".
set -uo pipefail
: "${ELFCET:?}" "${top_srcdir:?}"
out=${top_builddir:-.}/tests/corpus-targets.out
manifest=$top_srcdir/corpus/targets/manifest
for tool in gcc clang jq strip; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done

rm -rf "$out"
mkdir -p "$(dirname "$out")"
if ! "$top_srcdir/corpus/targets/build" "$out" >"$out.log" 2>&1; then
	echo "FAIL corpus build: $(grep -m1 -i error "$out.log")"
	exit 1
fi

passed=0 failed=0
result() { # ok name detail
	if [ "$1" = 0 ]; then echo "PASS $2${3:+: $3}"; passed=$((passed + 1))
	else echo "FAIL $2${3:+: $3}"; failed=$((failed + 1)); fi
}
# findings of FILE as "rule via symbol" (NAME+0x.. becomes NAME+*), or "rule via address"
findings() { # FILE symbol|address
	"$ELFCET" audit --format=json "$1" |
		jq -r --arg k "$2" '.files[0].findings[] |
			[.rule, .via, (if $k == "address" then (.address | tostring) else .symbol end)] |
			join(" ")' | sed -E 's/\+0x[0-9a-f]+$/+*/' | sort
}

for bin in $(awk '!/^#/ && NF { print $1 }' "$manifest" | uniq); do
	want=$(awk -v b="$bin" '$1 == b { print $2, $3, $4 }' "$manifest" | sort)
	got=$(findings "$out/$bin" symbol)
	missing=$(comm -23 <(echo "$want") <(echo "$got") | paste -sd, -)
	extra=$(comm -13 <(echo "$want") <(echo "$got") | paste -sd, -)
	[ -z "$missing$extra" ]
	result $? "$bin" "$(echo "$want" | grep -c .) findings${missing:+; missing: $missing}${extra:+; extra: $extra}"

	a=$(findings "$out/$bin" address)
	s=$(findings "$out/$bin.stripped" address)
	diff=$(diff <(echo "$a") <(echo "$s") | grep '^[<>]' | head -n 4 | paste -sd, -)
	[ -n "$a" ] && [ -z "$diff" ]
	result $? "$bin.stripped" "same findings at the same addresses${diff:+; differ: $diff}"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
