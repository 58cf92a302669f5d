#!/usr/bin/env bash
# The archive recipe across real machines (tools/elfcet-audit-archive --sshloginfile,
# issue 34): GNU parallel and rsync go through OpenSSH's ssh to two sshd started here on
# 127.0.0.1, each on a free port with its own host key, sshd_config and authorized key
# (all generated below in a temporary directory; no system file is changed, no system
# ssh or sshd configuration read), each in a mount namespace of its own where the local
# side's directory is an empty tmpfs and the login's home is a directory of this test:
# the remote machines see none of the local packages. A run is killed once the first
# shard has come back (its PID namespace, every process of it) and resumed: every shard
# comes back whatever its name ('~', '%3a' and '+' of Debian versions), none is redone,
# the merged summary equals a single local run, and nothing is left on the machines.
# Then files/s of the recipe here and over ssh are printed (measured, not asserted).
# Both sshd are stopped at the end (and run under timeout(1) whatever happens).
# Runs as CI does, with neither HOME nor SHELL set.
# Exit 77 (skipped) without sshd, ssh, GNU parallel, rsync, dpkg-deb, or mount and PID
# namespaces.
set -uo pipefail
: "${ELFCET:?}" "${top_srcdir:?}"
recipe=$top_srcdir/tools/elfcet-audit-archive
fail=0
pass() { echo "PASS: archive-sshd: $*"; }
failed() { echo "FAIL: archive-sshd: $*"; fail=1; }
skip() { echo "SKIP: archive-sshd: $*"; exit 77; }
sshd=$(PATH=$PATH:/usr/sbin:/sbin command -v sshd) ||
	skip "OpenSSH's sshd is not installed (Debian: openssh-server, listed in tests/deps.txt)"
for tool in ssh ssh-keygen parallel rsync dpkg-deb unshare timeout; do
	command -v "$tool" > /dev/null || skip "$tool is not installed"
done
# sshd must start as root to log a user in with privilege separation; anyone else runs it
# as themselves, in a user namespace of their own mapped back to their own uid.
user=$(id -un) uid=$(id -u) gid=$(id -g)
home=$(getent passwd "$user" | cut -d : -f 6)
[ -d "$home" ] || skip "$user's home directory ($home) does not exist: nothing to mount the machine's home on"
namespace=(unshare -m --propagation private) as_self=() pid_namespace=(unshare -p -f --kill-child)
if [ "$uid" != 0 ]; then
	namespace=(unshare -r -m --propagation private)
	as_self=(unshare -U --map-user="$uid" --map-group="$gid")
	pid_namespace=(unshare -r -p -f --kill-child)
fi
"${namespace[@]}" "${as_self[@]}" true 2> /dev/null ||
	skip "no mount namespaces here: $("${namespace[@]}" "${as_self[@]}" true 2>&1 | head -n 1)"
"${pid_namespace[@]}" true 2> /dev/null ||
	skip "no PID namespaces here: $("${pid_namespace[@]}" true 2>&1 | head -n 1)"

