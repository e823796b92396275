#!/usr/bin/env bats
# hamq: index fingerprints within a Hamming distance of each query.

load helper

u='usage: hamq [-a] [-d distance] index [file ...]\n'

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	printf 'i1\t0000\ni2\t1111\ni3\t0001\ni4\t0011\ni5\t0000\ni6\t1000\n' >idx
	printf 'q1\t0000\nq2\t1111\nq3\t0101\n' >q
	# distances: q1 0 4 1 2 0 1, q2 4 0 3 2 4 3, q3 2 2 1 2 2 3
	all='q1\t0\ti1\nq1\t0\ti5\nq1\t1\ti3\nq1\t1\ti6\nq1\t2\ti4\n'
	all=$all'q2\t0\ti2\nq2\t2\ti4\nq2\t3\ti3\nq2\t3\ti6\n'
	all=$all'q3\t1\ti3\nq3\t2\ti1\nq3\t2\ti2\nq3\t2\ti4\nq3\t2\ti5\nq3\t3\ti6\n'
}

@test "hamq -h: usage on stdout" {
	check 0 "$u" '' hamq -h
}

@test "hamq: bad option" {
	badopt "usage: hamq [-a] [-d distance] index [file ...]" hamq -x idx q
}

@test "hamq: no index" {
	check 2 '' "$u" hamq
	check 2 '' "$u" hamq -a -d 1
}

@test "hamq: by query, then distance, then index order" {
	check 0 "$all" '' hamq idx q
	check 0 "$all" '' hamq -d 3 idx <q
}

@test "hamq -d 0: equal fingerprints only" {
	check 0 'q1\t0\ti1\nq1\t0\ti5\nq2\t0\ti2\n' '' hamq -d 0 idx q
}

@test "hamq -d beyond M: every index entry" {
	out='q1\t0\ti1\nq1\t0\ti5\nq1\t1\ti3\nq1\t1\ti6\nq1\t2\ti4\nq1\t4\ti2\n'
	check 0 "$out" '' hamq -d 4 idx - <<-EOF
	q1	0000
	EOF
	check 0 "$out" '' hamq -d 128 idx - <<-EOF
	q1	0000
	EOF
}

@test "hamq -a: a header record before each query's matches" {
	check 0 'q1\nq1\t0\ti1\nq1\t0\ti5\nq2\nq2\t0\ti2\nq3\n' '' hamq -a -d 0 idx q
	# a query ID twice keeps two blocks
	check 0 'q\nq\t1\ti2\nq\t1\ti4\nq\nq\t1\ti2\nq\t1\ti4\n' '' hamq -a -d 1 idx - <<-EOF
	q	0111
	q	0111
	EOF
}

@test "hamq: bad -d" {
	check 2 '' "hamq: distance '129' is too large (allowed: 0 to 128)\n" hamq -d 129 idx q
	check 2 '' "hamq: distance 'x' is invalid (allowed: 0 to 128)\n" hamq -d x idx q
	check 2 '' "hamq: distance '' is invalid (allowed: 0 to 128)\n" hamq -d '' idx q
}

@test "hamq: several query files, a missing one, a missing index" {
	printf 'r\t1000\n' >r
	check 1 'r\t0\ti6\nr\t1\ti1\nr\t1\ti5\nr\t2\ti3\nr\t3\ti2\nr\t3\ti4\n' \
		'hamq: nope: No such file or directory\n' hamq -d 4 idx nope r
	check 1 '' 'hamq: nope: No such file or directory\n' hamq nope q
}

@test "hamq: empty index, empty queries" {
	: >empty
	check 0 '' '' hamq empty q
	check 0 'q1\nq2\nq3\n' '' hamq -a empty q
	check 0 '' '' hamq idx empty
	check 0 '' '' hamq -a idx </dev/null
}

@test "hamq: width differs between index and queries" {
	printf 'r\t000\nq\t0000\n' >r
	check 1 'q\t0\ti1\nq\t0\ti5\nq\t1\ti3\nq\t1\ti6\nq\t2\ti4\n' 'hamq: r:1: fingerprint has 3 bits, not 4 like the first\n' hamq idx r
	printf 'a\t0000\nb\t00000\n' >bad
	check 1 '' 'hamq: bad:2: fingerprint has 5 bits, not 4 like the first\n' hamq bad q
}

@test "hamq: bad records" {
	printf 'r\t0000\ns\t00a0\nt\t0000\n' >r
	check 1 'r\t0\ti1\nr\t0\ti5\nt\t0\ti1\nt\t0\ti5\n' 'hamq: r:2: fingerprint character 3 is not 0 or 1\n' hamq -d 0 idx r
	printf 'r0000\n' >r
	check 1 '' 'hamq: r:1: no TAB between ID and fingerprint\n' hamq idx r
	printf 'r\t\n' >r
	check 1 '' 'hamq: r:1: fingerprint has 0 bits, not 1 to 128\n' hamq idx r
	printf 'r\t%0129d\n' 0 >r
	check 1 '' 'hamq: r:1: fingerprint has 129 bits, not 1 to 128\n' hamq r q
}

@test "hamq: CRLF records" {
	printf 'i1\t0000\r\ni2\t0111\r\n' >crlf
	check 0 'q1\t0\ti1\nq1\t3\ti2\n' '' hamq crlf - <<-EOF
	q1	0000
	EOF
}

@test "hamq: IDs are copied as they are" {
	printf 'a\\tb\377\t1\n' >i
	printf 'q\\\\ \t1\r\n' >r
	check 0 'q\\\\ \t0\ta\\tb\377\n' '' hamq i r
}

@test "hamq: M=1" {
	printf 'a\t0\nb\t1\n' >i
	printf 'q\t1\n' >r
	check 0 'q\t0\tb\nq\t1\ta\n' '' hamq i r
	check 0 'q\t0\tb\n' '' hamq -d 0 i r
}

@test "hamq: M=128" {
	z=$(printf '%0128d' 0)
	ends=1$(printf '%0126d' 0)1
	mid=$(printf '%060d' 0)11111111$(printf '%060d' 0)
	printf 'i1\t%s\ni2\t%s\ni3\t%s\n' "$z" "$ends" "$mid" >i
	printf 'q\t%s\nr\t%s\n' "$z" "$ends" >r
	check 0 'q\t0\ti1\nq\t2\ti2\nr\t0\ti2\nr\t2\ti1\n' '' hamq i r
	check 0 'q\t0\ti1\nq\t2\ti2\nq\t8\ti3\nr\t0\ti2\nr\t2\ti1\nr\t10\ti3\n' '' hamq -d 10 i r
	check 0 'q\nq\t0\ti1\nq\t2\ti2\nq\t8\ti3\nr\nr\t0\ti2\nr\t2\ti1\nr\t10\ti3\n' '' hamq -a -d 128 i r
}
