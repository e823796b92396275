#!/usr/bin/env bats
# simjoin: near-duplicate pairs, clusters and unique documents from sketch
# records.

load helper

u='usage: simjoin [-giuvz] [-c containment] [-d rarity] [-j procs] [-L length] [-m minsize] [-N name] [-q queries] [-t threshold] [-x index] [file ...]\n'
frac='(allowed: a decimal fraction from 0 to 1, at most 15 decimals)'
badlist='bad hash list (at most 256 ascending 16-digit lowercase hex numbers, one space apart)'

# sk ID NSHINGLES [HASH ...]: a sketch record, the hashes given in decimal.
sk() {
	local id=$1 n=$2 sep='' h

	shift 2
	printf '%s\t%s\t' "$id" "$n"
	for h; do
		printf '%s%016x' "$sep" "$h"
		sep=' '
	done
	printf '\n'
}

# Whole sketches of 10 shingles: B is A with one shingle changed, 9 / 11;
# C shares nothing; D and E share hash 1 with A and B, so 4 documents hold
# it and with rarity 2 it weighs 1/2: A, B (8 + 1/2) / (10 + 1/2) = 0.8095.
setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	{
		sk A 10 1 2 3 4 5 6 7 8 9 10
		sk B 10 1 2 3 4 5 6 7 8 9 11
		sk C 10 21 22 23 24 25 26 27 28 29 30
		sk D 10 1 41 42 43 44 45 46 47 48 49
		sk E 10 1 51 52 53 54 55 56 57 58 59
	} >w.sk
}

@test "simjoin -h: usage on stdout" {
	check 0 "$u" '' simjoin -h
}

@test "simjoin: usage errors" {
	badopt "${u%\\n}" simjoin -y w.sk
	# each with its reason first (issue 18.8)
	check 2 '' "simjoin: -x needs -q\n$u" simjoin -x w.sk
	check 2 '' "simjoin: -x takes no file operand\n$u" simjoin -x w.sk -q w.sk w.sk
	check 2 '' "simjoin: -L needs -x\n$u" simjoin -L 8 -q w.sk w.sk
	check 2 '' "simjoin: -N needs -x -\n$u" simjoin -N st -q w.sk w.sk
	check 2 '' "simjoin: -N needs -x -\n$u" simjoin -N st -x w.sk -q w.sk
	check 2 '' "simjoin: queries and index cannot both be standard input\n" simjoin -x - -q - </dev/null
	check 2 '' "simjoin: -g cannot go with -u\n$u" simjoin -g -u w.sk
	check 2 '' "simjoin: -g cannot go with -q\n$u" simjoin -g -q w.sk w.sk
	check 2 '' "simjoin: -q needs a collection: no file operand\n$u" simjoin -q w.sk
	check 2 '' 'simjoin: queries and collection cannot both be standard input\n' simjoin -q - w.sk - </dev/null
	check 2 '' "simjoin: threshold '1.5' is invalid $frac\n" simjoin -t 1.5 w.sk
	check 2 '' "simjoin: threshold 'x' is invalid $frac\n" simjoin -t x w.sk
	check 2 '' "simjoin: containment '-0.1' is invalid $frac\n" simjoin -c -0.1 w.sk
	check 2 '' "simjoin: rarity '1000001' is too large (allowed: 0 to 1000000)\n" simjoin -d 1000001 w.sk
	check 2 '' "simjoin: minimum size '-1' is invalid (allowed: 0 to 4294967295)\n" simjoin -m -1 w.sk
	check 2 '' "simjoin: processes '0' is too small (allowed: 1 to 64)\n" simjoin -j 0 w.sk
	check 2 '' "simjoin: processes '65' is too large (allowed: 1 to 64)\n" simjoin -j 65 w.sk
}

@test "simjoin: -t and -c take decimal fractions only, as fpcluster and paireval" {
	for f in 1e-1 0x.8 ' 0.5' '0.5 ' +0.5 1.0000000000000001 0.1234567890123456 . '' inf nan; do
		check 2 '' "simjoin: threshold '$f' is invalid $frac\n" simjoin -t "$f" w.sk
		check 2 '' "simjoin: containment '$f' is invalid $frac\n" simjoin -c "$f" w.sk
	done
	check 0 'A\tB\t0.8095\n' '' simjoin -t 0.25 w.sk
	check 0 'A\tB\t0.8095\n' '' simjoin -t .5 w.sk
	check 0 'A\tB\t0.8095\n' '' simjoin -t 0.809523809523809 w.sk
	check 0 '' '' simjoin -t 0.80952380952381 w.sk
	check 0 '' '' simjoin -t 1 w.sk
	check 0 'A\tB\t0.8095\nA\tD\t0.0270\nA\tE\t0.0270\nB\tD\t0.0270\nB\tE\t0.0270\nD\tE\t0.0270\n' '' simjoin -t 0 w.sk
	check 0 'A\tB\t0.8095\n' '' simjoin -t 1 -c 0.9 w.sk
	check 0 '' '' simjoin -t 1 -c 1 w.sk
}

