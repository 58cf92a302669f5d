# vm/userland/check: the truth table from vm/verify's JSON report. One row per file that
# ran: elfcet's IBT and SHSTK verdicts, how the run ended, the features the kernel
# enabled at exec and those still on at exit (after ld.so's checks), then each check's
# result as decided by the executor. A closing line counts the files that agree (no
# check contradicted, at least one decided) and those that disagree.
def ending:
	if . == null then "no result"
	elif (.exec.ok | not) then "exec failed \(.exec.errno // "?")"
	elif .end.how == "exited" then "exit \(.end.code)"
	elif .end.how == "signaled" then
		"\(.end.signal)" + (if .end.siginfo.code_name then "/" + .end.siginfo.code_name else "" end)
		+ (if .end.siginfo.ip then "@" + .end.siginfo.ip else "" end)
	else .end.how end;
def features($s): ($s // {}) | to_entries | map(select(.key | test("thread_features$"; "i")))
	| (first.value // "?") | if . == "" then "-" else gsub(" "; "+") end;
def short: {confirmed: "agree", contradicted: "DISAGREE", "not exercised": "-"}[.] // .;

[.files[] | select((.runs | length) > 0)] as $ran
| ($ran | map(select(any(.checks[]; .result == "contradicted")))) as $bad
| ($ran | map(select((any(.checks[]; .result == "contradicted") | not)
		    and any(.checks[]; .result == "confirmed")))) as $good
| (["file", "ibt", "shstk", "run", "at-exec", "at-exit", "checks"] | @tsv),
  ($ran[] | .runs[0].guest as $g
   | [(.path | sub(".*/"; "")), (.checks[] | select(.check == "ibt") | .verdict),
      (.checks[] | select(.check == "shstk") | .verdict), ($g | ending),
      features($g.status), features($g.status_exit),
      ([.checks[] | select(.result != "not exercised") | "\(.check):\(.result | short)"] | join(" "))]
   | map(. // "-") | @tsv),
  "truth table: \($ran | length) files, \($good | length) agree, \($bad | length) disagree"
