#!/usr/bin/env bash
# elfcet as built and as installed: the build tree's `elfcet run` finds the build tree's
# plugin, and after `make install DESTDIR=...` the staged copy finds its own staged rules
# and plugin (nothing from the build tree, no environment) and audits, marks and runs.
set -uo pipefail
: "${top_builddir:?}" "${ELFCET:?}"
# Only what the programs find by themselves is under test.
unset ELFCET_RULES_DIR ELFCET_PLUGIN
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
pass() { echo "PASS: install: $*"; }
failed() { echo "FAIL: install: $*"; fail=1; }

# The build tree's run: the plugin beside the build.
if "$ELFCET" run -- /bin/true > "$work/build-run.out" 2>&1; then
	pass "build tree: elfcet run -- /bin/true"
else
	failed "build tree: elfcet run -- /bin/true: $(tail -n 1 "$work/build-run.out")"
fi

# A staged install, as a package build makes one.
dest=$work/dest
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" install \
	DESTDIR="$dest" > "$work/install.log" 2>&1; then
	failed "make install DESTDIR failed:"; sed 's/^/    /' "$work/install.log" | tail -n 20
	exit 1
fi
bin=$(find "$dest" -path '*/bin/elfcet' -type f | head -n 1)
[ -x "$bin" ] || { failed "no bin/elfcet under DESTDIR"; exit 1; }
for f in elfcet/rules/catalogue.rules elfcet/rules/returns-twice.list elfcet/elfcet-qemu-plugin.so man1/elfcet.1 \
	bin/elfcet-audit-archive bin/dh_elfcet man1/dh_elfcet.1 Debian/Debhelper/Sequence/elfcet.pm; do
	if [ -n "$(find "$dest" -path "*/$f" | head -n 1)" ]; then pass "installed $f"; else failed "$f not installed"; fi
done

# The staged copy names its staged files, not the build tree's.
"$bin" audit --help > "$work/audit-help" 2>&1
if grep -q "default: $dest/.*/elfcet/rules)" "$work/audit-help"; then
	pass "installed audit uses the installed rules"
else
	failed "installed audit's rules: $(grep default: "$work/audit-help")"
fi
"$bin" run --help > "$work/run-help" 2>&1
if grep -q "default $dest/.*/elfcet-qemu-plugin.so" "$work/run-help"; then
	pass "installed run uses the installed plugin"
else
	failed "installed run's plugin: $(grep -A1 ELFCET_PLUGIN "$work/run-help" | head -n 2)"
fi

# audit, mark, run from the staged copy, on a program built here.
printf 'int main(void) { return 0; }\n' > "$work/prog.c"
gcc -O2 -fcf-protection=full -o "$work/prog" "$work/prog.c" || { failed "gcc"; exit 1; }
"$bin" audit "$work/prog" > "$work/audit.out" 2>&1
rc=$?
if [ "$rc" -le 1 ] && grep -q "prog: ibt=[a-z-]* shstk=ready" "$work/audit.out"; then
	pass "installed audit: $(grep "prog: ibt=" "$work/audit.out" | sed "s/^[^:]*: //")"
else
	failed "installed audit exited $rc: $(head -n 2 "$work/audit.out")"
fi
if "$bin" mark --shstk "$work/prog" > "$work/mark.out" 2>&1 &&
	"$bin" audit "$work/prog" 2>/dev/null | grep -q "shstk=marked-ok"; then
	pass "installed mark --shstk: marked-ok"
else
	failed "installed mark: $(cat "$work/mark.out")"
fi
if "$bin" run -- "$work/prog" > "$work/run.out" 2>&1; then
	pass "installed run: $(tail -n 1 "$work/run.out")"
else
	failed "installed run: $(tail -n 2 "$work/run.out")"
fi
exit "$fail"