@test "simjoin: pairs, clusters (-g), unique (-u)" {
	check 0 'A\tB\t0.8095\n' '' simjoin w.sk
	check 0 'A\tB\t0.8095\n' '' simjoin <w.sk
	check 0 'A\tA\nB\tA\nC\tC\nD\tD\nE\tE\n' '' simjoin -g w.sk
	check 0 'A\nC\nD\nE\n' '' simjoin -u w.sk
	# files are one collection, in order
	head -n 2 w.sk >w1
	tail -n 3 w.sk >w2
	check 0 'A\tB\t0.8095\n' '' simjoin w1 w2
	check 0 'A\tB\t0.8095\n' '' simjoin w1 - <w2
}

@test "simjoin -i: the files are parts, their records dealt out in turn" {
	# A C E in one part, B D in the other: the order of w.sk again
	awk 'NR % 2 == 1' w.sk >p0
	awk 'NR % 2 == 0' w.sk >p1
	check 0 'A\tA\nB\tA\nC\tC\nD\tD\nE\tE\n' '' simjoin -i -g p0 p1
	check 0 'A\tB\t0.8095\nA\tD\t0.0270\nA\tE\t0.0270\nB\tD\t0.0270\nB\tE\t0.0270\nD\tE\t0.0270\n' '' simjoin -i -t 0 p0 p1
	# without -i the files follow each other: A C E B D
	check 0 'A\tA\nC\tC\nE\tA\nB\tA\nD\tA\n' '' simjoin -t 0 -g p0 p1
	# a part that ends first drops out; one part is the file itself
	check 0 'A\tA\nB\tA\nC\tC\nD\tD\nE\tE\n' '' simjoin -i -g p0 p1 /dev/null
	check 0 'A\tA\nB\tA\nC\tC\nD\tD\nE\tE\n' '' simjoin -i -g w.sk
	check 0 'A\tA\nB\tA\nC\tC\nD\tD\nE\tE\n' '' simjoin -i -g <w.sk
	# a part that cannot be read is said, the others still read
	check 1 'A\tA\nC\tC\nE\tE\n' 'simjoin: nonesuch: No such file or directory\n' simjoin -i -g p0 nonesuch
	# at most 64 parts
	set -- $(seq 65 | sed 's/.*/p0/')
	check 2 '' 'simjoin: at most 64 files with -i\n' simjoin -i "$@"
	set -- $(seq 64 | sed 's/.*/\/dev\/null/')
	check 0 '' '' simjoin -i "$@"
}

@test "simjoin: rarity weights (-d) and the threshold (-t)" {
	check 0 'A\tB\t0.8182\n' '' simjoin -d 0 w.sk
	check 0 'A\tB\t0.8182\n' '' simjoin -d 4 w.sk
	check 0 'A\tB\t0.8095\n' '' simjoin -d 2 w.sk
	# with rarity 1 hashes 2 to 9 weigh 1/2 and hash 1 1/4: 4.25 / 6.25
	check 0 'A\tB\t0.6800\n' '' simjoin -d 1 w.sk
	check 0 '' '' simjoin -t 0.81 w.sk
	check 0 'A\tB\t0.8095\n' '' simjoin -t 0.8095 w.sk
	# every candidate: documents that share a hash
	check 0 'A\tB\t0.8095\nA\tD\t0.0270\nA\tE\t0.0270\nB\tD\t0.0270\nB\tE\t0.0270\nD\tE\t0.0270\n' '' simjoin -t 0 w.sk
	check 0 'A\tA\nB\tA\nC\tC\nD\tA\nE\tA\n' '' simjoin -t 0 -g w.sk
}

@test "simjoin: the minimum size (-m)" {
	{ sk P 9 1 2 3 4 5 6 7 8 9; sk Q 9 1 2 3 4 5 6 7 8 9; sk R 0; sk S 0; } >m.sk
	check 0 '' '' simjoin m.sk
	check 0 'P\tQ\t1.0000\n' '' simjoin -m 9 m.sk
	# empty pages share no hash: never a pair
	check 0 'P\tQ\t1.0000\n' '' simjoin -m 0 m.sk
	check 0 'P\nR\nS\n' '' simjoin -m 0 -u m.sk
}

@test "simjoin: containment (-c)" {
	# G in A: J = 2 / 12, |A & G| = 2 of G's 4
	{ sk A 10 1 2 3 4 5 6 7 8 9 10; sk G 4 1 2 31 32; } >c.sk
	check 0 '' '' simjoin -m 4 c.sk
	check 0 'A\tG\t0.1667\n' '' simjoin -m 4 -c 0.5 c.sk
	check 0 '' '' simjoin -m 4 -c 0.6 c.sk
	check 0 'A\tA\nG\tA\n' '' simjoin -m 4 -c 0.5 -g c.sk
}

@test "simjoin: cut sketches: the union cut to the size estimates" {
	# union {1, 2, 3, 4, 5} cut to 4: {1, 2, 3, 4}, 3 shared
	{ sk A 100 1 2 3 4; sk B 100 1 2 3 5; } >cut.sk
	check 0 'A\tB\t0.7500\n' '' simjoin cut.sk
	# whole sketches among cut ones, of fewer hashes than the size
	{ sk A 100 1 2 3 4; sk W 3 1 2 3; } >mix.sk
	check 0 'A\tW\t0.7500\n' '' simjoin -m 3 mix.sk
}

