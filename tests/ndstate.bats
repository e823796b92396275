#!/usr/bin/env bats
# ndstate: a kept neardup state's readers, its one writer, its versions.

load helper

u='usage: ndstate [-w] -a state | -o state | -q state command [arg ...]\n       ndstate -d state | -t dir\n'
params='neardup-state\n2\nwords 5\nsize 128\nextract main\n'

# state DIR SKETCHES: a version 2 state in DIR whose sketches are SKETCHES.
state() {
	mkdir -p "$1/v.1"
	printf "$params" >"$1/v.1/params"
	printf "$2" >"$1/v.1/sketches"
	ln -s v.1 "$1/current"
}


setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	printf '#!/bin/sh\n[ "$NDSTATE_PID" = "$$" ] || { echo "NDSTATE_PID ${NDSTATE_PID-}, not $$"; exit 9; }\necho "params ${NDSTATE_PARAMS-none}"\necho "work ${NDSTATE_WORK-none}"\ncat <&3 2>/dev/null || echo "no sketches"\n' >see
	chmod +x see
}

@test "ndstate: usage" {
	check 0 "$u" '' ndstate -h
	# each with its reason first
	check 2 '' "ndstate: no state: -a, -d, -o, -q or -t is needed\n$u" ndstate
	check 2 '' "ndstate: no command\n$u" ndstate -q st
	check 2 '' "ndstate: no command\n$u" ndstate -w -a st
	check 2 '' "ndstate: -w cannot go with -q\n$u" ndstate -w -q st ./see
	check 2 '' "ndstate: -o cannot go with -a\n$u" ndstate -a st -o st ./see
	check 2 '' "ndstate: -t cannot go with -o\n$u" ndstate -t dir -o st ./see
	check 2 '' "ndstate: -t takes no command\n$u" ndstate -t dir ./see
	check 2 '' "ndstate: -d takes no command\n$u" ndstate -d st ./see
	check 2 '' "ndstate: -w cannot go with -d\n$u" ndstate -w -d st
	check 2 '' "ndstate: -w cannot go with -t\n$u" ndstate -w -t dir
	badopt "$(printf "$u")" ndstate -x
}

@test "ndstate -q: the current version's sketches on descriptor 3, its parameters in the environment" {
	state st 'x\t1\t1\n'
	check 0 'params 5 128 main\nwork none\nx\t1\t1\n' '' ndstate -q st ./see
	check 0 'current\nv.1\n' '' ls -A st
	# a version 1 state
	mkdir v1
	printf 'neardup-state\n1\nwords 3\nsize 64\nextract raw\n' >v1/params
	printf 'y\t1\t2\n' >v1/sketches
	check 0 'params 3 64 raw\nwork none\ny\t1\t2\n' '' ndstate -q v1 ./see
	check 127 '' 'ndstate: ./nope: No such file or directory\n' ndstate -q st ./nope
}

@test "ndstate -q: forged and missing states are refused, never waited on" {
	check 1 '' 'ndstate: nope: no such state directory\n' ndstate -q nope ./see
	: >file
	check 1 '' 'ndstate: file: not a directory\n' ndstate -q file ./see
	mkdir empty
	check 1 '' 'ndstate: empty: not a neardup state (no params or sketches)\n' ndstate -q empty ./see
	state fifo ''
	rm fifo/v.1/params
	mkfifo fifo/v.1/params
	check 1 '' 'ndstate: fifo/current/params: not a regular file\n' timeout 10 ndstate -q fifo ./see
	local p
	for p in 'words 0' 'words 17' 'words 99999999999' 'size 257' 'size 1000' 'size -1' 'size 0x10'; do
		state "b" ''
		printf 'neardup-state\n2\nwords 5\n%s\nextract main\n' "$p" >b/v.1/params
		case $p in words*) printf 'neardup-state\n2\n%s\nsize 128\nextract main\n' "$p" >b/v.1/params ;; esac
		check 1 '' 'ndstate: b/current/params: bad parameters\n' ndstate -q b ./see
		rm -r b
	done
	state b ''
	printf 'neardup-state\n2\nwords 5\nsize 128\nextract main\nmore\n' >b/v.1/params
	check 1 '' 'ndstate: b/current/params: bad parameters\n' ndstate -q b ./see
	printf 'neardup-state\n2\nwords 5\nsize 128\nextract main' >b/v.1/params
	check 1 '' 'ndstate: b/current/params: bad parameters\n' ndstate -q b ./see
	printf 'neardup-state\n1\nwords 5\nsize 128\nextract main\n' >b/v.1/params
	check 1 '' 'ndstate: b/current/params: bad parameters\n' ndstate -q b ./see
	printf 'neardup-state\n9\nwords 5\nsize 128\nextract main\n' >b/v.1/params
	check 1 '' 'ndstate: b/current: state version 9, this neardup reads versions 1 to 3\n' ndstate -q b ./see
	head -c 100000 /dev/zero >b/v.1/params
	check 1 '' 'ndstate: b/current/params: not a neardup state\n' ndstate -q b ./see
	rm b/current
	ln -s ../elsewhere b/current
	mkdir elsewhere
	printf 'x\n' >elsewhere/params
	: >elsewhere/sketches
	check 1 '' 'ndstate: b/current/params: not a neardup state\n' ndstate -q b ./see
	# a current without a version's files, not being replaced: said at once
	rm b/current elsewhere/params
	ln -s ../elsewhere b/current
	check 1 '' 'ndstate: b/current: not a neardup state (no params or sketches)\n' ndstate -q b ./see
	rm b/current
	ln -s /etc b/current
	check 1 '' 'ndstate: b/current: not a neardup state (no params or sketches)\n' ndstate -q b ./see
	rm b/current
	mkdir b/current
	check 1 '' 'ndstate: b/current: not a neardup state (no params or sketches)\n' ndstate -q b ./see
}

