#!/usr/bin/env bash
# vm/verify's evaluator (vm/verify-eval.jq) on canned audit and guest JSON, without a VM:
# under real enforcement (the bochs-cet executor) a SEGV_CPERR must be placed by the
# instruction pointer the runner recorded, and confirm a marked-broken verdict only at an
# address among the audit's findings of that feature (in the program, a PIE at its load
# bias, or a library it loads); anywhere else it contradicts, and so does any #CP of a
# marked-ok program. The same input under qemu-tcg exercises no enforcement. Every verdict
# decided names its executor.
set -uo pipefail
eval_jq="${VERIFY_EVAL_JQ:-$top_srcdir/vm/verify-eval.jq}"
text_jq="$top_srcdir/vm/verify-text.jq"
work="$(mktemp -d "${top_builddir:-.}/tests/verify-eval.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# The audit: static programs at 0x400000 (code at file offset 0x1000 = vaddr 0x401000), a
# PIE, a program whose interpreter enables CET, and that interpreter.
finding() { # RULE ADDRESS SYMBOL [LABELS-JSON]
	jq -nc --arg r "$1" --argjson a "$2" --arg s "$3" --argjson l "${4:-null}" \
		'{rule: $r, address: $a, symbol: $s, via: "code-ref", severity: "error", message: "..."}
		 + (if $l then {labels: $l} else {} end)'
}
file_entry() { # PATH TYPE IBT SHSTK READS-NOTE-OF INTERP FINDINGS-JSON
	jq -nc --arg p "$1" --arg t "$2" --arg ibt "$3" --arg shstk "$4" --arg of "$5" --arg i "$6" \
		--argjson f "$7" \
		'{path: $p, class: 64, machine: "x86-64", type: $t,
		  interpreter: (if $i == "" then null else $i end), kernel_reads_note_of: $of,
		  consumers: {kernel: {sees_note: true, accepted: true, errno: null, rule: null, feature_1_and: 3}},
		  problems: [], verdicts: {ibt: $ibt, shstk: $shstk}, findings: $f}'
}
broken_findings="[$(finding ibt-missing-endbr 4198432 resolver),
	$(finding shstk-ret-as-jump 4198661 'ret_as_jump+0x5'),
	$(finding ibt-tracked-jump-table 4198912 'dispatch+0x10' '[4199168, 4199184]')]"
pie_findings="[$(finding ibt-missing-endbr 4160 _start)]"
libc_findings="[$(finding ibt-missing-endbr 172032 memcpy_resolver)]"
{
	for name in broken-ibt-at-finding broken-ibt-elsewhere broken-jumptable-label broken-shstk-ret; do
		file_entry "/c/$name" static marked-broken marked-broken self "" "$broken_findings"
	done
	for name in ok-clean ok-cperr; do
		file_entry "/c/$name" static marked-ok marked-ok self "" "[]"
	done
	file_entry /c/pie-at-finding pie marked-broken marked-ok self "" "$pie_findings"
	file_entry /c/prog-libc pie marked-broken marked-ok interpreter /c/ld.so "$pie_findings"
	file_entry /c/ld.so shared marked-broken marked-ok self "" "[]"
} | jq -s '{files: .}' >"$work/audit.json"
file_entry /lib/x86_64-linux-gnu/libc.so.6 shared not-ready ready self "" "$libc_findings" |
	jq -s '{files: .}' >"$work/libs.json"

# The jobs, and the runner's lines: each program run once.
jq -n '[{id: "F1", file: "/c/broken-ibt-at-finding"}, {id: "F2", file: "/c/broken-ibt-elsewhere"},
	{id: "F3", file: "/c/broken-jumptable-label"}, {id: "F4", file: "/c/broken-shstk-ret"},
	{id: "F5", file: "/c/ok-clean"}, {id: "F6", file: "/c/ok-cperr"},
	{id: "F7", file: "/c/pie-at-finding"}, {id: "F8", file: "/c/prog-libc"}]
	| map(. + {guest_path: ("/elfcet/files" + .file), expect_output: null, expect_signal: null})' >"$work/jobs.json"
