#!/usr/bin/env bats
# simtool N M: the whole pipeline, on a small corpus made here and on the
# course data (../shared).

load helper

u='usage: simtool N M\n'

# One part unless a test says otherwise: simtool picks the number of
# parts from the processors online, and a tool's message comes once a part.
export SIMTOOL_PARTS=1

# No temporary file is left, here or in $TMPDIR.
clean() {
	[ -z "$(find . -name 'result.txt.*')" ]
	[ -z "$(ls -A tmp)" ]
}

@test "simtool -h: usage on stdout" {
	check 0 "$u" '' simtool -h
}

@test "simtool: small corpus, M=4 and M=8" {
	small
	mkdir tmp
	check 0 'S1\n0:A1 \n2:A3 \n3:A2 \n' '' env TMPDIR="$PWD/tmp" simtool 3 4
	printf "$small4" >want
	cmp result.txt want
	check 0 'S1\n0:A1 \n' '' env TMPDIR="$PWD/tmp" simtool 3 8
	printf "$small8" >want
	cmp result.txt want
	clean
}

@test "simtool: a hash row of 80 MB is counted in linear time" {
	small
	# its first 4 bits are the small corpus's first row: one row of 80 MB
	{ head -n 1 hashvalue.txt | cut -c1-4; head -c 80000000 /dev/zero | tr '\0' '1'; } | tr -d '\n' >row
	mv row hashvalue.txt
	# (an awk counting its rows took over 30 s: quadratic in the line)
	run -0 timeout 20 simtool 1 4
	check 2 '' "simtool: N '2' is out of range (allowed: 1 to 1, the rows of hashvalue.txt)\n" simtool 2 4
}

@test "simtool: small corpus, leading zeros" {
	small
	check 0 'S1\n0:A1 \n2:A3 \n3:A2 \n' '' simtool 003 04
	printf "$small4" >want
	cmp result.txt want
	# a first -- ends the options (there are none), as getopt(3) has it
	rm result.txt
	check 0 'S1\n0:A1 \n2:A3 \n3:A2 \n' '' simtool -- 3 4
	cmp result.txt want
}

@test "simtool: small corpus with CRLF line endings" {
	small
	for f in article sample stopwords hashvalue; do
		sed 's/$/\r/' $f.txt >x
		mv x $f.txt
	done
	check 0 'S1\n0:A1 \n2:A3 \n3:A2 \n' '' simtool 3 4
	printf "$small4" >want
	cmp result.txt want
}

@test "simtool: a last hash row without a newline is a row" {
	small
	simtool 4 4 >want.screen
	cp result.txt want
	printf '11001010\n10100110\n01100011\n00010000' >hashvalue.txt
	cmpout 0 want.screen /dev/null simtool 4 4
	cmp result.txt want
	check 2 '' "simtool: N '5' is out of range (allowed: 1 to 4, the rows of hashvalue.txt)\n" simtool 5 4
	check 2 '' "simtool: N '99999999999999999999' is out of range (allowed: 1 to 4, the rows of hashvalue.txt)\n" \
		simtool 99999999999999999999 4
	printf '11001010' >hashvalue.txt
	check 2 '' "simtool: N '2' is out of range (allowed: 1 to 1, the rows of hashvalue.txt)\n" simtool 2 4
	: >hashvalue.txt
	check 1 '' 'simtool: hashvalue.txt: empty\n' simtool 1 4
}

@test "simtool: usage errors on the small corpus keep result.txt" {
	small
	printf 'old\n' >result.txt
	check 2 '' "$u" simtool
	check 2 '' "$u" simtool 3
	check 2 '' "$u" simtool 3 4 5
	check 2 '' "$u" simtool -- 3
	check 2 '' "$u" simtool -- -- 3 4
	check 2 '' "simtool: N '5' is out of range (allowed: 1 to 4, the rows of hashvalue.txt)\n" simtool 5 4
	check 2 '' "simtool: N '00' is out of range (allowed: 1 to 4, the rows of hashvalue.txt)\n" simtool 00 4
	check 2 '' "simtool: M '0' is out of range (allowed: 1 to 128)\n" simtool 3 0
	check 2 '' "simtool: M '' is invalid (allowed: 1 to 128)\n" simtool 3 ''
	check 0 'old\n' '' cat result.txt
}

