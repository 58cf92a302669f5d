# The rebuilt dash's workload in the guest (vm/userland/check): the shell's own
# machinery (functions and recursion, subshells, traps on signals and on exit,
# errors unwound by dash's setjmp/longjmp exceptions, pipelines, here-documents,
# background jobs) and fork/exec of the rebuilt bzip2 and xz (-T2: threads) in
# compression round trips, each checked against the SHA-256 the host computed
# with its own sha256sum. Prints one line: "shell ok", or "shell FAIL:" and
# what went wrong.
set -u
dir=${1:-/usr/share/elfcet-workload}
failures=
check() { # NAME GOT WANT
	[ "$2" = "$3" ] || failures="$failures [$1: got '$2', want '$3']"
}

# Functions, locals, recursion, arithmetic.
fact() {
	local n=$1
	if [ "$n" -le 1 ]; then echo 1; else echo $((n * $(fact $((n - 1))))); fi
}
check recursion "$(fact 12)" 479001600

# A program run from the shell itself: dash vforks for it (glibc's vfork returns to the
# child by pop and jmp when a shadow stack is on; dash has an ENDBR after the call).
dash -c 'exit 4'
check vfork-status $? 4

# Subshells and their exit status; a command that is not found.
(exit 3)
check subshell-status $? 3
check not-found "$(no-such-command-here 2>/dev/null; echo $?)" 127

# Errors: a special builtin's error and an arithmetic error make dash raise an
# exception (longjmp to the top of the subshell), which exits it with status 2.
check eval-error "$( (eval 'x=$((1 / 0))') 2>/dev/null; echo $?)" 2
check syntax-error "$( (eval 'if then fi') 2>/dev/null; echo $?)" 2
check set-e "$( (set -e; false; echo not reached); echo $?)" 1

# Traps: a signal the shell sends itself (handler, then the trap at the next
# command), an EXIT trap in a subshell, a trap reset to the default.
got=
trap 'got=usr1' USR1
kill -USR1 $$
check trap-usr1 "$got" usr1
got=
trap 'got="$got term"' TERM
kill -TERM $$
kill -TERM $$
check trap-term-twice "$got" " term term"
trap - TERM USR1
check trap-exit "$(trap 'echo bye' EXIT; echo hi)" "hi
bye"
# A child killed by a signal: 128 + 15.
# (dash says "Terminated" on stderr: kept out of the one line of output.)
check killed-child "$(exec 2>/dev/null; dash -c 'kill -TERM $$; echo not reached'; echo $?)" 143

# Pipelines, read loops, case, here-documents.
n=0
lines=$(printf 'one\ntwo\nthree\n' | while read -r w; do n=$((n + 1)); echo "$n:$w"; done)
check pipeline "$lines" "1:one
2:two
3:three"
kind() { case $1 in *.bz2) echo bzip2 ;; *.xz) echo xz ;; *) echo plain ;; esac; }
check case "$(kind a.bz2) $(kind b.xz) $(kind c)" "bzip2 xz plain"
{ read -r a; read -r b; } <<-END
	first
	$((6 * 7))
	END
check here-doc "$a $b" "first 42"

# Background jobs and wait.
(exit 5) &
wait $!
check wait-status $? 5
# The job signals itself once its trap is set (its own PID: the parent of a
# program it runs), so no signal can come before the trap.
# shellcheck disable=SC2016 # $PPID is the child's to expand
( trap 'exit 7' USR2; kill -USR2 "$(exec dash -c 'echo $PPID')"; echo not reached; exit 9 ) &
wait $!
check background-trap $? 7

# Compression round trips through the rebuilt programs and their libraries.
read -r want _ <"$dir/text.sha256"
sum() { sha256sum | { read -r s _; echo "$s"; }; }
check bzip2-roundtrip "$(bzip2 -9 -c "$dir/text" | bzip2 -d -c | sum)" "$want"
check bzcat "$(bzcat "$dir/text.bz2" | sum)" "$want"
check xz-threads-roundtrip "$(xz -T2 --block-size=32KiB -3 -c "$dir/text" | xz -T2 -d -c | sum)" "$want"
check xz-host-file "$(xz -d -c "$dir/text.xz" | sum)" "$want"
check xz-bzip2-chain "$(xz -c "$dir/text" | bzip2 -c | bzip2 -dc | xz -dc | sum)" "$want"
# A corrupted stream is refused (exit 2 from bzip2, 1 from xz), not a crash.
check bzip2-corrupt "$(printf 'BZh91AY&SYgarbage' | bzip2 -d -c >/dev/null 2>&1; echo $?)" 2
check xz-corrupt "$(printf '\3757zXZ\0garbage' | xz -d -c >/dev/null 2>&1; echo $?)" 1

if [ -z "$failures" ]; then
	echo "shell ok"
else
	echo "shell FAIL:$failures"
	exit 1
fi
