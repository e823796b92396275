#!/usr/bin/env bats
# fmtresult: match records -> the course result format.

load helper

u='usage: fmtresult [-n count] [-o file] [-t count] [file ...]\n'
max=9223372036854775807

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	# hamq -a output: q2 has no match
	printf 'q1\nq1\t0\ti1\nq1\t0\ti5\nq1\t2\ti4\nq2\nq3\nq3\t1\ti3\nq3\t3\ti6\n' >m
	q1='q1\n0:i1 i5 \n2:i4 \n'
	q2='q2\n'
	q3='q3\n1:i3 \n3:i6 \n'
}

@test "fmtresult -h: usage on stdout" {
	check 0 "$u" '' fmtresult -h
}

@test "fmtresult: bad option" {
	badopt "usage: fmtresult [-n count] [-o file] [-t count] [file ...]" fmtresult -x m
}

@test "fmtresult: blocks, one line per distance present, a space after each ID" {
	check 0 "$q1$q2$q3" '' fmtresult m
	check 0 "$q1$q2$q3" '' fmtresult <m
}

@test "fmtresult: without header records a new query starts a block" {
	printf 'a\t1\tx\na\t1\ty\nb\t0\tz\na\t3\tw\n' >in
	check 0 'a\n1:x y \nb\n0:z \na\n3:w \n' '' fmtresult in
}

@test "fmtresult -n: stops after count blocks" {
	check 0 "$q1" '' fmtresult -n 1 m
	check 0 "$q1$q2" '' fmtresult -n 2 m
	check 0 "$q1$q2$q3" '' fmtresult -n 4 m
	check 0 '' '' fmtresult -n 0 m
	printf 'a\t1\tx\nb\t0\tz\n' >in
	check 0 'a\n1:x \n' '' fmtresult -n 1 in
}

@test "fmtresult -n: bad count" {
	check 2 '' "fmtresult: count 'x' is invalid (allowed: 0 to $max)\n" fmtresult -n x m
	check 2 '' "fmtresult: count '-1' is invalid (allowed: 0 to $max)\n" fmtresult -n -1 m
}

@test "fmtresult: several files, a missing one, -n across files" {
	printf 'r\nr\t1\tx\n' >r
	check 1 "${q1}${q2}${q3}r\\n1:x \\n" 'fmtresult: nope: No such file or directory\n' \
		fmtresult m nope r
	check 0 "r\\n1:x \\n${q1}" '' fmtresult -n 2 r - nope <m
}

@test "fmtresult -o: the file whole; -t: its first blocks on stdout after" {
	printf 'old\n' >out
	check 0 '' '' fmtresult -o out m
	check 0 "$q1$q2$q3" '' cat out
	check 0 "$q1$q2" '' fmtresult -o out -t 2 m
	check 0 "$q1$q2$q3" '' cat out
	check 0 "$q1" '' fmtresult -o out -t 5 -n 1 m
	check 0 "$q1" '' cat out
	check 0 "$q1$q2$q3" '' fmtresult -o out -t 3 <m
	check 0 "$q1$q2$q3" '' cat out
	check 0 '' '' find . -name 'out.*'
	rm out
	check 0 "$q1$q2$q3" '' fmtresult -o out -t 4 m
	check 0 "$q1$q2$q3" '' cat out
}

@test "fmtresult -t without -o: a usage error" {
	check 2 '' "fmtresult: -t needs -o\n${u}" fmtresult -t 1 m
}

@test "fmtresult -o: a bad record keeps the old file, and nothing goes to stdout" {
	printf 'old\n' >out
	printf 'q\nq\t0\tx\\q\nq\t0\ty\n' >in
	check 1 '' 'fmtresult: in:2: bad escape in ID\n' fmtresult -o out -t 1 in
	check 1 '' 'fmtresult: nope: No such file or directory\n' fmtresult -o out -t 1 m nope
	check 0 'old\n' '' cat out
	check 0 '' '' find . -name 'out.*'
}

@test "fmtresult -o: a link written through, a directory refused" {
	mkdir d
	printf 'old\n' >d/target
	ln -s d/target out
	check 0 "$q1" '' fmtresult -o out -t 1 m
	check 0 "$q1$q2$q3" '' cat d/target
	[ -L out ]
	check 1 '' 'fmtresult: d: Is a directory\n' fmtresult -o d -t 1 m
	check 0 'target\n' '' ls d
}

