#!/bin/bash
# elfcet mark on real Debian 12 binaries, one per layout (1: FEATURE_1_AND exists;
# 2: a note without it; 3: no note), ELF64 and ELF32. After each mark: readelf -n shows
# exactly the requested bits, eu-elflint --gnu-ld says nothing new, the program runs with
# the same output, strip and objcopy process it (and their output still runs and keeps
# the bits), elfcet audit reads the marking without problems, the bytes outside the change
# are identical (tests/mark-bytes-check.sh, from readelf's view), and marking again
# changes nothing.
#
# Debian 12's crt files have no ENDBR (_start, _init, _fini), so once the code audit is
# in, setting IBT on these binaries is refused: --force is used wherever a bit is set,
# since what is tested here is the layout, not the audit.
set -u
: "${ELFCET:?}" "${top_srcdir:?}"
export ELFCET_RULES_DIR="${ELFCET_RULES_DIR:-$top_srcdir/rules}"
for tool in readelf eu-elflint strip objcopy gcc jq cmp; do
	command -v $tool >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

check() { # DESCRIPTION COMMAND...: runs COMMAND, reports, counts failures
	local what=$1
	shift
	if "$@"; then
		echo "  ok: $what"
	else
		echo "  FAIL: $what"
		failures=$((failures + 1))
	fi
}

feature_bits() { # FILE: the "x86 feature:" text readelf -n prints, or "none"
	local t
	t=$(readelf -n "$1" | sed -n 's/.*x86 feature: //p' | head -n 1)
	echo "${t:-none}"
}

elflint() { # FILE: eu-elflint's report with the file name taken out
	eu-elflint --gnu-ld "$1" 2>&1 | sed "s|$1|FILE|g"
}

same_text() { [ "$1" = "$2" ] || { echo "    expected: $2"; echo "    got:      $1"; false; }; }

bits_value() { # "IBT, SHSTK" -> 3, "none" -> null
	case $1 in
	none) echo null ;;
	"IBT") echo 1 ;;
	"SHSTK") echo 2 ;;
	"IBT, SHSTK") echo 3 ;;
	esac
}

# exercise NAME LAYOUT EXPECTED_BITS "MARK OPTIONS" RUN...: marks $work/NAME in place;
# RUN is the command line (with @ for the binary) whose output must not change.
exercise() {
	local name=$1 layout=$2 want=$3 opts=$4
	shift 4
	local f=$work/$name before=$work/$name.before out
	local -a run=("$@")
	runit() { local bin=$1; "${run[@]/#@/$bin}" 2>&1; }

	echo "== $name: elfcet mark $opts (expect layout $layout, bits '$want')"
	cp -p "$f" "$before"
	local out_before lint_before
	out_before=$(runit "$before")
	lint_before=$(elflint "$before")
	# Some hosts' kernels cannot run i386 programs (no IA32 emulation): the run checks then
	# say so and are skipped; everything else about the file is still checked.
	local runs=yes
	if grep -q 'cannot execute binary file' <<<"$out_before"; then
		runs=
		echo "  skip: this host's kernel cannot run $name ($(readelf -h "$before" | awk '/Class:/ { print $2 }')): run checks skipped"
	fi
	runcheck() { if [ -n "$runs" ]; then check "$@"; fi; }
	# shellcheck disable=SC2086
	out=$("$ELFCET" mark $opts "$f" 2>"$work/stderr")
	check "mark exits 0" test $? -eq 0
	echo "    $out"
	sed 's/^/    stderr: /' "$work/stderr"
	check "layout $layout was used" grep -q "(layout $layout," <<<"$out"
	check "readelf -n shows exactly '$want'" same_text "$(feature_bits "$f")" "$want"
	check "eu-elflint --gnu-ld reports nothing new" same_text "$(elflint "$f")" "$lint_before"
	runcheck "the program runs with the same output" same_text "$(runit "$f")" "$out_before"
	check "no bytes changed outside the marking" bash "$top_srcdir/tests/mark-bytes-check.sh" \
		"$before" "$f"
	local json
	json=$("$ELFCET" audit --format=json --fail-on=never "$f")
	check "elfcet audit reads FEATURE_1_AND $(bits_value "$want")" same_text \
		"$(jq -c '.files[0].properties.feature_1_and' <<<"$json")" "$(bits_value "$want")"
	check "elfcet audit finds no marking problem" same_text \
		"$(jq -c '[.files[0].problems[].rule]' <<<"$json")" "[]"
	local tool
	for tool in strip objcopy; do
		rm -f "$f.$tool"
		if [ $tool = strip ]; then
			strip -o "$f.$tool" "$f" 2>"$work/tool.err"
		else
			objcopy "$f" "$f.$tool" 2>"$work/tool.err"
		fi
		check "$tool processes it without a word" same_text "$?:$(cat "$work/tool.err")" "0:"
		runcheck "$tool's output runs the same" same_text "$(runit "$f.$tool")" "$out_before"
		check "$tool's output keeps '$want'" same_text "$(feature_bits "$f.$tool")" "$want"
	done
	cp -p "$f" "$work/again"
	out=$("$ELFCET" mark $opts "$f" 2>/dev/null)
	check "marking again changes nothing ($out)" cmp -s "$f" "$work/again"
}

