# Sourced by the elfcet mark tests (tests/mark-refusal.sh, mark-races.sh, mark-readers.sh):
# strict mode, the built tool and the sources from the test environment, a work directory
# removed at exit, and check WHAT CONDITION..., which prints "ok" or "FAIL" for
# CONDITION and leaves $fail at 1 once one has failed (each test exits with $fail).
set -uo pipefail
: "${ELFCET:?}" "${top_srcdir:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
check() { # WHAT CONDITION...
	local what=$1
	shift
	if "$@"; then echo "  ok: $what"; else echo "  FAIL: $what"; fail=1; fi
}
