#!/usr/bin/env bats
# topn: the N most frequent words of "WORD<TAB>COUNT" records.

load helper

u='usage: topn count [file ...]\n'
max=9223372036854775807

@test "topn -h: usage on stdout" {
	check 0 "$u" '' topn -h
}

@test "topn: bad option" {
	badopt "usage: topn count [file ...]" topn -x 3
}

@test "topn: no count" {
	check 2 '' "$u" topn
}

@test "topn: rank by count, then by bytes" {
	printf 'b\t2\na\t2\nab\t2\nz\t5\nB\t2\nq\t0\n' >in
	check 0 'z\t5\nB\t2\na\t2\nab\t2\nb\t2\nq\t0\n' '' topn 6 in
	check 0 'z\t5\nB\t2\na\t2\n' '' topn 3 in
	check 0 'z\t5\n' '' topn 1 <in
}

@test "topn: count larger than the number of words" {
	printf 'x\t1\ny\t3\n' >in
	check 0 'y\t3\nx\t1\n' '' topn 1000 in
	check 0 'y\t3\nx\t1\n' '' topn "$max" in
	check 0 'y\t3\n' '' topn 0001 in
}

@test "topn: bad count" {
	printf 'x\t1\n' >in
	check 2 '' "topn: count '0' is too small (allowed: 1 to $max)\n" topn 0 in
	check 2 '' "topn: count 'abc' is invalid (allowed: 1 to $max)\n" topn abc in
	check 2 '' "topn: count '' is invalid (allowed: 1 to $max)\n" topn '' in
	check 2 '' "topn: count '+3' is invalid (allowed: 1 to $max)\n" topn +3 in
	check 2 '' "topn: count '-1' is invalid (allowed: 1 to $max)\n" topn -- -1 in
	check 2 '' "topn: count '99999999999999999999' is too large (allowed: 1 to $max)\n" \
		topn 99999999999999999999 in
	check 2 '' "topn: count '9223372036854775808' is too large (allowed: 1 to $max)\n" \
		topn 9223372036854775808 in
}

@test "topn: -1 is an option" {
	badopt "usage: topn count [file ...]" topn -1
}

@test "topn: a word seen twice is summed, over files and stdin" {
	printf 'a\t1\nb\t5\na\t2\n' >f1
	printf 'c\t4\nb\t0\n' >f2
	printf 'a\t2\nd\t9\n' >f3
	check 0 'd\t9\na\t5\nb\t5\nc\t4\n' '' topn 10 f1 - f3 <f2
}

@test "topn: missing file, keeps going" {
	printf 'a\t1\n' >f1
	printf 'b\t2\n' >f2
	check 1 'b\t2\na\t1\n' 'topn: nope: No such file or directory\n' topn 5 f1 nope f2
}

@test "topn: empty input" {
	: >empty
	check 0 '' '' topn 3 empty
	check 0 '' '' topn 3 </dev/null
}

@test "topn: missing TAB and bad counts are skipped" {
	printf 'a\t1\nnotab\nb\tx\nc\t-1\nd\t\ne\t7\n' >in
	check 1 'e\t7\na\t1\n' "topn: in:2: no TAB between word and count
topn: in:3: count 'x' is invalid
topn: in:4: count '-1' is invalid
topn: in:5: count '' is invalid
" topn 5 in
}

@test "topn: a sum that overflows" {
	printf 'a\t9223372036854775807\na\t1\nb\t1\n' >in
	check 1 'a\t9223372036854775807\nb\t1\n' \
		"topn: <stdin>:2: count of 'a' overflows\n" topn 5 <in
}

@test "topn: a trailing CR is ignored" {
	printf 'a\t1\r\nb\t2\r\n' >in
	check 0 'b\t2\na\t1\n' '' topn 5 in
}