@test "simjoin -q: queries against a collection and the earlier queries" {
	{ sk A 10 1 2 3 4 5 6 7 8 9 10; sk C 10 21 22 23 24 25 26 27 28 29 30; sk A2 10 1 2 3 4 5 6 7 8 9 10; } >coll.sk
	{
		sk B 10 1 2 3 4 5 6 7 8 9 11
		sk N 10 61 62 63 64 65 66 67 68 69 70
		sk N2 10 61 62 63 64 65 66 67 68 69 70
		sk C 10 21 22 23 24 25 26 27 28 29 30
	} >q.sk
	# the query C replaces the collection's C (an ID is a key); A2 is a
	# copy of A, counted once: hashes 1 to 9 in 2 distinct sketches, 9 / 11
	check 0 'B\tA\t0.8182\nB\tA2\t0.8182\nN2\tN\t1.0000\n' '' simjoin -q q.sk coll.sk
	check 0 'N\nC\n' '' simjoin -u -q q.sk coll.sk
	check 0 'B\tA\t0.8182\nB\tA2\t0.8182\nN2\tN\t1.0000\n' '' simjoin -q - coll.sk <q.sk
	check 0 'B\nN\nC\n' '' simjoin -u -q q.sk /dev/null
	check 0 '' '' simjoin -q /dev/null coll.sk
}

@test "simjoin: IDs travel as they are, escaped" {
	{ sk 'a\tb' 10 1 2 3 4 5 6 7 8 9 10; sk 'c\\d' 10 1 2 3 4 5 6 7 8 9 10; } >e.sk
	check 0 'a\\tb\tc\\\\d\t1.0000\n' '' simjoin e.sk
	check 0 'a\\tb\ta\\tb\nc\\\\d\ta\\tb\n' '' simjoin -g e.sk
}

# The hashes are read 8 digits at a time: every byte that is not a
# lowercase hex digit is refused, wherever it stands in either half.
@test "simjoin: a hash of any byte but 0-9 and a-f is refused, at each place" {
	awk 'BEGIN {
		for (b = 1; b < 256; b++) {
			if (b == 9 || b == 10 || b == 13 || (b >= 48 && b <= 57) || (b >= 97 && b <= 102))
				continue
			for (i = 0; i < 4; i++) {
				at = i == 0 ? 0 : i == 1 ? 7 : i == 2 ? 8 : 15
				h = "0123456789abcdef"
				printf "x%d_%d\t1\t%s%c%s\n", b, at, substr(h, 1, at), b, substr(h, at + 2)
			}
		}
	}' >bad.sk
	capped "simjoin: bad.sk:1: $badlist" "simjoin: bad.sk: 944 bad records, the first 10 said" \
		simjoin bad.sk
	# each digit at each place is read
	printf 'a\t3\t0123456789abcdef 89abcdef01234567 fedcba9876543210\nb\t3\t0123456789abcdef 89abcdef01234567 fedcba9876543210\n' >good.sk
	check 0 'a\tb\t1.0000\n' '' simjoin -m 1 good.sk
	# and written back (skidx -d writes the records it kept)
	skidx -o good.idx good.sk >/dev/null
	cmpout 0 good.sk /dev/null skidx -d good.idx
}

@test "simjoin: CRLF records" {
	sed 's/$/\r/' w.sk >crlf.sk
	check 0 'A\tB\t0.8095\n' '' simjoin crlf.sk
	printf 'a\t0\t\r\n' >empty.sk
	check 0 'a\n' '' simjoin -u empty.sk
}

@test "simjoin: an empty collection" {
	check 0 '' '' simjoin /dev/null
	check 0 '' '' simjoin -g </dev/null
	check 0 '' '' simjoin -u /dev/null
	# only empty pages: no hash at all (fuzz: memcpy from NULL)
	printf 'a\t0\t\nb\t0\t\n' >empty.sk
	check 0 'a\nb\n' '' simjoin -u empty.sk
	check 0 'a\ta\nb\tb\n' '' simjoin -g -m 0 empty.sk
	check 0 'a\nb\n' '' simjoin -u -q empty.sk empty.sk
	# an empty page first, then pages with hashes (fuzz: null + 0)
	printf 'x\t2\t0000000000000001 0000000000000002\n' >two.sk
	sed 's/^x/y/' two.sk >two-y.sk
	check 0 'x\ty\t1.0000\n' '' sh -c 'cat empty.sk two.sk two-y.sk | simjoin -m 0'
}

# ---- Hardening: bad input, output faults, resource bounds ----
load faults

