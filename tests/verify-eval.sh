#!/usr/bin/env bash
# vm/verify's evaluator (vm/verify-eval.jq) on canned audit, guest and plugin JSON,
# without a VM:
# - under real enforcement (the bochs-cet executor) a SEGV_CPERR must be placed by the
#   instruction pointer the runner recorded, and confirm a marked-broken verdict only at an
#   address among the audit's findings of that feature (in the program, a PIE at its load
#   bias, or a library it loads); anywhere else it contradicts, and so does any #CP of a
#   marked-ok program but one at a finding of a library it loads (the library's verdict,
#   not exercised for the program). The same input under qemu-tcg exercises no enforcement.
# - under the dynamic checker (qemu-plugin) a violation in a program's window confirms a
#   marked-broken verdict when the audit predicted it and contradicts it when not; a
#   marked-ok program without violations is confirmed; a feature the kernel did not enable,
#   or a program run outside a window, is not exercised.
# - the kernel's reading of the note (qemu-tcg): the errno the audit predicts, a run that
#   should have failed, a harness errno, a kernel without CET, --expect and vsyscall; a note
#   the parser rejects (ENOEXEC) fails the exec only where the guest offers user CET
#   (user_ibt or user_shstk in its /proc/cpuinfo), elsewhere the program runs without a
#   feature; a read error (EIO) fails it everywhere.
# - vm/verify's reading of the guest console (verify-lib.jq's console_problems).
# Every verdict decided names its executor (confirmed_by, contradicted_by), and only those.
# VERIFY_JQ_DIR runs another copy of vm/'s jq files (to see this test fail on a broken one).
set -uo pipefail
jq_dir="${VERIFY_JQ_DIR:-$top_srcdir/vm}"
eval_jq="${VERIFY_EVAL_JQ:-$jq_dir/verify-eval.jq}"
text_jq="$jq_dir/verify-text.jq"
work="$(mktemp -d "${top_builddir:-.}/tests/verify-eval.XXXXXX")"
trap '[ -n "${VERIFY_EVAL_KEEP:-}" ] || rm -rf "$work"' EXIT

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
	file_entry /c/ok-prog-libc pie marked-ok marked-ok interpreter /c/ld.so "[]"
	file_entry /c/ld.so shared marked-broken marked-ok self "" "[]"
} | jq -s '{files: .}' >"$work/audit.json"
file_entry /lib/x86_64-linux-gnu/libc.so.6 shared not-ready ready self "" "$libc_findings" |
	jq -s '{files: .}' >"$work/libs.json"

# The jobs, and the runner's lines: each program run once.
jq -n '[{id: "F1", file: "/c/broken-ibt-at-finding"}, {id: "F2", file: "/c/broken-ibt-elsewhere"},
	{id: "F3", file: "/c/broken-jumptable-label"}, {id: "F4", file: "/c/broken-shstk-ret"},
	{id: "F5", file: "/c/ok-clean"}, {id: "F6", file: "/c/ok-cperr"},
	{id: "F7", file: "/c/pie-at-finding"}, {id: "F8", file: "/c/prog-libc"}, {id: "F9", file: "/c/ok-prog-libc"}]
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
	cperr_job F9 /c/ok-prog-libc 0x7f000002a000 '3(endbranch)' "${libc_maps//prog-libc/ok-prog-libc}" interpreter
	echo '{"type":"done","jobs":9}'
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
		-L "$jq_dir" -f "$eval_jq" >"$2"
}
evaluate bochs-cet "$work/bochs.json" || { echo "FAIL: verify-eval: the evaluator failed on the canned runs"; exit 1; }
evaluate bochs-cet "$work/nolibs.json" none || { echo "FAIL: verify-eval: the evaluator failed without the library audit"; exit 1; }
evaluate qemu-tcg "$work/qemu.json" || { echo "FAIL: verify-eval: the evaluator failed as qemu-tcg"; exit 1; }
jq -r -L "$jq_dir" -f "$text_jq" "$work/bochs.json" >"$work/bochs.txt" 2>&1 || echo "(text report failed)" >>"$work/bochs.txt"

