#!/usr/bin/env bash
# elfcet audit stays valgrind-clean (no invalid access, no leak) on real binaries, the
# damaged corpus and broken files, on one thread and on several.
set -euo pipefail
if [ -n "${ELFCET_SANITIZED:-}" ]; then echo "skip: sanitizer build (valgrind cannot run it)"; exit 77; fi
command -v valgrind >/dev/null || { echo "skip: valgrind is not installed"; exit 77; }
corpus="$top_builddir/tests/corpus-notes.out"
for jobs in 1 2; do
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		"$ELFCET" audit -q -j $jobs --format=json --fail-on=never \
		/usr/bin/ls /usr/bin/bash /usr/lib/x86_64-linux-gnu/libc.so.6 "$corpus" >/dev/null
	echo "ok: valgrind clean with -j $jobs"
done
