#!/bin/bash
# mark-bytes-check.sh ORIGINAL MARKED: fails when a byte of ORIGINAL differs in MARKED
# outside what a change of marking may touch. The allowed ranges come from readelf, not
# from elfcet: the ELF header; the old and new program header tables; the old and new
# section header tables; the old and new property note (PT_GNU_PROPERTY, the
# .note.gnu.property section); the new PT_PHDR; and anything past the original's end.
set -u
orig=$1 new=$2

ranges() { # FILE: "start end" lines (hex or decimal, converted by awk below)
	local f=$1
	readelf -hW "$f" | awk -F: '
		/Size of this header/ { eh=$2+0 }
		/Start of program headers/ { ph=$2+0 } /Size of program headers/ { phs=$2+0 }
		/Number of program headers/ { phn=$2+0 }
		/Start of section headers/ { sh=$2+0 } /Size of section headers/ { shs=$2+0 }
		/Number of section headers/ { shn=$2+0 }
		END { print 0, eh; print ph, ph + phs * phn; print sh, sh + shs * shn }'
	# Offsets and sizes are hex: bash converts them (mawk has no strtonum).
	readelf -lW "$f" | awk '$1 == "GNU_PROPERTY" || $1 == "PHDR" || $1 == "NOTE" {
		print $2, $5 }' | while read -r off sz; do echo $((off)) $((off + sz)); done
	readelf -SW "$f" | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".note.gnu.property" {
		print $4, $5 }' | while read -r off sz; do echo $((16#$off)) $((16#$off + 16#$sz)); done
}

loads() { # FILE: "offset end" of each PT_LOAD
	readelf -lW "$1" | awk '$1 == "LOAD" { print $2, $5 }' |
		while read -r off sz; do echo $((off)) $((off + sz)); done
}

# A PT_LOAD that grew over the padding after it: the bytes it gained may be new.
grown=$(join <(loads "$orig" | sort) <(loads "$new" | sort) | awk '$3 > $2 { print $2, $3 }')
# Sections that moved (to let the program header table grow): the symbol table entries
# of symbols defined in them may change (their values follow).
sections() { readelf -SW "$1" | sed -n 's/^ *\[ *\([0-9]*\)\] *\([^ ]*\) *[A-Z_]* *[0-9a-f]* \([0-9a-f]*\).*/\1 \2 \3/p'; }
moved=$(join -j 2 <(sections "$orig" | sort -k 2) <(sections "$new" | sort -k 2) |
	awk '$3 != $5 { print $2 }')
symentries=$(for tab in .symtab .dynsym; do
	read -r off entsize < <(readelf -SW "$orig" | sed 's/^ *\[ *[0-9]*\]//' |
		awk -v t=$tab '$1 == t { print $4, $6 }')
	[ -n "${off:-}" ] || continue
	readelf -sW "$orig" | awk -v t="'$tab'" -v moved=" $(echo $moved) " '
		/^Symbol table/ { cur = $3 }
		cur == t && $1 ~ /^[0-9]+:$/ && index(moved, " " $7 " ") { print $1 + 0 }' |
	while read -r n; do
		echo $((16#$off + n * 16#$entsize)) $((16#$off + (n + 1) * 16#$entsize))
	done
done)
# Dynamic entries that changed (the address of a hash table that moved along).
dynentries=$(read -r off entsize < <(readelf -SW "$orig" | sed 's/^ *\[ *[0-9]*\]//' |
		awk '$1 == ".dynamic" { print $4, $6 }')
	[ -n "${off:-}" ] &&
	paste -d '|' <(readelf -dW "$orig" | grep '^ *0x') <(readelf -dW "$new" | grep '^ *0x') |
	awk -F'|' '$1 != $2 { print NR - 1 }' | while read -r n; do
		echo $((16#$off + n * 16#$entsize)) $((16#$off + (n + 1) * 16#$entsize))
	done)
allowed=$( { ranges "$orig"; ranges "$new"; echo "$grown"; echo "$symentries"; echo "$dynentries"; } )
size=$(stat -c %s "$orig")
# cmp -l prints 1-based offsets of differing bytes; "EOF" when one file is longer.
cmp -l "$orig" "$new" 2>/dev/null | awk -v size="$size" -v allowed="$allowed" '
	BEGIN { n = split(allowed, a, "\n"); for (i = 1; i <= n; i++) { split(a[i], r, " ");
		lo[i] = r[1]; hi[i] = r[2] } }
	{ off = $1 - 1; changed++
	  if (off >= size) next
	  for (i = 1; i <= n; i++) if (off >= lo[i] && off < hi[i]) next
	  bad++; if (bad <= 5) printf "  byte 0x%x changed outside the allowed ranges\n", off }
	END { printf "  %d byte(s) of the original changed, %d outside the allowed ranges\n",
		changed, bad; exit bad > 0 }'