# The dynamic checker (qemu-plugin): static programs at 0x400000 again, each run in a
# window except the last; the plugin's events of the windows in order.
kernel_entry() { # PATH IBT SHSTK FEATURE-1-AND ACCEPTED ERRNO FINDINGS-JSON
	jq -nc --arg p "$1" --arg ibt "$2" --arg shstk "$3" --argjson feat "$4" --argjson ok "$5" \
		--arg errno "$6" --argjson f "$7" \
		'{path: $p, class: 64, machine: "x86-64", type: "static", interpreter: null,
		  kernel_reads_note_of: "executable",
		  consumers: {kernel: {sees_note: true, accepted: $ok, errno: (if $ok then null else $errno end),
				       ignored_without_user_cet: (($ok | not) and $errno == "ENOEXEC"),
				       rule: (if $ok then null else "note-misaligned" end), feature_1_and: $feat}},
		  problems: [], verdicts: {ibt: $ibt, shstk: $shstk}, findings: $f}'
}
{
	kernel_entry /p/broken-predicted marked-broken marked-ok 3 true "" "$broken_findings"
	kernel_entry /p/broken-unpredicted marked-broken marked-ok 3 true "" "$broken_findings"
	kernel_entry /p/ok-clean marked-ok marked-ok 3 true "" "[]"
	kernel_entry /p/shstk-only not-ready marked-ok 2 true "" "$broken_findings"
	kernel_entry /p/no-window marked-ok marked-ok 3 true "" "[]"
} | jq -s '{files: .}' >"$work/plugin-audit.json"
jq -n '[range(1; 6) as $i | {id: "P\($i)"}] | [.[0] + {file: "/p/broken-predicted"}, .[1] + {file: "/p/broken-unpredicted"},
	.[2] + {file: "/p/ok-clean"}, .[3] + {file: "/p/shstk-only"}, .[4] + {file: "/p/no-window"}]
	| map(. + {guest_path: ("/elfcet/files" + .file), expect_output: null, expect_signal: null})' >"$work/plugin-jobs.json"
ran_job() { # ID PATH FEATURES-LINE WINDOW
	jq -nc --arg id "$1" --arg p "/elfcet/files$2" --arg st "$3" --argjson w "$4" --argjson maps "$(static_maps "$2")" \
		'{type: "job", id: $id, path: $p, argv: [$p], status: {x86_Elf_features: $st}, maps: $maps,
		  exec: {ok: true}, signals: [], end: {how: "exited", code: 0}, output: "", kernel_log: [], elapsed_ms: 5}
		 + (if $w then {window: true} else {} end)'
}
{
	echo '{"type":"guest","release":"6.1.0-elfcet","cpu_flags":{}}'
	ran_job P1 /p/broken-predicted "0x3 ibt shstk from=executable" true
	ran_job P2 /p/broken-unpredicted "0x3 ibt shstk from=executable" true
	ran_job P3 /p/ok-clean "0x3 ibt shstk from=executable" true
	ran_job P4 /p/shstk-only "0x2 shstk from=executable" true
	ran_job P5 /p/no-window "0x3 ibt shstk from=executable" false
	echo '{"type":"done","jobs":5}'
} >"$work/plugin-guest.jsonl"
window() { # VIOLATION-JSON...: one window of the checker
	echo '{"event":"window","open":true}'
	for v in "$@"; do echo "$v"; done
	echo '{"event":"window","open":false,"interrupted_transfers":0}'
}
{
	# to resolver (0x401020), a finding; to 4 bytes past it, none; an IBT violation in a
	# program whose kernel enabled shadow stacks only.
	window '{"event":"violation","kind":"ibt","src":4198400,"dst":4198432}'
	window '{"event":"violation","kind":"ibt","src":4198400,"dst":4198436}'
	window
	window '{"event":"violation","kind":"ibt","src":4198400,"dst":4198436}'
} >"$work/plugin.jsonl.p"
jq -n --slurpfile audit "$work/plugin-audit.json" --slurpfile jobs "$work/plugin-jobs.json" \
	--slurpfile guest "$work/plugin-guest.jsonl" --slurpfile plugin "$work/plugin.jsonl.p" \
	--argjson env '{"variant": "cet", "kernel": "bzImage", "executor": "qemu-plugin", "plugin": "elfcet-qemu-plugin.so",
		"vdso": null, "harness_problems": [], "qemu": "canned", "boot_seconds": 0, "jobs_ms": 0}' \
	-L "$jq_dir" -f "$eval_jq" >"$work/plugin.json" ||
	{ echo "FAIL: verify-eval: the evaluator failed on the checker's canned runs"; exit 1; }
