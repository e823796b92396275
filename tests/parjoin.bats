#!/usr/bin/env bats
# parjoin: page pairs from paragraph matches.
#
# The map used by most tests: page A has paragraphs 1 (size 100) and 2
# (300), B has 3 (100) and 4 (200), C has 5 (400). Matches 1~3 and 2~5:
#	A B  covered A 100 of 400, B 100 of 300: SIM 200/700  .2857 .2500 .3333
#	A C  covered A 300 of 400, C 400 of 400: SIM 700/800  .8750 .7500 1
# so C lies wholly within A. In the end-to-end test, sizes are 67, 75 and 70
# for the three paragraphs of "long", the last two making "short": 145 of
# 212 and 145 of 145, SIM 290/357.

load helper

u='usage: parjoin [-l limit] -m map [file ...]\n'

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	printf '1\tA\t1\t100\n2\tA\t2\t300\n3\tB\t1\t100\n4\tB\t2\t200\n5\tC\t1\t400\n' >map
	printf '1\t0\t3\n2\t2\t5\n' >m
	want='A\tB\t0.2857\t0.2500\t0.3333\nA\tC\t0.8750\t0.7500\t1.0000\n'
}

@test "parjoin -h: usage on stdout" {
	check 0 "$u" '' parjoin -h
}

@test "parjoin: bad option, missing -m, bad -l" {
	badopt "usage: parjoin [-l limit] -m map [file ...]" parjoin -x -m map
	check 2 '' "parjoin: no map: -m is required\n$u" parjoin m
	check 2 '' "parjoin: limit '0' is too small (allowed: 1 to 4294967294)\\n" parjoin -l 0 -m map m
}

@test "parjoin: hand-computed pairs, containment of C in A" {
	check 0 "$want" '' parjoin -m map m
}

@test "parjoin: hamq -a headers skipped, order of the input does not matter" {
	printf '1\n1\t0\t3\n2\n2\t2\t5\n3\n4\n5\n' >ma
	check 0 "$want" '' parjoin -m map ma
	printf '5\t2\t2\n3\t0\t1\n' >mr
	check 0 "$want" '' parjoin -m map mr
}

@test "parjoin: a paragraph counts once however many it matches" {
	printf '1\t0\t3\n1\t1\t4\n3\t1\t1\n' >m2
	check 0 'A\tB\t0.5714\t0.2500\t1.0000\n' '' parjoin -m map m2
}

@test "parjoin: matches within one page are ignored; a page is its ID" {
	printf '1\tA\t1\t100\n2\tA\t2\t300\n3\tA\t1\t100\n4\tB\t1\t100\n' >mapd
	printf '1\t0\t2\n1\t0\t3\n3\t0\t4\n' >m3
	check 0 'A\tB\t0.3333\t0.2000\t1.0000\n' '' parjoin -m mapd m3
}

@test "parjoin: a CR at the end of a record is ignored" {
	printf '1\tA\t1\t100\r\n2\tA\t2\t300\r\n3\tB\t1\t100\r\n4\tB\t2\t200\r\n5\tC\t1\t400\r\n' >mapcr
	printf '1\t0\t3\r\n2\t2\t5\r\n' >mcr
	check 0 "$want" '' parjoin -m mapcr mcr
}

@test "parjoin: IDs travel exactly" {
	printf '1\ta\\tb\\\\\t1\t10\n2\t\\n x\t1\t10\n' >mapid
	printf '1\t0\t2\n' >mid
	check 0 'a\\tb\\\\\t\\n x\t1.0000\t1.0000\t1.0000\n' '' parjoin -m mapid mid
}

@test "parjoin: a page of size 0 has a share of 0" {
	printf 'x\tE\t1\t0\ny\tF\t1\t5\n' >map0
	printf 'x\t1\ty\n' >m0
	check 0 'E\tF\t1.0000\t0.0000\t1.0000\n' '' parjoin -m map0 m0
}

@test "parjoin -l: a paragraph past the limit counts in no pair" {
	printf '1\t0\t3\n1\t1\t4\n2\t2\t5\n' >m2
	check 0 'A\tC\t0.8750\t0.7500\t1.0000\n' '' parjoin -l 1 -m map m2
	check 0 'A\tB\t0.5714\t0.2500\t1.0000\nA\tC\t0.8750\t0.7500\t1.0000\n' '' parjoin -l 2 -m map m2
}

@test "parjoin: stdin, several files, missing file" {
	printf '2\t2\t5\n' >b
	check 0 "$want" '' parjoin -m map - b <<<"$(printf '1\t0\t3')"
	check 1 "$want" 'parjoin: nope: No such file or directory\n' parjoin -m map nope m
}