@test "simjoin: bad records are named and skipped" {
	{
		printf 'a\n'
		printf 'a\\q\t1\t0000000000000001\n'
		printf 'a\t1\n'
		printf 'a\tx\t\n'
		printf 'a\t-1\t\n'
		printf 'a\t99999999999999999999\t\n'
		printf 'a\t2\t000000000000000A 000000000000000b\n'
		printf 'a\t2\t0000000000000002 0000000000000001\n'
		printf 'a\t2\t0000000000000001  0000000000000002\n'
		printf 'a\t2\t000000000000001\n'
	} >bad.sk
	{
		printf 'a\t2\t0000000000000001 0000000000000001\n'
		printf 'a\t2\t0000000000000001 \n'
		printf 'a\t1\t0000000000000001 0000000000000002\n'
		printf 'a\t5\t\n'
		printf 'a\t5\t0000000000000001\00000000000000002\n'
		cat w.sk
	} >bad2.sk
	first10="simjoin: F:1: no TAB after the ID
simjoin: F:2: bad escape in the ID
simjoin: F:3: no TAB after the shingle count
simjoin: F:4: shingle count invalid
simjoin: F:5: shingle count invalid
simjoin: F:6: shingle count too large
simjoin: F:7: $badlist
simjoin: F:8: $badlist
simjoin: F:9: $badlist
simjoin: F:10: $badlist"
	check 1 'A\tB\t0.8095\n' "${first10//F:/bad.sk:}
simjoin: bad2.sk:1: $badlist
simjoin: bad2.sk:2: $badlist
simjoin: bad2.sk:3: 2 hashes for 1 shingles
simjoin: bad2.sk:4: 0 hashes for 5 shingles
simjoin: bad2.sk:5: $badlist
" simjoin bad.sk bad2.sk
	# past 10 in a file, the others are counted: a file of another kind
	# costs 11 lines, not one a record
	cat bad.sk bad2.sk >all.sk
	check 1 'A\tB\t0.8095\n' "${first10//F:/all.sk:}
simjoin: all.sk: 15 bad records, the first 10 said
" simjoin all.sk
}

@test "simjoin: at most 256 hashes" {
	awk 'BEGIN { for (n = 256; n <= 257; n++) { printf "a%d\t300\t", n
		for (i = 1; i <= n; i++) printf "%s%016x", (i > 1 ? " " : ""), i
		printf "\n" } }' >big.sk
	check 1 'a256\n' "simjoin: big.sk:2: $badlist\n" simjoin -u big.sk
}

@test "simjoin: sketches of different sizes" {
	{ sk A 100 1 2 3 4; sk B 100 1 2 3; sk C 100 1 2 3 4 5; } >sizes.sk
	check 1 'A\n' 'simjoin: sizes.sk:2: a sketch of 3 hashes among sketches of 4\nsimjoin: sizes.sk:3: a sketch of 5 hashes among sketches of 4\n' \
		simjoin -u sizes.sk
	# a whole sketch larger than the cut ones, before or after them
	{ sk W 5 1 2 3 4 5; sk A 100 1 2 3 4; } >w5.sk
	check 1 'W\n' 'simjoin: w5.sk:2: a sketch of 4 hashes among sketches of 5\n' simjoin -u -m 0 w5.sk
	{ sk A 100 1 2 3 4; sk W 5 1 2 3 4 5; } >w5b.sk
	check 1 'A\n' 'simjoin: w5b.sk:2: a sketch of 5 hashes among sketches of 4\n' simjoin -u -m 0 w5b.sk
}

@test "simjoin: missing and unreadable files" {
	check 1 'A\tB\t0.8095\n' 'simjoin: nope: No such file or directory\n' simjoin nope w.sk
	mkdir d
	check 1 'A\tB\t0.8095\n' 'simjoin: d: read error: Is a directory\n' simjoin w.sk d
	check 1 '' 'simjoin: nope: No such file or directory\n' simjoin -q nope w.sk
}

@test "simjoin: write error" {
	devfull simjoin w.sk
	devfull simjoin -g w.sk
	devfull simjoin -u w.sk
}

# copies N: w.sk's A, B and D (hash 1 in 3 sketches weighs 2/3: 8.6667 /
# 10.6667), with N exact copies of A after them.
copies() {
	local i

	awk '$1 != "C" && $1 != "E"' w.sk
	for i in $(seq "$1"); do
		sk "A$i" 10 1 2 3 4 5 6 7 8 9 10
	done
}

@test "simjoin: exact copies count once: a pair's SIM does not depend on them (issue 18.1)" {
	local n

	for n in 0 5 30; do
		copies $n >c$n.sk
		simjoin -t 0 c$n.sk >out$n
		check 0 'A\tB\t0.8125\nA\tD\t0.0357\n' '' awk '$1 == "A" && $2 !~ /^A/' out$n
		# as queries: the copies in the collection, or among the queries
		awk '$1 == "B"' c$n.sk >b.sk
		awk '$1 != "B"' c$n.sk >coll.sk
		simjoin -q b.sk coll.sk >out$n
		check 0 'B\tA\t0.8125\n' '' awk '$1 == "B" && $2 == "A"' out$n
		awk '$1 == "B" || $1 ~ /^A[0-9]/' c$n.sk >q.sk
		awk '$1 == "A" || $1 == "D"' c$n.sk >coll.sk
		simjoin -q q.sk coll.sk >out$n
		check 0 'B\tA\t0.8125\n' '' awk '$1 == "B" && $2 == "A"' out$n
	done
}

