#!/usr/bin/env bats
# fphash: simhash fingerprints of per-page word counts.
#
# The table used by most tests, M=4 (feature i takes row i):
#	apple  1100
#	banana 1010
#	cherry 0110
# p1 apple:2 banana:1   S = (+2+1, +2-1, -2+1, -2-1) = (3, 1, -1, -3)  1100
# p2 banana:1 cherry:1  S = (0, 0, 2, -2), a tie S_j = 0 gives 0        0010
# p3 zzz:4 (no feature) and p4 (no word): all weights 0                 0000
# p5 cherry:3 apple:1 durian:9  S = (-3+1, 3+1, 3-1, -3-1)              0110

load helper

u='usage: fphash [-H] [-b low,high] [-D dffile] [-f features] [-i words] -m bits [-n rows] [-s seed] [-t table] [-w weight] [file ...]\n'

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	printf 'apple\t5\nbanana\t3\ncherry\t1\n' >feat
	printf '1100\n1010\n0110\n' >tab
	printf 'p1\tapple:2 banana:1\np2\tbanana:1 cherry:1\np3\tzzz:4\np4\t\np5\tcherry:3 apple:1 durian:9\n' >pages
	want='p1\t1100\np2\t0010\np3\t0000\np4\t0000\np5\t0110\n'
}

@test "fphash -h: usage on stdout" {
	check 0 "$u" '' fphash -h
}

@test "fphash: bad option" {
	badopt "usage: fphash [-H] [-b low,high] [-D dffile] [-f features] [-i words] -m bits [-n rows] [-s seed] [-t table] [-w weight] [file ...]" \
		fphash -x -f feat -m 4 -t tab
}

@test "fphash: missing -f, -m or -t, or -t with -H: said, then the usage" {
	check 2 '' "fphash: -f and -t are needed, or -H\n$u" fphash -m 4 -t tab pages
	check 2 '' "fphash: -m is needed\n$u" fphash -f feat -t tab pages
	check 2 '' "fphash: -f and -t are needed, or -H\n$u" fphash -f feat -m 4 pages
	check 2 '' "fphash: -H cannot go with -t\n$u" fphash -H -m 4 -t tab pages
}

@test "fphash: hand-computed fingerprints" {
	check 0 "$want" '' fphash -f feat -m 4 -t tab pages
}

@test "fphash: stdin, several files, missing file" {
	printf 'q\tcherry:1\n' >q
	check 0 "${want}q\\t0110\\n" '' fphash -f feat -m 4 -t tab - q <pages
	check 1 "q\\t0110\\n${want}" 'fphash: nope: No such file or directory\n' \
		fphash -f feat -m 4 -t tab q nope pages
}

@test "fphash: empty input" {
	check 0 '' '' fphash -f feat -m 4 -t tab </dev/null
}

@test "fphash: zero weights give all-zero bits" {
	printf 'z\tapple:0 banana:0 cherry:0\nw\tapple:00 banana:1\n' >in
	check 0 'z\t0000\nw\t1010\n' '' fphash -f feat -m 4 -t tab in
}

@test "fphash: the first M characters of longer rows" {
	check 0 'p1\t11\np2\t00\np3\t00\np4\t00\np5\t01\n' '' fphash -f feat -m 2 -t tab pages
}

@test "fphash: M=128 and M=65, bits beyond the first word" {
	one=$(printf '%064d' 0 | tr 0 1)
	zero=$(printf '%064d' 0)
	printf 'a\t1\nb\t1\n' >f
	printf '%s%s\n%s%s\n' "$zero" "$one" "$one" "$zero" >t
	printf 'x\ta:1\ny\tb:1\nz\ta:2 b:1\n' >in
	check 0 "x\\t$zero$one\\ny\\t$one$zero\\nz\\t$zero$one\\n" '' fphash -f f -m 128 -t t in
	check 0 "x\\t${zero}1\\ny\\t${one}0\\nz\\t${zero}1\\n" '' fphash -f f -m 65 -t t in
}

