#!/usr/bin/env bash
# elfcet mark keeps in place whatever the kernel, ld.so or the program itself reads
# (issue 35), or refuses (exit 1, one line, file untouched):
# - payload-carrying programs (tests/mark_payload_prog.c), built by gcc -m64 and -m32,
#   with and without a note: the bytes after the ELF image are found from the end of
#   the file (deno compile, Bun, pkg, self-extracting archives) and from the end of the
#   section header table (AppImage's runtime); marked, the program must still find them;
# - an i386 PT_NOTE whose p_memsz (0x80000000) differs from its p_filesz: ld.so walks
#   the notes by p_memsz, so they may not be moved or cut (SIGSEGV at start);
# - a copy of /usr/bin/true whose DT_PLTRELSZ reaches past .rela.plt into the zero
#   padding the note would go to: ld.so would apply the note's bytes as relocations;
# - a PT_NOTE whose p_vaddr maps other notes than its p_offset holds: ld.so reads memory.
# Each original runs; each result of mark either runs the same or was refused.
. "$(dirname "$0")/mark-prologue.sh"
: "${top_builddir:?}"
hostile=$top_builddir/tests/elf-hostile

# with_payload PROG OUT: PROG, then the payload and the trailer mark_payload_prog reads.
with_payload() {
	local size
	size=$(stat -c %s "$1")
	{
		cat "$1"
		perl -e 'print "PAYLOAD!", map(chr(($_ * 13 + 7) & 255), 0 .. 999),
			"TRAILER!", pack("Q<Q<", $ARGV[0] + 8, 1000)' "$size"
	} >"$2"
	chmod 0755 "$2"
}

runs() { # FILE [ENV...]: the program's exit status (its own and AppImage's ways)
	local f=$1 a b
	shift
	env "$@" "$f" >/dev/null 2>&1
	a=$?
	env "$@" "$f" appimage >/dev/null 2>&1
	b=$?
	echo "$a/$b"
}

# marks NAME FILE EXPECT [ENV...]: the original runs ("0/0", or "0" for the exit status
# alone when EXPECT says so); mark --force --ibt --shstk either refuses (exit 1, one line
# naming the file, untouched) or marks it, and then the result must run the same.
# EXPECT: marked, refused or either.
marks() {
	local name=$1 f=$2 expect=$3 status before after
	shift 3
	echo "== $name"
	before=$(runs "$f" "$@")
	check "the original runs ($before)" test "$before" = 0/0 -o "$before" = 0/1
	cp "$f" "$work/try"
	"$ELFCET" mark --force --ibt --shstk "$work/try" >"$work/out" 2>"$work/err"
	status=$?
	grep -v '^  \|despite the audit' "$work/err" | sed 's/^/    stderr: /'
	if [ "$status" -eq 0 ]; then
		after=$(runs "$work/try" "$@")
		check "marked; the result runs the same ($after)" test "$after" = "$before"
		check "marked; readelf shows IBT" grep -q 'IBT' <(readelf -n "$work/try")
		check "expected $expect, got marked" test "$expect" != refused
	else
		check "refused with exit 1 (got $status)" test "$status" -eq 1
		check "one line on stderr naming the file" \
			test "$(grep -c "^elfcet mark: $work/try: refused: " "$work/err")" -eq 1
		check "the file is untouched" cmp -s "$f" "$work/try"
		check "expected $expect, got refused" test "$expect" != marked
	fi
}

src=$top_srcdir/tests/mark_payload_prog.c
gcc -O2 "$src" -o "$work/p64" || exit 99
gcc -O2 -fcf-protection "$src" -o "$work/p64cet"
gcc -O2 "$src" -o "$work/p64nonote"
objcopy --remove-section .note.gnu.property "$work/p64nonote"
gcc -m32 -O2 "$src" -o "$work/p32" || exit 99
gcc -m32 -O2 -fcf-protection "$src" -o "$work/p32cet"
for p in p64 p64cet p64nonote p32 p32cet; do
	with_payload "$work/$p" "$work/$p.payload"
done
# The note changes in place: nothing moves, the payload stays at the end.
marks "x86-64, -fcf-protection, payload" "$work/p64cet.payload" marked
# The note grows into the padding after a segment: nothing moves either.
marks "x86-64, payload" "$work/p64.payload" either
# A note and a section header must be added: the section header table would move to the
# end of the file, after the payload.
marks "x86-64, no note, payload" "$work/p64nonote.payload" refused
# i386: no room in the padding; a new PT_LOAD would go after the payload.
marks "i386, payload" "$work/p32.payload" refused
marks "i386, -fcf-protection, payload" "$work/p32cet.payload" refused
# Without a payload the same programs mark (the refusals above are the payload's).
for p in p64nonote p32; do
	cp "$work/$p" "$work/$p.plain"
	"$ELFCET" mark --force --ibt --shstk "$work/$p.plain" >/dev/null 2>&1
	check "$p without a payload marks (exit $?)" test $? -eq 0
done

# An i386 PT_NOTE read by p_memsz 0x80000000.
printf 'int main(void) { return 0; }\n' >"$work/h.c"
gcc -m32 -O2 "$work/h.c" -o "$work/h32"
"$hostile" set-phdr 4 memsz 0x80000000 "$work/h32" "$work/note-memsz"
marks "i386 PT_NOTE with p_memsz 0x80000000" "$work/note-memsz" either

# The property note's PT_NOTE mapped (p_vaddr) over the build-id notes: ld.so reads those
# and no marking, so the note must be given a PT_NOTE it reads. The plan once took the
# note for read where it lies in the file, changed it there, and mark's check of the
# result refused the file.
gcc -O2 -fcf-protection -Wl,-z,shstk "$work/h.c" -o "$work/h64"
prop=$(readelf -lW "$work/h64" | awk '$1 == "GNU_PROPERTY" { print $2 }')
check "the first PT_NOTE holds the property note" \
	test "$(readelf -lW "$work/h64" | awk '$1 == "NOTE" { print $2; exit }')" = "$prop"
ids=$(readelf -lW "$work/h64" | awk -v p="$prop" '$1 == "NOTE" && $2 != p { print $3; exit }')
"$hostile" set-phdr 4 vaddr "$ids" "$work/h64" "$work/note-vaddr"
marks "x86-64 PT_NOTE mapped over other notes" "$work/note-vaddr" marked
if ! cmp -s "$work/note-vaddr" "$work/try"; then
	read -r noff nva < <(readelf -lW "$work/try" | awk '$1 == "NOTE" && $NF == "0x8" { print $2, $3; exit }')
	poff=$(readelf -lW "$work/try" | awk '$1 == "GNU_PROPERTY" { print $2 }')
	check "marked; ld.so's PT_NOTE maps the note (offset $noff, address $nva; note at $poff)" \
		test "$((noff))" -eq "$((poff))" -a "$((nva))" -eq "$((poff))"
fi

# DT_PLTRELSZ two entries past .rela.plt, into the padding after the segment, on a copy
# of /usr/bin/true (lazy binding rejects the zero entries: run with LD_BIND_NOW=1).
size=$(readelf -d /usr/bin/true | awk '/\(PLTRELSZ\)/ { print $3 }')
"$hostile" set-dyn 2 $((size + 48)) /usr/bin/true "$work/pltrelsz"
marks "true, DT_PLTRELSZ into the padding" "$work/pltrelsz" either LD_BIND_NOW=1
exit $fail