# A chain: B shares 5 of 15 shingles with A, and C 5 of 15 with B; A and
# C share none. One cluster, but C is not a near-duplicate of A.
chain() {
	sk A 10 1 2 3 4 5 6 7 8 9 10
	sk B 10 6 7 8 9 10 11 12 13 14 15
	sk C 10 11 12 13 14 15 16 17 18 19 20
}

@test "simjoin -u: greedy in input order: a chain A~B~C keeps A and C (issue 18.6)" {
	chain >chain.sk
	check 0 'A\tB\t0.3333\nB\tC\t0.3333\n' '' simjoin chain.sk
	check 0 'A\tA\nB\tA\nC\tA\n' '' simjoin -g chain.sk
	check 0 'A\nC\n' '' simjoin -u chain.sk
	# the order decides: B first keeps B only
	{ sed -n 2p chain.sk; sed -n 1p chain.sk; sed -n 3p chain.sk; } >bac.sk
	check 0 'B\n' '' simjoin -u bac.sk
	# a query run: the collection is kept; a query dropped by a query
	# does not drop the next
	sed -n 1p chain.sk >a.sk
	sed -n 2,3p chain.sk >bc.sk
	check 0 'C\n' '' simjoin -u -q bc.sk a.sk
	sed -n 2p chain.sk >b.sk
	sed -n 3p chain.sk >c.sk
	check 0 '' '' simjoin -u -q c.sk b.sk
	check 0 'B\n' '' simjoin -u -q bc.sk /dev/null
	# a longer chain keeps every other link
	{ chain; sk D 10 16 17 18 19 20 21 22 23 24 25; sk E 10 21 22 23 24 25 26 27 28 29 30; } >long.sk
	check 0 'A\nC\nE\n' '' simjoin -u long.sk
}

@test "simjoin -z: fields ended by NUL, IDs decoded (issue 18.8)" {
	{
		sk 'a\nb' 10 1 2 3 4 5 6 7 8 9 10
		sk 'c\td' 10 1 2 3 4 5 6 7 8 9 11
		sk 'e\\f' 10 21 22 23 24 25 26 27 28 29 30
	} >z.sk
	check 0 'a\\nb\tc\\td\t0.8182\n' '' simjoin z.sk
	# (\x00: a NUL before a digit)
	check 0 'a\nb\x00c\td\x000.8182\x00' '' simjoin -z z.sk
	check 0 'a\nb\x00a\nb\x00c\td\x00a\nb\x00e\\f\x00e\\f\x00' '' simjoin -z -g z.sk
	check 0 'a\nb\x00e\\f\x00' '' simjoin -z -u z.sk
	# an ID that holds a NUL cannot be written: reported once, not written
	sk 'g\0h' 10 1 2 3 4 5 6 7 8 9 10 >>z.sk
	check 1 'a\nb\x00c\td\x000.8182\x00' "simjoin: ID 'g\\\\0h' holds a NUL: not written with -z\n" simjoin -z z.sk
	check 0 'a\\nb\tc\\td\t0.8182\na\\nb\tg\\0h\t1.0000\nc\\td\tg\\0h\t0.8182\n' '' simjoin z.sk
	# the first 10 said, then how many
	for i in $(seq 12); do sk "n\\0$i" 10 $(seq 100 109); done >n.sk
	want=''
	for i in $(seq 10); do want="${want}simjoin: ID 'n\\\\0$i' holds a NUL: not written with -z\n"; done
	check 1 '' "${want}simjoin: 12 IDs hold a NUL, the first 10 said\n" simjoin -z n.sk
}

@test "simjoin -v: the pairing's progress, on a terminal redrawn (issue 18.7)" {
	check 0 'A\tB\t0.8095\n' 'simjoin: paired 5 documents\n' simjoin -v w.sk
	head -n 2 w.sk >ab.sk
	tail -n 3 w.sk >cde.sk
	check 0 'A\n' 'simjoin: paired 2 documents\n' simjoin -v -u -q ab.sk cde.sk
	# with the kept documents in an index too
	skidx -o cde.idx cde.sk >/dev/null
	check 0 'A\n' 'simjoin: paired 2 documents\n' simjoin -v -u -x cde.idx -q ab.sk
	command -v script >/dev/null 2>&1 || skip "no script(1)"
	run script -qec 'simjoin -v w.sk 2>&1 >/dev/null' /dev/null
	[ "$status" -eq 0 ]
	# each line padded to the widest before it
	[ "$output" = "$(printf '\rsimjoin: %s\rsimjoin: %-7s\rsimjoin: %-34s\rsimjoin: %-34s\r' \
		reading 'counting the hashes of 5 documents' 'pairing 0 of 5 documents, 0%' 'paired 5 documents')" ]
}