@test "fphash -n: the table must have that many rows" {
	check 0 "$want" '' fphash -f feat -m 4 -n 3 -t tab pages
	check 0 "$want" '' fphash -f feat -m 4 -n 1 -t tab pages
	check 1 '' 'fphash: tab: has 3 rows, 4 needed\n' fphash -f feat -m 4 -n 4 -t tab pages
	check 2 '' "fphash: rows '0' is too small (allowed: 1 to 4294967294)\n" \
		fphash -f feat -m 4 -n 0 -t tab pages
	check 2 '' "fphash: rows 'x' is invalid (allowed: 1 to 4294967294)\n" \
		fphash -f feat -m 4 -n x -t tab pages
}

@test "fphash: fewer table rows than features" {
	printf '1100\n1010\n' >short
	check 1 '' 'fphash: short: has 2 rows, 3 needed\n' fphash -f feat -m 4 -t short pages
}

@test "fphash: a short table row" {
	printf '1100\n101\n0110\n' >t1
	check 1 '' 'fphash: t1:2: row has 3 bits, 4 needed\n' fphash -f feat -m 4 -t t1 pages
	printf '1100\n1010\r\n011\r\n' >t2
	check 1 '' 'fphash: t2:3: row has 3 bits, 4 needed\n' fphash -f feat -m 4 -t t2 pages
	printf '1100\n\n0110\n' >t3
	check 1 '' 'fphash: t3:2: row has 0 bits, 4 needed\n' fphash -f feat -m 4 -t t3 pages
}

@test "fphash: a table character that is not 0 or 1" {
	printf '1100\n10x0\n0110\n' >t1
	check 1 '' 'fphash: t1:2: character 3 is not 0 or 1\n' fphash -f feat -m 4 -t t1 pages
	printf '1100\n1010\n2110\n' >t2
	check 1 '' 'fphash: t2:3: character 1 is not 0 or 1\n' fphash -f feat -m 4 -t t2 pages
}

@test "fphash: wide table rows, read 8 characters at a time" {
	# a page of one feature of weight 1 has the feature's row
	printf '10110011100011110000\n01101100011101010101\r\n11111111000000001101\n' >t
	printf 'p1\tapple:1\np2\tbanana:1\np3\tcherry:1\n' >one
	check 0 'p1\t10110011100011110000\np2\t01101100011101010101\np3\t11111111000000001101\n' '' \
		fphash -f feat -m 20 -t t one
	check 0 'p1\t1011001110001\np2\t0110110001110\np3\t1111111100000\n' '' \
		fphash -f feat -m 13 -t t one
	# a bad character past the first 8, or in them; a row cut short
	printf '10110011100011110000\n0110110001q101010101\n11111111000000001101\n' >t1
	check 1 '' 'fphash: t1:2: character 11 is not 0 or 1\n' fphash -f feat -m 20 -t t1 one
	printf '10110011100011110000\n01101100011101010101\n11111121000000001101\n' >t2
	check 1 '' 'fphash: t2:3: character 7 is not 0 or 1\n' fphash -f feat -m 20 -t t2 one
	printf '10110011100011110000\n0110110001110101010\r\n11111111000000001101\n' >t3
	check 1 '' 'fphash: t3:2: row has 19 bits, 20 needed\n' fphash -f feat -m 20 -t t3 one
}

@test "fphash: a CRLF table" {
	printf '1100\r\n1010\r\n0110\r\n' >crlf
	check 0 "$want" '' fphash -f feat -m 4 -t crlf pages
}

@test "fphash: a CRLF features file" {
	printf 'apple\r\nBanana\t3\r\ncherry\r\n' >crlf
	check 0 "$want" '' fphash -f crlf -m 4 -t tab pages
}

@test "fphash: duplicate feature" {
	printf 'apple\t5\nbanana\t3\nApple\t1\n' >dup
	check 1 '' "fphash: dup:3: duplicate word 'apple'\n" fphash -f dup -m 4 -t tab pages
}

@test "fphash: missing features or table file" {
	check 1 '' 'fphash: nofeat: No such file or directory\n' fphash -f nofeat -m 4 -t tab pages
	check 1 '' 'fphash: notab: No such file or directory\n' fphash -f feat -m 4 -t notab pages
}

