#!/usr/bin/env bash
# elfcet audit on hostile and unusual .deb files (issue 35, issue 34's ".deb input"), each
# package made here from a small tree: dpkg-deb --build where it can, else tar and ar by
# hand as dpkg-deb would lay them out (debian-binary, control.tar.gz, data.tar[.EXT]).
#   - a package without ELF files is an empty, valid report in every format;
#   - member names are bytes, whatever the locale (pax names in UTF-8 and not);
#   - only dpkg's compressions, decoded in process: never an external program;
#   - bounded: a sparse multi-GiB ELF member, the caps on unpacked bytes, members and
#     one ELF member's data (a large member that is not zeros),
#     JSON Lines streamed for a package of many members;
#   - separate debug files are not-applicable; errors name the package and the member.
set -uo pipefail
elfcet=${ELFCET:-$PWD/elfcet/elfcet}
hostile=${top_builddir:-.}/tests/elf-hostile
for tool in jq dpkg-deb ar tar xz zstd bzip2 lzma objcopy python3; do
	command -v "$tool" >/dev/null || { echo "SKIP: deb-hostile: no $tool"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-deb-hostile.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
pass() { echo "PASS: deb-hostile: $*"; }
failed() { echo "FAIL: deb-hostile: $*"; fail=1; }
rss_limit=$((200 * 1024))                                  # KB
[ -z "${ELFCET_SANITIZED:-}" ] || rss_limit=$((800 * 1024))  # ASan's shadow and arenas

# A sanitizer's report (a leak, UB) fails whatever test it appears in.
sanitizer_clean() { # STDERR-FILE
	! grep -q 'Sanitizer' "$1"
}

# make_deb OUT.deb NAME TREE COMPRESSION [tar option...]: a package as dpkg-deb lays it
# out, with the data archive written by GNU tar with the options given (sparse members,
# pax headers) and compressed as asked: none gz xz zst bz2 lzma, or a file whose bytes
# are the data member ("raw:FILE:MEMBER-NAME").
make_deb() {
	local out=$1 name=$2 tree=$3 comp=$4 d member
	shift 4
	d=$(mktemp -d "$work/build.XXXXXX")
	printf '2.0\n' >"$d/debian-binary"
	mkdir "$d/control"
	printf 'Package: %s\nVersion: 1.0-1\nArchitecture: amd64\nDescription: test\n' "$name" \
		>"$d/control/control"
	tar --format=gnu --owner=0 --group=0 -czf "$d/control.tar.gz" -C "$d/control" ./control
	case $comp in
	raw:*)
		member=${comp##*:}
		cp "$(cut -d: -f2 <<<"$comp")" "$d/$member"
		;;
	*)
		tar "$@" --owner=0 --group=0 -cf "$d/data.tar" -C "$tree" .
		member=data.tar
		case $comp in
		none) ;;
		gz) gzip -n "$d/data.tar"; member=data.tar.gz ;;
		xz) xz "$d/data.tar"; member=data.tar.xz ;;
		zst) zstd -q --rm "$d/data.tar"; member=data.tar.zst ;;
		bz2) bzip2 "$d/data.tar"; member=data.tar.bz2 ;;
		lzma) lzma "$d/data.tar"; member=data.tar.lzma ;;
		esac
		;;
	esac
	rm -f "$out"
	(cd "$d" && ar rc "$out" debian-binary control.tar.gz "$member")
	rm -rf "$d"
}

printf 'int main(void) { return 0; }\n' >"$work/h.c"
gcc -O2 "$work/h.c" -o "$work/prog" || { echo "SKIP: deb-hostile: no gcc"; exit 77; }

# 1. No ELF file in the package (every arch:all and headers-only -dev package).
mkdir -p "$work/noelf/DEBIAN" "$work/noelf/usr/share/doc/noelf"
printf 'Package: noelf\nVersion: 2.0-1\nArchitecture: all\nMaintainer: nobody\nDescription: test\n' \
	>"$work/noelf/DEBIAN/control"