@test "fmtresult -o: a descriptor's path is written through it, nothing replaced" {
	# on a pipe
	check 0 "$q1$q2$q3" '' bash -c 'set -o pipefail; fmtresult -o /dev/stdout m | cat'
	# appended CMD: CMD writes the result through a descriptor to log,
	# which keeps what it held
	appended() {
		printf 'kept\n' >log
		check 0 '' '' sh -c "$1" || return 1
		check 0 "kept\n$q1$q2$q3" '' cat log
	}
	appended 'fmtresult -o /dev/stdout m >>log'
	appended 'fmtresult -o /dev/fd/5 m 5>>log'
	# through a link to one, which stays
	ln -s /dev/stdout out
	appended 'fmtresult -o out m >>log'
	[ -L out ]
	# other spellings: told by the folder of the link (Linux's /proc)
	if [ -d /proc/self/fd ]; then
		appended 'fmtresult -o /dev//fd/5 m 5>>log'
		appended 'cd /dev && fmtresult -o fd/5 "$OLDPWD/m" 5>>"$OLDPWD/log"'
		mkdir sub
		ln -s "../$(echo "$PWD" | sed 's|/[^/]*|../|g')dev/fd/5" sub/out
		appended 'fmtresult -o sub/out m 5>>log'
	fi
	# a descriptor closed, or open for reading only: an error, the file as it was
	cp m m.before
	check 1 '' 'fmtresult: /dev/fd/6: Bad file descriptor\n' sh -c 'fmtresult -o /dev/fd/6 m 6<m'
	cmp m m.before
	check 1 '' 'fmtresult: /dev/fd/7: Bad file descriptor\n' sh -c 'fmtresult -o /dev/fd/7 m 7<&-'
}

@test "fmtresult -o: killed while it writes, the old file and nothing beside it" {
	printf 'old\n' >out
	mkfifo f
	# the temporary file is made first; then the FIFO's open waits for a writer
	fmtresult -o out f 3>&- &
	pid=$!
	for i in $(seq 100); do
		[ -z "$(find . -name 'out.*')" ] || break
		sleep 0.05
	done
	check 0 '1\n' '' sh -c "find . -name 'out.*' | wc -l"
	kill -TERM "$pid"
	# waited for here: run's subshell cannot wait for this shell's child
	st=0
	wait "$pid" || st=$?
	[ "$st" -eq 143 ]
	check 0 'old\n' '' cat out
	check 0 '' '' find . -name 'out.*'
}

@test "fmtresult: empty input" {
	: >empty
	check 0 '' '' fmtresult empty
	check 0 '' '' fmtresult -n 1 </dev/null
}

@test "fmtresult: escaped IDs are decoded" {
	printf 'a\\tb\\\\c\377\na\\tb\\\\c\377\t0\tx\\ty\na\\tb\\\\c\377\t0\tn\\0\\r\\n\n' >in
	check 0 'a\tb\\c\377\n0:x\ty n\0\r\n \n' '' fmtresult in
}

@test "fmtresult: a bad escape" {
	printf 'q\nq\t0\tx\\q\nq\t0\ty\n' >in
	check 1 'q\n0:y \n' 'fmtresult: in:2: bad escape in ID\n' fmtresult in
	printf 'q\\\n' >in
	check 1 '' 'fmtresult: in:1: bad escape in ID\n' fmtresult in
}

@test "fmtresult: distances out of order" {
	printf 'q\t2\ta\nq\t1\tb\nq\t2\tc\nq\t3\td\n' >in
	check 1 'q\n2:a c \n3:d \n' 'fmtresult: in:2: distance 1 after 2: matches out of order\n' \
		fmtresult in
}

@test "fmtresult: bad distance" {
	printf 'q\t1\ta\nq\tz\tb\nq\t-1\tc\nq\t\td\nq\t2147483648\te\nq\t2\tf\n' >in
	check 1 'q\n1:a \n2:f \n' "fmtresult: in:2: distance 'z' is invalid
fmtresult: in:3: distance '-1' is invalid
fmtresult: in:4: distance '' is invalid
fmtresult: in:5: distance '2147483648' is too large
" fmtresult in
}

