#!/usr/bin/env bats
# sketch: bottom-k sketches of the word shingles of page records.

load helper
load neardocs

u='usage: sketch [-v] [-k words] [-n size] [-P countfile] [-s seed] [file ...]\n'
fox='x\tthe quick brown fox jumps\n'

@test "sketch -h: usage on stdout" {
	check 0 "$u" '' sketch -h
}

@test "sketch: usage errors" {
	badopt "${u%\\n}" sketch -x
	check 2 '' "sketch: shingle size '0' is too small (allowed: 1 to 16)\n" sketch -k 0
	check 2 '' "sketch: shingle size '17' is too large (allowed: 1 to 16)\n" sketch -k 17
	check 2 '' "sketch: shingle size 'x' is invalid (allowed: 1 to 16)\n" sketch -k x
	check 2 '' "sketch: sketch size '0' is too small (allowed: 1 to 256)\n" sketch -n 0
	check 2 '' "sketch: sketch size '257' is too large (allowed: 1 to 256)\n" sketch -n 257
	check 2 '' "sketch: seed '-1' is invalid (allowed: 0 to 9223372036854775807)\n" sketch -s -1
}

# The test vectors of sketch(1): SipHash-1-3 of each word under the key
# (seed, ~seed), the shingle polynomial in P and the SplitMix64 finalizer.
@test "sketch: test vectors of the hash definitions" {
	# -k 1: each shingle is mix(SipHash-1-3 of the word)
	printf "$fox" >fox
	check 0 'x\t5\t1a6eee1fb8fbf215 b7899044f949e243 e6ffa9c859678897 f1a2ba8262583399 f3805a9ee63b6178\n' '' sketch -k 1 fox
	# -k 2: mix(w1 * P + w2)
	check 0 'x\t4\t7e25d1586fdee9a7 ac657b3b75bf0e1a c9b239322d17845c f97525c39e0b6023\n' '' sketch -k 2 fox
	check 0 'x\t1\ta927a46529a4f7d4\n' '' sketch -n 4 fox
	check 0 'x\t1\ta927a46529a4f7d4\n' '' sketch fox
	check 0 'x\t1\t55ca1101fa10dda7\n' '' sketch -s 1 fox
}

@test "sketch: the size smallest hashes, the count of all distinct shingles" {
	printf "$fox" >fox
	check 0 'x\t5\t1a6eee1fb8fbf215 b7899044f949e243\n' '' sketch -k 1 -n 2 fox
	check 0 'x\t4\t7e25d1586fdee9a7\n' '' sketch -k 2 -n 1 fox
	# repeated shingles count once
	printf 'g\tthe quick brown fox jumps the quick brown fox jumps\n' >g
	check 0 'g\t5\t0d99f110ffa4a078 8a2a9e100a0fc6cb a927a46529a4f7d4\n' '' sketch -n 3 g
}

@test "sketch: a page of fewer than k words has one shingle of them all; an empty page none" {
	# the shingle of "the quick" is the 2-word shingle of the vectors
	printf 'e\tthe quick\nf\t\ng\t ,.; \nh\n' >short
	check 1 'e\t1\t7e25d1586fdee9a7\nf\t0\t\ng\t0\t\n' 'sketch: short:4: no TAB after the page ID\n' sketch short
}

@test "sketch: the tokenizer: Unicode case folding, CJK characters, escapes" {
	printf 'a\tÜBER Straße été\nb\tüber straße ÉTÉ\n' >uni
	check 0 'a\t3\t12d5a15ac3deefae 1dc268f96ef48eb7 4550758979faf8df\nb\t3\t12d5a15ac3deefae 1dc268f96ef48eb7 4550758979faf8df\n' '' \
		sketch -k 1 uni
	printf 'c\t日本語\nd\t日 本 語\n' >cjk
	check 0 'c\t3\t01535db0774e44fb da445e6097a86e2b f64abd1cf56d0043\nd\t3\t01535db0774e44fb da445e6097a86e2b f64abd1cf56d0043\n' '' \
		sketch -k 1 cjk
	# escaped TAB, LF, backslash and NUL separate words
	printf 'f\\tg\tThe\\tquick\\nbrown\\\\fox\\0JUMPS\n' >esc
	check 0 'f\\tg\t1\ta927a46529a4f7d4\n' '' sketch esc
}

@test "sketch: CRLF records" {
	printf 'x\tthe quick brown fox jumps\r\n' >crlf
	check 0 'x\t1\ta927a46529a4f7d4\n' '' sketch crlf
}

@test "sketch: files in order, standard input" {
	printf "$fox" >fox
	printf 'e\tthe quick\n' >e
	check 0 'x\t1\ta927a46529a4f7d4\ne\t1\t7e25d1586fdee9a7\n' '' sketch fox e
	check 0 'x\t1\ta927a46529a4f7d4\ne\t1\t7e25d1586fdee9a7\n' '' sketch fox - <e
	check 0 'e\t1\t7e25d1586fdee9a7\n' '' sketch <e
	check 0 '' '' sketch /dev/null
}

@test "sketch: near-duplicate documents share most of their sketch" {
	neardocs
	docsplit -f docs | sketch -n 16 >sk
	check 0 '7\n' '' awk 'END { print NR }' sk
	# a and a2: 76 shingles each; b and b2: the same sketch
	check 0 'docs/a.txt 76\ndocs/a2.txt 76\ndocs/b.txt 76\ndocs/b2.txt 76\ndocs/c.txt 76\ndocs/s.txt 1\ndocs/s2.txt 1\n' '' \
		awk -F'\t' '{ print $1, $2 }' sk
	check 0 '1\n' '' sh -c "sed -n '3p;4p' sk | cut -f2,3 | uniq | wc -l"
}