jq -r -L "$jq_dir" -f "$text_jq" "$work/plugin.json" >"$work/plugin.txt" 2>&1 || echo "(text report failed)" >>"$work/plugin.txt"

# The kernel's reading of the note (qemu-tcg, a kernel with the series, then without).
{
	kernel_entry /k/enoexec marked-ok marked-ok 3 false ENOEXEC "[]"
	kernel_entry /k/enoexec-ran marked-ok marked-ok 3 false ENOEXEC "[]"
	kernel_entry /k/missing marked-ok marked-ok 3 true "" "[]"
	kernel_entry /k/expect-ok marked-ok marked-ok 3 true "" "[]"
	kernel_entry /k/expect-bad marked-ok marked-ok 3 true "" "[]"
	kernel_entry /k/vsyscall ready ready null true "" \
		"[$(finding vsyscall-call 4198500 main)]"
	kernel_entry /k/eio marked-ok marked-ok 3 false EIO "[]"
	kernel_entry /k/enoexec-bits marked-ok marked-ok 3 false ENOEXEC "[]"
} | jq -s '{files: .}' >"$work/kernel-audit.json"
jq -n '[["K1", "/k/enoexec"], ["K2", "/k/enoexec-ran"], ["K3", "/k/missing"], ["K4", "/k/expect-ok"],
	["K5", "/k/expect-bad"], ["K6", "/k/vsyscall"], ["K7", "/k/eio"], ["K8", "/k/enoexec-bits"]]
	| map({id: .[0], file: .[1], guest_path: ("/elfcet/files" + .[1]), expect_signal: null,
	       expect_output: (if .[0] == "K4" or .[0] == "K5" then "hello" else null end)})' >"$work/kernel-jobs.json"
# A guest whose kernel offers user IBT (and no shadow stack: user_ibt alone counts).
{
	echo '{"type":"guest","release":"6.1.0-elfcet","cpu_flags":{"ibt":true,"shstk":false,"user_ibt":true,"user_shstk":false}}'
	echo '{"type":"job","id":"K1","path":"/elfcet/files/k/enoexec","argv":[],"exec":{"ok":false,"errno":"ENOEXEC"}}'
	ran_job K2 /k/enoexec-ran "none from=executable" false
	echo '{"type":"job","id":"K3","path":"/elfcet/files/k/missing","argv":[],"exec":{"ok":false,"errno":"ENOENT"}}'
	ran_job K4 /k/expect-ok "0x3 ibt shstk from=executable" false | jq -c '.output = "hello\nworld" | .output_matches = true'
	ran_job K5 /k/expect-bad "0x3 ibt shstk from=executable" false | jq -c '.output = "goodbye" | .output_matches = false'
	ran_job K6 /k/vsyscall "none from=executable" false |
		jq -c '.end = {how: "signaled", signal: "SIGSEGV", siginfo: {code_name: "SEGV_MAPERR", addr: "0xffffffffff600400"}}'
	echo '{"type":"job","id":"K7","path":"/elfcet/files/k/eio","argv":[],"exec":{"ok":false,"errno":"EIO"}}'
	ran_job K8 /k/enoexec-bits "0x3 ibt shstk from=executable" false
	echo '{"type":"done","jobs":8}'
} >"$work/kernel-guest.jsonl"
# The same runs where the kernel offers no user CET (QEMU TCG: no CET in the CPU).
sed '1s/"cpu_flags":{.*}}$/"cpu_flags":{"ibt":false,"shstk":false,"user_ibt":false,"user_shstk":false}}/' \
	"$work/kernel-guest.jsonl" >"$work/kernel-guest-nocet.jsonl"
