#!/usr/bin/env bats
# neardup -E: the join in shards, run here, by GNU parallel over ssh to
# two loopback hosts, and by Slurm job arrays, gives the output of one
# run, also when a task fails or is killed and runs again. The tests
# start sshd, munged and the Slurm daemons they need, and stop them by the
# PIDs they recorded; they skip only where the packages are missing.

load helper

# stop PID...: TERM, then KILL after 5 s (slurmd can ignore TERM while it registers).
stop() {
	local p i

	for p in "$@"; do
		kill -TERM "$p" 2>/dev/null || continue
		for ((i = 0; i < 50; i++)); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$p" 2>/dev/null || true
	done
}

# The ssh "hosts": sshd on 127.0.0.1 and 127.0.0.2, port 2222, one each
# (each its own log, to see that both served tasks), a throw-away key.
startssh() {
	local d=$BATS_FILE_TMPDIR/ssh a i

	command -v sshd >/dev/null || command -v /usr/sbin/sshd >/dev/null || return 1
	command -v ssh >/dev/null && command -v parallel >/dev/null || return 1
	mkdir -p "$d"
	[ -d /run/sshd ] || mkdir -p /run/sshd 2>/dev/null || return 1
	ssh-keygen -q -t ed25519 -N '' -f "$d/key" && ssh-keygen -q -t ed25519 -N '' -f "$d/hostkey" ||
		return 1
	cp "$d/key.pub" "$d/authorized_keys"
	# SHLVL=1 from the client: a bash login shell run by sshd then reads
	# no ~/.bashrc (bash does only at level 1), whose own output (a
	# pyenv rehash racing another login, say) is not the tasks'.
	cat >"$d/ssh_config" <<-EOF
	Host *
	  IdentityFile $d/key
	  BatchMode yes
	  StrictHostKeyChecking accept-new
	  UserKnownHostsFile $d/known_hosts
	  Port 2222
	  SetEnv SHLVL=1
	EOF
	for a in 127.0.0.1 127.0.0.2; do
		cat >"$d/sshd_config.$a" <<-EOF
		Port 2222
		ListenAddress $a
		HostKey $d/hostkey
		UsePAM no
		StrictModes no
		PermitRootLogin prohibit-password
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		AuthorizedKeysFile $d/authorized_keys
		PidFile none
		AcceptEnv SHLVL
		EOF
		"$(command -v sshd || echo /usr/sbin/sshd)" -D -f "$d/sshd_config.$a" -E "$d/log.$a" &
		echo "$!" >>"$BATS_FILE_TMPDIR/pids"
	done
	for ((i = 0; i < 100; i++)); do
		ssh -F "$d/ssh_config" 127.0.0.1 true 2>/dev/null &&
		    ssh -F "$d/ssh_config" 127.0.0.2 true 2>/dev/null && break
		sleep 0.1
	done
	printf '2/ssh -F %s 127.0.0.1\n2/ssh -F %s 127.0.0.2\n' "$d/ssh_config" "$d/ssh_config" \
		>"$BATS_FILE_TMPDIR/logins"
	ssh -F "$d/ssh_config" 127.0.0.2 true
}

