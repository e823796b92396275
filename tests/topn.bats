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

@test "topn: records taken in batches: sums and diagnostics as in line order" {
	# words enough for a large table, whose lookups go in batches; the
	# overflows (found as a batch is counted) and the bad records (as
	# they are read) are reported in line order all the same, the first
	# 10 of a file, then how many there were
	awk -v max="$max" 'BEGIN {
		print "a\t" max
		for (i = 2; i <= 30000; i++)
			if (i % 1000 == 0)
				print "a\t1"
			else if (i % 777 == 0)
				print "notab"
			else if (i % 501 == 0)
				print "b\tx"
			else
				print "w" (i * 7 % 9000) "\t" (i % 13)
	}' >in
	first=1
	for f in in '<stdin>' in; do
		awk -F '\t' -v f="$f" -v first="$first" '
			function bad(what) { if (++n <= 10) printf "topn: %s:%d: %s\n", f, NR, what }
			NF < 2 { bad("no TAB between word and count"); next }
			$2 == "x" { bad("count \047x\047 is invalid"); next }
			$1 == "a" && (NR > 1 || !first) { bad("count of \047a\047 overflows") }
			END { if (n > 10) printf "topn: %s: %d bad records, the first 10 said\n", f, n }' in
		first=0
	done >want.err
	{
		printf 'a\t%s\n' "$max"
		awk -F '\t' '/^w/ { c[$1] += 3 * $2 } END { for (w in c) print w "\t" c[w] }' in |
			LC_ALL=C sort -t "$(printf '\t')" -k2,2nr -k1,1 | head -n 99
	} >want.out
	cmpout 1 want.out want.err topn 100 in - in <in
}

@test "topn: a file of another kind: 10 short lines, then how many" {
	# page records, say: each a bad count, quoted without its middle,
	# no UTF-8 character cut
	local a b c i
	a=$(repeat a 139) b=$(repeat b 37) c=$(repeat c 300)
	for i in $(seq 12); do
		printf 'p%d\t%s\303\251%s\303\251%s\n' "$i" "$a" "$c" "$b"
	done >pages
	for i in $(seq 10); do
		printf "topn: pages:%d: count '%s...%s' is invalid\n" "$i" "$a" "$b"
	done >want.err
	printf 'topn: pages: 12 bad records, the first 10 said\n' >>want.err
	: >want.out
	cmpout 1 want.out want.err topn 5 pages
	# a field quoted raw keeps the message one line: CR, LF, TAB escaped
	printf 'w\t1\r9\t\n' >cr
	check 1 '' "topn: cr:1: count '1\\\\r9\\\\t' is invalid\n" topn 5 cr
}

@test "topn: a trailing CR is ignored" {
	printf 'a\t1\r\nb\t2\r\n' >in
	check 0 'b\t2\na\t1\n' '' topn 5 in
}

# ---- Hardening: bad input, output faults, resource bounds ----
load faults

@test "topn: an empty file" {
	: >e
	check 0 '' '' topn 5 e
}

@test "topn: a directory" {
	mkdir d
	printf 'a\t1\n' >in
	check 1 'a\t1\n' 'topn: d: read error: Is a directory\n' topn 5 d in
}

@test "topn: an unreadable file" {
	needasuser
	printf 'a\t1\n' >f
	chmod 000 f
	check 1 '' 'topn: f: Permission denied\n' asuser topn 5 f
}

@test "topn: NUL bytes and bytes >= 0x80 in words are bytes like any other" {
	printf 'a\0b\t2\n\377\t3\na\0c\t2\na\0b\t1\n' >in
	check 0 'a\0b\t3\n\377\t3\na\0c\t2\n' '' topn 5 in
	printf 'a\t1\0\n' >in
	check 1 '' "topn: in:1: count '1' is invalid\n" topn 5 in
}

@test "topn: a 10 MB word and a 50 MB line" {
	{ repeat a 10000000; printf '\t5\nb\t6\n'; } >in
	{ printf 'b\t6\n'; repeat a 10000000; printf '\t5\n'; } >want
	cmpout 0 want /dev/null topn 5 in
	{ printf 'w\t'; repeat 1 50000000; printf '\n'; } >in
	run -1 --separate-stderr topn 5 in
	[ "$output" = "" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	case ${stderr_lines[0]} in
	"topn: in:1: count '1111111111"*"' is too large") ;;
	*) false ;;
	esac
}

@test "topn: counts with signs, spaces, hex, overflow" {
	printf 'a\t+1\nb\t 2\nc\t3 \nd\t0x4\ne\t99999999999999999999\nf\t-0\ng\t007\n' >in
	check 1 'g\t7\n' "topn: in:1: count '+1' is invalid
topn: in:2: count ' 2' is invalid
topn: in:3: count '3 ' is invalid
topn: in:4: count '0x4' is invalid
topn: in:5: count '99999999999999999999' is too large
topn: in:6: count '-0' is invalid
" topn 5 in
	check 2 '' "topn: count ' 5' is invalid (allowed: 1 to $max)\n" topn ' 5' in
	check 2 '' "topn: count '0x5' is invalid (allowed: 1 to $max)\n" topn 0x5 in
}

@test "topn: stdout cannot be written" {
	printf 'a\t1\n' >in
	devfull topn 5 in
	awk 'BEGIN { for (i = 0; i < 100000; i++) print "w" i "\t" i }' >big
	devfull topn 100000 big
}

@test "topn: the reader of stdout goes away" {
	awk 'BEGIN { for (i = 0; i < 200000; i++) print "w" i "\t" i }' >big
	sigpipe topn 200000 big
}

@test "topn: an empty word" {
	# fuzz finding: writing an empty first word did arithmetic on a null buffer (UB)
	printf '\t3\n' >in
	check 0 '\t3\n' '' topn 5 in
}

@test "topn: 2^18 words built to collide under the former hash: linear time" {
	# nearly a minute of CPU with the former hash, a fraction of a second now
	collide $collide_bytes 18 | awk '{ print $0 "\t" NR }' >in
	run --separate-stderr bash -c 'set -o pipefail; ulimit -t 10 && topn 3 in | cut -f 2'
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$output" = "$(printf '262144\n262143\n262142')" ]
}

@test "topn: a million words counted alike: memory as with no ties" {
	need_rss
	awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "w%07d\t1\n", i }' >ties
	awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "w%07d\t%d\n", i, i + 1 }' >spread
	check 0 'w0000000\t1\nw0000001\t1\nw0000002\t1\n' '' topn 3 ties
	/usr/bin/time -f %M -o rss.ties topn 10 ties >/dev/null
	/usr/bin/time -f %M -o rss.spread topn 10 spread >/dev/null
	# only the ties first in byte order are kept, not all of them
	[ "$(cat rss.ties)" -le $(($(cat rss.spread) * 11 / 10)) ]
}