static_maps() { # PATH
	jq -nc --arg p "/elfcet/files$1" '[{start: "0x400000", end: "0x401000", perms: "r--p", offset: "0x0", path: $p},
		{start: "0x401000", end: "0x402000", perms: "r-xp", offset: "0x1000", path: $p}]'
}
cperr_job() { # ID PATH IP CPU-ERROR MAPS-JSON [FROM]
	jq -nc --arg id "$1" --arg p "/elfcet/files$2" --arg ip "$3" --arg err "$4" --argjson maps "$5" \
		--arg from "${6:-executable}" \
		'{type: "job", id: $id, path: $p, argv: [$p], status: {x86_Elf_features: "0x3 ibt shstk from=\($from)"},
		  maps: $maps, exec: {ok: true},
		  signals: [{signal: "SIGSEGV", signo: 11, code: 10, code_name: "SEGV_CPERR", addr: "0x0", ip: $ip}],
		  end: {how: "signaled", signal: "SIGSEGV", signo: 11,
			siginfo: {signal: "SIGSEGV", signo: 11, code: 10, code_name: "SEGV_CPERR", addr: "0x0", ip: $ip}},
		  output: "", kernel_log: ["prog[42] control protection ip:\($ip | ltrimstr("0x")) sp:7ffd0000 error:\($err)"],
		  elapsed_ms: 5}'
}
pie_maps='[{"start":"0x555555554000","end":"0x555555555000","perms":"r--p","offset":"0x0","path":"/elfcet/files/c/pie-at-finding"},
	{"start":"0x555555555000","end":"0x555555556000","perms":"r-xp","offset":"0x1000","path":"/elfcet/files/c/pie-at-finding"}]'
libc_maps='[{"start":"0x555555554000","end":"0x555555556000","perms":"r-xp","offset":"0x0","path":"/elfcet/files/c/prog-libc"},
	{"start":"0x7f0000000000","end":"0x7f0000026000","perms":"r--p","offset":"0x0","path":"/lib/x86_64-linux-gnu/libc.so.6"},
	{"start":"0x7f0000026000","end":"0x7f000017c000","perms":"r-xp","offset":"0x26000","path":"/lib/x86_64-linux-gnu/libc.so.6"}]'
{
	echo '{"type":"guest","release":"6.1.0-elfcet","cpu_flags":{"ibt":true,"shstk":true,"user_shstk":true}}'
	cperr_job F1 /c/broken-ibt-at-finding 0x401020 '3(endbranch)' "$(static_maps /c/broken-ibt-at-finding)"
	cperr_job F2 /c/broken-ibt-elsewhere 0x401024 '3(endbranch)' "$(static_maps /c/broken-ibt-elsewhere)"
	cperr_job F3 /c/broken-jumptable-label 0x401310 '3(endbranch)' "$(static_maps /c/broken-jumptable-label)"
	cperr_job F4 /c/broken-shstk-ret 0x401105 '1(near-ret)' "$(static_maps /c/broken-shstk-ret)"
	jq -nc --argjson maps "$(static_maps /c/ok-clean)" \
		'{type: "job", id: "F5", path: "/elfcet/files/c/ok-clean", status: {x86_Elf_features: "0x3 ibt shstk from=executable"},
		  maps: $maps, exec: {ok: true}, signals: [], end: {how: "exited", code: 0}, output: "", kernel_log: []}'
	cperr_job F6 /c/ok-cperr 0x401050 '3(endbranch)' "$(static_maps /c/ok-cperr)"
	cperr_job F7 /c/pie-at-finding 0x555555555040 '3(endbranch)' "$pie_maps"
	cperr_job F8 /c/prog-libc 0x7f000002a000 '3(endbranch)' "$libc_maps" interpreter
	echo '{"type":"done","jobs":8}'
} >"$work/guest.jsonl"
: >"$work/plugin.jsonl"
# The same runs on a guest CPU without CET, as QEMU TCG shows it.
sed '1s/true/false/g' "$work/guest.jsonl" >"$work/guest-nocet.jsonl"

evaluate() { # EXECUTOR OUT [LIBS]: the report of these runs as that executor's
	local libs=("--slurpfile" libs "${3:-$work/libs.json}") guest="$work/guest.jsonl"
	[ "${3:-}" = none ] && libs=()
	[ "$1" = qemu-tcg ] && guest="$work/guest-nocet.jsonl"
	jq -n --slurpfile audit "$work/audit.json" ${libs[@]+"${libs[@]}"} --slurpfile jobs "$work/jobs.json" \
		--slurpfile guest "$guest" --slurpfile plugin "$work/plugin.jsonl" \
		--argjson env "{\"variant\": \"cet\", \"kernel\": \"bzImage\", \"executor\": \"$1\", \"plugin\": null,
			\"vdso\": null, \"harness_problems\": [], \"qemu\": \"canned\", \"boot_seconds\": 0, \"jobs_ms\": 0}" \
		-f "$eval_jq" >"$2"
}
evaluate bochs-cet "$work/bochs.json" || { echo "FAIL: verify-eval: the evaluator failed on the canned runs"; exit 1; }
evaluate bochs-cet "$work/nolibs.json" none || { echo "FAIL: verify-eval: the evaluator failed without the library audit"; exit 1; }
evaluate qemu-tcg "$work/qemu.json" || { echo "FAIL: verify-eval: the evaluator failed as qemu-tcg"; exit 1; }
jq -r -f "$text_jq" "$work/bochs.json" >"$work/bochs.txt" 2>&1 || echo "(text report failed)" >>"$work/bochs.txt"

