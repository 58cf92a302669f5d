# vm/verify: the readable report, from the JSON report that verify-eval.jq writes.
# Run with `jq -L vm` (vm/verify-lib.jq).
import "verify-lib" as v;

def pad($n): tostring | . + (" " * ([$n - length, 0] | max));

# ADDR (a "0x..." string) as "object+offset" from the run's maps (file offset), or "".
def where($maps; $addr):
	($addr | v::hexnum) as $a
	| v::map_at($maps; $a) as $m
	| if $m then " (\($m.path | ltrimstr("/elfcet/files") | ltrimstr("/elfcet"))+\(v::file_offset($m; $a) | v::hex))" else "" end;

# The executor that decided a check, where one did.
def by: if .confirmed_by then " [by \(.confirmed_by)]" elif .contradicted_by then " [by \(.contradicted_by)]" else "" end;

# How one run ended, in a few words.
def run_text:
	if . == null then "no result"
	elif (.exec.ok | not) then "exec failed with \(.exec.errno // "?")"
	elif .end.how == "exited" then "exited \(.end.code)"
	elif .end.how == "signaled" then "killed by \(.end.signal)"
		+ (if .end.siginfo then " (si_code \(.end.siginfo.code_name // .end.siginfo.code)"
		   + (if .end.siginfo.code_name == "SEGV_CPERR" and .end.siginfo.ip then " at ip \(.end.siginfo.ip)\(where(.maps; .end.siginfo.ip))"
		      elif .end.siginfo.addr then " at \(.end.siginfo.addr)\(where(.maps; .end.siginfo.addr))" else "" end) + ")" else "" end)
	elif .end.how == "timeout" then "killed at the job time limit (\(.end.after_s) s)"
	else .end.how end
	+ (if (.output // "") != "" then ", output " + (.output | split("\n")[0] | .[0:60] | tojson) else "" end);

"elfcet VM verification: kernel \(.environment.kernel) (\(.environment.variant)), guest \(.environment.guest.release // "?"), \(.environment.qemu)\(if .environment.executor then "; executor " + .environment.executor else "" end)",
"CPU: host \(.environment.host_cpu); guest: ibt \(.environment.guest.cpu_flags.ibt // false), shstk \(.environment.guest.cpu_flags.shstk // false), user_ibt \(.environment.guest.cpu_flags.user_ibt // false), user_shstk \(.environment.guest.cpu_flags.user_shstk // false)",
(.environment.statement),
"",
(.files[] |
  "\(.path)  [\(.type), kernel reads the note of \(.kernel_reads_note_of)\(if .interpreter then ": " + .interpreter else "" end)]",
  (.runs[] | "  \("run" | pad(21)) \(.guest.argv // [] | .[1:] | join(" ") | if . == "" then "" else "[" + . + "] " end)\(.guest | run_text)"),
  (.runs[] | select(.first_violation != null) | "  \("first violation" | pad(21)) \(.first_violation.kind) at \(.first_violation.at)"),
  (.checks[] | "  \(.check | pad(21)) \(.result | pad(14)) \(if .verdict then "(" + .verdict + ") " else "" end)\(.evidence)\(by)"),
  ""),
"guest:",
(.guest_checks[] | "  \(.check | pad(21)) \(.result | pad(14)) \(.evidence)\(by)"),
(if (.harness.problems | length) > 0 then "", "harness problems:", (.harness.problems[] | "  " + .) else empty end),
"",
"boot and runs: \(.environment.boot_seconds) s wall for \(.harness.jobs) jobs (\(.environment.jobs_ms) ms inside the guest)",
"summary: \(.summary.confirmed) confirmed, \(.summary.contradicted) contradicted, \(.summary.not_exercised) not exercised (\(.summary.files) files, \(.summary.jobs) runs\(if .summary.harness_problems > 0 then ", \(.summary.harness_problems) harness problems" else "" end))"