@test "fphash: bad -m" {
	check 2 '' "fphash: bits '0' is too small (allowed: 1 to 128)\n" fphash -f feat -m 0 -t tab pages
	check 2 '' "fphash: bits '129' is too large (allowed: 1 to 128)\n" fphash -f feat -m 129 -t tab pages
	check 2 '' "fphash: bits 'x' is invalid (allowed: 1 to 128)\n" fphash -f feat -m x -t tab pages
}

@test "fphash: bad count items and missing TAB are skipped" {
	printf 'a\tapple:x\nb\tapple\nc\tbanana:1\nd\tapple:99999999999999999999\nnotab\ne\tapple:-1\nf\tapple:2  banana:1 \n' >in
	check 1 'c\t1010\nf\t1100\n' "fphash: in:1: bad count item 'apple:x'
fphash: in:2: bad count item 'apple'
fphash: in:4: bad count item 'apple:99999999999999999999'
fphash: in:5: no TAB after the page ID
fphash: in:6: bad count item 'apple:-1'
" fphash -f feat -m 4 -t tab in
}

@test "fphash: a failed page leaves no weight behind" {
	printf 'x\tapple:2000000000000000000 banana:2000000000000000000 cherry:1\ny\tcherry:1\nz\tapple:1 bad banana:1\nw\tcherry:1\n' >in
	check 1 'y\t0110\nw\t0110\n' "fphash: in:1: page weights are too large
fphash: in:3: bad count item 'bad'
" fphash -f feat -m 4 -t tab in
}

@test "fphash: an item with no word is bad" {
	printf 'a\t:3 apple:1\nb\tapple:1\n' >in
	check 1 'b\t1100\n' "fphash: in:1: bad count item ':3'\n" fphash -f feat -m 4 -t tab in
}

@test "fphash -i: items are numbers of the lines of a word list" {
	# cherry 0, zzz 1, apple 2 and 3, banana 4
	printf 'cherry\t9\nzzz\t1\nApple\t3\r\napple\nbanana\t1\n' >words
	printf 'p1\t2:1 4:1 3:1\np2\t4:1 0:1\np3\t1:4\np4\t\np5\t0:3  2:1 \n' >in
	check 0 "$want" '' fphash -f feat -i words -m 4 -t tab in
	# the features file itself, as wordfreq -i -v numbers it
	printf 'p1\t0:2 1:1\np5\t2:3 0:1\n' >in
	check 0 'p1\t1100\np5\t0110\n' '' fphash -f feat -i feat -m 4 -t tab in
}

@test "fphash -i: bad items, numbers past the list, are skipped" {
	printf 'apple\nbanana\n' >words
	printf 'a\t0:x\nb\t0\nc\t1:1\nd\t0:99999999999999999999\ne\t2:1\nf\t0:2  1:1 \ng\tapple:1\nh\t99999999999999999999:1\ni\t:3 0:1\nj\t0:\nk\t+0:1\nl\t1:1 0:1x\n' >in
	check 1 'c\t1010\nf\t1100\n' "fphash: in:1: bad count item '0:x'
fphash: in:2: bad count item '0'
fphash: in:4: bad count item '0:99999999999999999999'
fphash: in:5: word number 2 is not in the word list
fphash: in:7: bad count item 'apple:1'
fphash: in:8: bad count item '99999999999999999999:1'
fphash: in:9: bad count item ':3'
fphash: in:10: bad count item '0:'
fphash: in:11: bad count item '+0:1'
fphash: in:12: bad count item '0:1x'
" fphash -f feat -i words -m 4 -t tab in
}

@test "fphash -i: needs -f; a missing list, an empty word" {
	check 2 '' "fphash: -i needs -f\n$u" fphash -H -i feat -m 4 pages
	check 1 '' 'fphash: nowords: No such file or directory\n' fphash -f feat -i nowords -m 4 -t tab pages
	printf 'apple\n\tx\n' >words
	check 1 '' 'fphash: words:2: empty word\n' fphash -f feat -i words -m 4 -t tab pages
	# an empty list: every number is past it
	: >words
	printf 'p\t0:1\nq\t\n' >in
	check 1 'q\t0000\n' 'fphash: in:1: word number 0 is not in the word list\n' \
		fphash -f feat -i words -m 4 -t tab in
}