: >"$work/empty.jsonl"
kernel_eval() { # VARIANT OUT [GUEST]
	jq -n --slurpfile audit "$work/kernel-audit.json" --slurpfile jobs "$work/kernel-jobs.json" \
		--slurpfile guest "${3:-$work/kernel-guest.jsonl}" --slurpfile plugin "$work/empty.jsonl" \
		--argjson env "{\"variant\": \"$1\", \"kernel\": \"bzImage\", \"executor\": \"qemu-tcg\", \"plugin\": null,
			\"vdso\": null, \"harness_problems\": [], \"qemu\": \"canned\", \"boot_seconds\": 0, \"jobs_ms\": 0}" \
		-L "$jq_dir" -f "$eval_jq" >"$2"
}
kernel_eval cet "$work/kernel.json" || { echo "FAIL: verify-eval: the evaluator failed on the kernel's canned runs"; exit 1; }
kernel_eval nocet "$work/nocet.json" || { echo "FAIL: verify-eval: the evaluator failed on a kernel without CET"; exit 1; }
kernel_eval cet "$work/nouser.json" "$work/kernel-guest-nocet.jsonl" ||
	{ echo "FAIL: verify-eval: the evaluator failed on a guest offering no user CET"; exit 1; }

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
check "$work/bochs.json" "bochs: a marked-ok program's #CP in libc.so.6 at one of libc's findings: the library's verdict, not the program's (not exercised)" \
	"$(chk ok-prog-libc ibt) | .result == \"not exercised\" and (.evidence | test(\"libc.so.6: not this file's verdict\"))"
check "$work/nolibs.json" "bochs: the same #CP with the library not audited: the marked-ok program's ibt contradicted" \
	"$(chk ok-prog-libc ibt).result == \"contradicted\""
check "$work/bochs.json" "bochs: the first violation of each run (kind, object+offset)" \
	'[.files[] | select(.path == "/c/broken-ibt-at-finding" or .path == "/c/broken-shstk-ret" or .path == "/c/ok-clean") | .runs[0].first_violation]
	 == [{kind: "ibt", at: "/c/broken-ibt-at-finding+0x1020"}, {kind: "shstk", at: "/c/broken-shstk-ret+0x1105"}, null]'
check "$work/bochs.json" "bochs: the environment names the executor and says enforcement is real, by an independent CPU model" \
	'.environment.executor == "bochs-cet" and (.environment.statement | test("REAL") and test("independently"))'
check "$work/qemu.json" "qemu-tcg, same runs: no enforcement exercised, the note checks decided by qemu-tcg" \
	"$(chk broken-ibt-elsewhere ibt).result == \"not exercised\" and $(chk ok-cperr ibt).result == \"not exercised\"
	 and $(chk ok-clean kernel-note).confirmed_by == \"qemu-tcg\" and (.files[0].runs[0] | has(\"first_violation\") | not)"

pchk() { printf '[.files[] | select(.path == "/p/%s") | .checks[] | select(.check == "%s")][0]' "$1" "$2"; }
check "$work/plugin.json" "plugin: a violation the audit predicted (to resolver): ibt of a marked-broken program confirmed by qemu-plugin" \
	"$(pchk broken-predicted ibt) | .result == \"confirmed\" and .confirmed_by == \"qemu-plugin\" and (.evidence | test(\"each predicted\"))"