@test "parjoin: bad match records are skipped, the others used" {
	printf '1\t0\t3\n1\t0\n1\t0\t3\tx\n1\tx\t3\n1\t129\t3\n9\t0\t3\n1\t0\t9\n2\t2\t5\n' >bad
	check 1 "$want" "parjoin: bad:2: not a match record (ID<TAB>DISTANCE<TAB>ID)
parjoin: bad:3: not a match record (ID<TAB>DISTANCE<TAB>ID)
parjoin: bad:4: distance 'x' is invalid
parjoin: bad:5: distance '129' is too large
parjoin: bad:6: paragraph '9' is not in the map
parjoin: bad:7: paragraph '9' is not in the map\\n" parjoin -m map bad
}

@test "parjoin: a bad map is an error, nothing is written" {
	printf '1\tA\t1\n' >b1
	check 1 '' 'parjoin: b1:1: not KEY<TAB>PAGEID<TAB>PARNO<TAB>SIZE\n' parjoin -m b1 m
	printf '1\tA\t1\t1\t1\n' >b2
	check 1 '' 'parjoin: b2:1: not KEY<TAB>PAGEID<TAB>PARNO<TAB>SIZE\n' parjoin -m b2 m
	printf '1\tA\t1\t1\n1\tB\t1\t1\n' >b3
	check 1 '' "parjoin: b3:2: key '1' given twice\\n" parjoin -m b3 m
	printf '1\tA\t0\t1\n' >b4
	check 1 '' "parjoin: b4:1: paragraph number '0' is too small\\n" parjoin -m b4 m
	printf '1\tA\t1\t1099511627777\n' >b5
	check 1 '' "parjoin: b5:1: size '1099511627777' is too large\\n" parjoin -m b5 m
	printf '1\tA\t1\t-1\n' >b6
	check 1 '' "parjoin: b6:1: size '-1' is invalid\\n" parjoin -m b6 m
	check 1 '' 'parjoin: nomap: No such file or directory\n' parjoin -m nomap m
}

@test "parjoin: empty map, empty matches" {
	check 0 '' '' parjoin -m /dev/null </dev/null
	check 0 '' '' parjoin -m map </dev/null
}

@test "parjoin: write error" {
	check 1 '' 'parjoin: <stdout>: write error: No space left on device\n' sh -c 'parjoin -m map m >/dev/full'
}

# A paragraph shared by 600 pages gives 179,700 matches: with the default
# limit it is boilerplate and no pair comes out (at most 10 matches are
# kept for it); with a larger limit every pair does.
@test "parjoin: bounds: a paragraph repeated in 600 pages" {
	awk 'BEGIN { for (i = 1; i <= 600; i++) { printf "b%d\tP%d\t1\t50\n", i, i; printf "u%d\tP%d\t2\t50\n", i, i } }' >mapb
	awk 'BEGIN { for (i = 1; i <= 600; i++) for (j = i + 1; j <= 600; j++) printf "b%d\t0\tb%d\n", i, j }' >mb
	check 0 '' '' parjoin -m mapb mb
	run parjoin -l 1000 -m mapb mb
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 179700 ]
	[ "${lines[0]}" = "$(printf 'P1\tP2\t0.5000\t0.5000\t0.5000')" ]
}

@test "parjoin: end to end, a page wholly contained in a longer page" {
	w1='the quick brown fox jumps over the lazy dog near the river bank today and every day'
	w2='a completely different paragraph about kernels memory pages and their allocation rules'
	w3='yet another piece of text that talks of sorting merging joining and hashing records'
	printf 'long\t%s\\n\\n%s\\n\\n%s\nshort\t%s\\n\\n%s\nother\tnothing in common at all with the rest here\n' \
		"$w1" "$w2" "$w3" "$w2" "$w3" >pages
	parsplit -m par.map -n 20 pages >par.rec
	wordfreq -u -p par.rec >par.cnt
	fphash -H -m 64 -w log par.cnt >par.fp
	hamq -s -d 3 par.fp >par.m
	check 0 'long\tshort\t0.8123\t0.6840\t1.0000\n' '' parjoin -m par.map par.m
}

@test "parjoin: a match record has 3 fields, distance 0 to 128 (simrec(5))" {
	printf 'k1\tA\t1\t10\nk2\tB\t1\t10\n' >map
	printf 'k1\t1\tk2\tx\nk1\t129\tk2\n' >in
	check 1 '' "parjoin: in:1: not a match record (ID<TAB>DISTANCE<TAB>ID)
parjoin: in:2: distance '129' is too large
" parjoin -m map in
}