@test "fphash -i: wordfreq -i gives the fingerprints of the words" {
	printf 'p1\tApple apple banana the\np2\tbanana cherry\np3\tzzz\np4\t\np5\tcherry durian cherry apple cherry\n' >text
	printf 'the\n' >stop
	wordfreq -p -s stop text >pages.w
	wordfreq -ip -s stop -T tot text >pages.n
	check 0 "$want" '' fphash -f feat -m 4 -t tab pages.w
	check 0 "$want" '' fphash -f feat -i tot -m 4 -t tab pages.n
	wordfreq -ip -s stop -v feat text >pages.v
	check 0 "$want" '' fphash -f feat -i feat -m 4 -t tab pages.v
}

# ---- Hardening: bad input, output faults, resource bounds ----
load faults

@test "fphash: empty files" {
	: >e
	check 0 '' '' fphash -f feat -m 4 -t tab e
	printf 'p1\tapple:1\n' >p
	check 0 'p1\t0000\n' '' fphash -f e -m 4 -t e p
}

@test "fphash: a directory as input, features or table" {
	mkdir d
	check 1 "$want" 'fphash: d: read error: Is a directory\n' fphash -f feat -m 4 -t tab d pages
	check 1 '' 'fphash: d: read error: Is a directory\n' fphash -f d -m 4 -t tab pages
	check 1 '' 'fphash: d: read error: Is a directory\n' fphash -f feat -m 4 -t d pages
}

@test "fphash: unreadable input, features or table" {
	needasuser
	: >f
	chmod 000 f
	chmod 644 feat tab pages
	check 1 "$want" 'fphash: f: Permission denied\n' asuser fphash -f feat -m 4 -t tab f pages
	check 1 '' 'fphash: f: Permission denied\n' asuser fphash -f f -m 4 -t tab pages
	check 1 '' 'fphash: f: Permission denied\n' asuser fphash -f feat -m 4 -t f pages
}

@test "fphash: NUL bytes and bytes >= 0x80 in IDs, items and features" {
	printf 'caf\351\t1\nx\0y\t1\n' >f
	printf '1000\n0100\n' >t
	printf 'I\0D\377\tcaf\351:2 zz\200:5\nJ\tx\0y:1\n' >p
	check 0 'I\0D\377\t1000\nJ\t0100\n' '' fphash -f f -m 4 -t t p
	printf 'q\tcaf\351:1\0\n' >p
	check 1 '' "fphash: p:1: bad count item 'caf\351:1'\n" fphash -f f -m 4 -t t p
}

@test "fphash: a table whose last row has no newline" {
	printf '1100\n1010\n0110' >t
	check 0 "$want" '' fphash -f feat -m 4 -t t pages
}

@test "fphash: a 50 MB record" {
	{ printf 'big\t'; yes 'apple:1' | head -n 6250000 | tr '\n' ' '; printf '\n'; } >in
	[ "$(wc -c <in)" -eq 50000005 ]
	check 0 'big\t1100\n' '' fphash -f feat -m 4 -t tab in
}

@test "fphash: numbers with signs, spaces, hex, overflow" {
	for m in +4 ' 4' 0x4 -4 99999999999999999999; do
		case $m in
		99*) e='too large' ;;
		*) e=invalid ;;
		esac
		check 2 '' "fphash: bits '$m' is $e (allowed: 1 to 128)\n" fphash -f feat -m "$m" -t tab pages
		check 2 '' "fphash: rows '$m' is $e (allowed: 1 to 4294967294)\n" \
			fphash -f feat -m 4 -n "$m" -t tab pages
	done
	printf 'a\tapple:+1\nb\tapple:0x1\nc\tapple: 1\nd\tapple:1\n' >in
	check 1 'd\t1100\n' "fphash: in:1: bad count item 'apple:+1'