@test "ndstate -a: the writer's command runs in the state; what it makes is published" {
	state st 'x\t1\t1\n'
	check 0 'params 5 128 main\nwork st/tmp.N\nx\t1\t1\n' '' sh -c 'ndstate -a st ./see | sed "s/tmp\.[0-9]*/tmp.N/"'
	check 0 'current\nlock\nv.1\n' '' ls -A st
	# a new version: published, the old one removed
	cat >make <<'EOF2'
#!/bin/sh
mkdir "$NDSTATE_WORK/new" && printf "$1" >"$NDSTATE_WORK/new/params" &&
	printf 'y\t1\t2\n' >"$NDSTATE_WORK/new/sketches"
exit "$2"
EOF2
	chmod +x make
	check 0 '' '' ndstate -a st ./make "$params" 0
	check 0 'current\nlock\nv.2\n' '' ls -A st
	check 0 'y\t1\t2\n' '' cat st/current/sketches
	check 0 'v.2\n' '' readlink st/current
	# status 1 (some documents not read): still published
	check 1 '' '' ndstate -o st ./make "$params" 1
	check 0 'current\nlock\nv.3\n' '' ls -A st
	# status 2 or a signal: not
	check 2 '' '' ndstate -o st ./make "$params" 2
	check 0 'current\nlock\nv.3\n' '' ls -A st
	check 137 '' '' ndstate -o st sh -c './make "$1" 0 && kill -KILL $$' sh "$params"
	check 0 'current\nlock\nv.3\n' '' ls -A st
	# a version that is not whole is not published
	check 1 '' 'ndstate: st/tmp.N/new/params: not a neardup state\n' sh -c 'ndstate -o st ./make "x" 0 2>&1 >/dev/null | sed "s/tmp\.[0-9]*/tmp.N/" >&2; exit 1'
	check 0 'current\nlock\nv.3\n' '' ls -A st
}

@test "ndstate -o: a new state is made; removed again if no version was" {
	check 0 'params none\nwork st/tmp.N\nno sketches\n' '' sh -c 'ndstate -o st ./see | sed "s/tmp\.[0-9]*/tmp.N/"'
	[ ! -e st ]
	check 1 '' 'ndstate: no/st: No such file or directory\n' ndstate -o no/st ./see
	mkdir full
	: >full/x
	check 1 '' 'ndstate: full: a directory that is not a neardup state: not replaced\n' ndstate -o full ./see
	check 0 'x\n' '' ls -A full
	: >file
	check 1 '' 'ndstate: file: exists and is not a directory\n' ndstate -o file ./see
	check 1 '' 'ndstate: nope: no such state directory\n' ndstate -a nope ./see
}

@test "ndstate -o, -a: a folder of someone's v.* and tmp.* is no state: kept whole" {
	mkdir -p rel/v.1.0 rel/v.2.0 rel/tmp.notes
	echo notes >rel/v.1.0/NOTES
	echo n >rel/tmp.notes/n
	check 1 '' 'ndstate: rel: a directory that is not a neardup state: not replaced\n' ndstate -o rel ./see
	check 0 'rel\nrel/tmp.notes\nrel/tmp.notes/n\nrel/v.1.0\nrel/v.1.0/NOTES\nrel/v.2.0\n' '' sh -c 'find rel | LC_ALL=C sort'
	# names a state writes (v.N, tmp.N), but no lock: no first run of ours
	mkdir -p two/v.1 two/tmp.2
	echo x >two/v.1/app
	check 1 '' 'ndstate: two: a directory that is not a neardup state: not replaced\n' ndstate -o two ./see
	check 0 'app\n' '' ls -A two/v.1
	# nor added to: nothing removed, no lock made
	check 1 '' 'ndstate: two: not a neardup state (no params or sketches)\n' ndstate -a two ./see
	check 0 'two\ntwo/tmp.2\ntwo/v.1\ntwo/v.1/app\n' '' sh -c 'find two | LC_ALL=C sort'
	# with the lock of a first run that did not end: replaced
	: >two/lock
	check 0 'params none\nwork two/tmp.N\nno sketches\n' '' sh -c 'ndstate -o two ./see | sed "s/tmp\.[0-9]*/tmp.N/"'
}

