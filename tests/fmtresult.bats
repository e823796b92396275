#!/usr/bin/env bats
# fmtresult: match records -> the course result format.

load helper

u='usage: fmtresult [-n count] [file ...]\n'
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
	badopt "usage: fmtresult [-n count] [file ...]" fmtresult -x m
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
	check 1 'q\n1:a \n3:c \n' 'fmtresult: in:2: match needs 3 fields\n' fmtresult in
}