pass=0 fail=0
check() { # REPORT DESCRIPTION JQ-CONDITION
	if jq -e "$3" "$1" >/dev/null 2>&1; then
		echo "PASS: verify-eval: $2"; pass=$((pass + 1))
	else
		echo "FAIL: verify-eval: $2"
		jq -c '.files[] | {path, checks: [.checks[] | select(.check == "ibt" or .check == "shstk")]}' "$1" 2>&1 |
			sed 's/^/    /'
		fail=$((fail + 1))
	fi
}
chk() { printf '[.files[] | select(.path == "/c/%s") | .checks[] | select(.check == "%s")][0]' "$1" "$2"; }

check "$work/bochs.json" "bochs: #CP at a finding of a marked-broken program (ip = the target without ENDBR): ibt confirmed by bochs-cet" \
	"$(chk broken-ibt-at-finding ibt) | .result == \"confirmed\" and .confirmed_by == \"bochs-cet\" and (.evidence | test(\"resolver\"))"
check "$work/bochs.json" "bochs: #CP 4 bytes off every finding: ibt contradicted by bochs-cet (the audit missed it)" \
	"$(chk broken-ibt-elsewhere ibt) | .result == \"contradicted\" and .contradicted_by == \"bochs-cet\" and (.evidence | test(\"missed\"))"
check "$work/bochs.json" "bochs: #CP at a case label of a tracked jump table the audit flagged (its labels): ibt confirmed" \
	"$(chk broken-jumptable-label ibt).result == \"confirmed\""
check "$work/bochs.json" "bochs: shadow-stack #CP (near-ret) at the flagged RET: shstk confirmed, ibt not exercised" \
	"$(chk broken-shstk-ret shstk).result == \"confirmed\" and $(chk broken-shstk-ret ibt).result == \"not exercised\""
check "$work/bochs.json" "bochs: a marked-ok program that runs to its end: ibt and shstk confirmed" \
	"$(chk ok-clean ibt).result == \"confirmed\" and $(chk ok-clean shstk).result == \"confirmed\""
check "$work/bochs.json" "bochs: a marked-ok program killed by SEGV_CPERR: ibt contradicted" \
	"$(chk ok-cperr ibt).result == \"contradicted\""
check "$work/bochs.json" "bochs: a PIE: the ip less its load bias is the finding's vaddr: ibt confirmed" \
	"$(chk pie-at-finding ibt).result == \"confirmed\""
check "$work/bochs.json" "bochs: #CP in libc.so.6 at one of its findings (the library audit): ibt confirmed" \
	"$(chk prog-libc ibt) | .result == \"confirmed\" and (.evidence | test(\"libc.so.6\"))"
check "$work/nolibs.json" "bochs: the same #CP in a library that was not audited: contradicted, and says so" \
	"$(chk prog-libc ibt) | .result == \"contradicted\" and (.evidence | test(\"not audited\"))"
check "$work/bochs.json" "bochs: the first violation of each run (kind, object+offset)" \
	'[.files[] | select(.path == "/c/broken-ibt-at-finding" or .path == "/c/broken-shstk-ret" or .path == "/c/ok-clean") | .runs[0].first_violation]
	 == [{kind: "ibt", at: "/c/broken-ibt-at-finding+0x1020"}, {kind: "shstk", at: "/c/broken-shstk-ret+0x1105"}, null]'
check "$work/bochs.json" "bochs: the environment names the executor and says enforcement is real, by an independent CPU model" \
	'.environment.executor == "bochs-cet" and (.environment.statement | test("REAL") and test("independently"))'
check "$work/qemu.json" "qemu-tcg, same runs: no enforcement exercised, the note checks decided by qemu-tcg" \
	"$(chk broken-ibt-elsewhere ibt).result == \"not exercised\" and $(chk ok-cperr ibt).result == \"not exercised\"
	 and $(chk ok-clean kernel-note).confirmed_by == \"qemu-tcg\" and (.files[0].runs[0] | has(\"first_violation\") | not)"
if grep -q 'ibt  *confirmed .*resolver.* \[by bochs-cet\]$' "$work/bochs.txt"; then
	echo "PASS: verify-eval: the text report names the executor on each decided verdict"; pass=$((pass + 1))
else
	echo "FAIL: verify-eval: the text report names the executor on each decided verdict"; sed 's/^/    /' "$work/bochs.txt" | head -40
	fail=$((fail + 1))
fi
echo "verify-eval: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
