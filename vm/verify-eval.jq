# vm/verify: compares what `elfcet audit` predicted with what the guest observed.
#
# Inputs (jq -n --slurpfile / --argjson):
#   $audit[0]  elfcet audit --format=json of every file (and every interpreter)
#   $jobs[0]   [{id, file, guest_path, argv, expect_output}]: what the guest ran
#   $guest     every JSON line the guest runner wrote (type guest / job / error / done)
#   $plugin    the dynamic checker's JSON lines (window open/close, violation), or []
#   $libs[0]   (optional) elfcet audit --format=json of the libraries the programs load:
#              under real enforcement a #CP inside one is placed by its findings
#   $env       {variant, kernel, host_cpu, qemu, executor, boot_seconds, harness_problems}
#              executor: qemu-tcg, qemu-plugin, bochs-cet or kvm
# Output: the report (see vm/README.md), with one entry per check:
#   {check, verdict, result: confirmed|contradicted|not exercised, evidence,
#    confirmed_by|contradicted_by: the executor}
# Run with `jq -L vm`: the hex conversions and the map lookups are vm/verify-lib.jq's.
import "verify-lib" as v;

# The kernel's reading as shown in /proc/PID/status. The kernel series names the line
# x86_Elf_features ("0x3 ibt shstk from=executable", "none from=interpreter"); any x86_
# line mentioning the ELF note or "from=" is taken, so a rename costs nothing.
def status_reading:
	(.status // {}) as $s
	| ([$s | to_entries[] | select((.key | test("elf"; "i")) or (.value | test("from=")))]
	   | first) as $line
	| if $line == null then null else
		($line.value | split(" ") | map(select(length > 0))) as $words
		| { line: ($line.key + ": " + $line.value),
		    features: (if $words[0] == "none" then null
			       else ($words[0] | v::hexnum) end),
		    from: ([$words[] | select(startswith("from=")) | ltrimstr("from=")] | first) }
	  end;

# The end of a run against its expectation (--expect, --expect-signal).
def ended_as_expected:
	.result_line as $r
	| if .expect_signal then
	    $r.exec.ok and $r.end.how == "signaled" and $r.end.signal == .expect_signal.signal
	    and (.expect_signal.code_name == null or $r.end.siginfo.code_name == .expect_signal.code_name)
	    and (.expect_signal.addr == null or $r.end.siginfo.addr == .expect_signal.addr)
	  else
	    $r.exec.ok and $r.end.how == "exited" and $r.end.code == 0 and $r.output_matches == true
	  end;
def expectation_text:
	if .expect_signal then "expected death by \(.expect_signal.signal)"
		+ (if .expect_signal.code_name then " with si_code \(.expect_signal.code_name)" else "" end)
		+ (if .expect_signal.addr then " at \(.expect_signal.addr)" else "" end)
	else "expected exit 0 and first line \(.expect_output | tojson)" end;
def end_text:
	if (.exec.ok | not) then "exec failed with \(.exec.errno // "?")"
	elif .end.how == "exited" then "exited \(.end.code), first line \(.output // "" | split("\n")[0] // "" | tojson)"
	elif .end.how == "signaled" then "killed by \(.end.signal)"
		+ (if .end.siginfo then " (si_code \(.end.siginfo.code_name // .end.siginfo.code)"
		   + (if .end.siginfo.code_name == "SEGV_CPERR" and .end.siginfo.ip then " at ip \(.end.siginfo.ip)"
		      elif .end.siginfo.addr then " at \(.end.siginfo.addr)" else "" end) + ")" else "" end)
	elif .end.how == "timeout" then "killed at the job time limit"
	else .end.how end;

# A run-time address (a number) as {path (host), offset (in the file)} from the maps
# the runner read, or null (an object mapped after the exec, e.g. a library).
def locate($maps; $addr):
	v::map_at($maps; $addr) as $m
	| if $m == null then null else
	    {path: ($m.path | if startswith("/elfcet/files/") then ltrimstr("/elfcet/files")
			     elif startswith("/elfcet/tmp/") then ltrimstr("/elfcet") else . end),
	     offset: v::file_offset($m; $addr),
	     bias: ([$maps[] | select(.path == $m.path and (.offset | v::hexnum) == 0) | .start | v::hexnum] | first)}
	  end;

def features_text: if . == null then "none" else v::hex end;

# Whether the feature ("ibt", "shstk") was still on when the program ended, from the
# x86_Thread_features line the runner copied at the exit stop: a CET ld.so turns off at
# start-up what not every loaded object is marked for. True when no exit reading exists
# (a kernel or runner that does not give one): then the exec reading alone decides.
def still_enabled($name):
	(.status_exit // {}) as $s
	| ($s | to_entries | map(select(.key | test("thread_features$"; "i"))) | first) as $line
	| if $line == null then true else ($line.value | split(" ") | index($name)) != null end;

# Whether the kernel's reading $k (elfcet's consumers.kernel) fails the exec: a note its
# parser rejects fails it only where the kernel offers a user CET feature ($userCet);
# elsewhere the series ignores the note (ignored_without_user_cet), a read error never.
def kernel_fails($k; $userCet):
	($k.accepted | not) and ((($k.ignored_without_user_cet // false) and ($userCet | not)) | not);

# What the kernel does at exec, by elfcet's reading of the note it reads.
def expected_exec($reader; $from; $userCet):
	$reader.consumers.kernel as $k
	| if kernel_fails($k; $userCet) then {exec: "fails", errno: $k.errno, rule: $k.rule}
	  elif ($k.accepted | not) then {exec: "runs", features: null, from: $from, ignored: "\($k.errno):\($k.rule)"}
	  else {exec: "runs", features: (if $k.sees_note then $k.feature_1_and else null end),
		from: $from} end;

# elfcet's prediction for a run that goes on, in words.
def expected_text:
	if .expected.ignored then
	  "elfcet: the kernel offers no user CET (neither user_ibt nor user_shstk in the guest's /proc/cpuinfo), so it ignores the \(.from)'s note it rejects where it offers one (\(.expected.ignored)): no feature, read from the \(.from)"
	else "elfcet: x86_feature_1_and \(.expected.features | features_text) read from the \(.from)" end;

def observed_text:
	if .exec.ok then
		"exec succeeded" + (status_reading as $r | if $r then "; status: " + $r.line
				     else "; no x86_ ELF line in /proc/PID/status" end)
	else "exec failed with " + (.exec.errno // "an unknown error") end;

# Errors that say the harness failed to put the file in place, not how the kernel read a
# note: they make the run a harness failure, never a confirmation or a contradiction.
def harness_errno: . as $e | ["ENOENT", "EACCES", "ENOTDIR", "E2BIG", "ENOMEM", "ETXTBSY", "ELIBBAD"] | index($e) != null;

($audit[0].files | map({key: .path, value: .}) | from_entries) as $byPath
| (($ARGS.named.libs // [])[0].files // [] | map({key: .path, value: .}) | from_entries) as $libByPath
| ($libByPath + $byPath) as $byObject
| ($env.executor // (if $env.plugin != null then "qemu-plugin" else "qemu-tcg" end)) as $executor
| ($guest | map(select(.type == "job")) | map({key: .id, value: .}) | from_entries) as $results
| ($guest | map(select(.type == "guest")) | first) as $guestInfo
| ($env.variant == "cet") as $cetKernel
| ($guestInfo.cpu_flags // {}) as $cpu
# The kernel offers a user CET feature (the synthetic flags of the series).
| (($cpu.user_ibt // false) or ($cpu.user_shstk // false)) as $userCet

# The checker's windows, in order: the runner opens one per job run in window mode.
| (reduce ($plugin // [])[] as $e ([];
	if $e.event == "window" and $e.open then . + [{violations: [], closed: false}]
	elif $e.event == "window" and length > 0 then .[-1].closed = true
		| .[-1].interrupted = $e.interrupted_transfers
	elif $e.event == "violation" and length > 0 then .[-1].violations += [$e]
	else . end)) as $windows
| ([$guest[] | select(.type == "job" and .window == true) | .id]
   | to_entries | map({key: .value, value: $windows[.key]}) | from_entries) as $windowOf

# One evaluation per job: whose note the kernel reads, what elfcet expects, what happened.
| [ $jobs[0][] as $job
    | $byPath[$job.file] as $file
    | (if $file.kernel_reads_note_of == "interpreter" then $byPath[$file.interpreter] else $file end) as $reader
    | (if $file.kernel_reads_note_of == "interpreter" then "interpreter" else "executable" end) as $from
    | $results[$job.id] as $r
    | { id: $job.id, file: $job.file, reader: $reader.path, from: $from, result_line: $r,
        expect_output: $job.expect_output, expect_signal: $job.expect_signal,
        window: (if $r.window == true then $windowOf[$job.id] else null end),
        expected: expected_exec($reader; $from; $userCet) }
    | if $r == null then . + {result: "harness", evidence: "the guest wrote no result for this job"}
      elif ($r.exec.ok | not) and ($r.exec.errno // "" | harness_errno) then
	. + {result: "harness", evidence: "exec failed with \($r.exec.errno): the file or a library is missing or unusable in the guest"}
      elif ($cetKernel | not) then
	# A kernel without the CET series reads no property note: every exec must go on.
	if $r.exec.ok then . + {result: "confirmed", evidence: ("kernel without CET (\($env.variant)): " + ($r | observed_text) + ", whatever the note says")}
	else . + {result: "contradicted", evidence: ("kernel without CET (\($env.variant)) but " + ($r | observed_text))} end
      elif .expected.exec == "fails" then
	if ($r.exec.ok | not) and $r.exec.errno == .expected.errno then
	  . + {result: "confirmed", evidence: ("elfcet: the kernel rejects the \($from)'s note with \(.expected.errno) (\(.expected.rule)); guest: " + ($r | observed_text))}
	else
	  . + {result: "contradicted", evidence: ("elfcet: the kernel rejects the \($from)'s note with \(.expected.errno) (\(.expected.rule)); guest: " + ($r | observed_text))}
	end
      else
	($r | status_reading) as $seen
	| if ($r.exec.ok | not) then
	    . + {result: "contradicted", evidence: ((if .expected.ignored then expected_text
			else "elfcet: the kernel accepts the \($from)'s note (x86_feature_1_and \(.expected.features | features_text))" end)
			+ "; guest: " + ($r | observed_text))}
	  elif $seen == null then
	    . + {result: "harness", evidence: "exec succeeded but the kernel shows no x86_ ELF line in /proc/PID/status: is this a kernel with the elfcet CET series?"}
	  elif $seen.features == .expected.features and $seen.from == $from then
	    . + {result: "confirmed", evidence: (expected_text + "; guest: " + ($r | observed_text))}
	  else
	    . + {result: "contradicted", evidence: (expected_text + "; guest: " + ($r | observed_text))}
	  end
      end
  ] as $evals

| def aggregate($check; $verdict; $list; $none):
	if ($list | length) == 0 then {check: $check, verdict: $verdict, result: "not exercised", evidence: $none}
	elif any($list[]; .result == "contradicted") then
	  {check: $check, verdict: $verdict, result: "contradicted",
	   evidence: ([$list[] | select(.result == "contradicted") | .evidence] | join("; "))}
	elif all($list[]; .result == "confirmed") then
	  {check: $check, verdict: $verdict, result: "confirmed", evidence: ([$list[] | .evidence] | unique | join("; "))}
	else {check: $check, verdict: $verdict, result: "not exercised",
	      evidence: ([$list[] | select(.result == "harness") | .evidence] | unique | join("; "))} end;

# The IBT and shadow-stack verdicts need enforcement: the dynamic checker (QEMU plugin),
# or real CET hardware (the guest CPU flags say so; then a fault is SEGV_CPERR).
def place($l): if $l == null then "an object mapped after the exec" else "\($l.path)+\($l.offset | v::hex)" end;

def plugin_check($check; $bit; $verdict; $runs; $byPath):
	([$runs[] | select(.window != null)]) as $w
	| if ($w | length) == 0 then
	    {check: $check, verdict: $verdict, result: "not exercised", evidence: "the program did not run in the checker's window"}
	  else
	    [ $w[] | . as $run
	      | ((.result_line | status_reading).features // 0) as $feat
	      | ((($feat / $bit) | floor) % 2 == 1) as $enforced
	      | [.window.violations[] | select(if $check == "ibt" then .kind == "ibt" else (.kind | startswith("shstk")) end)
		 | . as $v
		 | (if $check == "ibt" then $v.dst else $v.src end) as $at
		 | locate($run.result_line.maps; $at) as $loc
		 | ($byPath[$loc.path // ""]) as $obj
		 | (if $obj == null then null
		    elif ($obj.type == "exec" or $obj.type == "static") then $at
		    else $at - ($loc.bias // 0) end) as $vaddr
		 | {kind: $v.kind, src: locate($run.result_line.maps; $v.src), dst: locate($run.result_line.maps; $v.dst),
		    predicted: ($obj != null and any($obj.findings[]?; (.rule | startswith($check))
			and (.address == $vaddr or any(.labels[]?; . == $vaddr))))}]
	      | {enforced: $enforced, feat: $feat, violations: .} ]
	    | . as $each
	    | ([$each[] | select(.enforced) | .violations[] | select(.predicted | not)]) as $bad
	    | ([$each[] | select(.enforced)]) as $enf
	    | ([$each[] | select(.enforced | not) | .violations | length] | add // 0) as $silent
	    | if ($enf | length) == 0 then
		{check: $check, verdict: $verdict, result: "not exercised",
		 evidence: "the kernel enabled no \($check) for this process (note read: \($each[0].feat | if . == 0 then "none" else v::hex end)); the checker saw \($silent) violation(s) that would not fault"}
	      elif ($bad | length) > 0 then
		{check: $check, verdict: $verdict, result: "contradicted",
		 evidence: ("\($bad | length) \($check) violation(s) the audit did not predict, e.g. " +
		   ([$bad[:3][] | "\(.kind) \(place(.src)) -> \(place(.dst))"] | join("; ")))}
	      elif $verdict == "marked-ok" then
		{check: $check, verdict: $verdict, result: "confirmed",
		 evidence: "no \($check) violation on the paths the run executed (checker attached, \($check) enabled by the note)"}
	      elif ($verdict == "marked-broken" or $verdict == "not-ready")
		   and ([$enf[] | .violations[]] | length) > 0 then
		([$enf[] | .violations[]]) as $seen
		| {check: $check, verdict: $verdict, result: "confirmed",
		   evidence: ("\($seen | length) \($check) violation(s), each predicted by the audit, e.g. " +
		     ([$seen[:3][] | "\(.kind) \(place(.src)) -> \(place(.dst))"] | join("; ")))}
	      else
		{check: $check, verdict: $verdict, result: "not exercised",
		 evidence: "no violation the audit predicted was on the paths the run executed"}
	      end
	  end;

# vsyscall: the series removes the vsyscall page's emulation when CET is configured, so a
# program calling it dies with SIGSEGV at 0xffffffffff600xxx under the cet kernel and runs
# under a kernel without CET. Findings named vsyscall-* (the code audit) say who calls it.
def at_vsyscall: .end.how == "signaled" and .end.signal == "SIGSEGV"
	and ((.end.siginfo.addr // "") | startswith("0xffffffffff600"));
def vsyscall_check($f; $runs):
	([$f.findings[]? | select(.rule | startswith("vsyscall"))]) as $flagged
	| ([$runs[] | .result_line | select(. != null and .exec.ok and (.window != true))]) as $ran
	| ([$ran[] | select(at_vsyscall)]) as $died
	| if ($ran | length) == 0 then
	    {check: "vsyscall", verdict: null, result: "not exercised", evidence: "not run under ptrace (or not run)"}
	  elif ($flagged | length) == 0 then
	    if ($died | length) > 0 then
	      {check: "vsyscall", verdict: null, result: "contradicted",
	       evidence: "died with SIGSEGV at the vsyscall page (\($died[0].end.siginfo.addr)), a use the audit did not flag"}
	    else
	      {check: "vsyscall", verdict: null, result: "not exercised",
	       evidence: "no vsyscall use flagged by the audit, and none seen in the run"}
	    end
	  elif $cetKernel then
	    if ($died | length) > 0 then
	      {check: "vsyscall", verdict: "flagged", result: "confirmed",
	       evidence: "flagged vsyscall use; died with SIGSEGV at \($died[0].end.siginfo.addr) under the cet kernel"}
	    else
	      {check: "vsyscall", verdict: "flagged", result: "not exercised",
	       evidence: "flagged vsyscall use, but the run did not reach it (\($ran[0] | .end.how))"}
	    end
	  elif ($died | length) > 0 then
	    {check: "vsyscall", verdict: "flagged", result: "contradicted",
	     evidence: "died at the vsyscall page under a kernel without CET (\($env.variant)), which emulates it"}
	  else
	    {check: "vsyscall", verdict: "flagged", result: "confirmed",
	     evidence: "flagged vsyscall use; ran under a kernel without CET (\($env.variant)), which emulates it"}
	  end;

# Real enforcement (a CPU with CET: Bochs, or the host's under KVM). The kernel's
# SEGV_CPERR carries no address: the runner records the instruction pointer at the signal
# stop, the target lacking ENDBR (IBT) or the RET (shadow stack). Placed in the maps read
# at the exit stop and turned into the object's vaddr as plugin_check does, it must be one
# of the audit's findings of that feature: anywhere else, the audit missed it.
def cp_fault($r):
	([$r.signals[]? | select(.code_name == "SEGV_CPERR")] | first) as $s
	| if $s == null then null else
	    # The kernel logs each user #CP with the CPU's error code: its name tells the kinds apart.
	    ([$r.kernel_log[]? | capture("control protection ip:(?<ip>[0-9a-f]+) .*error:(?<code>[0-9a-f]+)\\((?<name>[^)]*)\\)")] | first) as $log
	    | (if $s.ip then $s.ip | v::hexnum elif $log then $log.ip | v::hexnum else null end) as $ip
	    | (if $ip == null then null else locate($r.maps; $ip) end) as $loc
	    | ($byObject[$loc.path // ""]) as $obj
	    | (if $obj == null then null
	       elif ($obj.type == "exec" or $obj.type == "static") then $ip
	       else $ip - ($loc.bias // 0) end) as $vaddr
	    # A tracked jump table's finding is at its jmp; the #CP at the label taken, one of
	    # the finding's labels.
	    | ([$obj.findings[]? | select(.address == $vaddr or ($vaddr != null and any(.labels[]?; . == $vaddr)))]) as $hits
	    | {ip: $ip, loc: $loc, audited: ($obj != null), vaddr: $vaddr, hits: $hits,
	       cpu_error: (if $log then $log.name else null end),
	       kind: (if $log == null then
			(if any($hits[]; .rule | startswith("ibt")) then "ibt"
			 elif any($hits[]; .rule | startswith("shstk")) then "shstk" else null end)
		      elif $log.name == "endbranch" then "ibt" else "shstk" end)}
	  end;
def cp_text:
	"#CP\(if .cpu_error then " (" + .cpu_error + ")" else "" end) at \(place(.loc))"
	+ (if .vaddr != null and .loc != null then " (vaddr \(.vaddr | v::hex))" else "" end);
def finding_text: "\(.rule) at \(.symbol // (.address | v::hex))";

def real_check($check; $bit; $verdict; $runs):
	([$runs[] | select(.result_line != null and .result_line.exec.ok)]) as $ran
	| if ($ran | length) == 0 then {check: $check, verdict: $verdict, result: "not exercised", evidence: "the program did not run"}
	  else
	    [ $ran[] | ((.result_line | status_reading).features // 0) as $feat
	      | cp_fault(.result_line) as $cp
	      | {feat: $feat, enforced: ((($feat / $bit) | floor) % 2 == 1 and (.result_line | still_enabled($check))),
		 cp: $cp,
		 hit: (if $cp == null then null else [$cp.hits[] | select(.rule | startswith($check))] | first end),
		 ours: ($cp != null and ($cp.kind == $check or $cp.kind == null))} ] as $each
	    | ([$each[] | select(.enforced)]) as $enf
	    | ([$enf[] | select(.ours and .hit == null)]) as $missed
	    | ([$enf[] | select(.ours and .hit != null)]) as $atFinding
	    | ([$enf[] | select(.cp != null and (.ours | not))]) as $other
	    | if ($enf | length) == 0 then
		{check: $check, verdict: $verdict, result: "not exercised",
		 evidence: "\($check) was not enforced for this process: the kernel did not enable it, or the loader turned it off (note read: \($each[0].feat | if . == 0 then "none" else v::hex end))"}
	      elif ($missed | length) > 0 then
		{check: $check, verdict: $verdict, result: "contradicted",
		 evidence: ($missed[0].cp | cp_text + ", where the audit names no \($check) finding"
			    + (if .loc == null then " (the address is in no file mapping)"
			       elif .audited | not then " (\(.loc.path) was not audited)" else "" end)
			    + ": the audit missed it")}
	      elif ($atFinding | length) > 0 and $verdict == "marked-ok"
		   and ($atFinding[0].cp.loc.path == $runs[0].file) then
		{check: $check, verdict: $verdict, result: "contradicted",
		 evidence: ($atFinding[0] | .cp as $cp | ($cp | cp_text) + ", the audit's finding \(.hit | finding_text) in \($cp.loc.path), but the verdict is marked-ok")}
	      elif ($atFinding | length) > 0 and ($verdict == "marked-broken" or $verdict == "not-ready") then
		{check: $check, verdict: $verdict, result: "confirmed",
		 evidence: ($atFinding[0] | .cp as $cp | ($cp | cp_text) + ", the audit's finding \(.hit | finding_text)"
			    + (if $cp.loc.path != ($runs[0].file) then " in \($cp.loc.path)" else "" end))}
	      elif ($atFinding | length) > 0 then
		{check: $check, verdict: $verdict, result: "not exercised",
		 evidence: ($atFinding[0] | .cp as $cp | ($cp | cp_text) + ", the audit's finding \(.hit | finding_text) in \($cp.loc.path): not this file's verdict (\($verdict)) at stake")}
	      elif $verdict == "marked-ok" then
		{check: $check, verdict: $verdict, result: "confirmed",
		 evidence: ("ran under real enforcement (\($executor)) without a \($check) control-protection fault"
			   + (if ($other | length) > 0 then " (it ended by the \($other[0].cp.kind) " + ($other[0].cp | cp_text) + ")" else "" end))}
	      else
		{check: $check, verdict: $verdict, result: "not exercised",
		 evidence: ("no \($check) fault on the executed paths; the verdict's findings were not reached"
			   + (if ($other | length) > 0 then " (it ended by the \($other[0].cp.kind) " + ($other[0].cp | cp_text) + ")" else "" end))}
	      end
	  end;

def enforcement_check($check; $flag; $verdict; $runs; $byPath):
	if $env.plugin != null then plugin_check($check; (if $check == "ibt" then 1 else 2 end); $verdict; $runs; $byPath)
	elif ($cpu[$flag] // false) | not then
	  {check: $check, verdict: $verdict, result: "not exercised",
	   evidence: (if $executor == "bochs-cet" or $executor == "kvm" then
			"the guest kernel reports no \($flag) on the \($executor) CPU (/proc/cpuinfo flags): CET is off in the CPU model or the kernel"
		      else "no \($flag) on this CPU (QEMU TCG emulates no CET) and no dynamic checker attached (vm/verify --plugin)" end)}
	else real_check($check; (if $check == "ibt" then 1 else 2 end); $verdict; $runs)
	end;

# The first violation of a run that counts (the kernel enables its feature), as the
# executor saw it: {kind: ibt|shstk, at: "object+0xoffset"} (ibt at the target, shstk
# at the RET), or null; the differential test compares executors by it.
def first_violation($e):
	($e.result_line) as $r
	| if $r == null or ($r.exec.ok | not) then null
	  elif $executor == "qemu-plugin" then
	    (($r | status_reading).features // 0) as $feat
	    | ([$e.window.violations[]?
		| (if .kind == "ibt" then "ibt" else "shstk" end) as $kind
		| select((($feat / (if $kind == "ibt" then 1 else 2 end)) | floor) % 2 == 1)
		| {kind: $kind, at: place(locate($r.maps; (if $kind == "ibt" then .dst else .src end)))}] | first)
	  else
	    cp_fault($r) as $cp
	    | if $cp == null then null else {kind: $cp.kind, at: (if $cp.loc then place($cp.loc) else "ip " + ($cp.ip | v::hex) end)} end
	  end;

{
  schema: 1,
  tool: "elfcet vm/verify",
  environment: ($env + {
    guest: $guestInfo,
    cet_hardware: (($cpu.ibt // false) or ($cpu.shstk // false) or ($cpu.user_shstk // false)),
    user_cet_offered: $userCet,
    statement: (if $executor == "bochs-cet" and (($cpu.ibt // false) or ($cpu.user_shstk // false)) then
	"The guest CPU is Bochs' corei7_skylake_x model with CET, a CPU emulator that implements CET independently of elfcet: IBT and shadow-stack enforcement are REAL (the guest kernel enables them, the CPU raises #CP, seen as SIGSEGV/SEGV_CPERR placed by the instruction pointer at the fault). Nothing of CET is emulated by elfcet (no plugin)."
      elif $executor == "bochs-cet" then
	"The guest CPU is Bochs, but the guest kernel reports no CET (ibt, user_shstk) in /proc/cpuinfo: IBT and shadow-stack enforcement are not exercised (CET off in the CPU model, or a kernel that does not enable it)."
      elif (($cpu.ibt // false) or ($cpu.user_shstk // false)) then
	"The guest CPU reports CET: enforcement results are real."
      elif $env.plugin != null then
	"This CPU has no CET and QEMU TCG emulates none: IBT and shadow stacks are EMULATED by the elfcet QEMU plugin (system mode, one vCPU), which checks the user code of each program inside a marker window; a violation counts only where the kernel's reading of the note enables the feature. The kernel's reading of property notes is observed directly."
      else
	"This CPU has no CET and QEMU TCG emulates none: IBT and shadow-stack enforcement are not exercised (and nothing of CET is emulated). What the run confirms is how the kernel reads property notes at exec: the status line it shows, and which execs fail with which errno (a kernel offering no user CET ignores a note its parser rejects: only a read error fails the exec)."
      end)
  }),
  files: [ $audit[0].files[] as $f
    | ([$evals[] | select(.file == $f.path)]) as $runs
    | ([$evals[] | select(.reader == $f.path)]) as $reads
    | { path: $f.path, type: $f.type, interpreter: $f.interpreter,
        kernel_reads_note_of: $f.kernel_reads_note_of,
        expected_kernel: $f.consumers.kernel,
        runs: [$runs[] | {id, reader, from, result, guest: (.result_line // null)}
		 + (if $executor == "qemu-tcg" then {} else {first_violation: first_violation(.)} end)],
        checks: [
	  (if ($cetKernel | not) then
	     {check: "kernel-note", verdict: null, result: "not exercised",
	      evidence: "a kernel without CET (\($env.variant)) reads no property note"},
	     (if ($runs | length) > 0 then aggregate("kernel-ignores-note"; null; $runs; "not run") else empty end)
	   else
	  aggregate("kernel-note"; (if $f.consumers.kernel.accepted then "accepted" else $f.consumers.kernel.errno + ":" + $f.consumers.kernel.rule end);
		    $reads;
		    (if $f.kernel_reads_note_of == "interpreter" then
		       "the kernel reads the interpreter's note for this program, not its own"
		     elif $f.type == "shared" then
		       "a library: the kernel reads its note only when it is run directly or used as an interpreter"
		     else "not run" end)),
	  (if ($runs | length) > 0 then
	     aggregate("kernel-reads-note-of"; $f.kernel_reads_note_of; $runs; "not run")
	     | if .result == "confirmed" and $f.kernel_reads_note_of == "interpreter"
		  and kernel_fails($f.consumers.kernel; $userCet) then
		 .evidence += " (its own note would fail exec with \($f.consumers.kernel.errno): the kernel did not read it)"
	       else . end
	   else empty end)
	   end),
	  # With an expected first line of output or an expected signal: a program the
	  # kernel lets run must end that way.
	  ([$runs[] | select((.expect_output != null or .expect_signal != null)
			     and .result_line != null and .expected.exec == "runs"
			     and (.result_line.exec.ok or ((.result_line.exec.errno // "" | harness_errno) | not)))]) as $checked
	  | (if ($checked | length) == 0 then empty
	     else
	       ($checked | map(select(ended_as_expected | not)) | first) as $bad
	       | if $bad == null then
		   {check: "runs", verdict: null, result: "confirmed",
		    evidence: ($checked[0] | "\(expectation_text): \(.result_line | end_text)")}
		 else
		   {check: "runs", verdict: null, result: "contradicted",
		    evidence: ($bad | "\(expectation_text); got \(.result_line | end_text)")}
		 end
	     end),
	  enforcement_check("ibt"; "ibt"; $f.verdicts.ibt; $runs; $byPath),
	  enforcement_check("shstk"; "user_shstk"; $f.verdicts.shstk; $runs; $byPath),
	  vsyscall_check($f; $runs)
	] }
  ],
  guest_checks: [
    # The vDSO: with user IBT configured the series builds it with ENDBR at every entry;
    # without (nocet, unpatched) it has none. The code audit names what it finds.
    ($env.vdso as $v
     | if $v == null then
	 {check: "vdso", verdict: null, result: "not exercised", evidence: "no vDSO dump came back from the guest"}
       else
	 ("the vDSO dumped from the guest (\($v.size) bytes) audited: ibt \($v.verdicts.ibt), shstk \($v.verdicts.shstk), x86_feature_1_and \($v.feature_1_and | features_text)") as $read
	 | ([$v.findings[] | select(.rule | startswith("ibt-"))]) as $ibt
	 | if ($v.code_audit | not) then
	     {check: "vdso", verdict: $v.verdicts.ibt, result: "not exercised",
	      evidence: ($read + "; whether each entry starts with ENDBR64 is the code audit's (its ibt-* rules are not in the catalogue yet)")}
	   elif $env.variant == "cet" then
	     {check: "vdso", verdict: $v.verdicts.ibt, result: (if ($ibt | length) == 0 then "confirmed" else "contradicted" end),
	      evidence: ($read + "; " + (if ($ibt | length) == 0 then "no missing ENDBR named, as the series builds it"
		else "missing ENDBR named although the series builds it with ENDBR: " + ([$ibt[:5][] | .symbol // (.address | tostring)] | join(", ")) end))}
	   else
	     {check: "vdso", verdict: $v.verdicts.ibt, result: (if ($ibt | length) > 0 then "confirmed" else "contradicted" end),
	      evidence: ($read + "; " + (if ($ibt | length) > 0 then "missing ENDBR named: " + ([$ibt[:5][] | .symbol // (.address | tostring)] | join(", "))
		else "no missing ENDBR named, but a kernel without user IBT builds its vDSO without ENDBR" end))}
	   end
       end),
    (if $env.plugin == null then
       {check: "dynamic-checker", verdict: null, result: "not exercised",
        evidence: "the QEMU TCG plugin is not attached (vm/verify --plugin)"}
     elif ($windows | length) == ([$guest[] | select(.type == "job" and .window == true)] | length)
	  and all($windows[]; .closed) then
       {check: "dynamic-checker", verdict: null, result: "confirmed",
        evidence: "attached: \($windows | length) windows, one per program run, \([$windows[].violations | length] | add // 0) violations reported"}
     else
       {check: "dynamic-checker", verdict: null, result: "contradicted",
        evidence: "\($windows | length) windows (\([$windows[] | select(.closed | not)] | length) not closed) for \([$guest[] | select(.type == "job" and .window == true)] | length) programs run in window mode"}
     end)
  ],
  harness: {
    problems: ($env.harness_problems + [$evals[] | select(.result == "harness") | "\(.file): \(.evidence)"]
	       + [$guest[] | select(.type == "error") | "guest runner: \(.message) (line \(.line // "?"))"]),
    jobs: ($jobs[0] | length),
    results: ($results | length)
  }
}
# Every verdict confirmed or contradicted names the executor whose run decided it.
| def decided_by: if .result == "confirmed" then . + {confirmed_by: $executor}
	elif .result == "contradicted" then . + {contradicted_by: $executor} else . end;
  .files[].checks |= map(decided_by) | .guest_checks |= map(decided_by)
| .summary = (
    [.files[].checks[], .guest_checks[]] as $all
    | {confirmed: ([$all[] | select(.result == "confirmed")] | length),
       contradicted: ([$all[] | select(.result == "contradicted")] | length),
       not_exercised: ([$all[] | select(.result == "not exercised")] | length),
       files: (.files | length), jobs: .harness.jobs,
       harness_problems: (.harness.problems | length)})