fphash: in:2: bad count item 'apple:0x1'
fphash: in:3: bad count item 'apple:'
" fphash -f feat -m 4 -t tab in
}

@test "fphash: zero counts, even repeated, weigh nothing" {
	# found in review: each zero count was listed again in the page's words
	printf 'apple\t1\n' >f
	printf 'p\tapple:0 apple:0 apple:0 apple:0\nq\tapple:1 apple:0\n' >in
	check 0 'p\t0000\nq\t1100\n' '' fphash -f f -m 4 -t tab in
}

@test "fphash: duplicate IDs are labels: every record is kept" {
	printf 'p\tapple:1\np\tbanana:1\np\t\n' >in
	check 0 'p\t1100\np\t1010\np\t0000\n' '' fphash -f feat -m 4 -t tab in
}

@test "fphash: stdout cannot be written" {
	devfull fphash -f feat -m 4 -t tab pages
	awk 'BEGIN { for (i = 0; i < 20000; i++) print "page" i "\tapple:1" }' >big
	devfull fphash -f feat -m 4 -t tab big
}

@test "fphash: the reader of stdout goes away" {
	awk 'BEGIN { for (i = 0; i < 100000; i++) print "page" i "\tapple:1" }' >big
	sigpipe fphash -f feat -m 4 -t tab big
}

@test "fphash: a huge -n costs no memory before the rows exist" {
	check 1 '' 'fphash: tab: has 3 rows, 4294967294 needed\n' \
		fphash -f feat -m 4 -n 4294967294 -t tab pages
}

# SipHash-2-4 under the key of seed 0 (k0 = 0, k1 = 2^64 - 1), as in fphash(1):
#	the 5f537e71c33979f3  cat 71f4228f461b175d  sat 10c7cc47485c1ba0
#	on  0106cd0d524a9a33  mat 1a3394df78aa4c62
# Bit j of a fingerprint is bit j of the hash, from the least significant.

@test "sipvec: SipHash-2-4 and SipHash-2-4-128 give the reference test vectors" {
	run sipvec
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "24 0 310e0edd47db6f72" ]
	[ "${lines[1]}" = "24-128 0 a3817f04ba25a8e66df67214c7550293" ]
	[ "${lines[2]}" = "24 1 fd67dc93c539f874" ]
	[ "${lines[3]}" = "24-128 1 da87c1d86b99af44347659119b22fc45" ]
	[ "${lines[30]}" = "24 15 e545be4961ca29a1" ]
	[ "${lines[31]}" = "24-128 15 5493e99933b0a8117e08ec0f97cfc3d9" ]
}

@test "sipvec: the feature hashes of fphash(1) for seed 0" {
	check 0 'the\t5f537e71c33979f3\ncat\t71f4228f461b175d\nsat\t10c7cc47485c1ba0\non\t0106cd0d524a9a33\nmat\t1a3394df78aa4c62\n' '' \
		sipvec the cat sat on mat
}

@test "fphash -H: the man page's vectors, 16, 64 and 128 bits" {
	printf 'p1\tthe:2 cat:1 sat:1\np2\tthe:1 cat:1 sat:1 on:1 mat:1\np3\t\n' >hp
	check 0 'p1\t1000111110011000\np2\t1100111011011000\np3\t0000000000000000\n' '' fphash -H -m 16 hp
	check 0 'p1\t1100111110011110100111001100001110001110011111101100101011111010\n' '' \
		fphash -H -m 64 <<<"$(printf 'p1\tthe:1')"
	check 0 'p1\t1000111110011000100110000100001010000010011101101100101010001010\n' '' \
		fphash -H -m 64 <<<"$(head -n 1 hp)"
	check 0 'p1\t00100101100111001110011010101000100000010010101100101100001101011100000000001110001000000010011000000100000000000101100011100100\n' '' \
		fphash -H -m 128 <<<"$(head -n 1 hp)"
}

@test "fphash -H -s: the seed changes the key" {
	printf 'p1\tthe:2 cat:1 sat:1\n' >hp
	check 0 'p1\t0100100111111100\n' '' fphash -H -m 16 -s 1 hp
	check 0 'p1\t1000111110011000\n' '' fphash -H -m 16 -s 0 hp
	check 2 '' "fphash: seed '-1' is invalid (allowed: 0 to 9223372036854775807)\n" fphash -H -m 16 -s -1 hp
}