# Slurm on this machine, one node: munged (if none runs), slurmctld and
# slurmd in the foreground, a fresh state directory.
startslurm() {
	local d=$BATS_FILE_TMPDIR/slurm h i port

	for c in slurmctld slurmd sbatch sinfo munged munge unmunge; do
		command -v "$c" >/dev/null || return 1
	done
	[ "$(id -u)" -eq 0 ] || return 1
	mkdir -p "$d/state" "$d/spool"
	if ! munge -n </dev/null | unmunge >/dev/null 2>&1; then
		install -d -o munge -g munge /run/munge || return 1
		runuser -u munge -- munged || return 1
		cat /run/munge/munged.pid >>"$BATS_FILE_TMPDIR/pids"
	fi
	h=$(hostname -s)
	port=$((20000 + $$ % 20000))
	cat >"$d/slurm.conf" <<-EOF
	ClusterName=ndtest
	SlurmctldHost=$h(127.0.0.1)
	SlurmUser=root
	SlurmdUser=root
	SlurmctldPort=$port
	SlurmdPort=$((port + 1))
	StateSaveLocation=$d/state
	SlurmdSpoolDir=$d/spool
	SlurmctldPidFile=$d/slurmctld.pid
	SlurmdPidFile=$d/slurmd.pid
	SlurmctldLogFile=$d/slurmctld.log
	SlurmdLogFile=$d/slurmd.log
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	JobAcctGatherType=jobacct_gather/none
	AccountingStorageType=accounting_storage/none
	SelectType=select/cons_tres
	SelectTypeParameters=CR_Core
	SchedulerType=sched/builtin
	SchedulerParameters=sched_interval=1
	SlurmdParameters=config_overrides
	MpiDefault=none
	ReturnToService=2
	NodeName=$h NodeAddr=127.0.0.1 CPUs=8 RealMemory=1000
	PartitionName=t Nodes=$h Default=YES MaxTime=INFINITE State=UP
	EOF
	export SLURM_CONF=$d/slurm.conf
	slurmctld -D -f "$SLURM_CONF" >"$d/slurmctld.out" 2>&1 &
	echo "$!" >>"$BATS_FILE_TMPDIR/pids"
	slurmd -D -f "$SLURM_CONF" >"$d/slurmd.out" 2>&1 &
	echo "$!" >>"$BATS_FILE_TMPDIR/pids"
	for ((i = 0; i < 300; i++)); do
		[ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && return 0
		sleep 0.1
	done
	return 1
}

setup_file() {
	cd "$BATS_FILE_TMPDIR" || return 1
	: >pids
	gendocs -n 150 -s 3 c >/dev/null
	(cd c && neardup docs >../ref.pairs && neardup -c docs >../ref.c && neardup -u docs >../ref.u)
	# the state of one machine: made (-o), queried (-q), added to (-a)
	(cd c && neardup -o ../st docs >/dev/null && ndstate -d ../st >../ref.st &&
	    neardup -q ../st new >../ref.q && neardup -a ../st new >../ref.a &&
	    ndstate -d ../st >../ref.sa)
	startssh >ssh.out 2>&1 && touch ssh.ok
	startslurm >slurm.out 2>&1 && touch slurm.ok
	export SLURM_CONF=$BATS_FILE_TMPDIR/slurm/slurm.conf
}

teardown_file() {
	# shellcheck disable=SC2046
	stop $(tac "$BATS_FILE_TMPDIR/pids")
}

setup() {
	cd "$BATS_FILE_TMPDIR/c" || return 1
	rm -rf faults once
	mkdir faults once
}

# faults: wrappers first on PATH (which every task gets): the first keys
# task fails (status 3), and the first map task is killed (KILL) after it
# renamed one of its files. Each once: the task run again succeeds.
faults() {
	local d=$PWD/faults real

	real=$(command -v skjoin)
	cat >"$d/skjoin" <<-EOF
	#!/bin/sh
	case " \$* " in *" -K "*) mkdir "$PWD/once/keys" 2>/dev/null && exit 3 ;; esac
	exec "$real" "\$@"
	EOF
	real=$(command -v mv)
	cat >"$d/mv" <<-EOF
	#!/bin/sh
	"$real" "\$@" || exit
	case \$* in */keys/*) mkdir "$PWD/once/map" 2>/dev/null && kill -KILL "\$PPID" ;; esac
	exit 0
	EOF
	chmod +x "$d/skjoin" "$d/mv"
}

# states ARG...: neardup ARG... -o, -q and -a give the output and the
# state of one machine.
states() {
	rm -rf st
	cmpout 0 ../ref.pairs /dev/null neardup "$@" -o st docs
	ndstate -d st >got.st
	cmp got.st ../ref.st
	cmpout 0 ../ref.q /dev/null neardup "$@" -q st new
	cmpout 0 ../ref.a /dev/null neardup "$@" -a st new
	ndstate -d st >got.st
	cmp got.st ../ref.sa
}

@test "neardup -E, -P, -W: usage errors" {
	check 2 '' "neardup: engine 'bogus' is invalid (local, parallel:FILE or slurm)\n" \
		neardup -E bogus docs
	check 2 '' "neardup: shards '0' is out of range (allowed: 1 to 4096)\n" neardup -P 0 docs
	check 2 '' "neardup: -z cannot go with -E, -P or -W\nusage: $(neardup -h | cut -d' ' -f2-)\n" \
		neardup -z -P 2 -o st docs
	[ ! -e st ]
	check 1 '' "neardup: nofile: cannot read\n" neardup -E parallel:nofile docs
}

@test "neardup -E local -P 1, 3, 8: the pairs, -c and -u of one run; -W left empty" {
	[ "$(wc -l <../ref.pairs)" -gt 100 ]
	for p in 1 3 8; do
		cmpout 0 ../ref.pairs /dev/null neardup -P "$p" docs
		cmpout 0 ../ref.c /dev/null neardup -c -P "$p" docs
		cmpout 0 ../ref.u /dev/null neardup -u -E local -P "$p" docs
	done
	mkdir w
	cmpout 0 ../ref.pairs /dev/null neardup -P 4 -W w docs
	[ -z "$(ls w)" ]
}

@test "neardup -E local -P 1, 3: -o, -q and -a: the output and state of one run" {
	for p in 1 3; do
		states -P "$p"
	done
	neardup -u -q st new >want.u
	[ -s want.u ]
	cmpout 0 want.u /dev/null neardup -P 2 -u -q st new
	# -v says each stage too
	neardup -q st new >want.q
	neardup -v -P 2 -q st new >got.q 2>got.err
	cmp want.q got.q
	grep -q '^neardup: stage sketch: 2 tasks in' got.err
}

@test "neardup -E local -P 2, 3: binary files are skipped as one run skips them" {
	local p m
	mkdir bin
	cp -R docs bin/docs
	# one run reads them as -f does: binary if a NUL is in the first 8 kB
	printf '\0\1\2binary' >bin/docs/0.bin
	printf 'text first, then\0' >bin/docs/m.dat
	cd bin
	for m in '' -c -u; do
		neardup $m docs >want
		for p in 2 3; do
			cmpout 0 want /dev/null neardup $m -P "$p" docs
		done
	done
	neardup -o s1 docs
	neardup -P 2 -o s2 docs
	ndstate -d s1 >want
	cmpout 0 want /dev/null ndstate -d s2
}

@test "neardup -E local: a file not read is said, the others joined, status 1" {
	printf 'docsplit: nofile: No such file or directory\n' >want.err
	cmpout 1 ../ref.pairs want.err neardup -P 2 nofile docs
	rm -rf st
	cmpout 1 ../ref.pairs want.err neardup -P 2 -o st nofile docs
	ndstate -d st >got.st
	cmp got.st ../ref.st
}

@test "neardup -E local -a: one writer; killed while its tasks run: the state as it was" {
	local real pid i

	# (the sketch tasks wait for once/go, at most 5 s)
	real=$(command -v skjoin)
	printf '#!/bin/sh\n: >"%s/once/started"\n%s\nexec "%s" "$@"\n' "$PWD" \
		"for i in 1 2 3 4 5 6 7 8 9 10; do [ -e '$PWD/once/go' ] && break; sleep 0.5; done" \
		"$real" >faults/skjoin
	chmod +x faults/skjoin
	rm -rf st w
	cp -R ../st st
	mkdir w
	ndstate -d st >before
	env PATH="$PWD/faults:$PATH" neardup -P 2 -W w -a st new >/dev/null 2>&1 &
	pid=$!
	for ((i = 0; i < 100; i++)); do
		[ -e once/started ] && break
		sleep 0.1
	done
	[ -e once/started ]
	check 1 '' "ndstate: st: in use by another run (process $pid)\n" neardup -P 2 -o st docs
	kill -TERM "$pid"
	st=0
	wait "$pid" || st=$?
	: >once/go
	[ "$st" -eq 143 ]
	ndstate -d st >after
	cmp before after
	[ -z "$(ls w)" ]
	[ "$(ls st)" = "$(ls ../st)" ]
}

@test "neardup -E local: interrupted at any moment, it stops every task without a word" {
	local i n pid st sig left hit=0
	rm -rf wi
	mkdir wi
	n=$(loops 20)
	for ((i = 0; i < n; i++)); do
		sig=TERM
		[ $((i % 3)) -ne 1 ] || sig=HUP
		setsid neardup -P 3 -W wi docs >/dev/null 2>err 3>&- &
		pid=$!
		# (a run takes about 0.35 s here)
		sleep "0.$((RANDOM % 3))$((RANDOM % 10))"
		kill -"$sig" "$pid" 2>/dev/null || :
		st=0
		wait "$pid" || st=$?
		[ "$st" -eq 0 ] || hit=$((hit + 1))
		# its tasks and theirs are gone, and so is its work directory
		sleep 0.3
		left=$(ps -o stat= -s "$pid" | grep -cv '^Z' || :)
		[ "$left" -eq 0 ] || { ps -o pid,stat,args -s "$pid" >&2; false; }
		case $sig:$st in TERM:143 | HUP:129 | *:0) ;; *) echo "$sig: status $st" >&2; false ;; esac
		[ ! -s err ] || { cat err >&2; false; }
		[ -z "$(ls wi)" ]
	done
	[ "$hit" -ge $((n / 3)) ]
}

@test "neardup -E local: a task that fails and a task killed run again: the same pairs" {
	faults
	echo "neardup: stage keys failed (status 3)" >want.err
	# (three rounds: the shell's word "Killed" on a killed task came now and then)
	for round in 1 2 3; do
		rm -rf once
		mkdir once
		cmpout 0 ../ref.pairs want.err env PATH="$PWD/faults:$PATH" neardup -P 8 docs
		[ -d once/keys ]
		[ -d once/map ]
	done
}

@test "neardup -E parallel:FILE -P 8: the pairs, -c and -u of one run, on both hosts" {
	[ -e ../ssh.ok ] || skip "sshd, ssh or GNU parallel not available: $(tail -1 ../ssh.out)"
	cmpout 0 ../ref.pairs /dev/null neardup -E parallel:../logins -P 8 docs
	cmpout 0 ../ref.c /dev/null neardup -c -E parallel:../logins -P 8 docs
	cmpout 0 ../ref.u /dev/null neardup -u -E parallel:../logins -P 8 docs
	[ "$(grep -c Accepted ../ssh/log.127.0.0.1)" -gt 20 ]
	[ "$(grep -c Accepted ../ssh/log.127.0.0.2)" -gt 20 ]
}

@test "neardup -E parallel:FILE -P 2: -o, -q and -a: the output and state of one run" {
	[ -e ../ssh.ok ] || skip "sshd, ssh or GNU parallel not available: $(tail -1 ../ssh.out)"
	states -E parallel:../logins -P 2
}

@test "neardup -E parallel:FILE: a task that fails and a task killed run again: the same pairs" {
	[ -e ../ssh.ok ] || skip "sshd, ssh or GNU parallel not available: $(tail -1 ../ssh.out)"
	faults
	# (parallel shows the output of a task's last run only)
	cmpout 0 ../ref.pairs /dev/null env PATH="$PWD/faults:$PATH" neardup -E parallel:../logins -P 8 docs
	[ -d once/keys ]
	[ -d once/map ]
}

@test "neardup -E slurm -P 8: the pairs, -c and -u of one run" {
	[ -e ../slurm.ok ] || skip "Slurm or munge not available: $(tail -1 ../slurm.out)"
	cmpout 0 ../ref.pairs /dev/null neardup -E slurm -P 8 docs
	cmpout 0 ../ref.c /dev/null neardup -c -E slurm -P 8 docs
	cmpout 0 ../ref.u /dev/null neardup -u -E slurm -P 8 -W . docs
	[ -z "$(squeue -h)" ]
}

@test "neardup -E slurm -P 2: -o, -q and -a: the output and state of one run" {
	[ -e ../slurm.ok ] || skip "Slurm or munge not available: $(tail -1 ../slurm.out)"
	states -E slurm -P 2
	[ -z "$(squeue -h)" ]
}

@test "neardup -E slurm: a task that fails and a task killed run again: the same pairs" {
	[ -e ../slurm.ok ] || skip "Slurm or munge not available: $(tail -1 ../slurm.out)"
	faults
	echo "neardup: stage keys failed (status 3)" >want.err
	cmpout 0 ../ref.pairs want.err env PATH="$PWD/faults:$PATH" neardup -E slurm -P 8 docs
	[ -d once/keys ]
	[ -d once/map ]
	[ -z "$(squeue -h)" ]
}

@test "neardup -E slurm: a task that fails for good: status 1, said, no job left waiting" {
	[ -e ../slurm.ok ] || skip "Slurm or munge not available: $(tail -1 ../slurm.out)"
	real=$(command -v skjoin)
	printf '#!/bin/sh\ncase " $* " in *" -K "*) exit 3 ;; esac\nexec "%s" "$@"\n' "$real" \
		>faults/skjoin
	chmod +x faults/skjoin
	{
		for try in 1 2 3; do
			echo "neardup: stage keys failed (status 3)"
		done
		echo "neardup: the Slurm jobs failed"
	} >want.err
	cmpout 1 /dev/null want.err env PATH="$PWD/faults:$PATH" neardup -E slurm -P 1 docs
	[ -z "$(squeue -h)" ]
}