@test "simjoin: 3000 identical documents: each paired with the first 128" {
	# every hash is in all 3000 sketches: a run of 3000, whose first 128
	# documents pair with all later ones: 128 * 2999 - 128 * 127 / 2 pairs
	awk 'BEGIN { for (i = 1; i <= 40; i++) h = h sprintf("%s%016x", i > 1 ? " " : "", i)
		for (d = 0; d < 3000; d++) printf "d%d\t40\t%s\n", d, h }' >same.sk
	check 0 '375744\n' '' sh -c 'simjoin same.sk | wc -l'
	check 0 'd0\td1\t1.0000\n' '' sh -c 'simjoin same.sk | head -n 1'
	check 0 'd127\td2999\t1.0000\n' '' sh -c 'simjoin same.sk | tail -n 1'
	check 0 'd0\n' '' simjoin -u same.sk
	check 0 '3000 1\n' '' sh -c "simjoin -g same.sk | awk -F'\t' '\$2 == \"d0\" { n++ } END { print n, NR == n }'"
}

# Sketches of ten hashes, given as their first and last: sk10 ID FIRST
# (FIRST .. FIRST + 9), or with LAST the tenth.
sk10() {
	# shellcheck disable=SC2046
	sk "$1" 10 $(seq "$2" $(($2 + 8))) "${3:-$(($2 + 9))}"
}

@test "simjoin: a duplicate ID in one input is reported and skipped" {
	{ sk10 a 1; sk10 b 1 99; sk10 a 1; } >dup.sk
	# without the second a: 9 shared of 11, each held by 2
	check 1 'a\tb\t0.8182\n' 'simjoin: dup.sk:3: duplicate ID (first at dup.sk:1): skipped\n' simjoin dup.sk
	# a JSON Lines ID twice made a page a pair with itself
	{ sk10 a 1; sk10 a 1; } >self.sk
	check 1 '' 'simjoin: self.sk:2: duplicate ID (first at self.sk:1): skipped\n' simjoin self.sk
	# the collection is one input, its files or parts together
	sk10 a 1 >a.sk
	{ sk10 b 1 99; sk10 a 1; } >ba.sk
	check 1 'a\tb\t0.8182\n' 'simjoin: ba.sk:2: duplicate ID (first at a.sk:1): skipped\n' simjoin a.sk ba.sk
	# parts (-i), each a place that means nothing: said by the ID, 10
	# at most, then counted, whatever the parts
	check 1 'a\tb\t0.8182\n' 'simjoin: a: a duplicate ID: the first is kept\n' simjoin -i a.sk ba.sk
	for i in $(seq 12); do sk10 "d$i" 50; sk10 "d$i" 60; done >d.sk
	want='' i=''
	for i in $(seq 10); do want="${want}simjoin: d$i: a duplicate ID: the first is kept\n"; done
	want="${want}simjoin: 12 duplicate IDs, the first 10 said\n"
	check 1 'd1\n' "$want" simjoin -u -i d.sk /dev/null
	check 1 'd1\n' "$want" simjoin -u -i /dev/null d.sk /dev/null
	# the queries are another: a twice among them, then a query like the first
	check 1 'b\ta\t0.8182\n' 'simjoin: dup.sk:3: duplicate ID (first at dup.sk:1): skipped\n' simjoin -q dup.sk /dev/null
	check 1 'a\tb\t0.8182\n' 'simjoin: <stdin>:3: duplicate ID (first at <stdin>:1): skipped\n' simjoin <dup.sk
}

@test "simjoin -q: a query replaces the document of the collection with its ID" {
	# hash 1 is in A and D, and in the query B
	{ sk10 A 1; sk D 10 1 41 42 43 44 45 46 47 48 49; } >state.sk
	{ sk10 B 1 99; sk N 10 61 62 63 64 65 66 67 68 69 70; } >batch.sk
	check 0 'B\tA\t0.8125\n' '' simjoin -q batch.sk state.sk
	check 0 'N\n' '' simjoin -u -q batch.sk state.sk
	# the batch added to the state (neardup -a), then asked again: the
	# same answers, not B with itself, nor hash 1 counted twice
	cat state.sk batch.sk >state2.sk
	check 0 'B\tA\t0.8125\n' '' simjoin -q batch.sk state2.sk
	check 0 'N\n' '' simjoin -u -q batch.sk state2.sk
	# a query with the ID of a document it is not like: that document is gone
	sk10 A 200 >newa.sk
	check 0 'A\n' '' simjoin -u -q newa.sk state.sk
	check 0 '' '' simjoin -q newa.sk state.sk
}

# rssbound DOCS HASHES IDBYTES: simjoin(1)'s bound on memory, in kB: 34
# bytes a hash, 200 bytes a document, the IDs twice and 16 MB.
# simjoin(1): 44 MB, 34 bytes a shared hash, 200 a document, the IDs twice
rssbound() {
	echo $(((46137344 + 34 * $2 + 200 * $1 + 2 * $3) / 1024))
}

