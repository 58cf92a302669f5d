#!/usr/bin/env bash
# The indirect-branch-target corpus: builds corpus/targets with gcc and clang, audits
# every binary and its stripped twin, and compares the code findings (rule, via, where)
# with corpus/targets/manifest: a missing or an extra finding fails the binary.
#   Unstripped: each manifest row's symbol is resolved with nm (or readelf, for a
#   section) and must match one finding exactly; each finding must name its own address
#   (NAME, NAME+0xN, sub_HEX, SECTION+0xN).
#   Stripped twin: the same findings at the same addresses (function starts come from
#   .eh_frame), named after .dynsym, a section, or sub_HEX.
#   Static glibc binaries (NAME.loose in the manifest): extra findings are allowed in code
#   the case's own sources do not define (libc.a's), never in the case's own functions.
# Exit: 0 all pass, 1 a failure, 77 a compiler missing.
set -euo pipefail
shopt -s extglob
for tool in gcc clang g++ clang++ jq nm readelf strip; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
out="$top_builddir/tests/corpus-targets.out"
manifest="$top_srcdir/corpus/targets/manifest"
rm -rf "$out"
"$top_srcdir/corpus/targets/build" "$out" >"$out.build.log" 2>&1 ||
	{ echo "FAIL: corpus/targets/build (see $out.build.log)"; tail -5 "$out.build.log"; exit 1; }

# "name lo hi" (decimal; hi = lo + size) for every symbol nm lists and every section.
symbols() { # BINARY NM-FLAGS...
	local bin=$1 addr size type name
	shift
	{ nm -S --defined-only "$@" "$bin" 2>/dev/null || true; } | while read -r addr size type name; do
		if [ -z "$name" ]; then name=$type size=0; fi
		echo "$name $((16#$addr)) $((16#$addr + 16#$size))"
	done
	readelf -SW "$bin" | sed -n 's/^ *\[ *[0-9]*\] //p' | while read -r name type addr off size rest; do
		[ "$type" = NULL ] || echo "$name $((16#$addr)) $((16#$addr + 16#$size))"
	done
}

# "rule via address symbol" for each code finding (rules the scanner/code checks report).
findings() {
	"$ELFCET" audit -q --fail-on=never --format=json "$1" | jq -r '
	  .files[] | .findings[]? | [.rule, .via, .address, .symbol] | map(tostring) | join(" ")'
}