@test "simtool: missing input file" {
	small
	printf 'old\n' >result.txt
	rm sample.txt
	check 1 '' 'simtool: sample.txt: not found (it must be in the current directory)\n' simtool 3 4
	small
	rm stopwords.txt
	check 1 '' 'simtool: stopwords.txt: not found (it must be in the current directory)\n' simtool 3 4
	# a dangling link is not found either
	ln -s nowhere stopwords.txt
	check 1 '' 'simtool: stopwords.txt: not found (it must be in the current directory)\n' simtool 3 4
	rm stopwords.txt
	mkfifo stopwords.txt
	check 1 '' 'simtool: stopwords.txt: not a regular file\n' simtool 3 4
	check 0 'old\n' '' cat result.txt
}

@test "simtool: M wider than the hash rows" {
	small
	printf 'old\n' >result.txt
	mkdir tmp
	run -1 --separate-stderr env TMPDIR="$PWD/tmp" simtool 3 9
	[ "$output" = "" ]
	printf '%s\n' "${stderr_lines[@]}" | LC_ALL=C sort >got
	printf '%s\n' \
		'fphash: hashvalue.txt:1: row has 8 bits, 9 needed' \
		'fphash: hashvalue.txt:1: row has 8 bits, 9 needed' \
		'simtool: stage fphash article.txt failed' \
		'simtool: stage fphash sample.txt failed' >want
	cmp got want
	check 0 'old\n' '' cat result.txt
	clean
}

@test "simtool: usage errors on the course data" {
	course course
	printf 'old\n' >result.txt
	r='the rows of hashvalue.txt'
	check 2 '' "$u" simtool
	check 2 '' "$u" simtool 1000
	check 2 '' "simtool: N '0' is out of range (allowed: 1 to 10000, $r)\n" simtool 0 16
	check 2 '' "simtool: N '10001' is out of range (allowed: 1 to 10000, $r)\n" simtool 10001 16
	check 2 '' "simtool: N '-5' is invalid (allowed: 1 to $r)\n" simtool -5 16
	check 2 '' "simtool: M '0' is out of range (allowed: 1 to 128)\n" simtool 1000 0
	check 2 '' "simtool: M '129' is out of range (allowed: 1 to 128)\n" simtool 1000 129
	check 2 '' "simtool: M 'abc' is invalid (allowed: 1 to 128)\n" simtool 1000 abc
	check 0 'old\n' '' cat result.txt
	[ -z "$(find . -name 'result.txt.*')" ]
}

@test "simtool 1000 16 on the course data: the official result" {
	course course
	mkdir tmp
	firstblock "$shared/course/result(example).txt" >want.screen
	cmpout 0 want.screen /dev/null env TMPDIR="$PWD/tmp" simtool 1000 16
	cmp result.txt "$shared/course/result(example).txt"
	clean
}

@test "simtool 1000 16 on the CRLF course data: the same result" {
	course course-crlf
	firstblock "$shared/course/result(example).txt" >want.screen
	cmpout 0 want.screen /dev/null simtool 1000 16
	cmp result.txt "$shared/course/result(example).txt"
}

@test "simtool: cut into parts, the same result, LF and CRLF, and by default" {
	course course
	mkdir tmp
	for parts in 2 3 7 64; do
		rm -f result.txt
		firstblock "$shared/course/result(example).txt" >want.screen
		cmpout 0 want.screen /dev/null env TMPDIR="$PWD/tmp" SIMTOOL_PARTS=$parts simtool 1000 16
		cmp result.txt "$shared/course/result(example).txt"
	done
	rm -f result.txt
	cmpout 0 want.screen /dev/null env -u SIMTOOL_PARTS TMPDIR="$PWD/tmp" simtool 1000 16
	cmp result.txt "$shared/course/result(example).txt"
	course course-crlf
	rm -f result.txt
	cmpout 0 want.screen /dev/null env TMPDIR="$PWD/tmp" SIMTOOL_PARTS=3 simtool 1000 16
	cmp result.txt "$shared/course/result(example).txt"
	small
	check 0 'S1\n0:A1 \n2:A3 \n3:A2 \n' '' env TMPDIR="$PWD/tmp" SIMTOOL_PARTS=5 simtool 3 4
	printf "$small4" >want
	cmp result.txt want
	clean
}

