#!/usr/bin/env bash
# The case labels of an ibt-tracked-jump-table finding, all of them ("labels" in the JSON;
# the message names only the first six): a CPU with IBT faults at whichever label the jmp
# takes, so vm/verify places a real #CP by this list. On the corpus/targets jump-table
# programs (built by corpus-targets.sh; legacy_switch has 7 cases, none with ENDBR) each
# finding must list its 7 labels once each, in address order, every one an instruction of
# legacy_switch (objdump) that is not ENDBR, the message's six among them.
set -uo pipefail
out="$top_builddir/tests/corpus-targets.out"
[ -d "$out" ] || { echo "corpus-targets.sh has not run"; exit 99; }
pass=0 fail=0
for bin in "$out"/*-jumptable; do
	name=${bin##*/}
	finding="$("$ELFCET" audit -q --format=json --fail-on=never "$bin" |
		jq -c '[.files[0].findings[] | select(.rule == "ibt-tracked-jump-table")] | first')"
	# Every instruction of legacy_switch: "ADDRESS BYTES..." one a line.
	insns="$(objdump -d --disassemble=legacy_switch "$bin" 2>/dev/null |
		sed -n 's/^ *\([0-9a-f]\+\):\t\([0-9a-f ]*\)\t.*/\1 \2/p')"
	problem="$(jq -r --arg insns "$insns" '
		($insns | split("\n") | map(select(length > 0) | split(" ") | {key: .[0], value: (.[1:] | join(""))})
		 | from_entries) as $code
		| def hex: [recurse(if . >= 16 then (. / 16 | floor) else empty end) | . % 16] | reverse
			| map("0123456789abcdef"[.:. + 1]) | join("");
		  if . == null then "no ibt-tracked-jump-table finding"
		  elif (.labels | type) != "array" then "no labels member"
		  elif (.labels | length) != 7 then "\(.labels | length) labels, 7 expected"
		  elif .labels != (.labels | unique) then "labels not unique and in address order"
		  elif any(.labels[]; $code[hex] == null) then "a label that is no instruction of legacy_switch"
		  elif any(.labels[]; $code[hex] | startswith("f30f1e")) then "a label with ENDBR"
		  elif (. as $f | [$f.message | scan("0x[0-9a-f]+")] | .[1:] | map(ltrimstr("0x")) - ($f.labels | map(hex))
			| length) > 0
		    then "a label the message names is not in the list"
		  else "ok" end' <<<"$finding" 2>&1)"
	[ "$problem" = ok ] && problem=
	if [ -z "$problem" ]; then
		echo "PASS: jump-table-labels: $name: 7 labels, all without ENDBR"; pass=$((pass + 1))
	else
		echo "FAIL: jump-table-labels: $name: $problem: $finding"; fail=$((fail + 1))
	fi
done

# The hand-written tables of corpus/targets/jumptables.S: each tracked dispatch's labels
# are exactly the local labels its table really holds (FUNCTION: nm pattern), none of the
# next table's, none inside an instruction, each once, and the message counts them.
for bin in "$out"/*-nolibc-jumptables; do
	name=${bin##*/}
	report="$("$ELFCET" audit -q --format=json --fail-on=never "$bin")"
	for expect in "unbounded_pair:^pair_a[0-3]$" "mid_insn:^mid_[0-2]$" "duplicates:^dup_[0-2]$" \
		"negative_index:^neg_[0-2]$"; do
		func=${expect%%:*} pattern=${expect#*:}
		want="$(nm "$bin" | awk -v p="$pattern" '$3 ~ p { print $1 }' | while read -r a; do
			echo $((16#$a)); done | sort -n | jq -sc .)"
		problem="$(jq -r --arg f "$func+" --argjson want "$want" '
			[.files[0].findings[] | select(.rule == "ibt-tracked-jump-table" and
				(.symbol | startswith($f)))] as $found
			| if ($found | length) != 1 then "\($found | length) findings, 1 expected"
			  elif $found[0].labels != $want then "labels \($found[0].labels), expected \($want)"
			  elif ($found[0].message | test("table of \($want | length) case label")) | not
			    then "the message does not count \($want | length) labels: \($found[0].message)"
			  else "ok" end' <<<"$report" 2>&1)"
		if [ "$problem" = ok ]; then
			echo "PASS: jump-table-labels: $name $func: $want"; pass=$((pass + 1))
		else
			echo "FAIL: jump-table-labels: $name $func: $problem"; fail=$((fail + 1))
		fi
	done
done
# Tables of label offsets indexed by a class read from a table of bytes: each tracked
# dispatch's labels are exactly the one label whose ENDBR is missing (SYMBOL), none from
# reading past the offsets table (the bound before it is the byte table's), and the
# same code with every ENDBR in place has no jump-table finding.
for pair in "nolibc-classtables:cls_gap_two" "pie-labeloffs-patched:removed_endbr"; do
	for bin in "$out"/*-"${pair%%:*}"; do
		[ -e "$bin" ] || continue
		name=${bin##*/}
		want="$(nm "$bin" | awk -v s="${pair#*:}" '$3 == s { print $1 }' | while read -r a; do
			echo $((16#$a)); done | jq -sc .)"
		problem="$("$ELFCET" audit -q --format=json --fail-on=never "$bin" | jq -r --argjson want "$want" '
			[.files[0].findings[] | select(.rule == "ibt-tracked-jump-table")] as $found
			| if ($want | length) != 1 then "the label is not in the binary"
			  elif ($found | length) == 0 then "no ibt-tracked-jump-table finding"
			  elif any($found[]; .labels != $want) then "labels \([$found[].labels]), expected \($want) each"
			  else "ok" end' 2>&1)"
		if [ "$problem" = ok ]; then
			echo "PASS: jump-table-labels: $name: $want"; pass=$((pass + 1))
		else
			echo "FAIL: jump-table-labels: $name: $problem"; fail=$((fail + 1))
		fi
	done
done
for bin in "$out"/gcc-pie-labeloffs; do
	found="$("$ELFCET" audit -q --format=json --fail-on=never "$bin" |
		jq -c '[.files[0].findings[] | select(.rule == "ibt-tracked-jump-table") | .labels]')"
	if [ "$found" = "[]" ]; then
		echo "PASS: jump-table-labels: ${bin##*/}: no jump-table finding"; pass=$((pass + 1))
	else
		echo "FAIL: jump-table-labels: ${bin##*/}: labels with ENDBR reported: $found"; fail=$((fail + 1))
	fi
done
echo "jump-table-labels: $pass passed, $fail failed"
[ "$pass" -gt 0 ] && [ "$fail" -eq 0 ]