echo 'just text' >"$work/noelf/usr/share/doc/noelf/README"
dpkg-deb --root-owner-group -Zxz --build "$work/noelf" "$work/noelf_2.0-1_all.deb" >/dev/null
debs_noelf=("$work/noelf_2.0-1_all.deb")
# A real arch:all package of this machine, when apt's cache holds one.
real=$(ls /var/cache/apt/archives/*_all.deb 2>/dev/null | head -n 1)
[ -n "$real" ] && debs_noelf+=("$real")
for deb in "${debs_noelf[@]}"; do
	base=$(basename "$deb")
	"$elfcet" audit "$deb" >"$work/t.out" 2>"$work/t.err"
	rc=$?
	if [ "$rc" -eq 0 ] && [ ! -s "$work/t.out" ] && grep -q '^elfcet: 0 audited' "$work/t.err" &&
		sanitizer_clean "$work/t.err"; then
		pass "$base, text: nothing reported, 0 audited, exit 0"
	else
		failed "$base, text: exit $rc, $(head -c 300 "$work/t.out" "$work/t.err")"
	fi
	"$elfcet" audit --format=json "$deb" >"$work/t.json" 2>"$work/t.err"
	rc=$?
	if [ "$rc" -eq 0 ] && jq -e '(.files | length) == 0 and .summary.audited == 0' \
		"$work/t.json" >/dev/null && sanitizer_clean "$work/t.err"; then
		pass "$base, JSON: no file, 0 audited"
	else
		failed "$base, JSON: exit $rc, $(head -c 300 "$work/t.json")"
	fi
	"$elfcet" audit --format=jsonl "$deb" >"$work/t.jsonl" 2>"$work/t.err"
	rc=$?
	"$elfcet" report "$work/t.jsonl" >"$work/r.out" 2>"$work/r.err"
	rrc=$?
	if [ "$rc" -eq 0 ] && [ ! -s "$work/t.jsonl" ] && [ "$rrc" -eq 0 ] &&
		grep -q '0 audited' "$work/r.out" "$work/r.err" && sanitizer_clean "$work/t.err"; then
		pass "$base, JSON Lines: no record; elfcet report accepts it (0 audited)"
	else
		failed "$base, JSON Lines: exit $rc, report exit $rrc: $(head -c 300 "$work/t.jsonl" "$work/r.err")"
	fi
	"$elfcet" audit --format=sarif "$deb" >"$work/t.sarif" 2>"$work/t.err"
	rc=$?
	if [ "$rc" -eq 0 ] && jq -e '[.runs[].results[]?] | length == 0' "$work/t.sarif" >/dev/null &&
		! grep -q null "$work/t.sarif"; then
		pass "$base, SARIF: no result, no null"
	else
		failed "$base, SARIF: exit $rc"
	fi
done

# 2. Names as bytes: pax names in UTF-8 (café) and not (\xff\xfe) before other members,
# read the same whatever the locale.
mkdir -p "$work/names/usr/lib/café" "$work/names/usr/lib/bad"$'\xff\xfe' "$work/names/usr/share/zz"
cp "$work/prog" "$work/names/usr/lib/café/prog"
cp "$work/prog" "$work/names/usr/lib/bad"$'\xff\xfe'"/prog"
cp "$work/prog" "$work/names/usr/share/zz/last"
make_deb "$work/names_1.0-1_amd64.deb" names "$work/names" xz --format=pax --sort=name
for locale in C C.UTF-8; do
	LC_ALL=$locale LANG=$locale "$elfcet" audit --format=jsonl "$work/names_1.0-1_amd64.deb" \
		>"$work/n.jsonl" 2>"$work/n.err"
	rc=$?
	n=$(jq -r .path "$work/n.jsonl" | grep -c '/prog$\|/last$')
	if [ "$rc" -le 1 ] && [ "$n" -eq 3 ] && grep -q '"/usr/lib/café/prog"' "$work/n.jsonl" &&
		grep -q '"/usr/share/zz/last"' "$work/n.jsonl" && sanitizer_clean "$work/n.err"; then
		pass "LC_ALL=$locale: pax names café and \\xff\\xfe, and the member after them, audited"
	else
		failed "LC_ALL=$locale: exit $rc, $n of 3 audited: $(head -n 2 "$work/n.err")"
	fi
done

# 3. dpkg's compressions, each decoded in process.
mkdir -p "$work/one/usr/bin"
cp "$work/prog" "$work/one/usr/bin/prog"
for comp in none gz xz zst bz2 lzma; do
	make_deb "$work/c-$comp.deb" "c-$comp" "$work/one" "$comp" --format=gnu
	"$elfcet" audit --format=jsonl "$work/c-$comp.deb" >"$work/c.jsonl" 2>"$work/c.err"
	rc=$?
	if [ "$rc" -le 1 ] && [ "$(jq -r .path "$work/c.jsonl")" = /usr/bin/prog ]; then
		pass "data.tar compressed with $comp: /usr/bin/prog audited"
	else
		failed "data.tar compressed with $comp: exit $rc, $(head -n 2 "$work/c.err")"
	fi
done
# ... and nothing else, never by an external program found on PATH: lzop, lrzip and
# grzip here only leave a mark that they ran.
mkdir "$work/bin"
for p in lzop lrzip grzip; do
	printf '#!/bin/sh\ntouch "%s/ran-%s"\ncat >/dev/null\n' "$work" "$p" >"$work/bin/$p"
	chmod +x "$work/bin/$p"
done
printf '\211LZO\000\r\n\032\n\020\060\040\240\011\100\001\005\003\000\000' >"$work/lzo-bytes"
head -c 4096 /dev/urandom >>"$work/lzo-bytes"
{ printf 'LRZI\000\006'; head -c 4096 /dev/urandom; } >"$work/lrz-bytes"
for case in lzo-bytes:data.tar.lzo lzo-bytes:data.tar lzo-bytes:data.tar.gz \
	lrz-bytes:data.tar.lrz lrz-bytes:data.tar; do
	file=${case%%:*} member=${case##*:}
	make_deb "$work/x_1.0-1_amd64.deb" x "" "raw:$work/$file:$member"
	rm -f "$work"/ran-*
	PATH="$work/bin:$PATH" "$elfcet" audit -q "$work/x_1.0-1_amd64.deb" >"$work/x.out" 2>"$work/x.err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$work/x.err")" -eq 1 ] &&
		grep -q "x_1.0-1_amd64.deb: .*$member" "$work/x.err" && ! ls "$work"/ran-* >/dev/null 2>&1; then
		pass "$member holding $file: refused, no program run: $(cat "$work/x.err")"
	else
		failed "$member holding $file: exit $rc, ran: $(ls "$work" | grep ran-), stderr: $(head -n 2 "$work/x.err")"
	fi
done

# 4. Bounded. A 640-byte-ish package holding a 3 GiB sparse member that is a valid
# program: read as the holes it has, in bounded memory.
mkdir -p "$work/sparse/usr/bin"
cp "$work/prog" "$work/sparse/usr/bin/big"
truncate -s 3G "$work/sparse/usr/bin/big"
make_deb "$work/sparse_1.0-1_amd64.deb" sparse "$work/sparse" xz --format=gnu --sparse
rm -f "$work/sparse/usr/bin/big"
/usr/bin/time -f %M -o "$work/rss" timeout 300 "$elfcet" audit --format=jsonl \
	"$work/sparse_1.0-1_amd64.deb" >"$work/s.jsonl" 2>"$work/s.err"
rc=$?
rss=$(tail -n 1 "$work/rss")
if [ "$rc" -le 1 ] && [ "$rss" -le "$rss_limit" ] && [ "$(jq -r .path "$work/s.jsonl")" = /usr/bin/big ]; then
	pass "3 GiB sparse program in a $(stat -c %s "$work/sparse_1.0-1_amd64.deb")-byte package: audited, peak RSS $((rss / 1024)) MB"
else
	failed "3 GiB sparse member: exit $rc, peak RSS $((rss / 1024)) MB (limit $((rss_limit / 1024))), $(head -n 2 "$work/s.err")"
fi

# The cap on unpacked bytes: a member larger than what is left is refused before it is
# read, naming the package, the member and the cap; the default lets it through.
mkdir -p "$work/zeros/usr/share/z"
truncate -s 300M "$work/zeros/usr/share/z/zeros"
cp "$work/prog" "$work/zeros/usr/share/z/prog"
make_deb "$work/zeros_1.0-1_amd64.deb" zeros "$work/zeros" zst --format=gnu --sort=name
rm -rf "$work/zeros"
"$elfcet" audit -q --max-unpacked=64M "$work/zeros_1.0-1_amd64.deb" >"$work/z.out" 2>"$work/z.err"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$work/z.err")" -eq 1 ] &&
	grep -q 'zeros_1.0-1_amd64.deb: .*usr/share/z/zeros.*--max-unpacked' "$work/z.err"; then
	pass "--max-unpacked=64M: $(cat "$work/z.err")"
else
	failed "--max-unpacked=64M: exit $rc, $(head -n 2 "$work/z.err")"
fi
"$elfcet" audit -q --format=jsonl "$work/zeros_1.0-1_amd64.deb" >"$work/z.jsonl" 2>"$work/z.err"
rc=$?
if [ "$rc" -le 1 ] && [ "$(jq -r .path "$work/z.jsonl")" = /usr/share/z/prog ]; then
	pass "the default cap reads the 300 MB member through to the program after it"
else
	failed "default cap: exit $rc, $(head -n 2 "$work/z.err")"
fi
# 2 GiB of zeros in data.tar.xz, a member before the program: a package of a few hundred
# KB whose time is the decompression's alone (about 2 s of CPU per GiB here; the default
# --max-unpacked bounds it). The xz stream is 32 concatenated streams of 64 MiB of zeros,
# written here in a second. Timings are printed, not asserted; a lower cap refuses the
# member before reading it.
python3 - "$work/zeros2g.tar.xz" "$work/prog" <<'EOF'
import lzma, sys, tarfile
out, prog = sys.argv[1], open(sys.argv[2], "rb").read()
chunk = 64 << 20
zeros = tarfile.TarInfo("./usr/share/z/zeros")
zeros.size = 32 * chunk
after = tarfile.TarInfo("./usr/bin/prog")
after.size = len(prog)
with open(out, "wb") as f:
    f.write(lzma.compress(zeros.tobuf(format=tarfile.GNU_FORMAT)))
    block = lzma.compress(bytes(chunk), preset=0)
    for _ in range(32):
        f.write(block)
    f.write(lzma.compress(after.tobuf(format=tarfile.GNU_FORMAT) + prog +
                          bytes(-len(prog) % 512 + 1024)))
EOF
make_deb "$work/zeros2g_1.0-1_amd64.deb" zeros2g "" "raw:$work/zeros2g.tar.xz:data.tar.xz"
rm -f "$work/zeros2g.tar.xz"
size=$(stat -c %s "$work/zeros2g_1.0-1_amd64.deb")
/usr/bin/time -f '%e %U %M' -o "$work/time" "$elfcet" audit -q --format=jsonl \
	"$work/zeros2g_1.0-1_amd64.deb" >"$work/z.jsonl" 2>"$work/z.err"
rc=$?
read -r wall cpu rss < <(tail -n 1 "$work/time") # (time adds a line on exit 1)
if [ "$rc" -le 1 ] && [ "$(jq -r .path "$work/z.jsonl")" = /usr/bin/prog ] && [ "$rss" -le "$rss_limit" ] &&
	sanitizer_clean "$work/z.err"; then
	pass "2 GiB of zeros in a $size-byte data.tar.xz: read through to the program after them in ${wall} s (${cpu} s CPU), peak RSS $((rss / 1024)) MB"
else
	failed "2 GiB of zeros in data.tar.xz: exit $rc, ${wall} s, peak RSS $((rss / 1024)) MB, $(head -n 2 "$work/z.err")"
fi
/usr/bin/time -f '%e' -o "$work/time" "$elfcet" audit -q --max-unpacked=1G \
	"$work/zeros2g_1.0-1_amd64.deb" >/dev/null 2>"$work/z.err"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$work/z.err")" -eq 1 ] &&
	grep -q 'zeros2g_1.0-1_amd64.deb: .*usr/share/z/zeros: 2147483648 bytes.*--max-unpacked' "$work/z.err"; then
	pass "--max-unpacked=1G refuses the 2 GiB member in $(tail -n 1 "$work/time") s: $(cat "$work/z.err")"
else
	failed "--max-unpacked=1G on 2 GiB of zeros: exit $rc, $(head -n 2 "$work/z.err")"
fi
rm -f "$work/zeros2g_1.0-1_amd64.deb"

# The zeros inside an ELF member: a program followed by 1 GiB of zeros (data after the
# image, as a payload or a zero-filled section would be), in a 160 KB data.tar.xz. The
# member is laid into memory to be audited; its runs of zeros must cost no memory, as
# the holes of a sparse member do (they took 1 GB).
python3 - "$work/zrun.tar.xz" "$work/prog" <<'EOF'
import lzma, sys, tarfile
out, prog = sys.argv[1], open(sys.argv[2], "rb").read()
chunk = 64 << 20
member = tarfile.TarInfo("./usr/bin/zrun")
member.size = len(prog) + 16 * chunk
with open(out, "wb") as f:
    f.write(lzma.compress(member.tobuf(format=tarfile.GNU_FORMAT) + prog))
    block = lzma.compress(bytes(chunk), preset=0)
    for _ in range(16):
        f.write(block)
    f.write(lzma.compress(bytes(-member.size % 512 + 1024)))
EOF
make_deb "$work/zrun_1.0-1_amd64.deb" zrun "" "raw:$work/zrun.tar.xz:data.tar.xz"
rm -f "$work/zrun.tar.xz"
/usr/bin/time -f '%e %U %M' -o "$work/time" "$elfcet" audit -q --fail-on=never --format=jsonl \
	"$work/zrun_1.0-1_amd64.deb" >"$work/z.jsonl" 2>"$work/z.err"
rc=$?
read -r wall cpu rss < <(tail -n 1 "$work/time")
if [ "$rc" -eq 0 ] && [ "$(jq -r .path "$work/z.jsonl")" = /usr/bin/zrun ] && [ "$rss" -le "$rss_limit" ] &&
	sanitizer_clean "$work/z.err"; then
	pass "a program and 1 GiB of zeros in one member: audited in ${wall} s (${cpu} s CPU), peak RSS $((rss / 1024)) MB"
else
	failed "a program and 1 GiB of zeros in one member: exit $rc, peak RSS $((rss / 1024)) MB (limit $((rss_limit / 1024))), ${wall} s, $(head -n 2 "$work/z.err")"
fi
rm -f "$work/zrun_1.0-1_amd64.deb"

# An ELF member that is large and not zeros: the magic, then 2 GiB and 64 KiB of 'A'
# (what a file of real code or data would be), a program after it, in a data.tar.zst of
# a few hundred KB written here as a stream. It was laid into memory whole (2 GB peak
# RSS); over --max-elf-size (default 2G) it is named, not read, and the package's other
# files are audited.
python3 - "$work/prog" <<'EOF2' | zstd -q -1 -T1 -o "$work/huge.tar.zst"
import sys, tarfile
prog, chunk = open(sys.argv[1], "rb").read(), 64 << 20
out = sys.stdout.buffer
huge = tarfile.TarInfo("./usr/bin/huge")
huge.size = 32 * chunk + 65536
out.write(huge.tobuf(format=tarfile.GNU_FORMAT))
out.write(b"\x7fELF" + b"A" * (chunk - 4))
block = b"A" * chunk
for _ in range(31):
    out.write(block)
out.write(b"A" * 65536)
after = tarfile.TarInfo("./usr/bin/prog")
after.size = len(prog)
out.write(after.tobuf(format=tarfile.GNU_FORMAT) + prog + bytes(-len(prog) % 512 + 1024))
EOF2
make_deb "$work/huge_1.0-1_amd64.deb" huge "" "raw:$work/huge.tar.zst:data.tar.zst"
rm -f "$work/huge.tar.zst"
size=$(stat -c %s "$work/huge_1.0-1_amd64.deb")
/usr/bin/time -f '%e %U %M' -o "$work/time" timeout 300 "$elfcet" audit -q --fail-on=never \
	--format=jsonl "$work/huge_1.0-1_amd64.deb" >"$work/h.jsonl" 2>"$work/h.err"
rc=$?
read -r wall cpu rss < <(tail -n 1 "$work/time")
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$work/h.err")" -eq 1 ] &&
	grep -q '^elfcet: .*huge_1.0-1_amd64.deb: /usr/bin/huge: an ELF file of 2147549184 bytes of data, more than 2147483648 (--max-elf-size): not audited$' "$work/h.err" &&
	[ "$(jq -r 'select(.verdicts) | .path' "$work/h.jsonl")" = /usr/bin/prog ] &&
	[ "$rss" -le "$rss_limit" ]; then
	pass "2 GiB of 'A' after the ELF magic in a $size-byte package: refused, the program after it audited, ${wall} s (${cpu} s CPU), peak RSS $((rss / 1024)) MB: $(cat "$work/h.err")"
else
	failed "2 GiB of 'A' after the ELF magic: exit $rc, peak RSS $((rss / 1024)) MB (limit $((rss_limit / 1024))), ${wall} s, $(head -c 300 "$work/h.err")"
fi
rm -f "$work/huge_1.0-1_amd64.deb"
# A lower cap: a 16 KB program over --max-elf-size=4K is refused, in text and JSON.
"$elfcet" audit -q --max-elf-size=4K "$work/c-zst.deb" >"$work/l.out" 2>"$work/l.err"
rc=$?
"$elfcet" audit -q --max-elf-size=4K --format=json "$work/c-zst.deb" >"$work/l.json" 2>/dev/null
jrc=$?
if [ "$rc" -eq 2 ] && [ ! -s "$work/l.out" ] && [ "$(wc -l <"$work/l.err")" -eq 1 ] &&
	grep -q 'c-zst.deb: /usr/bin/prog: an ELF file of [0-9]* bytes of data, more than 4096 (--max-elf-size)' "$work/l.err" &&
	[ "$jrc" -eq 2 ] && jq -e '.errors[0].path == "/usr/bin/prog" and (.errors[0].message | test("max-elf-size"))' "$work/l.json" >/dev/null; then
	pass "--max-elf-size=4K: $(cat "$work/l.err")"
else
	failed "--max-elf-size=4K: exit $rc (JSON $jrc), $(head -c 300 "$work/l.err" "$work/l.json")"
fi

# A dictionary of 4 GiB asked for by the member's header (data.tar.lzma: the header's
# dictionary size; data.tar.xz: its block's LZMA2 properties), 320 MiB of
# zeros after it: the decoder fills its dictionary as it unpacks, so memory grew with
# the member, whatever --max-unpacked. Refused before reading, in bounded memory.
python3 - "$work/bigdict" <<'EOF'
import binascii, lzma, struct, sys, tarfile
out, chunk = sys.argv[1], 32 << 20
zeros = tarfile.TarInfo("./usr/share/z/zeros")
zeros.size = 10 * chunk
tar = zeros.tobuf(format=tarfile.GNU_FORMAT)
# .lzma: one stream, the dictionary size at bytes 1-4
c = lzma.LZMACompressor(format=lzma.FORMAT_ALONE, preset=0)
data = [c.compress(tar)] + [c.compress(bytes(chunk)) for _ in range(10)] + [c.flush()]
data = bytearray(b"".join(data))
data[1:5] = struct.pack("<I", 0xffffffff)
open(out + ".tar.lzma", "wb").write(data)
# .xz: one stream of one block (a decoder per stream: concatenated streams would not
# show it), the block header's LZMA2 dictionary byte set to 40 (4 GiB), its CRC redone
c = lzma.LZMACompressor(preset=0)
s = [c.compress(tar)] + [c.compress(bytes(chunk)) for _ in range(10)] + [c.flush()]
s = bytearray(b"".join(s))
size = (s[12] + 1) * 4
s[s.index(b"\x21\x01", 12, 12 + size) + 2] = 40
s[12 + size - 4:12 + size] = struct.pack("<I", binascii.crc32(s[12:12 + size - 4]))
open(out + ".tar.xz", "wb").write(s)
EOF
for ext in lzma xz; do
	make_deb "$work/bigdict_1.0-1_amd64.deb" bigdict "" "raw:$work/bigdict.tar.$ext:data.tar.$ext"
	/usr/bin/time -f '%e %M' -o "$work/time" "$elfcet" audit -q \
		"$work/bigdict_1.0-1_amd64.deb" >/dev/null 2>"$work/b.err"
	rc=$?
	read -r wall rss < <(tail -n 1 "$work/time")
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$work/b.err")" -eq 1 ] && [ "$rss" -le "$rss_limit" ] &&
		grep -q "bigdict_1.0-1_amd64.deb: data.tar.$ext: .*memory" "$work/b.err"; then
		pass "data.tar.$ext asking a 4 GiB dictionary: refused in ${wall} s, peak RSS $((rss / 1024)) MB: $(cat "$work/b.err")"
	else
		failed "data.tar.$ext asking a 4 GiB dictionary: exit $rc, peak RSS $((rss / 1024)) MB, ${wall} s, $(head -n 2 "$work/b.err")"
	fi
done
rm -f "$work"/bigdict*
for bad in --max-unpacked=0 --max-unpacked=12X --max-members=-1 --max-members= \
	--max-elf-size=0 --max-elf-size=1Q; do
	"$elfcet" audit -q "$bad" "$work/c-gz.deb" >/dev/null 2>"$work/u.err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$work/u.err")" -eq 1 ] &&
		grep -q "^elfcet audit: ${bad%%=*} takes" "$work/u.err"; then
		pass "$bad: usage error: $(cat "$work/u.err")"
	else
		failed "$bad: exit $rc"
	fi
done

# Many members: the cap on members, and JSON Lines streamed (memory does not grow with
# the number of members). The tiny programs are written straight into the tar stream.
"$hostile" eh-hdr-at-end "$work/tiny"
many_deb() { # N OUT
	python3 - "$1" "$work/tiny" "$work/many.tar" <<'EOF'
import io, sys, tarfile
n, tiny, out = int(sys.argv[1]), open(sys.argv[2], "rb").read(), sys.argv[3]
with tarfile.open(out, "w", format=tarfile.GNU_FORMAT) as t:
    for i in range(n):
        info = tarfile.TarInfo("./usr/lib/many/%06d.so" % i)
        info.size = len(tiny)
        t.addfile(info, io.BytesIO(tiny))
EOF
	zstd -q --rm "$work/many.tar"
	make_deb "$2" many "" "raw:$work/many.tar.zst:data.tar.zst"
	rm -f "$work/many.tar.zst"
}
many_deb 2000 "$work/many2k_1.0-1_amd64.deb"
"$elfcet" audit -q --max-members=1000 "$work/many2k_1.0-1_amd64.deb" >"$work/m.out" 2>"$work/m.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q 'many2k_1.0-1_amd64.deb: .*--max-members' "$work/m.err" &&
	[ "$(wc -l <"$work/m.err")" -eq 1 ]; then
	pass "--max-members=1000 on 2000 members: $(cat "$work/m.err")"
else
	failed "--max-members=1000: exit $rc, $(head -n 2 "$work/m.err")"
fi
peak() { # DEB: peak RSS in KB of a JSON Lines audit, records counted into $work/count
	# (ASan keeps 256 MB of freed memory in quarantine by default: not what is measured)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8 /usr/bin/time -f %M -o "$work/rss" "$elfcet" audit -q --fail-on=never --format=jsonl "$1" \
		2>"$work/p.err" | wc -l >"$work/count"
	tail -n 1 "$work/rss"
}
small=$(peak "$work/many2k_1.0-1_amd64.deb")
many_deb 100000 "$work/many100k_1.0-1_amd64.deb"
large=$(peak "$work/many100k_1.0-1_amd64.deb")
count=$(cat "$work/count")
if [ "$count" -eq 100000 ] && [ "$large" -le $((small + 20 * 1024)) ] && sanitizer_clean "$work/p.err"; then
	pass "100,000 members streamed: peak RSS $((large / 1024)) MB (2,000 members: $((small / 1024)) MB)"
else
	failed "100,000 members: $count records, peak RSS $((large / 1024)) MB against $((small / 1024)) MB for 2,000"
fi
rm -f "$work"/many100k*.deb

# 5. Separate debug files (objcopy --only-keep-debug, as dh_strip makes them) hold no
# code: not-applicable, in a package and in a tree alike.
mkdir -p "$work/dbg/usr/lib/debug/.build-id/ab"
objcopy --only-keep-debug "$work/prog" "$work/dbg/usr/lib/debug/.build-id/ab/cdef.debug"
make_deb "$work/dbg_1.0-1_amd64.deb" dbg "$work/dbg" xz --format=gnu
for input in "$work/dbg_1.0-1_amd64.deb" "$work/dbg/usr/lib/debug/.build-id/ab/cdef.debug"; do
	"$elfcet" audit --format=jsonl "$input" >"$work/d.jsonl" 2>"$work/d.err"
	rc=$?
	got=$(jq -r '"\(.verdicts.ibt) \(.verdicts.shstk)"' "$work/d.jsonl")
	if [ "$rc" -eq 0 ] && [ "$got" = "not-applicable not-applicable" ]; then
		pass "debug file ($(basename "$input")): ibt and shstk not-applicable"
	else
		failed "debug file ($(basename "$input")): exit $rc, verdicts '$got', $(head -n 2 "$work/d.err")"
	fi
done

# 6. A damaged ELF member: one error line naming the package and the member; the other
# members still audited.
mkdir -p "$work/dmg/usr/bin"
head -c 200 "$work/prog" >"$work/dmg/usr/bin/broken"
cp "$work/prog" "$work/dmg/usr/bin/good"
make_deb "$work/dmg_1.0-1_amd64.deb" dmg "$work/dmg" gz --format=gnu --sort=name
"$elfcet" audit -q "$work/dmg_1.0-1_amd64.deb" >"$work/e.out" 2>"$work/e.err"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$work/e.err")" -eq 1 ] &&
	grep -q 'dmg_1.0-1_amd64.deb: /usr/bin/broken: ' "$work/e.err" &&
	grep -q '^/usr/bin/good (dmg 1.0-1): ' "$work/e.out"; then
	pass "damaged member: $(cat "$work/e.err")"
else
	failed "damaged member: exit $rc, stderr: $(head -n 2 "$work/e.err")"
fi

# 7. A package names its files as the tree dpkg-deb -x unpacks does: each file once,
# under its own name, whatever links sort before it (a SONAME link, a link from
# /usr/bin into /usr/lib, an absolute link, a hard link). A made package, and the
# real ones of this machine's apt cache with a shared library.
mkdir -p "$work/links/DEBIAN" "$work/links/usr/lib/t" "$work/links/usr/bin" "$work/links/bin"
printf 'Package: links\nVersion: 1.0-1\nArchitecture: amd64\nMaintainer: nobody\nDescription: test\n' \
	>"$work/links/DEBIAN/control"
cp "$work/prog" "$work/links/usr/lib/libt.so.1.2.3"
ln -s libt.so.1.2.3 "$work/links/usr/lib/libt.so.1"
cp "$work/prog" "$work/links/usr/lib/t/real"
ln -s ../lib/t/real "$work/links/usr/bin/atool"
cp "$work/prog" "$work/links/usr/bin/tool"
ln "$work/links/usr/bin/tool" "$work/links/usr/bin/tool2"
ln -s /usr/bin/tool "$work/links/bin/x"
dpkg-deb --root-owner-group --build "$work/links" "$work/links_1.0-1_amd64.deb" >/dev/null
same_names() { # DEB
	local deb=$1 tree
	tree=$(mktemp -d "$work/tree.XXXXXX")
	dpkg-deb -x "$deb" "$tree"
	"$elfcet" audit --fail-on=never --format=jsonl "$deb" 2>/dev/null | jq -r .path | sort >"$work/deb.paths"
	"$elfcet" audit --fail-on=never --format=jsonl "$tree" 2>/dev/null |
		jq -r 'select(.verdicts) | .path' | sed "s|^$tree||" | sort >"$work/tree.paths"
	rm -rf "$tree"
	if [ -s "$work/deb.paths" ] && diff "$work/tree.paths" "$work/deb.paths" >"$work/names.diff"; then
		pass "$(basename "$deb"): $(wc -l <"$work/deb.paths") files named as in the unpacked tree"
	else
		failed "$(basename "$deb"): names differ from the unpacked tree's: $(tr '\n' ' ' <"$work/names.diff")"
	fi
}
same_names "$work/links_1.0-1_amd64.deb"

# 8. Reports of packages streamed through the runner's queues come out in input order,
# the same on one thread or several (2,000 members fill a queue many times over).
set -- "$work"/c-*.deb "$work/noelf_2.0-1_all.deb" "$work/many2k_1.0-1_amd64.deb" \
	"$work/names_1.0-1_amd64.deb" "$work/dmg_1.0-1_amd64.deb" "$work/dbg_1.0-1_amd64.deb" \
	"$work/links_1.0-1_amd64.deb" "$work/prog"
for jobs in 1 2 5; do
	# (a runner that lost its place in the queues would wait forever: a failure here)
	timeout 300 "$elfcet" audit -q -j "$jobs" --fail-on=never --format=jsonl "$@" \
		>"$work/j$jobs.jsonl" 2>/dev/null
done
n=$(wc -l <"$work/j1.jsonl")
if [ "$n" -gt 2000 ] && cmp -s "$work/j1.jsonl" "$work/j2.jsonl" && cmp -s "$work/j1.jsonl" "$work/j5.jsonl"; then
	pass "$# inputs, $n records: the same JSON Lines with -j 1, 2 and 5"
else
	failed "-j 1, 2 and 5 differ ($n records)"
fi

for deb in $(ls /var/cache/apt/archives/lib*[0-9]_*_amd64.deb 2>/dev/null | head -n 8); do
	same_names "$deb"
done
exit "$fail"