@test "fphash -H -f: only the listed features count" {
	printf 'p1\tthe:2 cat:1 sat:1\n' >hp
	printf 'the\t9\n' >f1
	# the alone: its hash bits
	check 0 'p1\t1100111110011110\n' '' fphash -H -f f1 -m 16 hp
}

@test "fphash -H: one of -H and -t" {
	check 2 '' "fphash: -H cannot go with -t\n$u" fphash -H -m 16 -t tab pages
	check 2 '' "fphash: -m is needed\n$u" fphash -H pages
}

@test "fphash -w: log, bin and raw weights" {
	printf 'p1\tthe:2 cat:1 sat:1\np2\tthe:1 the:1 cat:1 sat:1\n' >hp
	check 0 'p1\t1000111110011000\np2\t1000111110011000\n' '' fphash -H -m 16 -w raw hp
	check 0 'p1\t1000111111011000\np2\t1000111111011000\n' '' fphash -H -m 16 -w log hp
	check 0 'p1\t1000111111011000\np2\t1000111111011000\n' '' fphash -H -m 16 -w bin hp
	# the table's tie rule holds for every weight: p1 ties at bits 2 and 3
	check 0 'p1\t1000\np2\t0010\np3\t0000\np4\t0000\np5\t0100\n' '' \
		fphash -f feat -m 4 -t tab -w bin pages
	check 0 'p1\t1100\np2\t0010\np3\t0000\np4\t0000\np5\t0110\n' '' fphash -f feat -m 4 -t tab -w log pages
	check 2 '' "$u" fphash -H -m 16 -w sqrt hp
}

@test "fphash -w tfidf -D: document frequencies, shards added up" {
	printf 'p1\tthe:2 cat:1 sat:1\n' >hp
	# one shard: N = 2, df 1, 1, 2: weights (1 + ln 2)(1 + ln 1.5), 1 + ln 1.5, 1
	printf '\t2\nthe\t1\ncat\t1\nsat\t2\n' >df1
	check 0 'p1\t1000111111011000\n' '' fphash -H -m 16 -w tfidf -D df1 hp
	# two such shards: N = 4, df 2, 2, 4: sat weighs less, the more
	check 0 'p1\t1100111110011110\n' '' fphash -H -m 16 -w tfidf -D df1 -D df1 hp
	cat df1 df1 >df
	check 0 'p1\t1100111110011110\n' '' fphash -H -m 16 -w tfidf -D df hp
	# topn adds them up the same way, the document count first
	topn 100 df >dft
	check 0 '\t4\nsat\t4\ncat\t2\nthe\t2\n' '' cat dft
	check 0 'p1\t1100111110011110\n' '' fphash -H -m 16 -w tfidf -D dft hp
	# a feature absent from the file has df 0
	printf '\t2\n' >dfn
	check 0 'p1\t1000111111011000\n' '' fphash -H -m 16 -w tfidf -D dfn hp
}

@test "fphash -w tfidf: -D needed, and only with it" {
	check 2 '' "fphash: -w tfidf and -w imatch need -D\n$u" fphash -H -m 16 -w tfidf pages
	check 2 '' "fphash: -D needs -w tfidf or -w imatch\n$u" fphash -H -m 16 -D df pages
	check 2 '' "fphash: -D needs -w tfidf or -w imatch\n$u" fphash -H -m 16 -w log -D df pages
}

@test "fphash -D: malformed document frequencies" {
	printf 'the\t1\n' >d1
	check 1 '' 'fphash: d1: no number of documents (a record with an empty word)\n' \
		fphash -H -m 16 -w tfidf -D d1 pages
	printf '\t1\nthe 1\n' >d2
	check 1 '' 'fphash: d2:2: no TAB between word and document count\n' \
		fphash -H -m 16 -w tfidf -D d2 pages
	printf '\t1\nthe\tx\n' >d3
	check 1 '' "fphash: d3:2: document count 'x' is invalid\n" \
		fphash -H -m 16 -w tfidf -D d3 pages
	printf '\t9223372036854775807\n\t1\n' >d4
	check 1 '' 'fphash: d4:2: document count overflows\n' \
		fphash -H -m 16 -w tfidf -D d4 pages
	check 1 '' 'fphash: nope: No such file or directory\n' \
		fphash -H -m 16 -w tfidf -D nope pages
}

