#!/usr/bin/env bats
# fpcluster: clusters of near-duplicate fingerprints.

load helper

u='usage: fpcluster [-d distance] [-t threshold] [-w size] [file ...]\n'

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	# distances at most 1: a-b, a-f (0), b-d, b-f, c-e
	printf 'a\t0000\nb\t0001\nc\t1111\nd\t0011\ne\t1110\nf\t0000\n' >x
	comp='a\ta\nb\ta\nc\tc\nd\ta\ne\tc\nf\ta\n'
}

@test "fpcluster -h: usage on stdout" {
	check 0 "$u" '' fpcluster -h
}

@test "fpcluster: bad option and bad numbers" {
	badopt "usage: fpcluster [-d distance] [-t threshold] [-w size] [file ...]" fpcluster -x x
	check 2 '' "fpcluster: window size '0' is too small (allowed: 1 to 100000000)\n" fpcluster -w 0 x
	check 2 '' "fpcluster: distance '129' is too large (allowed: 0 to 128)\n" fpcluster -d 129 x
	for t in 1.5 2 x '' . 0.5x -1 0.1234567890123456; do
		check 2 '' "fpcluster: threshold '$t' is invalid (allowed: a decimal fraction from 0 to 1, at most 15 decimals)\n" \
			fpcluster -w 2 -t "$t" x
	done
}

@test "fpcluster: components of fingerprints, named by their first page" {
	check 0 "$comp" '' fpcluster -d 1 x
	check 0 "$comp" '' fpcluster -d 1 <x
	check 0 'a\ta\nb\tb\nc\tc\nd\td\ne\te\nf\ta\n' '' fpcluster -d 0 x
	check 0 'a\ta\nb\ta\nc\ta\nd\ta\ne\ta\nf\ta\n' '' fpcluster -d 4 x
	# several files are one input
	head -n 3 x >x1
	tail -n 3 x >x2
	check 0 "$comp" '' fpcluster -d 1 x1 x2
	: >empty
	check 0 '' '' fpcluster empty
}

@test "fpcluster: components of self-join pairs equal those of fingerprints" {
	hamq -s -a -d 1 x >pairs
	check 0 "$comp" '' fpcluster pairs
	# -d keeps the pairs within a distance
	check 0 'a\ta\nb\tb\nc\tc\nd\td\ne\te\nf\ta\n' '' fpcluster -d 0 pairs
	# without header records, pages come in order of first appearance
	hamq -s -d 1 x >bare
	check 0 'a\ta\nf\ta\nb\ta\nd\ta\nc\tc\ne\tc\n' '' fpcluster bare
	genfp -s 4 -m 32 -n 40 -u 10 -z 5 -p 20 2000 >g
	fpcluster -d 3 g >want
	hamq -s -a -d 3 g | fpcluster | cmp - want
}

@test "fpcluster: components against a brute-force reference" {
	genfp -s 6 -m 16 -n 30 -u 10 -z 5 300 >g
	fpcluster -d 2 g >got
	# union-find in awk over the pairs of the text fingerprints
	awk -F '\t' -v d=2 '
	function find(x) { while (p[x] != x) x = p[x]; return x }
	{ id[NR] = $1; fp[NR] = $2; p[NR] = NR }
	END {
		for (i = 1; i <= NR; i++)
			for (j = i + 1; j <= NR; j++) {
				n = 0
				for (c = 1; c <= 16; c++)
					n += substr(fp[i], c, 1) != substr(fp[j], c, 1)
				if (n <= d) {
					a = find(i); b = find(j)
					if (a < b) p[b] = a; else p[a] = b
				}
			}
		for (i = 1; i <= NR; i++)
			print id[i] "\t" id[find(i)]
	}' g | cmp - got
}

@test "fpcluster: bad input is an error before any output" {
	printf 'a\t0000\nb\t00x0\n' >bad
	check 1 '' 'fpcluster: bad:2: fingerprint character 3 is not 0 or 1\n' fpcluster bad
	printf 'a\nb\tx\tc\n' >badp
	check 1 '' "fpcluster: badp:2: distance 'x' is invalid\n" fpcluster badp
	printf 'a\t1\tb\nc\t2\n' >badp
	check 1 '' 'fpcluster: badp:2: not a match record (ID<TAB>DISTANCE<TAB>ID)\n' fpcluster badp
	check 1 '' 'fpcluster: nope: No such file or directory\n' fpcluster nope
}

@test "fpcluster -w: window slots reused in slot order" {
	# W=2, T=0.5: a new 0, b new 1 (J 0), c new 2 into slot 0 (a leaves),
	# d: J(c)=2/4 and J(b)=1/2 are not above 0.5, new 3 into slot 1,
	# e joins c (3/4), f: a has left the window, new 4
	check 0 'a\t0\nb\t1\nc\t2\nd\t3\ne\t2\nf\t4\n' '' fpcluster -w 2 x
	check 0 'a\t0\nb\t1\nc\t2\nd\t3\ne\t2\nf\t4\n' '' fpcluster -w 2 -t 0.5 x
	# T=.49: d joins b (1/2); f joins a (two all-zero)
	check 0 'a\t0\nb\t1\nc\t2\nd\t1\ne\t2\nf\t0\n' '' fpcluster -w 6 -t .49 x
	# a large window keeps a: f joins it
	check 0 'a\t0\nb\t1\nc\t2\nd\t3\ne\t2\nf\t0\n' '' fpcluster -w 100 x
}