# CI runs with neither SHELL nor HOME set: neither the recipe nor this test may need them.
unset SHELL HOME
work=$(mktemp -d "${TMPDIR:-/tmp}/elfcet-archive-sshd.XXXXXX")
sshd_pids=()
declare -A ports
stop_machines() {
	local pid
	for pid in "${sshd_pids[@]}"; do
		kill "$pid" 2> /dev/null
		wait "$pid" 2> /dev/null
	done
	sshd_pids=()
}
trap 'stop_machines; rm -rf "$work"' EXIT
local_side=$work/local
ssh_dir=$work/ssh
mkdir -p "$local_side/debs" "$ssh_dir" "$work/hosts/machine-a" "$work/hosts/machine-b"
chmod 0755 "$work" "$work/hosts" "$work/hosts"/*
ssh-keygen -q -t ed25519 -N '' -C elfcet-archive-sshd -f "$ssh_dir/client" || exit 99
cp "$ssh_dir/client.pub" "$ssh_dir/authorized_keys"
: > "$ssh_dir/known_hosts"
# The client's own configuration: with -F, ssh reads no system file and writes nothing
# in the user's ~/.ssh; known_hosts holds the machines' host keys, checked strictly.
cat > "$ssh_dir/config" << EOF
Host *
	User $user
	IdentityFile $ssh_dir/client
	IdentitiesOnly yes
	UserKnownHostsFile $ssh_dir/known_hosts
	GlobalKnownHostsFile /dev/null
	StrictHostKeyChecking yes
	CheckHostIP no
	UpdateHostKeys no
	BatchMode yes
	ConnectTimeout 20
	LogLevel ERROR
EOF

# start_machine NAME: an sshd for NAME on a free port of 127.0.0.1, in a mount namespace
# where the local side is an empty tmpfs and the login's home is $work/hosts/NAME; its
# privilege separation directory on a tmpfs over /run there, its log in $ssh_dir/NAME.log.
start_machine() {
	local name=$1 port pid try
	ssh-keygen -q -t ed25519 -N '' -C "$name" -f "$ssh_dir/host_$name" || exit 99
	printf '%s %s\n' "$name" "$(cut -d ' ' -f 1,2 "$ssh_dir/host_$name.pub")" >> "$ssh_dir/known_hosts"
	for try in 1 2 3 4 5 6 7 8 9 10; do
		port=$((20000 + RANDOM % 40000))
		cat > "$ssh_dir/sshd_config_$name" <<- EOF
			ListenAddress 127.0.0.1:$port
			HostKey $ssh_dir/host_$name
			AuthorizedKeysFile $ssh_dir/authorized_keys
			AllowUsers $user
			PidFile none
			UsePAM no
			PasswordAuthentication no
			KbdInteractiveAuthentication no
			PubkeyAuthentication yes
			PermitRootLogin prohibit-password
			UseDNS no
			PrintMotd no
			PrintLastLog no
			X11Forwarding no
			AllowTcpForwarding no
			LogLevel VERBOSE
		EOF
		# StrictModes would refuse keys under /tmp, which all may write to.
		echo "StrictModes no" >> "$ssh_dir/sshd_config_$name"
		: > "$ssh_dir/$name.log"
		# timeout: whatever becomes of this test, its sshd does not run on for ever.
		timeout -k 5 1800 "${namespace[@]}" bash -c '
			hide=$1 machine_home=$2 home=$3 && shift 3
			mount -t tmpfs -o mode=0755 none "$hide" && mount --bind "$machine_home" "$home" || exit 99
			if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then
				mount -t tmpfs -o mode=0755 none /run && mkdir -m 0755 /run/sshd || exit 99
			fi
			exec "$@"' machine "$local_side" "$work/hosts/$name" "$home" \
			"${as_self[@]}" "$sshd" -D -E "$ssh_dir/$name.log" -f "$ssh_dir/sshd_config_$name" &
		pid=$!
		for _ in $(seq 300); do
			grep -q "Server listening on 127.0.0.1 port $port" "$ssh_dir/$name.log" && break
			kill -0 "$pid" 2> /dev/null || break
			sleep 0.1
		done
		if grep -q "Server listening on 127.0.0.1 port $port" "$ssh_dir/$name.log"; then
			sshd_pids+=("$pid") ports[$name]=$port
			printf 'Host %s\n\tHostName 127.0.0.1\n\tPort %s\n\tHostKeyAlias %s\n' \
				"$name" "$port" "$name" >> "$ssh_dir/config.hosts"
			return 0
		fi
		kill "$pid" 2> /dev/null
		wait "$pid" 2> /dev/null
		grep -q 'Address already in use' "$ssh_dir/$name.log" || break
	done
	echo "archive-sshd: the sshd of $name did not start:" >&2
	sed 's/^/    /' "$ssh_dir/$name.log" >&2
	return 1
}

# The packages: real programs of this machine, six to a package, under Debian's version
# characters; one package without ELF files.
# shellcheck source=tests/archive-package.sh
. "$top_srcdir/tests/archive-package.sh"
package() { archive_package "$@" || exit 99; }
mapfile -t programs < <(find /usr/bin -maxdepth 1 -type f -size -300k -size +8k | LC_ALL=C sort |
	while IFS= read -r f; do [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = 177ELF ] && echo "$f"; done | head -n 72)
[ "${#programs[@]}" -ge 12 ] || skip "fewer than 12 ELF programs in /usr/bin"
versions=(1.0~rc1-1 1:2.0+dfsg-3 1.0-1 2:1.4~beta+git3-2 0.9-1 3.1-1+b1)
for ((i = 0; i * 6 < ${#programs[@]}; i++)); do
	package "prog$i" "${versions[i % ${#versions[@]}]}" amd64 "${programs[@]:i * 6:6}"
done
package docs 1.0-1 all
debs=("$local_side"/debs/*.deb)
"$ELFCET" audit --format=jsonl -j 1 "${debs[@]}" 2> /dev/null | grep -v '^{"path":null,' > "$work/single.jsonl"
"$ELFCET" report - < "$work/single.jsonl" > "$work/single.txt"
nfiles=$(grep -c . "$work/single.jsonl")

# The two machines, and what they see.
start_machine machine-a && start_machine machine-b || exit 99
cat "$ssh_dir/config.hosts" "$ssh_dir/config" > "$ssh_dir/config.all" && mv "$ssh_dir/config.all" "$ssh_dir/config"
ssh_cmd="ssh -F $ssh_dir/config"
for m in machine-a machine-b; do
	seen=$($ssh_cmd "$m" "cd && pwd && touch here && ls '$local_side' && test ! -e '$local_side/debs' && test -x '$ELFCET' && echo ok" 2>&1)
	if [ "$seen" = "$home"$'\n'ok ] && [ -e "$work/hosts/$m/here" ]; then
		pass "$m: a real sshd on 127.0.0.1 port ${ports[$m]}, its home is its own, the local packages are not there"
	else
		failed "$m does not log in, or sees the local files: $seen"
		sed 's/^/    sshd: /' "$ssh_dir/$m.log"
	fi
	rm -f "$work/hosts/$m/here"
done
[ "$fail" = 0 ] || exit 1
printf '2/%s machine-a\n2/%s machine-b\n' "$ssh_cmd" "$ssh_cmd" > "$local_side/logins"
cd "$local_side" || exit 99
out=$local_side/out

# Interrupted: the recipe in a PID namespace of its own, all of it killed (SIGKILL, as
# when the machine it runs on is lost; GNU parallel's jobs are in process groups of their
# own, so only the namespace holds them all) once the first shard has come back; jobs
# in flight leave their files on the machines.
"${pid_namespace[@]}" "$recipe" -o "$out" --sshloginfile logins debs > /dev/null 2> "$work/first.err" &
run=$!
for _ in $(seq 2400); do
	[ -n "$(find "$out/shards" -name '*.jsonl' -print -quit 2> /dev/null)" ] && break
	kill -0 "$run" 2> /dev/null || break
	sleep 0.05
done
{ # (without bash's "Killed" line)
	kill -KILL "$run"
	wait "$run"
} 2> /dev/null
rc=$?
sleep 2 # the machines' sshd see the connections go, and end the jobs in flight
first_shards=$(find "$out/shards" -name '*.jsonl' | wc -l)
stat -c '%n %i %Y' "$out"/shards/*.jsonl > "$work/first.stat" 2> /dev/null
left=$(find "$work/hosts" -mindepth 2 -type f | wc -l)
if [ "$first_shards" -ge 1 ] && [ "$first_shards" -lt "${#debs[@]}" ] && [ "$rc" = 137 ]; then
	pass "interrupted after the first shard came back: exit $rc, $first_shards of ${#debs[@]} shards, $left file(s) left on the machines"
else
	failed "the interrupted run: exit $rc (137 expected), $first_shards of ${#debs[@]} shards: $(tail -n 3 "$work/first.err")"
fi

# Resumed.
"$recipe" -o "$out" --sshloginfile logins debs > "$work/recipe.txt" 2> "$work/recipe.err"
rc=$?
nshards=$(find "$out/shards" -name '*.jsonl' | wc -l)
todo="$((${#debs[@]} - first_shards)) package(s) to audit, $first_shards already done"
if [ "$rc" = 0 ] && [ "$nshards" = "${#debs[@]}" ] && grep -q "$todo" "$work/recipe.err" &&
	[ -s "$out/shards/prog0_1.0+7Erc1-1_amd64.jsonl" ] && [ -s "$out/shards/prog1_1+253a2.0+2Bdfsg-3_amd64.jsonl" ] &&
	[ -s "$out/shards/prog3_2+253a1.4+7Ebeta+2Bgit3-2_amd64.jsonl" ] && [ -e "$out/shards/docs_1.0-1_all.jsonl" ]; then
	pass "resumed: $todo; every package has its shard, '~', '%3a' and '+' in their names"
else
	failed "the resumed run: exit $rc, $nshards shards for ${#debs[@]} packages ($todo?): $(tail -n 3 "$work/recipe.err")"
	ls "$out/shards"
fi
if [ -s "$work/first.stat" ] &&
	stat -c '%n %i %Y' $(cut -d ' ' -f 1 "$work/first.stat") 2> /dev/null | cmp -s - "$work/first.stat"; then
	pass "the $first_shards shard(s) of the interrupted run were not redone"
else
	failed "the interrupted run's shards were redone (or there were none)"
fi
if cmp -s "$out/summary.txt" "$work/single.txt" && [ "$nfiles" -gt 0 ]; then
	pass "the merged summary equals a single local run (${#debs[@]} packages, $nfiles ELF files)"
else
	failed "the merged summary differs from a single local run:"
	diff "$out/summary.txt" "$work/single.txt" | head -n 5
fi
left_on_machines() {
	if [ -z "$(find "$work/hosts" -mindepth 2 -print -quit)" ]; then
		pass "nothing left on the machines $*"
	else
		failed "left on the machines $*: $(find "$work/hosts" -mindepth 2 | head -n 5 | tr '\n' ' ')"
	fi
}
left_on_machines "after the interrupted run and its resume"

# files/s: the whole set again, here and over the two machines (printed, not asserted).
timed() { # OUT [ARGS...]: the recipe's wall time in seconds, or "failed"
	local out=$1 start end
	shift
	start=$(date +%s.%N)
	"$recipe" -o "$out" "$@" debs > /dev/null 2> "$out.err" || { echo failed; return; }
	end=$(date +%s.%N)
	cmp -s "$out/summary.txt" "$work/single.txt" || { echo failed; return; }
	echo "$end - $start" | bc
}
logins() { cat "$ssh_dir"/machine-*.log | grep -c 'Accepted publickey'; }
t_local=$(timed "$work/out-local")
logins_before=$(logins)
t_ssh=$(timed "$work/out-ssh" --sshloginfile logins)
ssh_logins=$(($(logins) - logins_before))
if [ "$t_local" != failed ] && [ "$t_ssh" != failed ]; then
	pass "a whole run here and one over ssh, each equal to a single local run"
	rate() { echo "scale=1; $nfiles / $1" | bc; }
	echo "archive-sshd: $nfiles ELF files in ${#debs[@]} packages: here $(rate "$t_local") files/s" \
		"($(printf '%.2f' "$t_local") s); over ssh to two sshd on loopback, 2 jobs each:" \
		"$(rate "$t_ssh") files/s ($(printf '%.2f' "$t_ssh") s, $ssh_logins ssh logins)"
else
	failed "a whole run: here ${t_local}, over ssh ${t_ssh}: $(tail -n 3 "$work/out-local.err" "$work/out-ssh.err")"
fi
left_on_machines "after a whole run"

# No daemon left: both sshd end with the test.
stop_machines
# (The pattern does not match its own text: grep's command line is not found.)
running=$(grep -lsaE "$ssh_dir/sshd_config_machine-[ab]" /proc/[0-9]*/cmdline)
if [ -z "$running" ]; then
	pass "both sshd stopped"
else
	failed "an sshd of this test still runs: $running"
fi
exit "$fail"