@test "simtool: a stage of a part fails: named with its part" {
	small
	mkdir tmp
	printf 'old\n' >result.txt
	fake topn 'exit 3'
	check 1 '' 'simtool: stage topn failed\n' \
		env PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" SIMTOOL_PARTS=2 simtool 3 4
	fake wordfreq 'case $* in *-T*article.txt) exit 4 ;; esac; exec "$real" "$@"'
	run -1 --separate-stderr env PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" SIMTOOL_PARTS=2 simtool 3 4
	[ "$output" = "" ]
	[ "$stderr" = "simtool: stage wordfreq -p article.txt (part 1/2) failed
simtool: stage wordfreq -p article.txt (part 2/2) failed" ]
	# hamq fails before it reads the index that cat passes it: nothing waits
	rm fakes/topn fakes/wordfreq
	fake hamq 'exit 5'
	check 1 '' 'simtool: stage hamq failed\n' \
		timeout 20 env PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" SIMTOOL_PARTS=2 simtool 3 4
	check 0 'old\n' '' cat result.txt
	clean
}

@test "simtool: with one part the articles' wordfreq ranks the features: no topn" {
	small
	mkdir tmp
	fake topn 'exit 3'
	check 0 'S1\n0:A1 \n2:A3 \n3:A2 \n' '' \
		env PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" SIMTOOL_PARTS=1 simtool 3 4
	printf "$small4" >want
	cmp result.txt want
	check 1 '' 'simtool: stage topn failed\n' \
		env PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" SIMTOOL_PARTS=2 simtool 3 4
	clean
}

@test "simtool: the temporary directory is the user's alone, whatever the umask" {
	small
	mkdir tmp
	fake hamq 'stat -c %a "${4%/*}" >"$PWD/mode"; exec "$real" "$@"'
	# made under umask 077 too: a mkdir -m that chmods after making it
	# (busybox's) leaves no moment when others may write in it
	fake mkdir 'umask >"$PWD/umask"; exec "$real" "$@"'
	check 0 'S1\n0:A1 \n2:A3 \n3:A2 \n' '' \
		sh -c 'umask 0; exec env PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" simtool 3 4'
	check 0 '700\n' '' cat mode
	check 0 '0077\n' '' cat umask
	clean
}

@test "simtool: one part starts 9 processes, each of one program (strace)" {
	command -v strace >/dev/null || skip "no strace"
	strace -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	small
	mkdir tmp tr
	# a process costs milliseconds: the count is part of the run's time
	# (a trace file per process; the leak checker of a sanitizer build
	# cannot run under ptrace)
	export ASAN_OPTIONS="${ASAN_OPTIONS-}:detect_leaks=0"
	run -0 env TMPDIR="$PWD/tmp" SIMTOOL_PARTS=1 \
		strace -ff -e trace=execve -o tr/t simtool 3 4
	printf "$small4" >want
	cmp result.txt want
	for f in tr/t.*; do
		grep -E '^execve\(.* = 0$' "$f" | sed 's/^[^"]*"\([^"]*\)".*/\1/; s|.*/||'
	done | LC_ALL=C sort >got
	printf '%s\n' fmtresult fphash fphash hamq mkdir rm simtool wc wordfreq wordfreq >want
	cmp got want
	check 0 '10\n' '' sh -c 'ls tr | wc -l'
	clean
}

@test "simtool: a TMPDIR with spaces and a pattern, with one part or several" {
	small
	mkdir -- '-t m p *'
	printf "$small4" >want
	for p in 1 2 3; do
		check 0 'S1\n0:A1 \n2:A3 \n3:A2 \n' '' \
			env TMPDIR='-t m p *' SIMTOOL_PARTS=$p simtool 3 4
		cmp result.txt want
	done
	check 0 '' '' ls -A -- '-t m p *'
	clean
}

@test "simtool: SIMTOOL_PARTS must be a number from 1 to 64" {
	small
	for p in 0 65 x ''; do
		run -2 --separate-stderr env SIMTOOL_PARTS="$p" simtool 3 4
		[ "$output" = "" ]
	done
	check 2 '' "simtool: SIMTOOL_PARTS '65' is out of range (allowed: 1 to 64)\n" \
		env SIMTOOL_PARTS=65 simtool 3 4
	[ ! -e result.txt ]
}

# The busy processes of a test, stopped however it ends.
stopbusy() {
	[ ! -f "$BATS_TEST_TMPDIR/busy" ] || kill $(cat "$BATS_TEST_TMPDIR/busy") 2>/dev/null
	rm -f "$BATS_TEST_TMPDIR/busy"
}
teardown() {
	stopbusy
}

# parts SIZES...: run simtool 3 4 on the small corpus (after $PARTSRUN,
# a command such as taskset -c 0, if set), wc -lc faked to give
# article.txt and sample.txt the SIZES (none: the real ones); the parts
# of its count stages, sorted, in got.parts.
parts() {
	rm -rf fakes parts
	# the part of each count stage (an argument -T, not a path holding
	# "-T"): the word after -c
	fake wordfreq 'prev= part= counts=
for a; do
	[ "$prev" != -c ] || part=$a
	[ "$a" != -T ] || counts=1
	prev=$a
done
[ -z "$counts" ] || echo "$part" >>"$PWD/parts"
exec "$real" "$@"'
	[ $# -eq 0 ] ||
		fake wc "printf '3 24 hashvalue.txt\\n0 %s article.txt\\n0 %s sample.txt\\n3 0 total\\n' $1 $2"
	run -0 ${PARTSRUN-} env -u SIMTOOL_PARTS PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" simtool 3 4
	sort parts >got.parts
}

# wantparts P: want.parts for P parts, each counting both files.
wantparts() {
	i=0
	while [ "$i" -lt "$1" ]; do
		echo "$i/$1"
		echo "$i/$1"
		i=$((i + 1))
	done | sort >want.parts
}

@test "simtool: a part for each 48 MiB between the inputs' sizes, at most one a processor" {
	n=$(getconf _NPROCESSORS_ONLN)
	[ "$n" -le 64 ] || n=64
	[ "$n" -ge 2 ] || skip "one processor: one part either way"
	small
	mkdir tmp
	printf "$small4" >want
	parts
	wantparts 1
	cmp got.parts want.parts
	cmp result.txt want
	parts 50331647 0
	cmp got.parts want.parts
	# a process running on each processor, for the whole run: the same
	i=0
	while [ "$i" -lt "$n" ]; do
		sh -c 'while :; do :; done' &
		echo $! >>busy
		i=$((i + 1))
	done
	parts 50331648 0
	stopbusy
	wantparts 2
	cmp got.parts want.parts
	cmp result.txt want
	parts 7 50331655
	cmp got.parts want.parts
	parts 0 6442450944
	wantparts "$n"
	cmp got.parts want.parts
	cmp result.txt want
	# no more than the processors it may run on
	if command -v taskset >/dev/null; then
		PARTSRUN='taskset -c 0' parts 0 6442450944
		wantparts 1
		cmp got.parts want.parts
	fi
	clean
}

@test "simtool: the inputs cannot be counted: an error before the work" {
	small
	mkdir tmp
	printf 'old\n' >result.txt
	for f in 'exit 1' 'echo 3 24 hashvalue.txt' 'echo x 24 hashvalue.txt; echo 0 x article.txt; echo 0 1 sample.txt'; do
		fake wc "$f"
		check 1 '' 'simtool: hashvalue.txt, article.txt, sample.txt: cannot count\n' \
			env PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" simtool 3 4
	done
	check 0 'old\n' '' cat result.txt
	[ -z "$(ls -A tmp)" ]
}

@test "simtool 1000 32 on the course data: the statement's screen" {
	course course
	cmpout 0 "$shared/course/screen-1000-32.txt" /dev/null simtool 1000 32
	firstblock result.txt >first
	cmp first "$shared/course/screen-1000-32.txt"
}

@test "simtool: a bad hash row fails and keeps the old result.txt" {
	course course
	mkdir tmp
	printf 'old\n' >result.txt
	cp hashvalue.txt good
	sed '5s/^\(..........\).*/\1/' good >hashvalue.txt
	run -1 --separate-stderr env TMPDIR="$PWD/tmp" simtool 1000 16
	[ "$output" = "" ]
	printf '%s\n' "${stderr_lines[@]}" | LC_ALL=C sort >got
	printf '%s\n' \
		'fphash: hashvalue.txt:5: row has 10 bits, 16 needed' \
		'fphash: hashvalue.txt:5: row has 10 bits, 16 needed' \
		'simtool: stage fphash article.txt failed' \
		'simtool: stage fphash sample.txt failed' >want
	cmp got want
	check 0 'old\n' '' cat result.txt
	clean

	sed '7s/^./2/' good >hashvalue.txt
	run -1 --separate-stderr env TMPDIR="$PWD/tmp" simtool 1000 16
	[ "$output" = "" ]
	printf '%s\n' "${stderr_lines[@]}" | LC_ALL=C sort >got
	printf '%s\n' \
		'fphash: hashvalue.txt:7: character 1 is not 0 or 1' \
		'fphash: hashvalue.txt:7: character 1 is not 0 or 1' \
		'simtool: stage fphash article.txt failed' \
		'simtool: stage fphash sample.txt failed' >want
	cmp got want
	check 0 'old\n' '' cat result.txt
	clean
}

# ---- Hardening: signals, full disks, failed stages ----
load faults

# fake NAME SCRIPT: a stage NAME that runs the sh SCRIPT instead, first on
# PATH; $real is the real tool.
fake() {
	mkdir -p fakes
	{
		echo '#!/bin/sh'
		echo "real=$(command -v "$1")"
		echo "$2"
	} >"fakes/$1"
	chmod +x "fakes/$1"
}

# interrupt SIGNAL STATUS [STAGE SCRIPT]: stop simtool with SIGNAL while a
# stage runs: hamq, or the fake STAGE running SCRIPT, which writes its
# process ID to $PWD/started when it has begun.
interrupt() {
	small
	mkdir tmp
	printf 'old\n' >result.txt
	fake "${3:-hamq}" "${4:-"echo \$\$ >'$PWD/started'; exec sleep 60"}"
	env --default-signal=INT PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" \
		simtool 3 4 >out 2>err 3>&- &
	pid=$!
	for i in $(seq 100); do
		[ -s started ] && break
		sleep 0.1
	done
	[ -s started ]
	kill "-$1" "$pid"
	st=0
	wait "$pid" || st=$?
	[ "$st" -eq "$2" ]
	check 0 '' '' cat out err
	# the stage was stopped too
	run kill -0 "$(cat started)"
	[ "$status" -ne 0 ]
	check 0 'old\n' '' cat result.txt
	clean
}

@test "simtool: SIGTERM stops the stages, removes temporary files, keeps result.txt" {
	interrupt TERM 143
}

@test "simtool: SIGINT stops the stages, removes temporary files, keeps result.txt" {
	interrupt INT 130
}

# stagesleft: the PIDs of simtool and its stages still running here.
stagesleft() {
	local t
	for t in simtool docsplit wordfreq topn fphash hamq fmtresult cat sleep; do
		ourprocs "$t"
	done
}

@test "simtool: SIGINT or SIGTERM at any moment stops every stage, at once" {
	local n i t sig want st pid left
	n=30
	[ -z "${ASAN_OPTIONS:-}" ] || n=6
	small
	mkdir tmp
	for ((i = 0; i < n; i++)); do
		printf 'old\n' >result.txt
		if ((RANDOM % 2)); then sig=INT want=130; else sig=TERM want=143; fi
		SIMTOOL_PARTS=$((1 + i % 2)) env --default-signal=INT TMPDIR="$PWD/tmp" \
			simtool 3 4 >/dev/null 2>err 3>&- &
		pid=$!
		sleep "0.$(printf '%03d' $((RANDOM % 150)))"
		kill "-$sig" "$pid" 2>/dev/null || :	# it may have ended
		# a stage that lost the signal would keep simtool waiting
		for ((t = 0; t < 100; t++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$pid" 2>/dev/null; then
			left=$(stagesleft)
			kill -KILL $left
			echo "round $i: SIG$sig: still running: $left" >&2
			false
		fi
		st=0
		wait "$pid" || st=$?
		# finished before the signal, or stopped by it
		[ "$st" -eq 0 ] || [ "$st" -eq "$want" ]
		[ ! -s err ]
		case $(cat result.txt) in old | "$(printf "$small4")") ;; *) false ;; esac
		clean
	done
	check 0 '' '' stagesleft
}

@test "simtool: SIGTERM while wordfreq -T writes its counts leaves no temporary file" {
	# the counts' temporary name (as mkstemp makes it), then a long stage
	interrupt TERM 143 wordfreq 'case $* in
	*-T*) while [ "$1" != -T ]; do shift; done
		: >"$2.Ab3dE9"; echo $$ >"'"$PWD"'/started"; exec sleep 60 ;;
	esac
	exec "$real" "$@"'
}

@test "simtool: a file size limit (ulimit -f) fails the stage, keeps result.txt" {
	small
	# 30,000 more pages: their counts are more than 512 kB
	awk 'BEGIN { for (i = 0; i < 30000; i++) printf "\fPAGE%016d\napple\n", i }' >>article.txt
	mkdir tmp
	printf 'old\n' >result.txt
	run -1 --separate-stderr bash -c 'ulimit -f 500; TMPDIR="$PWD/tmp" exec simtool 3 4'
	[ "$output" = "" ]
	[ "$stderr" = "wordfreq: <stdout>: write error: File too large
simtool: stage wordfreq -p article.txt failed" ]
	check 0 'old\n' '' cat result.txt
	clean
}

@test "simtool: a full disk while result.txt is written keeps the old one" {
	unshare -rm true 2>/dev/null || skip "no mount namespace (unshare -rm) for a small tmpfs"
	# 300 copies of one page, IDs of 60 bytes: result.txt is 18 kB
	mkdir in tmp mnt
	awk 'BEGIN { for (i = 0; i < 300; i++)
		printf "%s%060d\napple banana cherry\n", (i ? "\f" : ""), i }' >in/article.txt
	printf 'S\napple banana cherry\n' >in/sample.txt
	printf '1100\n1010\n0110\n' >in/hashvalue.txt
	: >in/stopwords.txt
	PATH="$PATH" TMPDIR="$PWD/tmp" unshare -rm sh -c '
		mount -t tmpfs -o size=8k tmpfs mnt || exit 99
		cd mnt || exit 99
		ln -s ../in/*.txt .
		printf "old\n" >result.txt
		simtool 3 4 >../out 2>../err
		echo $? >../st
		cat result.txt >../result
		ls -A >../ls'
	check 0 '1\n' '' cat st
	check 0 'fmtresult: result.txt: write error: No space left on device
simtool: stage fmtresult failed
' '' cat out err
	check 0 'old\n' '' cat result
	check 0 'article.txt\nhashvalue.txt\nresult.txt\nsample.txt\nstopwords.txt\n' '' cat ls
	[ -z "$(ls -A tmp)" ]
}

@test "simtool: a stage killed by a signal is named" {
	small
	mkdir tmp
	printf 'old\n' >result.txt
	fake hamq 'kill -KILL $$'
	check 1 '' 'simtool: stage hamq killed by signal SIGKILL\n' \
		env PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" simtool 3 4
	check 0 'old\n' '' cat result.txt
	clean
}

@test "simtool: a stage killed by a signal mid-pipe is named as the cause" {
	small
	mkdir tmp
	printf 'old\n' >result.txt
	# cat, joining the parts' article fingerprints for hamq, writes half
	# a record, then is killed (as by the OOM killer): hamq fails on the
	# cut record, but the cause is cat
	fake cat '"$real" "$@" | head -c 9; kill -KILL $$'
	check 1 '' "hamq: <stdin>:2: no TAB between ID and fingerprint\nsimtool: stage cat killed by signal SIGKILL\n" \
		env PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" SIMTOOL_PARTS=2 simtool 3 4
	check 0 'old\n' '' cat result.txt
	# a count stage killed: named, and nothing after it runs
	rm fakes/cat
	fake wordfreq 'case $* in
	*sample.txt) "$real" "$@" | head -c 9; kill -KILL $$ ;;
	esac
	exec "$real" "$@"'
	check 1 '' "simtool: stage wordfreq -p sample.txt killed by signal SIGKILL\n" \
		env PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" simtool 3 4
	check 0 'old\n' '' cat result.txt
	clean
}

@test "simtool: a full TMPDIR: the failing stage, and no other message" {
	unshare -rm true 2>/dev/null || skip "no mount namespace (unshare -rm) for a small tmpfs"
	mkdir in mnt
	awk 'BEGIN { for (i = 0; i < 300; i++)
		printf "%s%060d\napple banana cherry\n", (i ? "\f" : ""), i }' >in/article.txt
	# (empty: the samples' stage, beside the articles', writes nothing)
	: >in/sample.txt
	printf '1100\n1010\n0110\n' >in/hashvalue.txt
	: >in/stopwords.txt
	PATH="$PATH" unshare -rm sh -c '
		mount -t tmpfs -o size=8k tmpfs mnt || exit 99
		cd in || exit 99
		printf "old\n" >result.txt
		TMPDIR=../mnt simtool 3 4 >../out 2>../err
		echo $? >../st
		ls -A ../mnt >../ls'
	check 0 '1\n' '' cat st
	check 0 '' '' cat out
	# the articles' per-page counts are the first file to fill it
	check 0 'wordfreq: <stdout>: write error: No space left on device
simtool: stage wordfreq -p article.txt failed
' '' cat err
	check 0 'old\n' '' cat in/result.txt
	check 0 '' '' cat ls
}

@test "simtool: the reader of the screen goes away: quiet, status 141, result.txt whole" {
	small
	mkdir tmp
	# the screen's block comes once result.txt is in place: here, yes
	fake fmtresult '"$real" "$@" >/dev/null || exit; exec yes'
	env --default-signal=PIPE PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" \
		simtool 3 4 2>err | head -c 1 >/dev/null
	[ "${PIPESTATUS[0]}" -eq 141 ]
	[ ! -s err ]
	printf "$small4" >want
	cmp result.txt want
	clean
}

@test "simtool: a bad N is a usage error where the inputs are missing too" {
	check 2 '' "simtool: N 'abc' is invalid (allowed: 1 to the rows of hashvalue.txt)\n" simtool abc 5
	check 1 '' "simtool: stopwords.txt: not found (it must be in the current directory)\n" simtool 5 5
}

@test "simtool: N and M with signs, spaces, hex, overflow" {
	small
	r='the rows of hashvalue.txt'
	for n in +3 ' 3' 0x3 3x; do
		check 2 '' "simtool: N '$n' is invalid (allowed: 1 to $r)\n" simtool "$n" 4
		check 2 '' "simtool: M '$n' is invalid (allowed: 1 to 128)\n" simtool 3 "$n"
	done
	check 2 '' "simtool: N '99999999999999999999' is out of range (allowed: 1 to 4, $r)\n" \
		simtool 99999999999999999999 4
	check 2 '' "simtool: M '99999999999999999999' is out of range (allowed: 1 to 128)\n" \
		simtool 3 99999999999999999999
	[ ! -e result.txt ]
}

@test "simtool: result.txt is a directory: an error, the directory untouched" {
	small
	mkdir tmp result.txt
	printf 'keep\n' >result.txt/old
	check 1 '' 'simtool: result.txt: is a directory\n' env TMPDIR="$PWD/tmp" simtool 3 4
	check 0 'old\n' '' ls -A result.txt
	check 0 'keep\n' '' cat result.txt/old
	clean
}

@test "simtool: empty inputs, and a directory for an input" {
	small
	mkdir tmp
	: >stopwords.txt
	: >article.txt
	check 0 'S1\n' '' env TMPDIR="$PWD/tmp" simtool 3 4
	check 0 'S1\nS2\n' '' cat result.txt
	: >sample.txt
	check 0 '' '' env TMPDIR="$PWD/tmp" simtool 3 4
	check 0 '' '' cat result.txt
	: >hashvalue.txt
	check 1 '' 'simtool: hashvalue.txt: empty\n' simtool 3 4
	rm article.txt
	mkdir article.txt
	check 1 '' 'simtool: article.txt: is a directory\n' simtool 3 4
	clean
}

@test "simtool: the screen cannot be written; result.txt is whole" {
	small
	mkdir tmp
	check 1 '' 'fmtresult: <stdout>: write error: No space left on device
simtool: stage fmtresult failed
' sh -c 'TMPDIR="$PWD/tmp" exec simtool 3 4 >/dev/full'
	printf "$small4" >want
	cmp result.txt want
	clean
}