cat >"$work/hello.c" <<'EOF'
#include <stdio.h>
int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		printf("%d: %s\n", i, argv[i]);
	return 0;
}
EOF

# Layout 2: /usr/bin/ls carries only ISA_1_NEEDED.
cp /usr/bin/ls "$work/ls"
exercise ls 2 "IBT, SHSTK" "--ibt --shstk --force" @ -1 "$top_srcdir/scanner"

# Layout 1: linked with -z ibt -z shstk; bits cleared, set again, then all cleared
# (the property goes, ISA_1_NEEDED stays).
gcc -O2 -fcf-protection -Wl,-z,ibt,-z,shstk -o "$work/cet" "$work/hello.c"
exercise cet 1 "IBT" "--no-shstk" @ one two
exercise cet 1 "IBT, SHSTK" "--shstk --force" @ one two
exercise cet 1 "none" "--no-ibt --no-shstk" @ one two
check "ISA_1_NEEDED survives the dropped property" grep -q "x86 ISA needed" \
	<(readelf -n "$work/cet")

# Layout 2 without separate code: text and headers share the first segment.
gcc -O2 -fcf-protection -Wl,-z,noseparate-code -o "$work/nosep" "$work/hello.c"
exercise nosep 2 "IBT" "--ibt --force" @ a b c

# Layout 2 in a static executable (the kernel reads its note itself) and a non-PIE one.
gcc -O2 -static -o "$work/static" "$work/hello.c"
exercise static 2 "IBT, SHSTK" "--ibt --shstk --force" @ s t
gcc -O2 -no-pie -o "$work/nopie" "$work/hello.c"
exercise nopie 2 "SHSTK" "--shstk --force" @ u

# Layout 3: the note removed by objcopy (which leaves empty note headers behind).
objcopy --remove-section .note.gnu.property /usr/bin/ls "$work/ls-nonote"
exercise ls-nonote 3 "IBT, SHSTK" "--ibt --shstk --force" @ -1 "$top_srcdir/scanner"

# Layout 3 in a shared library: Debian 12's libuuid has no note and no spare program
# header; what follows the table (build-id note, GNU hash table) moves so that the table
# can grow where binutils expects it. dlsym goes through the moved hash table.
cat >"$work/dlcall.c" <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	unsigned char zero[16] = { 0 };
	void *lib = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
	int (*is_null)(const unsigned char *) =
		lib ? (int (*)(const unsigned char *))dlsym(lib, "uuid_is_null") : NULL;

	if (!is_null) {
		printf("cannot load: %s\n", dlerror());
		return 1;
	}
	printf("uuid_is_null(zero) = %d\n", is_null(zero));
	return 0;
}
EOF
lib=$(ls /usr/lib/x86_64-linux-gnu/libuuid.so.1.* 2>/dev/null | head -n 1)
if [ -n "$lib" ] && gcc -O2 -o "$work/dlcall" "$work/dlcall.c" -ldl; then
	cp "$lib" "$work/libuuid.so"
	exercise libuuid.so 3 "IBT, SHSTK" "--ibt --shstk --force" "$work/dlcall" @
else
	echo "  FAIL: no libuuid.so.1 (util-linux) or no compiler"
	failures=$((failures + 1))
fi

# ELF32 i386: Debian's -m32 output has no property note at all (layout 3).
if gcc -m32 -O2 -fcf-protection -o "$work/hello32" "$work/hello.c" 2>/dev/null; then
	exercise hello32 3 "IBT" "--ibt --force" @ x y
	# i386 linked with -z ibt: one PT_NOTE holds the ABI tag and the property note.
	# Clearing IBT removes the only property: the note goes, that PT_NOTE is cut.
	gcc -m32 -O2 -fcf-protection -Wl,-z,ibt -o "$work/ibt32" "$work/hello.c"
	exercise ibt32 1 "none" "--no-ibt" @ z
	exercise ibt32 3 "IBT" "--ibt --force" @ z
	gcc -m32 -O2 -static -o "$work/static32" "$work/hello.c"
	exercise static32 3 "IBT" "--ibt --force" @ w
else
	echo "  FAIL: gcc -m32 cannot build (gcc-multilib missing?)"
	failures=$((failures + 1))
fi

echo "mark-layouts: $failures failure(s)"
[ $failures -eq 0 ]