@test "ndstate -a, -o: a current that is a directory, not a link: refused, kept" {
	state st 'x\t1\t1\n'
	: >st/lock
	rm st/current
	cp -R st/v.1 st/current
	check 1 '' 'ndstate: st/current: not a symbolic link to a version\n' ndstate -a st ./see
	check 1 '' 'ndstate: st/current: not a symbolic link to a version\n' ndstate -o st ./see
	check 0 'current\nlock\nv.1\n' '' ls -A st
	check 0 'params\nsketches\n' '' ls -A st/current
	# readers read it as it is
	check 0 'params 5 128 main\nwork none\nx\t1\t1\n' '' ndstate -q st ./see
}

@test "ndstate -a, -o: what killed writers left is removed, the current version kept" {
	state st 'x\t1\t1\n'
	mkdir st/tmp.1 st/tmp.2 st/v.7 st/tmp.3
	: >st/tmp.1/f
	mkdir st/tmp.3/new
	: >st/tmp.3/new/sketches
	ln -s v.7 st/tmp.2/current
	check 0 '' '' ndstate -a st true
	check 0 'current\nlock\nv.1\n' '' ls -A st
	# the files of version 1, once current is there
	: >st/params
	: >st/sketches
	check 0 '' '' ndstate -o st true
	check 0 'current\nlock\nv.1\n' '' ls -A st
}

@test "ndstate: one writer; a second is refused, or waits (-w)" {
	state st ''
	ndstate -a st sleep 2 3>&- &
	local pid=$!
	sleep 0.5
	run --separate-stderr ndstate -a st true
	[ "$status" -eq 1 ]
	[ "$stderr" = "ndstate: st: in use by another run (process $pid)" ]
	run --separate-stderr ndstate -o st true
	[ "$status" -eq 1 ]
	# readers need no lock
	check 0 'params 5 128 main\nwork none\n' '' ndstate -q st ./see
	check 0 'waited\n' '' ndstate -w -a st echo waited
	wait "$pid"
}

@test "ndstate: a symbolic link to a state is followed" {
	mkdir real
	ln -s real st
	printf '#!/bin/sh\nmkdir "$NDSTATE_WORK/new" && printf "%s" "$1" >"$NDSTATE_WORK/new/params" && : >"$NDSTATE_WORK/new/sketches"\n' "$params" >make
	chmod +x make
	check 0 '' '' ndstate -o st ./make "$params"
	[ -L st ]
	check 0 'current\nlock\nv.1\n' '' ls -A real
	# a lock that is a link is none of ours: said at once, not retried
	: >elsewhere
	rm real/lock
	ln -s ../elsewhere real/lock
	check 1 '' 'ndstate: st/lock: a symbolic link\n' ndstate -a st ./make "$params"
	check 1 '' 'ndstate: st/lock: a symbolic link\n' ndstate -o st ./make "$params"
	check 0 'current\nlock\nv.1\n' '' ls -A real
}

@test "ndstate -t: the temporary directories of gone processes, ours" {
	mkdir t t/neardup.999999999.x t/neardup.$$.x t/neardup.1.x t/neardup.x.y t/other.999999999.x
	: >t/neardup.999999999.x/f
	: >t/neardup.999999998.file
	check 0 '' '' ndstate -t t
	ls -A t | sort >got
	printf '%s\n' "neardup.$$.x" neardup.1.x neardup.999999998.file neardup.x.y other.999999999.x |
		sort | cmp - got
	check 0 '' '' ndstate -t nonexistent
	# another host's (a TMPDIR all hosts share): its PID is not ours to look up
	local host
	host=$(uname -n)
	mkdir u u/neardup.999999999.0@"$host" u/neardup.999999999.1@other.host u/neardup.999999999.2@
	check 0 '' '' ndstate -t u
	check 0 'neardup.999999999.1@other.host\nneardup.999999999.2@\n' '' ls -A u
}

@test "ndstate: signals are passed on to the writer's command" {
	state st ''
	printf '#!/bin/sh\ntrap "echo got TERM; exit 7" TERM\necho $$ >started\nsleep 5 & wait\n' >slow
	chmod +x slow
	ndstate -a st ./slow >out 3>&- &
	local pid=$! i
	for i in $(seq 50); do
		[ -s started ] && break
		sleep 0.1
	done
	kill -TERM "$pid"
	local st=0
	wait "$pid" || st=$?
	[ "$st" -eq 7 ]
	check 0 'got TERM\n' '' cat out
	check 0 'current\nlock\nv.1\n' '' ls -A st
}

@test "ndstate -d: a damaged index is named by the state's whole path" {
	local p len
	p=$(printf 'd%.0s' $(seq 100))
	printf 'a b c d e f g h i j k l m n o p\n' >doc.txt
	run -0 neardup -o "$p" doc.txt
	len=$(wc -c <"$p/current/index")
	truncate -s 100 "$p/current/index"
	check 1 '' "ndstate: $p/current/index: truncated index (100 bytes, not $len)\n" ndstate -d "$p"
}
