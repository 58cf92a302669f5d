#!/usr/bin/env bash
# The guest runner on the host (no VM): exec stops, exec errors, exit statuses, signals
# with si_code and fault address, the per-job time limit, output capture and JSON
# escaping, bad job lines. The VM runs (make check-vm) use the same program.
set -euo pipefail
runner="$top_builddir/vm/guest/runner"
work="$(mktemp -d "$top_builddir/tests/vm-runner.XXXXXX")"
trap 'rm -rf "$work"' EXIT

gcc -nostdlib -static -o "$work/fault64" "$top_srcdir/corpus/vm/fault64.S"
# The same jump from a 32-bit program: its instruction pointer is read in the 64-bit layout.
printf '\t.globl _start\n_start:\n\tmov $0xdead0010, %%eax\n\tjmp *%%eax\n' >"$work/fault32.S"
gcc -m32 -nostdlib -static -o "$work/fault32" "$work/fault32.S"
cat >"$work/jobs.jsonl" <<JOBS
{"id":"echo","path":"/bin/echo","args":["a \"b\"","\u00e9"],"expect_output":"a \"b\" \u00e9"}
{"id":"missing","path":"$work/none"}
{"id":"noexec","path":"$work/jobs.jsonl"}
{"id":"exit3","path":"/bin/sh","args":["-c","printf '\\\\001\\\\377'; exit 3"]}
{"id":"kill","path":"/bin/sh","args":["-c","kill -USR1 \$\$"]}
{"id":"fault","path":"$work/fault64"}
{"id":"fault32","path":"$work/fault32"}
{"id":"hang","path":"/bin/sleep","args":["30"],"timeout":1}
this is not a job
{"id":"wrong","path":"/bin/echo","args":["x"],"expect_output":"y"}
{"id":"window","path":"/bin/sh","args":["-c","echo in; exit 4"],"window":true}
{"id":"window-fault","path":"$work/fault64","window":true}
{"id":"window-hang","path":"/bin/sleep","args":["30"],"timeout":1,"window":true}
JOBS
chmod -x "$work/jobs.jsonl"
"$runner" "$work/jobs.jsonl" >"$work/out.jsonl"
if jq -se 'any(.[]; .id == "echo" and (.exec.ok | not))' "$work/out.jsonl" >/dev/null &&
	[ "$(jq -r 'select(.id == "echo") | .exec.errno' "$work/out.jsonl")" = EPERM ]; then
	echo "SKIP: ptrace is not permitted here"
	exit 77
fi

fail=0 checked=0
check() { # ID JQ-EXPRESSION DESCRIPTION
	checked=$((checked + 1))
	if jq -se --arg id "$1" "[.[] | select(.id == \$id) | $2] == [true]" "$work/out.jsonl" >/dev/null; then
		echo "ok   $1: $3"
	else
		echo "FAIL $1: $3; got $(jq -c --arg id "$1" 'select(.id == $id)' "$work/out.jsonl")"
		fail=$((fail + 1))
	fi
}
check echo '.exec.ok and .end == {how: "exited", code: 0} and .output == "a \"b\" é\n" and .output_matches' \
	"runs, output captured, UTF-8 kept, expected output matched"
check echo '.status | type == "object"' "status lines read at the exec stop (x86_* only)"
check missing '.exec == {ok: false, errno: "ENOENT", errno_value: 2} and (has("status") | not)' \
	"exec failure reported with its errno, no status read"
check noexec '.exec.ok == false and .exec.errno == "EACCES"' "a file that is not executable: EACCES"
check exit3 '.end == {how: "exited", code: 3} and .output == "\u0001\u00ff"' \
	"exit status; control and non-UTF-8 bytes escaped"
check kill '.end.how == "signaled" and .end.signal == "SIGUSR1" and .end.siginfo.code_name == "SI_USER" and (.signals | length) == 1' \
	"death by a signal, with its siginfo"
check fault '.end.signal == "SIGSEGV" and .end.siginfo.code_name == "SEGV_MAPERR" and .end.siginfo.addr == "0xdead0000"' \
	"fault: SIGSEGV, si_code SEGV_MAPERR, fault address"
check fault '.end.siginfo.ip == "0xdead0000" and .signals[0].ip == "0xdead0000"' \
	"the instruction pointer at the signal stop (a #CP has no fault address: this is where it is)"
if jq -se 'any(.[]; .id == "fault32" and .exec.errno == "ENOEXEC")' "$work/out.jsonl" >/dev/null; then
	echo "skip fault32: this kernel runs no i386 program (no IA32 emulation)"
else
	check fault32 '.end.siginfo.code_name == "SEGV_MAPERR" and .end.siginfo.ip == "0xdead0010"' \
		"the instruction pointer of a 32-bit program"
fi
check kill '.end.siginfo.ip | test("^0x[0-9a-f]+$")' "an instruction pointer for any signal"
check fault '[.maps[] | select(.path | endswith("/fault64"))] | length > 0 and all(.[]; .start < .end)' \
	"file mappings read at the exit stop (the fault address's object)"
check hang '.end == {how: "timeout", after_s: 1} and .elapsed_ms < 5000' "killed at the job time limit"
check wrong '.output_matches == false' "output that differs from the expectation"
check window '.window and .end == {how: "exited", code: 4} and .output == "in\n" and (.status | type == "object") and (.maps | length > 0)' \
	"window mode: status and maps at the exec stop, then untraced to its end"
check window-fault '.window and .end == {how: "signaled", signal: "SIGSEGV", signo: 11} and .signals == []' \
	"window mode: death by a signal, without the fault's siginfo (untraced)"
check window-hang '.window and .end == {how: "timeout", after_s: 1}' "window mode: the job time limit"
checked=$((checked + 1))
if jq -se '[.[] | select(.type == "error")] == [{type: "error", message: "a job must be a JSON object", line: 9}]
	and (.[0].type == "guest") and (.[0].vdso.hex | startswith("7f454c46")) and (.[0].vdso.hex | length) == 2 * .[0].vdso.size
	and (.[-1] == {type: "done", jobs: 12})' "$work/out.jsonl" >/dev/null; then
	echo "ok   list: guest line first with the vDSO dumped, the bad line named, done with 12 jobs last"
else
	echo "FAIL list: $(jq -c 'select(.type != "job")' "$work/out.jsonl")"
	fail=$((fail + 1))
fi
echo "vm-runner: $checked checks, $fail failed"
[ "$fail" -eq 0 ]