check "$work/plugin.json" "plugin: a violation 4 bytes off every finding: ibt contradicted by qemu-plugin, placed object+offset" \
	"$(pchk broken-unpredicted ibt) | .result == \"contradicted\" and .contradicted_by == \"qemu-plugin\"
	 and (.evidence | test(\"did not predict, e.g. ibt /p/broken-unpredicted[+]0x1000 -> /p/broken-unpredicted[+]0x1024\"))"
check "$work/plugin.json" "plugin: a marked-ok program without violations: ibt and shstk confirmed by qemu-plugin" \
	"$(pchk ok-clean ibt).confirmed_by == \"qemu-plugin\" and $(pchk ok-clean shstk).confirmed_by == \"qemu-plugin\""
check "$work/plugin.json" "plugin: IBT not enabled by the kernel (0x2): ibt not exercised, its violation would not fault; shstk confirmed" \
	"$(pchk shstk-only ibt) | .result == \"not exercised\" and (has(\"confirmed_by\") or has(\"contradicted_by\") | not)
	 and (.evidence | test(\"note read: 0x2\\\\); the checker saw 1 violation\"))"
check "$work/plugin.json" "plugin: a program run outside the checker's window: not exercised" \
	"$(pchk no-window ibt) | .result == \"not exercised\" and (.evidence | test(\"window\"))"
check "$work/plugin.json" "plugin: the first violation of each run that counts (ibt at the target), none where IBT is off" \
	'[.files[] | .runs[0].first_violation] == [{kind: "ibt", at: "/p/broken-predicted+0x1020"},
	 {kind: "ibt", at: "/p/broken-unpredicted+0x1024"}, null, null, null]'
check "$work/plugin.json" "plugin: the dynamic-checker check: 4 windows, all closed, for 4 window runs" \
	'.guest_checks[] | select(.check == "dynamic-checker") | .result == "confirmed" and (.evidence | test("4 windows, one per program run, 3 violations"))'
check "$work/plugin.json" "plugin: the environment says the enforcement is emulated by the plugin" \
	'.environment.statement | test("EMULATED by the elfcet QEMU plugin")'
kchk() { printf '[.files[] | select(.path == "/k/%s") | .checks[] | select(.check == "%s")][0]' "$1" "$2"; }
check "$work/kernel.json" "kernel offering user IBT only: exec fails with the errno the audit predicts: kernel-note confirmed by qemu-tcg" \
	"$(kchk enoexec kernel-note) | .result == \"confirmed\" and .confirmed_by == \"qemu-tcg\" and .verdict == \"ENOEXEC:note-misaligned\"
	 and (.evidence | test(\"rejects the executable's note with ENOEXEC\"))"
check "$work/kernel.json" "kernel: a note the audit says is rejected, but the program ran: kernel-note contradicted by qemu-tcg" \
	"$(kchk enoexec-ran kernel-note) | .result == \"contradicted\" and .contradicted_by == \"qemu-tcg\" and (.evidence | test(\"rejects .* exec succeeded\"))"
check "$work/kernel.json" "kernel: ENOENT is the harness's failure: not exercised, and a harness problem" \
	"$(kchk missing kernel-note).result == \"not exercised\" and (.harness.problems | any(test(\"^/k/missing: exec failed with ENOENT\")))"
check "$work/kernel.json" "kernel: the features the status line shows (0x3, from the executable): kernel-note confirmed" \
	"$(kchk expect-ok kernel-note) | .result == \"confirmed\" and (.evidence | test(\"x86_feature_1_and 0x3 read from the executable\"))"
check "$work/kernel.json" "--expect: the first line expected: runs confirmed; another line: runs contradicted" \
	"$(kchk expect-ok runs).result == \"confirmed\" and ($(kchk expect-bad runs) | .result == \"contradicted\" and (.evidence | test(\"got exited 0, first line \\\"goodbye\\\"\")))"
check "$work/kernel.json" "vsyscall: flagged by the audit, SIGSEGV at the vsyscall page under the cet kernel: confirmed" \
	"$(kchk vsyscall vsyscall) | .result == \"confirmed\" and .verdict == \"flagged\" and (.evidence | test(\"0xffffffffff600400\"))"
check "$work/kernel.json" "kernel offering user CET: a read error (EIO) fails the exec: confirmed; a rejected note read with features: contradicted" \
	"$(kchk eio kernel-note).result == \"confirmed\" and $(kchk enoexec-bits kernel-note).result == \"contradicted\"
	 and .environment.user_cet_offered == true"
check "$work/nouser.json" "no user CET offered: the note the parser rejects is ignored, the program runs without a feature: kernel-note confirmed" \
	"$(kchk enoexec-ran kernel-note) | .result == \"confirmed\" and .confirmed_by == \"qemu-tcg\"
	 and (.evidence | test(\"offers no user CET .* ignores the executable's note .*ENOEXEC:note-misaligned.*none from=executable\"))"
check "$work/nouser.json" "no user CET offered: an exec failing with ENOEXEC all the same: kernel-note and kernel-reads-note-of contradicted" \
	"$(kchk enoexec kernel-note).result == \"contradicted\" and $(kchk enoexec kernel-reads-note-of).result == \"contradicted\"
	 and .environment.user_cet_offered == false"
check "$work/nouser.json" "no user CET offered: a read error (EIO) still fails the exec: confirmed" \
	"$(kchk eio kernel-note) | .result == \"confirmed\" and (.evidence | test(\"rejects the executable's note with EIO\"))"
check "$work/nouser.json" "no user CET offered: an ignored note that enabled features (0x3): contradicted" \
	"$(kchk enoexec-bits kernel-note) | .result == \"contradicted\" and (.evidence | test(\"ignores\"))"
check "$work/nocet.json" "nocet: the exec the audit says fails runs on a kernel without CET: kernel-ignores-note confirmed, vsyscall contradicted" \
	"$(kchk enoexec-ran kernel-ignores-note).result == \"confirmed\" and $(kchk enoexec-ran kernel-note).result == \"not exercised\"
	 and $(kchk vsyscall vsyscall).result == \"contradicted\""
check "$work/kernel.json" "the summary counts the checks by result" \
	'[.files[].checks[], .guest_checks[]] as $all
	 | .summary.confirmed == ([$all[] | select(.result == "confirmed")] | length) and .summary.confirmed > 0
	 and .summary.contradicted == ([$all[] | select(.result == "contradicted")] | length) and .summary.contradicted > 0
	 and .summary.not_exercised == ([$all[] | select(.result == "not exercised")] | length) and .summary.harness_problems == 1'
for report in bochs qemu plugin kernel nocet nouser nolibs; do
	check "$work/$report.json" "$report: every confirmed or contradicted verdict, and only those, names the executor of the report" \
		'.environment.executor as $e | [.files[].checks[], .guest_checks[]]
		 | all(.[]; if .result == "confirmed" then .confirmed_by == $e and (has("contradicted_by") | not)
			   elif .result == "contradicted" then .contradicted_by == $e and (has("confirmed_by") | not)
			   else (has("confirmed_by") or has("contradicted_by")) | not end)'
done

# vm/verify's reading of the console: JSON objects are the guest's lines; other lines
# not blank are harness problems, cut at 120 characters; a last line cut short is dropped.
printf '%s\n' '{"type":"guest"}' '   ' 'Linux version 6.1' 42 "$(printf 'y%.0s' {1..130})" '{"type":"done","jobs":0}' >"$work/console"
printf '{"type":"job"' >>"$work/console"
console_want="$(printf '[["{\\"type\\":\\"guest\\"}", "{\\"type\\":\\"done\\",\\"jobs\\":0}"],
	["console line that is not JSON: Linux version 6.1", "console line that is not JSON: 42",
	 "console line that is not JSON: %s"]]' "$(printf 'y%.0s' {1..120})")"
if jq -e -Rs -L "$jq_dir" --argjson want "$console_want" \
	'import "verify-lib" as v; [[v::console_lines | select(.json) | .line], v::console_problems] == $want' \
	"$work/console" >/dev/null 2>&1; then
	echo "PASS: verify-eval: console: the JSON objects kept, other lines harness problems, a last line cut short dropped"
	pass=$((pass + 1))
else
	echo "FAIL: verify-eval: console: the JSON objects kept, other lines harness problems, a last line cut short dropped"
	jq -Rs -L "$jq_dir" -c 'import "verify-lib" as v; [[v::console_lines | select(.json) | .line], v::console_problems]' \
		"$work/console" 2>&1 | sed 's/^/    /'
	fail=$((fail + 1))
fi

if grep -q 'ibt  *confirmed .*resolver.* \[by bochs-cet\]$' "$work/bochs.txt"; then
	echo "PASS: verify-eval: the text report names the executor on each decided verdict"; pass=$((pass + 1))
else
	echo "FAIL: verify-eval: the text report names the executor on each decided verdict"; sed 's/^/    /' "$work/bochs.txt" | head -40
	fail=$((fail + 1))
fi
echo "verify-eval: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