@test "fphash: wordfreq -u -k 2 -p into fphash -H, end to end" {
	printf 'a\t日本語の文章 and more\nb\t日本語の文章 and less\n' >in
	run sh -c 'wordfreq -u -k 2 -p in | fphash -H -m 64'
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]:0:2}" = "a	" ]
}

@test "fphash -H: 200000 distinct features in one page, each hashed once" {
	awk 'BEGIN { printf "p\t"; for (i = 0; i < 200000; i++) printf "f%d:1 ", i; print "" }' >big
	run fphash -H -m 128 big big
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "${lines[1]}" ]
	[ "${#lines[0]}" -eq 130 ]
}

# I-Match: N = 100; the has df 100 (normalized IDF 0), cat 2 (0.85), sat 3
# (0.76), mat 1 (1). The default band 80,95 keeps cat only, 70,95 cat and
# sat, 0,100 all four; dog has no DF and is never kept.
imatchdata() {
	printf '\t100\nthe\t100\ncat\t2\nsat\t3\nmat\t1\n' >df
	printf 'p1\tthe:2 cat:1 sat:1 mat:1\np2\tthe:5\np3\tsat:4 cat:1\np4\tcat:3 dog:1\n' >ip
}

@test "fphash -w imatch: the test vectors of the man page" {
	imatchdata
	check 0 'p1\t0111110110111000\np3\t0111110110111000\np4\t0111110110111000\n' '' \
		fphash -H -m 16 -w imatch -D df ip
	check 0 'p1\t0110011001110001\np3\t0110011001110001\np4\t0111110110111000\n' '' \
		fphash -H -m 16 -b 70,95 -w imatch -D df ip
	check 0 'p1\t1001010010010001\np2\t1011010100101101\np3\t0110011001110001\np4\t0111110110111000\n' '' \
		fphash -H -m 16 -b 0,100 -w imatch -D df ip
	# 128 bits: SipHash-2-4-128 of "cat\n"
	s=11011001110100010011011000010111100000100111111000100010001101100000000001111011000011111000000011111111101001101110001010000101
	check 0 "p1\\t$s\\np3\\t$s\\np4\\t$s\\n" '' fphash -H -m 128 -w imatch -D df ip
	check 0 'p1\t1011011000010111\np3\t1011011000010111\np4\t1011011000010111\n' '' \
		fphash -H -m 16 -s 1 -w imatch -D df ip
}

@test "fphash -w imatch: counts and order do not matter, the set does" {
	imatchdata
	printf 'a\tsat:1 cat:9\nb\tcat:1 sat:1 cat:2\nc\tcat:1\n' >in
	check 0 'a\t0110011001110001\nb\t0110011001110001\nc\t0111110110111000\n' '' \
		fphash -H -m 16 -b 70,95 -w imatch -D df in
}

@test "fphash -w imatch: a page with no feature in the band has no record" {
	imatchdata
	printf 'x\tthe:1 mat:1 dog:1\ny\t\n' >in
	check 0 '' '' fphash -H -m 16 -w imatch -D df in
	# 77 to 85 keeps sat (76.1...) out, cat (84.9...) in
	check 0 'p1\t0111110110111000\np3\t0111110110111000\np4\t0111110110111000\n' '' \
		fphash -H -m 16 -b 77,85 -w imatch -D df ip
	# N = 1: every normalized IDF is 0
	printf '\t1\ncat\t1\n' >df1
	printf 'c\tcat:1\n' >in2
	check 0 'c\t0111110110111000\n' '' fphash -H -m 16 -b 0,0 -w imatch -D df1 in2
	check 0 '' '' fphash -H -m 16 -b 1,100 -w imatch -D df1 in2
}

