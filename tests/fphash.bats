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

u='usage: fphash -f features -m bits [-n rows] -t table [file ...]\n'

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
	badopt "usage: fphash -f features -m bits [-n rows] -t table [file ...]" \
		fphash -x -f feat -m 4 -t tab
}

@test "fphash: missing -f, -m or -t" {
	check 2 '' "$u" fphash -m 4 -t tab pages
	check 2 '' "$u" fphash -f feat -t tab pages
	check 2 '' "$u" fphash -f feat -m 4 pages
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