@test "fpcluster -w: the first matching slot wins, not the best" {
	# slots hold 1100, 0011, 1111; 1110 has J 2/3 with slot 0, 3/4 with slot 2
	printf 'p\t1100\nq\t0011\nr\t1111\ns\t1110\n' >y
	check 0 'p\t0\nq\t1\nr\t2\ns\t0\n' '' fpcluster -w 3 -t 0.6 y
	check 0 'p\t0\nq\t1\nr\t2\ns\t2\n' '' fpcluster -w 3 -t 0.7 y
}

@test "fpcluster -w: all-zero fingerprints are identical" {
	printf 'a\t000\nb\t000\nc\t001\nd\t000\n' >z
	check 0 'a\t0\nb\t0\nc\t1\nd\t0\n' '' fpcluster -w 4 z
	check 0 'a\t0\nb\t0\nc\t1\nd\t0\n' '' fpcluster -w 4 -t 0.999999999999999 z
	# a threshold of 1: nothing is more similar than identical
	check 0 'a\t0\nb\t1\nc\t2\nd\t3\n' '' fpcluster -w 4 -t 1 z
	# threshold 0: any shared bit joins; zero and non-zero share none
	printf 'a\t110\nb\t011\nc\t000\nd\t100\n' >t
	check 0 'a\t0\nb\t0\nc\t1\nd\t0\n' '' fpcluster -w 4 -t 0 t
}

@test "fpcluster -w: M=128, several files, a bad record is skipped" {
	z=$(printf '%0128d' 0)
	o=$(printf '%0127d' 0)1
	printf 'a\t%s\nb\t%s\n' "$z" "$o" >m1
	printf 'c\t%s\nd\tbad\ne\t%s\n' "$o" "$z" >m2
	check 1 'a\t0\nb\t1\nc\t1\ne\t0\n' 'fpcluster: m2:2: fingerprint has 3 bits, not 128 like the first\n' \
		fpcluster -w 2 m1 m2
}

# ---- Hardening: bad input, output faults, resource bounds ----
load faults

@test "fpcluster: an empty file, a directory" {
	: >e
	check 0 '' '' fpcluster e
	mkdir d
	check 1 '' 'fpcluster: d: read error: Is a directory\n' fpcluster d
}

@test "fpcluster: a NUL inside a distance is invalid" {
	printf 'a\t1\0x\tb\n' >in
	check 1 '' "fpcluster: in:1: distance '1' is invalid\n" fpcluster in
}

@test "fpcluster: stdout cannot be written" {
	printf 'a\t0101\nb\t0100\n' >in
	devfull fpcluster in
	devfull fpcluster -w 4 in
}

@test "fpcluster: the reader of stdout goes away" {
	awk 'BEGIN { for (i = 0; i < 100000; i++) print "page" i "\t0101" }' >big
	sigpipe fpcluster -w 4 big
}

@test "fpcluster: a first ID longer than the reader's buffer (256 KiB)" {
	id=$(head -c 300000 /dev/zero | tr '\0' a)
	printf '%s\t0000\nb\t0001\nc\t1110\n' "$id" >f
	printf '%s\t%s\nb\t%s\nc\tc\n' "$id" "$id" "$id" >want
	fpcluster -d 1 f | cmp - want
	# match records with such an ID are told from fingerprints too
	printf '%s\t1\tb\n' "$id" >m
	printf '%s\t%s\nb\t%s\n' "$id" "$id" "$id" >want
	fpcluster m | cmp - want
}

@test "fpcluster -w: slots are taken as used, not reserved" {
	[ -z "${SIMTOOL_SAN:-}" ] || skip "address space limits do not suit sanitizers"
	printf 'a\t0000\nb\t1111\nc\t0000\n' >f
	run -0 sh -c 'ulimit -v 100000; fpcluster -w 100000000 f'
	[ "$output" = "$(printf 'a\t0\nb\t1\nc\t0')" ]
}

@test "fpcluster: clusters sharing a 28-bit prefix, through the index" {
	genfp -s 7 -m 64 -b 28 -v 100 -p 35 -n 10 -u 5 20000 >f
	hamq -s -a -m scan f | fpcluster >want
	fpcluster f | cmp - want
}

@test "fpcluster: a match record has 3 fields, distance 0 to 128 (simrec(5))" {
	printf 'q\t1\tb\tc\n' >in
	check 1 '' 'fpcluster: in:1: not a match record (ID<TAB>DISTANCE<TAB>ID)\n' fpcluster in
	printf 'q\t129\tb\n' >in
	check 1 '' "fpcluster: in:1: distance '129' is too large\n" fpcluster in
	printf 'q\t128\tb\r\n' >in
	check 0 'q\tq\nb\tq\n' '' fpcluster in
}

@test "fpcluster: pairs whose second ID is new as parent grows (read after node)" {
	# the first ID is known: every growth of parent comes with the second
	awk 'BEGIN { for (i = 0; i < 600; i++) printf "q\t1\tp%d\n", i }' >pairs
	awk 'BEGIN { print "q\tq"; for (i = 0; i < 600; i++) printf "p%d\tq\n", i }' >want
	: >none
	cmpout 0 want none fpcluster pairs
}