@test "fphash -w imatch: with -f, features of the list only" {
	imatchdata
	printf 'sat\t1\n' >feat2
	# the hash of "sat\n", as for a page whose only feature is sat
	check 0 'p1\t0111111110011110\np3\t0111111110011110\n' '' \
		fphash -H -f feat2 -m 16 -b 70,95 -w imatch -D df ip
	printf 's\tsat:1\n' >s
	check 0 's\t0111111110011110\n' '' fphash -H -m 16 -b 0,100 -w imatch -D df s
}

@test "fphash -w imatch, -b: usage errors" {
	imatchdata
	check 2 '' "fphash: -w tfidf and -w imatch need -D\n$u" fphash -H -m 16 -w imatch ip
	check 2 '' "$u" fphash -H -m 16 -b 70 -w imatch -D df ip
	check 2 '' "fphash: band high '60' is too small (allowed: 70 to 100)\\n" \
		fphash -H -m 16 -b 70,60 -w imatch -D df ip
	check 2 '' "fphash: band low '101' is too large (allowed: 0 to 100)\\n" \
		fphash -H -m 16 -b 101,101 -w imatch -D df ip
	check 2 '' "fphash: band high 'x' is invalid (allowed: 0 to 100)\\n" \
		fphash -H -m 16 -b 0,x -w imatch -D df ip
}

@test "fphash -w imatch: bounds: 200000 distinct features in a page" {
	awk 'BEGIN { print "\t1000"; for (i = 0; i < 200000; i++) printf "w%d\t3\n", i }' >bigdf
	awk 'BEGIN { printf "big\t"; for (i = 199999; i >= 0; i--) printf "w%d:1 ", i; print "" }' >big
	awk 'BEGIN { printf "big2\t"; for (i = 0; i < 200000; i++) printf "w%d:2 ", i; print "" }' >big2
	run fphash -H -m 128 -b 0,100 -w imatch -D bigdf big big2
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]#big	}" = "${lines[1]#big2	}" ]
}

@test "fphash -i: long records read as their words, the bad items too" {
	# long records: their items are read 8 bytes at a time (counts.h)
	awk 'BEGIN { for (i = 0; i < 300; i++) print "w" i }' >words
	awk 'BEGIN { for (i = 0; i < 300; i++) {
		r = ""; for (j = 0; j < 16; j++) r = r (int(i / 2 ^ (j % 9)) + j) % 2; print r } }' >tab
	# numbers of 1 to 8 digits (leading zeros), counts of 1 to 12 digits,
	# runs of spaces; in bad, item 60 of records 2 to 6 is bad
	awk 'BEGIN { split("13:1x 00300:1 123456789:1 1:2:7 13:+7", b, " ")
	    for (p = 0; p < 6; p++) {
		n = "p" p "\t"; w = n; x = n
		for (i = 0; i < 120; i++) {
			k = (i * 37 + p * 11) % 300; c = (i * 7 + p) % 13 + 1
			if (i % 9 == 0) c = c "000003"; if (i % 23 == 0) c = c "0000000007"
			z = i % 11 == 0 ? "0000" : (i % 5 == 0 ? "0" : "")
			sp = i == 0 ? "" : (i % 17 == 0 ? "   " : " ")
			n = n sp z k ":" c; w = w sp "w" k ":" c
			x = x sp (p > 0 && i == 60 ? b[p] : z k ":" c)
		}
		print n >"in"; print w >"in.w"; print x >"bad" } }'
	fphash -f words -m 16 -t tab in.w >want
	[ "$(wc -l <want)" -eq 6 ]
	: >empty
	cmpout 0 want empty fphash -f words -i words -m 16 -t tab in
	check 1 "$(sed -n 1p want)\n" "fphash: bad:2: bad count item '13:1x'
fphash: bad:3: word number 300 is not in the word list
fphash: bad:4: word number 123456789 is not in the word list
fphash: bad:5: bad count item '1:2:7'
fphash: bad:6: bad count item '13:+7'
" fphash -f words -i words -m 16 -t tab bad
}