# Every pair of a sixteenth of the hashes was gathered before duplicates
# went: 5000 copies of a page took 77 MB (100000 of a page of 128 hashes:
# 1.6 GB), now 8 MB; the bound is 50 MB.
@test "simjoin: 5000 copies of a page stay within the memory bound" {
	need_rss
	awk 'BEGIN { for (i = 1; i <= 96; i++) printf "w%d ", i }' |
		sed 's/^/page\t/' | sketch -n 32 >page.sk
	awk -F'\t' '{ for (d = 1; d <= 5000; d++) printf "c%d\t%s\t%s\n", d, $2, $3 }' page.sk >copies.sk
	run --separate-stderr /usr/bin/time -f %M -o rss sh -c 'simjoin copies.sk >pairs'
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$(wc -l <pairs)" -eq $((128 * 4999 - 128 * 127 / 2)) ]
	[ "$(head -n 1 pairs)" = "c1	c2	1.0000" ]
	[ "$(cat rss)" -le "$(rssbound 5000 $((5000 * 32)) "$(cut -f 1 copies.sk | wc -c)")" ]
}

# Memory held every sketch (8 bytes a hash and 4 for its weight): 30,000
# generated sketches of 128 hashes, a tenth of them edited copies, took
# 73 MB (2.4 kB a document); spilled to a file, 15 MB, and 43 MB with
# the blocks of pairs verified at once. The bound is simjoin(1)'s for
# sketches of 128 hashes of which at most 16 are shared: under 1 kB a
# document besides the IDs, and 44 MB.
@test "simjoin: 30,000 sketches of 128 hashes take under 1 kB a document" {
	need_rss
	gensketch -s 1 30000 >gen.sk
	run --separate-stderr /usr/bin/time -f %M -o rss sh -c 'simjoin gen.sk >pairs'
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$(wc -l <pairs)" -eq 3623 ]
	[ "$(head -n 1 pairs)" = "d0	d2	0.8484" ]
	[ "$(cat rss)" -le $(((46137344 + 1000 * 30000 + 2 * $(cut -f 1 gen.sk | wc -c)) / 1024)) ]
}

# Forged sketches whose 32 candidate hashes are all in one sixteenth
# (their low bits 0) and in every sketch: 4096 candidates a document at
# once, 65 kB; 5000 of them took 323 MB, now 7 MB; the bound is 24 MB.
@test "simjoin: forged sketches with every candidate hash shared stay within the memory bound" {
	need_rss
	awk 'BEGIN { for (d = 0; d < 5000; d++) { printf "f%d\t1000\t", d
		for (j = 1; j <= 32; j++) printf "%015x0 ", j
		for (k = 0; k < 32; k++) printf "%s1%07x%08x", k ? " " : "", d, k
		printf "\n" } }' >forged.sk
	run --separate-stderr /usr/bin/time -f %M -o rss simjoin forged.sk
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	[ "$stderr" = "" ]
	[ "$(cat rss)" -le "$(rssbound 5000 $((5000 * 64)) "$(cut -f 1 forged.sk | wc -c)")" ]
}

# Forged sketches whose shared hashes have their low 20 bits 0: 262144
# hashes, each in two sketches (9 MB). Placed by those bits, the table of
# shared hashes was one run of slots: about 120 s of CPU time; placed by a
# keyed hash, 0.2 s (a few seconds under sanitizers). A CPU limit, not a
# clock, so that a busy machine cannot fail it.
@test "simjoin: forged shared hashes do not flood its table (CPU limit)" {
	awk 'BEGIN { for (g = 0; g < 1024; g++) for (c = 0; c < 2; c++) {
		printf "g%d-%d\t256\t", g, c
		for (k = 0; k < 256; k++) printf "%s%011x00000", k ? " " : "", g * 256 + k + 1
		printf "\n" } }' >flood.sk
	run --separate-stderr sh -c 'ulimit -t 5 && exec simjoin flood.sk'
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "${#lines[@]}" -eq 1024 ]
	[ "${lines[1023]}" = "g1023-0	g1023-1	1.0000" ]
}

@test "simjoin: CR LF sketch records read as LF ones, one CR only (simrec(5))" {
	printf 'a\t2\t0000000000000001 0000000000000002\r\nb\t2\t0000000000000001 0000000000000002\r\n' >crlf
	check 0 'a\tb\t1.0000\n' '' simjoin -m 1 crlf
	printf 'a\t2\t0000000000000001 0000000000000002\r\r\n' >twocr
	check 1 '' 'simjoin: twocr:1: bad hash list (at most 256 ascending 16-digit lowercase hex numbers, one space apart)\n' simjoin twocr
}

@test "simjoin: past 8 MB of hashes, the temporary file is made in TMPDIR" {
	# 6,000 sketches of 128 hashes and their weights: 9.2 MB
	gensketch -s 1 6000 >gen.sk
	simjoin gen.sk >want
	mkdir scratch
	TMPDIR=$PWD/scratch run --separate-stderr simjoin gen.sk
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$output" = "$(cat want)" ]
	[ "$(wc -l <want)" -gt 600 ]
	TMPDIR=$PWD/none check 1 '' 'simjoin: '"$PWD"'/none: scratch file: No such file or directory\n' simjoin gen.sk
	# under 8 MB, none
	TMPDIR=$PWD/none check 0 'A\tB\t0.8095\n' '' simjoin w.sk
}

