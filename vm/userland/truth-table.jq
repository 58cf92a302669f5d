# vm/userland/check: the truth table from vm/verify's JSON report. One row per file that
# ran: elfcet's IBT and SHSTK verdicts, how the run ended, the features the kernel
# enabled at exec and those still on at exit (after ld.so's checks), then each check's
# result as decided by the executor, with one more check, loader (loader_check). Then
# one row per shared library the programs mapped (library_row). $objects: [{path, ibt,
# shstk, glibc}] for every object mapped, by its guest path: elfcet's verdicts of the
# guest's copy and the features in the note glibc reads (consumers.glibc). Each
# contradiction follows as a line "disagree: FILE: CHECK: EVIDENCE". A closing line counts the files that agree (no check contradicted, at
# least one decided) and those that disagree.
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

def enforced($f): any($f.checks[]; .check == "ibt" and .result == "confirmed")
	and any($f.checks[]; .check == "shstk" and .result == "confirmed");
def name: .path | sub(".*/"; "");
# A library against the programs that had it mapped at their exit. It disagrees when a
# program's first #CP lies in it and elfcet called it marked-ok for that feature, or the
# audit named no finding there (the program's check is contradicted); it agrees when such
# a #CP is at one of its findings (a marked-broken or not-ready verdict borne out), or when
# one of the programs ran its workload to exit 0 with both features on from exec to exit
# (so ld.so found it marked and kept them on) while elfcet called it marked-ok for both.
# Otherwise it was not exercised: a marked-broken verdict whose findings the workloads did
# not reach, or a library loaded only where ld.so turned CET off.
def library_row($ran):
	. as $l
	| [$ran[] | select(any(.runs[0].guest.maps[]?; .path == $l.path))] as $users
	| [$users[] | select(enforced(.) and .runs[0].guest.end.how == "exited" and .runs[0].guest.end.code == 0)] as $clean
	| [$users[] | . as $u | .runs[0].first_violation | select(. != null and (.at | startswith($l.path + "+")))
	   | . + {ok: (($l[.kind] // "") == "marked-ok"),
		  missed: any($u.checks[]; .check == $u.runs[0].first_violation.kind and .result == "contradicted")}] as $cps
	| [$cps[] | select(.ok or .missed)] as $wrong
	| {path: $l.path, ibt: $l.ibt, shstk: $l.shstk, users: [$users[] | name],
	   result: (if ($wrong | length) > 0 then "DISAGREE"
		    elif ($cps | length) > 0 then "agree"
		    elif ($clean | length) > 0 and $l.ibt == "marked-ok" and $l.shstk == "marked-ok" then "agree"
		    else "-" end),
	   why: (if ($wrong | length) > 0 then "#CP at \($wrong[0].at), " + (if $wrong[0].ok then "verdict marked-ok" else "no finding there" end)
		 elif ($cps | length) > 0 then "#CP at \($cps[0].at), one of its findings"
		 elif ($clean | length) > 0 then "enforced to exit 0 in \([$clean[] | name] | join(","))"
		 elif ($users | length) > 0 then "loaded by \([$users[] | name] | join(",")), CET not on to exit 0"
		 else "loaded by no program" end)};

def bits: if . == null then [] else split(" ") | map(select(. == "ibt" or . == "shstk")) end;
# What ld.so did beside what elfcet says it reads: under the default tunables glibc keeps a
# feature the kernel enabled only when every object mapped has it in the note glibc reads
# (consumers.glibc of each, in $objects). The features on at exit must be those.
def loader_check($objects):
	.runs[0].guest as $g
	| ([$g.maps[]?.path] | unique) as $mapped
	| ($g.status.x86_Thread_features | bits) as $at_exec
	| if $g.status_exit == null or ($mapped | length) == 0 then
		{check: "loader", result: "not exercised", evidence: "no state read at exit"}
	  elif any($mapped[]; $objects[.] == null) then
		{check: "loader", result: "not exercised",
		 evidence: "not audited: \([$mapped[] | select($objects[.] == null)] | join(", "))"}
	  else
		(reduce $mapped[] as $m ($at_exec; . - (. - $objects[$m].glibc))) as $expected
		| ($g.status_exit.x86_Thread_features | bits) as $at_exit
		| if ($expected | sort) == ($at_exit | sort) then
			{check: "loader", result: "confirmed",
			 evidence: "ld.so left \($at_exit | join("+") | if . == "" then "nothing" else . end) on, as the notes elfcet says glibc reads predict"}
		  else
			{check: "loader", result: "contradicted",
			 evidence: "ld.so left \($at_exit | join("+") | if . == "" then "nothing" else . end) on, but elfcet says glibc reads \($expected | join("+")) in every object mapped: \([$mapped[] | "\(sub(".*/"; ""))=\($objects[.].glibc | join("+") | if . == "" then "-" else . end)"] | join(" "))"}
		  end
	  end;

($objects[0] | map({key: .path, value: .}) | from_entries) as $byPath
| [.files[] | select((.runs | length) > 0) | .checks += [loader_check($byPath)]] as $ran
| [$objects[0][] | select(.path | test("^/elfcet/|/ld-linux") | not) | library_row($ran)
   | select((.users | length) > 0)] as $librows
# A library is named by its file name, or by its path when two have the same name (the
# rebuilt libbz2 and Debian's own, force-marked, in a directory of its own).
| ([$librows[] | name] | group_by(.) | map(select(length > 1) | .[0])) as $twice
| def libname: name as $n | if any($twice[]; . == $n) then .path else $n end;
  ($ran | map(select(any(.checks[]; .result == "contradicted")))) as $bad
| ($ran | map(select((any(.checks[]; .result == "contradicted") | not)
		    and any(.checks[]; .result == "confirmed")))) as $good
| (["file", "ibt", "shstk", "run", "at-exec", "at-exit", "checks"] | @tsv),
  ($ran[] | .runs[0].guest as $g
   | [(.path | sub(".*/"; "")), (.checks[] | select(.check == "ibt") | .verdict),
      (.checks[] | select(.check == "shstk") | .verdict), ($g | ending),
      features($g.status), features($g.status_exit),
      ([.checks[] | select(.result != "not exercised") | "\(.check):\(.result | short)"] | join(" "))]
   | map(. // "-") | @tsv),
  ($librows[] | [libname, .ibt, .shstk, "library", "-", "-", "\(.result): \(.why)"] | @tsv),
  ($ran[] | name as $n | .checks[] | select(.result == "contradicted") | "disagree: \($n): \(.check): \(.evidence)"),
  ($librows[] | select(.result == "DISAGREE") | "disagree: \(libname): library: \(.why)"),
  "truth table: \(($ran | length) + ($librows | length)) files, \(($good | length) + ([$librows[] | select(.result == "agree")] | length)) agree, \(($bad | length) + ([$librows[] | select(.result == "DISAGREE")] | length)) disagree"