# Whether SYMBOL ("NAME", "NAME+0xN", "sub_HEX[+0xN]") names ADDRESS in table SYMS.
names_address() { # SYMBOL ADDRESS SYMS
	local base=${1%+0x*} off=0
	[ "$base" = "$1" ] || off=$((16#${1##*+0x}))
	if [[ $base == sub_+([0-9a-f]) ]]; then
		[ $((16#${base#sub_} + off)) -eq "$2" ]
		return
	fi
	awk -v n="$base" -v a="$(($2 - off))" '$1 == n && $2 == a { found = 1 } END { exit !found }' "$3"
}

pass=0 failed=0
report() { # NAME PROBLEMS
	if [ -z "$2" ]; then
		echo "PASS $1"
		pass=$((pass + 1))
	else
		echo "FAIL $1"
		printf '%s' "$2" | sed 's/^/  /'
		failed=$((failed + 1))
	fi
}

# match RULE VIA SYMBOL SYMS FOUND MATCHED: claims the first finding of FOUND not yet in
# MATCHED (line numbers) with this rule (any rule when RULE is -) and via at SYMBOL (NAME
# exactly, or NAME+*: anywhere inside NAME). Status 2 when SYMBOL is not in SYMS.
match() {
	local rule=$1 via=$2 symbol=$3 lo hi line
	read -r lo hi < <(awk -v n="${symbol%+\*}" '$1 == n { print $2, $3; exit }' "$4") || true
	[ -n "${lo:-}" ] || return 2
	[ "$symbol" != "${symbol%+\*}" ] || hi=$((lo + 1))
	line=$(awk -v r="$rule" -v v="$via" -v lo="$lo" -v hi="$hi" -v used=" $(tr '\n' ' ' < "$6")" '
	  index(used, " " NR " ") == 0 && (r == "-" || $1 == r) && $2 == v && $3 >= lo && $3 < hi {
		print NR; exit
	  }' "$5")
	[ -n "$line" ] || return 1
	echo "$line" >> "$6"
}

rows=$(grep -v '^[[:space:]]*\(#\|$\)' "$manifest" | tr -s ' \t' ' ')
used_rows=""
cd "$out"
for bin in $(ls | grep -v '\.\(own\|stripped\|syms\|found\|matched\|lost\|log\)$'); do
	symbols "$bin" > "$bin.syms"
	findings "$bin" > "$bin.found"
	problems="" loose=0
	: > "$bin.matched"
	: > "$bin.lost"
	while read -r pattern rule via symbol; do
		# shellcheck disable=SC2053 # the pattern is a glob on purpose
		[[ $bin == $pattern ]] || continue
		used_rows+="$pattern $rule $via $symbol"$'\n'
		case $rule in
		loose) loose=1 ;;
		stripped-loses) match - "$via" "$symbol" "$bin.syms" "$bin.found" "$bin.lost" ||
			problems+="stripped-loses row meets no finding: $via $symbol"$'\n' ;;
		*) match "$rule" "$via" "$symbol" "$bin.syms" "$bin.found" "$bin.matched" && continue
			if [ $? = 2 ]; then
				problems+="manifest symbol $symbol is not in the binary"$'\n'
			else
				problems+="missing: $rule $via $symbol"$'\n'
			fi ;;
		esac
	done <<< "$rows"
	n=0
	while read -r rule via addr symbol; do
		n=$((n + 1))
		names_address "$symbol" "$addr" "$bin.syms" ||
			problems+="misnamed: $rule $via $symbol is at 0x$(printf %x "$addr")"$'\n'
		grep -qx "$n" "$bin.matched" && continue
		# A static glibc binary: an extra finding outside the case's own code is libc's.
		if [ $loose = 1 ] && ! grep -qx "${symbol%+0x*}" "$bin.own"; then
			continue
		fi
		problems+="extra: $rule $via $symbol"$'\n'
	done < "$bin.found"
	report "$bin" "$problems"

	# The stripped twin: the same findings at the same addresses, but for those the
	# manifest says a stripped binary cannot show.
	twin=$bin.stripped
	symbols "$twin" -D > "$twin.syms"
	findings "$twin" > "$twin.found"
	problems=""
	while read -r rule via addr symbol; do
		names_address "$symbol" "$addr" "$twin.syms" ||
			problems+="misnamed: $rule $via $symbol is at 0x$(printf %x "$addr")"$'\n'
	done < "$twin.found"
	d=$({ diff <(awk -v lost=" $(tr "\n" " " < "$bin.lost")" \
			'index(lost, " " NR " ") == 0 { print $1, $2, $3 }' "$bin.found" | sort) <(cut -d" " -f1-3 "$twin.found" | sort) ||
		true; } | sed -n "s/^< /missing: /p; s/^> /extra: /p" |
		while read -r kind rule via addr; do printf "%s %s %s 0x%x\n" "$kind" "$rule" "$via" "$addr"; done)
	[ -z "$d" ] || problems+="$d"$'\n'
	report "$twin" "$problems"
done

# A manifest row no binary matched is a typo or a case the build no longer makes.
while read -r pattern rule via symbol; do
	grep -qxF "$pattern $rule $via $symbol" <<< "$used_rows" || {
		echo "FAIL manifest row matches no binary: $pattern $rule $via $symbol"
		failed=$((failed + 1))
	}
done <<< "$rows"
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
