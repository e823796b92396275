#!/usr/bin/env bats
# parsplit: page records into paragraph records and a paragraph map.
#
# The page p1 used by most tests has five paragraphs, sizes (bytes that are
# not white space) a 1, "hello world this is / long" 20, short 5,
# "another long one here" 18, x 1; p2 and p3 have no text, p4 "only" 4.
# With -n 10: a (1) is merged with the next (21); short (5) with the next
# (23); x (1) is left at the end and goes to the paragraph before (24);
# p4 is one paragraph, smaller than 10, its whole text.

load helper

u='usage: parsplit -m map [-n minsize] [file ...]\n'

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	printf 'p1\ta\\n\\nhello world this is\\n  long\\n\\n\\n\\nshort\\n\\nanother long one here\\n\\nx\np2\t\np3\t\\n\\n  \\n\np4\tonly\n' >pages
}

@test "parsplit -h: usage on stdout" {
	check 0 "$u" '' parsplit -h
}

@test "parsplit: bad option, missing -m, bad -n" {
	badopt "usage: parsplit -m map [-n minsize] [file ...]" parsplit -x -m map
	check 2 '' "parsplit: no map: -m is required\n$u" parsplit pages
	check 2 '' "parsplit: minimum size 'x' is invalid (allowed: 0 to 1073741824)\\n" parsplit -m map -n x pages
	check 2 '' "parsplit: minimum size '1073741825' is too large (allowed: 0 to 1073741824)\\n" \
		parsplit -m map -n 1073741825 pages
	# the map through standard output's own file would mix with the records
	printf 'p1\tone two\n' >pages
	check 2 '' "parsplit: -m /dev/stdout: standard output's file, where the records go\n$u" \
		bash -c 'set -o pipefail; parsplit -m /dev/stdout pages | cat'
	check 2 '' "parsplit: -m /dev/fd/5: standard output's file, where the records go\n$u" \
		sh -c 'parsplit -m /dev/fd/5 pages >>log 5>&1'
	check 0 '' '' cat log
	check 0 '' '' sh -c 'parsplit -m /dev/stdout pages >/dev/null'
}

@test "parsplit: merged paragraphs, hand-computed" {
	check 0 '1\ta\\n\\nhello world this is\\n  long\n2\tshort\\n\\nanother long one here\\n\\nx\n3\tonly\n' '' \
		parsplit -m map -n 10 pages
	check 0 '1\tp1\t1\t21\n2\tp1\t2\t24\n3\tp4\t1\t4\n' '' cat map
}

@test "parsplit -n 0: every paragraph on its own" {
	check 0 '1\ta\n2\thello world this is\\n  long\n3\tshort\n4\tanother long one here\n5\tx\n6\tonly\n' '' \
		parsplit -m map -n 0 pages
	check 0 '1\tp1\t1\t1\n2\tp1\t2\t20\n3\tp1\t3\t5\n4\tp1\t4\t18\n5\tp1\t5\t1\n6\tp4\t1\t4\n' '' cat map
}

@test "parsplit: the default minimum size is 100" {
	printf 'q\t%s\\n\\n%s\\n\\n%s\n' "$(repeat a 99)" "$(repeat b 100)" "$(repeat c 99)" >in
	check 0 "1\\t$(repeat a 99)\\\\n\\\\n$(repeat b 100)\\\\n\\\\n$(repeat c 99)\\n" '' parsplit -m map in
	check 0 '1\tq\t1\t298\n' '' cat map
	printf 'q\t%s\\n\\n%s\n' "$(repeat a 100)" "$(repeat b 100)" >in
	check 0 "1\\t$(repeat a 100)\\n2\\t$(repeat b 100)\\n" '' parsplit -m map in
	check 0 'q\t1\t100\nq\t2\t100\n' '' cut -f2- map
}

@test "parsplit: blank lines of white space, CRLF text, sizes without white space" {
	printf 'c\tone two\\r\\n \\t\\r\\nthree\\r\\n\\r\\n\\r\\n\n' >in
	check 0 '1\tone two\\r\n2\tthree\\r\n' '' parsplit -m map -n 0 in
	check 0 '1\tc\t1\t6\n2\tc\t2\t5\n' '' cat map
}