@test "simjoin: past 8 MB, pairs screened a block at a time give the answers of memory" {
	# 6,000 sketches (9.2 MB) go to the file, and their pairs are screened
	# a block at a time; an index holds the kept ones in memory
	gensketch -s 1 6000 >gen.sk
	gensketch -s 2 600 >q.sk
	skidx -o idx gen.sk >/dev/null
	simjoin -x idx -q q.sk >want
	simjoin -x idx -u -q q.sk >want.u
	[ "$(wc -l <want)" -eq 70 ]
	check 0 "$(cat want)\n" '' simjoin -q q.sk gen.sk
	check 0 "$(cat want.u)\n" '' simjoin -u -q q.sk gen.sk
	# the pairs of the whole, as they were before the blocks
	check 0 '3401639285 13375\n' '' sh -c 'simjoin gen.sk | cksum'
}

@test "simjoin -x: a batch past 8 MB of hashes stays in memory: no temporary file" {
	# the batch went to a scratch file (15 MB written for 10,000 queries)
	gensketch -s 1 600 >kept.sk
	gensketch -s 2 6000 >q.sk
	skidx -o idx kept.sk >/dev/null
	simjoin -x idx -q q.sk >want
	[ "$(wc -l <want)" -gt 50 ]
	TMPDIR=$PWD/none check 0 "$(cat want)\n" '' simjoin -x idx -q q.sk
}

# -j: the verification dealt out in chunks to processes; the answers of
# one, in one order, from memory and past 8 MB (blocks from the file).
@test "simjoin -j: pairs, clusters, unique and queries of several processes are one's" {
	gensketch -s 1 6000 >file.sk
	gensketch -s 1 3000 >mem.sk
	gensketch -s 2 600 >q.sk
	skidx -o idx file.sk >/dev/null
	for f in mem.sk file.sk; do
		for o in -t0.25 -g -u; do
			simjoin "$o" "$f" >want
			[ "$(wc -l <want)" -gt 300 ]
			for p in 2 3 64; do
				run --separate-stderr simjoin -j "$p" "$o" "$f"
				[ "$status" -eq 0 ]
				[ "$stderr" = "" ]
				[ "$output" = "$(cat want)" ]
			done
		done
	done
	simjoin -q q.sk file.sk >want
	[ "$(wc -l <want)" -eq 70 ]
	check 0 "$(cat want)\n" '' simjoin -j 2 -q q.sk file.sk
	check 0 "$(cat want)\n" '' simjoin -j 3 -x idx -q q.sk
	awk 'NR % 2' file.sk >odd.sk
	awk 'NR % 2 == 0' file.sk >even.sk
	check 0 "$(cat want)\n" '' simjoin -j 2 -q q.sk -i odd.sk even.sk
	# fewer documents than a chunk: this process alone
	check 0 'A\tB\t0.8095\n' '' simjoin -j 8 w.sk
}

# A process that cannot write its pairs fails the run: no pair is written
# (the file size limit makes the writes fail with EFBIG, not a signal).
@test "simjoin -j: a temporary file that cannot be written fails the run" {
	awk 'BEGIN { for (i = 1; i <= 96; i++) printf "w%d ", i }' |
		sed 's/^/page\t/' | sketch -n 32 >page.sk
	awk -F'\t' '{ for (d = 1; d <= 3000; d++) printf "c%d\t%s\t%s\n", d, $2, $3 }' page.sk >copies.sk
	run --separate-stderr sh -c "trap '' XFSZ; ulimit -f 1000 && exec simjoin -j 2 copies.sk"
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "$(printf '%s\n' "$stderr" | sort -u)" = "simjoin: temporary file: File too large" ]
}

# Fewer processes than asked for when they cannot all run: no scratch
# file for their pairs (one process needs none), or SIGCHLD inherited as
# ignored (their statuses are waited for all the same).
@test "simjoin -j: no TMPDIR, or SIGCHLD ignored: the answers of one process" {
	gensketch -s 1 3000 >mem.sk
	simjoin mem.sk >want
	[ "$(wc -l <want)" -gt 300 ]
	TMPDIR=$PWD/none check 0 "$(cat want)\n" '' simjoin -j 2 mem.sk
	check 0 "$(cat want)\n" '' perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV' simjoin -j 2 mem.sk
}

# 6,000 copies of a page past 8 MB of hashes: the runs foretell 128 pairs
# and more a document, and the processes make every weight first.
@test "simjoin -j: many copies past 8 MB: every weight made first, the answers of one" {
	awk 'BEGIN { for (i = 1; i <= 200; i++) printf "w%d ", i }' |
		sed 's/^/page\t/' | sketch >page.sk
	gensketch -s 3 300 >other.sk
	{
		awk -F'\t' '{ for (d = 1; d <= 6000; d++) printf "c%d\t%s\t%s\n", d, $2, $3 }' page.sk
		cat other.sk
	} >copies.sk
	simjoin -u copies.sk >want.u
	simjoin -g copies.sk | cksum >want.g
	[ "$(wc -l <want.u)" -eq 271 ]
	check 0 "$(cat want.u)\n" '' simjoin -j 2 -u copies.sk
	check 0 "$(cat want.g)\n" '' sh -c 'simjoin -j 3 -g copies.sk | cksum'
}