@test "fmtresult: a record with 2 fields" {
	printf 'q\t1\ta\nq\t2\nq\t3\tc\n' >in
	check 1 'q\n1:a \n3:c \n' 'fmtresult: in:2: not a match record (ID<TAB>DISTANCE<TAB>ID)\n' fmtresult in
}

# ---- Hardening: bad input, output faults, resource bounds ----
load faults

@test "fmtresult: an empty file" {
	: >e
	check 0 '' '' fmtresult e
	check 0 '' '' fmtresult -n 1 e
}

@test "fmtresult: a directory" {
	mkdir d
	check 1 "$q1$q2$q3" 'fmtresult: d: read error: Is a directory\n' fmtresult d m
}

@test "fmtresult: an unreadable file" {
	needasuser
	: >f
	chmod 000 f
	chmod 644 m
	check 1 "$q1$q2$q3" 'fmtresult: f: Permission denied\n' asuser fmtresult f m
}

@test "fmtresult: NUL bytes and bytes >= 0x80 in IDs and distances" {
	printf 'q\0\377\nq\0\377\t0\ta\\0\200\nq\0\377\t1\tb\0\n' >in
	check 0 'q\0\377\n0:a\0\200 \n1:b\0 \n' '' fmtresult in
	printf 'q\t1\0\tx\nq\t\3772\ty\n' >in
	check 1 '' "fmtresult: in:1: distance '1' is invalid
fmtresult: in:2: distance '\3772' is invalid
" fmtresult in
}

@test "fmtresult: a 10 MB ID" {
	{ printf 'q\t0\t'; repeat I 10000000; printf '\n'; } >big
	{ printf 'q\n0:'; repeat I 10000000; printf ' \n'; } >want
	cmpout 0 want /dev/null fmtresult big
}

@test "fmtresult: numbers with signs, spaces, hex, overflow" {
	for n in +1 ' 1' 0x1 -1 99999999999999999999; do
		case $n in
		99*) e='too large' ;;
		*) e=invalid ;;
		esac
		check 2 '' "fmtresult: count '$n' is $e (allowed: 0 to $max)\n" fmtresult -n "$n" m
	done
	printf 'q\t+1\ta\nq\t 1\tb\nq\t0x1\tc\nq\t99999999999999999999\td\nq\t1\te\n' >in
	check 1 'q\n1:e \n' "fmtresult: in:1: distance '+1' is invalid
fmtresult: in:2: distance ' 1' is invalid
fmtresult: in:3: distance '0x1' is invalid
fmtresult: in:4: distance '99999999999999999999' is too large
" fmtresult in
}

@test "fmtresult: duplicate query IDs: header records keep their blocks apart" {
	printf 'q\nq\t0\ta\nq\nq\nq\t1\tb\n' >in
	check 0 'q\n0:a \nq\nq\n1:b \n' '' fmtresult in
	check 0 'q\n0:a \nq\n' '' fmtresult -n 2 in
	# without headers, a repeated query continues its block
	printf 'q\t0\ta\nq\t1\tb\n' >in
	check 0 'q\n0:a \n1:b \n' '' fmtresult in
}

@test "fmtresult: stdout cannot be written" {
	devfull fmtresult m
	awk 'BEGIN { for (i = 0; i < 20000; i++) print "q" i "\t0\tid" i }' >big
	devfull fmtresult big
}

@test "fmtresult: the reader of stdout goes away" {
	awk 'BEGIN { for (i = 0; i < 100000; i++) print "q" i "\t0\tid" i }' >big
	sigpipe fmtresult big
}

@test "fmtresult: an empty query ID" {
	# fuzz finding: an empty first query was copied to a null buffer (UB)
	printf '\n\t0\ta\n' >in
	check 0 '\n0:a \n' '' fmtresult in
}

@test "fmtresult: CR LF lines read as LF lines (simrec(5)), no CR in an ID" {
	sed 's/$/\r/' m >crlf
	check 0 "$q1$q2$q3" '' fmtresult crlf
}

@test "fmtresult: a match record has 3 fields, distance 0 to 128 (simrec(5))" {
	printf 'q\t1\tb\tc\nq\t129\tb\nq\t128\tb\n' >in
	check 1 'q\n128:b \n' "fmtresult: in:1: not a match record (ID<TAB>DISTANCE<TAB>ID)
fmtresult: in:2: distance '129' is too large
" fmtresult in
}