@test "parsplit: IDs travel exactly, escapes and all" {
	printf 'a\\tb\\\\c\\0 d\ttext\n\\n\tmore\n' >in
	check 0 '1\ttext\n2\tmore\n' '' parsplit -m map in
	check 0 'a\\tb\\\\c\\0 d\t1\t4\n\\n\t1\t4\n' '' cut -f2- map
}

@test "parsplit: escapes in the text are decoded to split, then written again" {
	printf 'e\ta\\\\n b\\\\\\n\\nc\\0d\n' >in
	check 0 '1\ta\\\\n b\\\\\n2\tc\\0d\n' '' parsplit -m map -n 0 in
}

@test "parsplit: stdin, several files, keys go on across files" {
	printf 'z\tlast\n' >z
	printf 'y\tonly\n' >y
	check 0 '1\tonly\n2\tlast\n' '' parsplit -m map - z <y
	check 0 '1\ty\t1\t4\n2\tz\t1\t4\n' '' cat map
}

@test "parsplit: bad records are skipped, the others processed" {
	printf 'notab\nb\tbad\\q\nok\tfine\n' >in
	check 1 '1\tfine\n' 'parsplit: in:1: no TAB after the page ID\nparsplit: in:2: bad escape in the page text\n' \
		parsplit -m map in
	check 0 '1\tok\t1\t4\n' '' cat map
}

@test "parsplit: missing file" {
	check 1 '1\tonly\n' 'parsplit: nope: No such file or directory\n' parsplit -m map nope <(printf 'o\tonly\n')
}

@test "parsplit: empty input gives an empty map" {
	check 0 '' '' parsplit -m map </dev/null
	check 0 '' '' cat map
}

@test "parsplit: write errors; no map then, and no temporary file" {
	check 1 '' 'parsplit: <stdout>: write error: No space left on device\n' sh -c 'parsplit -m map pages >/dev/full'
	run ls -a
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '.\n..\ngot.err\ngot.out\npages\nwant.err\nwant.out')" ]
	check 1 '' 'parsplit: nodir/map: No such file or directory\n' parsplit -m nodir/map pages
}

@test "parsplit: a map already there is replaced whole" {
	printf 'old\n' >map
	printf 'p\tonly\n' >in
	check 0 '1\tonly\n' '' parsplit -m map in
	check 0 '1\tp\t1\t4\n' '' cat map
}

@test "parsplit: bounds: a 4 MB paragraph, and 100000 paragraphs in one page" {
	printf 'big\t%s\n' "$(repeat w 4000000)" >in
	run parsplit -m map in
	[ "$status" -eq 0 ]
	[ "${#output}" -eq 4000002 ]
	check 0 'big\t1\t4000000\n' '' cut -f2- map
	awk 'BEGIN { printf "many\t"; for (i = 0; i < 100000; i++) printf "w%d\\n\\n", i; print "" }' >in
	run parsplit -m map -n 0 in
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 100000 ]
	check 0 '100000\tmany\t100000\t6\n' '' tail -n 1 map
}

@test "parsplit: the blocks of htmltext are paragraphs; a heading and list items merge with the text after them" {
	printf 'h\t<html><body><h1>Title</h1><p>The first paragraph of text.</p><ul><li>one</li><li>two</li></ul><p>The last paragraph here.</p></body></html>\n' >h.html
	htmltext h.html >h.rec
	check 0 '1\tTitle\n2\tThe first paragraph of text.\n3\tone\n4\ttwo\n5\tThe last paragraph here.\n' '' \
		parsplit -m map -n 0 h.rec
	check 0 '1\tTitle\\n\\nThe first paragraph of text.\n2\tone\\n\\ntwo\\n\\nThe last paragraph here.\n' '' \
		parsplit -m map -n 10 h.rec
	check 0 '1\th\t1\t29\n2\th\t2\t27\n' '' cat map
}

@test "parsplit -m: through a symbolic link, to a device or a FIFO" {
	load faults
	printf 'p\tonly\n' >in
	printf '1\tp\t1\t4\n' >want.map
	outpath want.map parsplit -m OUT in
}

@test "parsplit -m: with stdout closed, the map does not take its descriptor" {
	printf 'p\tonly\n' >in
	printf 'old\n' >map
	# the temporary map was descriptor 1: the records went into it
	check 1 '' 'parsplit: <stdout>: write error: Bad file descriptor\n' sh -c 'exec parsplit -m map in >&-'
	check 0 'old\n' '' cat map
}