# ---- Hardening: bad input, output faults, resource bounds ----
load faults

@test "sketch: bad records are named and skipped" {
	printf 'a\tone\nb\\q\ttwo\nc\tthree\\q\nno tab\nd\tfour\n' >bad
	check 1 'a\t1\tf803a30a7c6f4fdc\nd\t1\t470eec04b3fb6065\n' 'sketch: bad:2: bad escape in the page ID\nsketch: bad:3: bad escape in the page text\nsketch: bad:4: no TAB after the page ID\n' \
		sketch -k 1 bad
}

@test "sketch: missing and unreadable files" {
	printf "$fox" >fox
	check 1 'x\t1\ta927a46529a4f7d4\n' 'sketch: nope: No such file or directory\n' sketch nope fox
	mkdir d
	check 1 'x\t1\ta927a46529a4f7d4\n' 'sketch: d: read error: Is a directory\n' sketch fox d
}

@test "sketch: write error" {
	printf "$fox" >fox
	devfull sketch fox
}

@test "sketch -v: the count of documents on stderr" {
	printf "$fox" >fox
	run --separate-stderr sketch -v fox fox
	[ "$status" -eq 0 ]
	[[ $stderr =~ ^sketch:\ 2\ documents,\ [0-9]+/s$ ]]
}

@test "sketch -P: the count of documents done in a file, one fixed-width line (issue 18.7)" {
	printf "$fox" >fox
	sketch fox fox >want
	check 0 '' '' cmp - want < <(sketch -P count fox fox)
	check 0 '                   2\n' '' cat count
	# rewritten in place, never appended to
	printf 'x%.0s' $(seq 100) >count
	awk 'BEGIN { for (i = 0; i < 3000; i++) printf "d%d\tw%d\n", i, i }' >many
	sketch -P count many >/dev/null
	check 0 '                3000\n' '' cat count
	check 1 '' 'sketch: nodir/count: No such file or directory\n' sketch -P nodir/count fox
}

@test "sketch -P: a count file that is not regular is refused first; a write error is named, exit 1" {
	printf "$fox" >fox
	mkfifo fifo
	check 1 '' 'sketch: fifo: not a regular file\n' sketch -P fifo fox
	check 1 '' 'sketch: /dev/full: not a regular file\n' sketch -P /dev/full fox
	ln -s fifo link
	check 1 '' 'sketch: link: not a regular file\n' sketch -P link fox
	# the shell's file behind /dev/stdout is not truncated
	printf 'kept\n' >log
	check 1 '' 'sketch: /dev/stdout: names a descriptor, not a file of its own\n' \
		sh -c 'sketch -P /dev/stdout fox >>log'
	check 0 'kept\n' '' cat log
	# (stderr a pipe: the limit on file size would stop the message too)
	run bash -c 'set -o pipefail; { trap "" XFSZ; ulimit -f 0; exec sketch -P count fox >/dev/null; } 2>&1 | cat'
	[ "$status" -eq 1 ]
	[ "$output" = "sketch: count: write error: File too large" ]
}

@test "sketch: 200000 distinct shingles in one page, a 1 MB ID" {
	awk 'BEGIN { printf "big\t"; for (i = 0; i < 200000; i++) printf "w%d ", i; printf "\n" }' >big
	check 0 'big\t199996\t0000375005983e2a 00004a72dc6900ff\n' '' sketch -n 2 big
	{ repeat a 1048576; printf '\tthe quick\n'; } >longid
	check 0 '1048576 1 7e25d1586fdee9a7\n' '' sh -c "sketch longid | awk -F'\t' '{ print length(\$1), \$2, \$3 }'"
}

# Ten pages of 200000 distinct shingles, each followed by a small one:
# the set's table (4 MB) was given back after each small page and taken
# anew for the next huge one, a page fault for each 4 kB each time (20249
# faults, against 2124 for one such page). Its slots are kept now: 1397
# faults, as for one. Faults are counted, not time.
@test "sketch: huge pages between small ones fault the set's memory in once" {
	need_rss
	awk 'BEGIN { for (p = 0; p < 10; p++) { printf "big%d\t", p
		for (i = 0; i < 200000; i++) printf "w%d ", p * 200000 + i
		printf "\nsmall%d\tthe quick brown fox\n", p } }' >alt
	head -n 2 alt >one
	faults one 'sketch -n 2 one >one.sk'
	faults alt 'sketch -n 2 alt >alt.sk'
	[ "$(wc -l <alt.sk)" -eq 20 ]
	[ "$(head -n 2 alt.sk)" = "$(cat one.sk)" ]
	[ "$(cut -f 2 alt.sk | sort -u | tr '\n' ' ')" = "1 199996 " ]
	[ "$(cat alt.faults)" -le $(($(cat one.faults) * 3 / 2)) ]
}

# skflood's page: 120000 words whose shingles' low 18 bits fall in the
# first 64th of their range, written 20 times (14 MB). Placed by those
# bits, its 120000 shingles made one run of a table of 2^18 slots, each
# lookup walking half of it: 230 s of CPU time. Placed by a keyed hash,
# 0.15 s (a few seconds under sanitizers): a CPU limit of 5 s, not a clock,
# so that a busy machine cannot fail it.
@test "sketch: crafted words do not flood the set of shingles (CPU limit)" {
	skflood -t 18 -r 20 120000 >flood
	run --separate-stderr sh -c 'ulimit -t 5 && exec sketch -n 1 flood'
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "${output%	*}" = "flood	120000" ]
}
