#!/usr/bin/env bats
# neardup: near-duplicate pairs, clusters and unique documents of a
# collection; kept states, queries and additions.

load helper
load neardocs

u='usage: neardup [-bvwz] [-0 | -j | -l | -p] [-c | -u] [-a state | -o state | -q state] [-d rarity] [-E engine] [-e extract] [-k words] [-m minsize] [-n size] [-P shards] [-t threshold] [-W dir] [file ...]\n'
pairs='docs/a.txt\tdocs/a2.txt\t0.8765\ndocs/b.txt\tdocs/b2.txt\t1.0000\n'
clusters='docs/a.txt\tdocs/a.txt\ndocs/a2.txt\tdocs/a.txt\ndocs/b.txt\tdocs/b.txt\ndocs/b2.txt\tdocs/b.txt\ndocs/c.txt\tdocs/c.txt\ndocs/s.txt\tdocs/s.txt\ndocs/s2.txt\tdocs/s2.txt\n'
unique='docs/a.txt\ndocs/b.txt\ndocs/c.txt\ndocs/s.txt\ndocs/s2.txt\n'
params='neardup-state\n3\nwords 5\nsize 128\nextract main\n'

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	neardocs
}

@test "neardup -h: usage on stdout" {
	check 0 "$u" '' neardup -h
}

@test "neardup: usage errors" {
	# each with its reason first (issue 18.8)
	check 2 '' "neardup: no file operand\n$u" neardup
	check 2 '' "neardup: -l takes no operand (the list is standard input)\n$u" neardup -l docs
	check 2 '' "neardup: -E, -P and -W read files, lists and directories\n$u" neardup -P 2 -j f
	check 2 '' "neardup: -0 takes no operand (the list is standard input)\n$u" neardup -0 docs
	# of two that cannot go together, the later is named first
	check 2 '' "neardup: -q cannot go with -c\n$u" neardup -c -q st docs
	check 2 '' "neardup: -c cannot go with -q\n$u" neardup -q st -c docs
	check 2 '' "neardup: -a cannot go with -c\n$u" neardup -c -a st docs
	check 2 '' "neardup: -c cannot go with -a\n$u" neardup -a st -c docs
	check 2 '' "neardup: -u cannot go with -c\n$u" neardup -c -u docs
	check 2 '' "neardup: -c cannot go with -u\n$u" neardup -u -c docs
	check 2 '' "neardup: -p cannot go with -j\n$u" neardup -j -p f
	check 2 '' "neardup: -0 cannot go with -l\n$u" neardup -l -0
	check 2 '' "neardup: -q cannot go with -w\n$u" neardup -w -q st docs
	check 2 '' "neardup: -w cannot go with -q\n$u" neardup -q st -w docs
	check 2 '' "neardup: -o cannot go with -a\n$u" neardup -a st -o st docs
	check 2 '' "neardup: -q given twice\n$u" neardup -q st -q st docs
	check 2 '' "neardup: words '0' is out of range (allowed: 1 to 16)\n" neardup -k 0 docs
	check 2 '' "neardup: words '17' is out of range (allowed: 1 to 16)\n" neardup -k 17 docs
	check 2 '' "neardup: size '257' is out of range (allowed: 1 to 256)\n" neardup -n 257 docs
	check 2 '' "neardup: size 'x' is invalid (allowed: 1 to 256)\n" neardup -n x docs
	check 2 '' "neardup: rarity '-1' is invalid (allowed: 0 to 1000000)\n" neardup -d -1 docs
	check 2 '' "neardup: words '0000000000000000000017' is out of range (allowed: 1 to 16)\n" \
		neardup -k 0000000000000000000017 docs
	check 2 '' "neardup: minsize '1000000000' is out of range (allowed: 0 to 999999999)\n" neardup -m 1000000000 docs
	check 2 '' "neardup: extract 'bogus' is invalid (main, all or raw)\n" neardup -e bogus docs
	local t
	# as simjoin takes it (estrtofrac): no exponent, hex, sign, blank,
	# at most 15 decimals
	for t in 2 1.05 09 x . 0.5.1 '' 1e-1 0x.8 ' 0.5' +0.5 0.1234567890123456; do
		check 2 '' "neardup: threshold '$t' is invalid (allowed: a decimal fraction from 0 to 1, at most 15 decimals)\n" \
			neardup -t "$t" docs
	done
	# the options getopts refuses, said by neardup as the C tools say them
	check 2 '' "neardup: invalid option -- 'x'\n$u" neardup -x docs
	check 2 '' "neardup: invalid option -- '-'\n$u" neardup --help
	check 2 '' "neardup: option requires an argument -- 'k'\n$u" neardup -k
}

@test "neardup: pairs, clusters (-c), unique (-u)" {
	check 0 "$pairs" '' neardup docs
	check 0 "$clusters" '' neardup -c docs
	check 0 "$unique" '' neardup -u docs
	# file operands in their order, a directory walked
	check 0 'docs/a2.txt\tdocs/a.txt\t0.8765\n' '' neardup docs/a2.txt docs/c.txt docs/a.txt
}

@test "neardup: thresholds and weights: -t, -d, -m, -k, -n" {
	check 0 'docs/b.txt\tdocs/b2.txt\t1.0000\n' '' neardup -t 0.9 docs
	check 0 "$pairs" '' neardup -t 0.8765 docs
	check 0 '' '' neardup -t 1 docs/a.txt docs/a2.txt
	# the short pages pair only below the minimum size
	check 0 "${pairs}docs/s.txt\tdocs/s2.txt\t1.0000\n" '' neardup -m 0 docs
	check 0 "${pairs}docs/s.txt\tdocs/s2.txt\t1.0000\n" '' neardup -m 1 docs
	check 0 '' '' neardup -m 77 docs
	check 0 "$pairs" '' neardup -m 76 docs
	# words: 78 distinct in a and a2 together, 76 shared
	check 0 'docs/a.txt\tdocs/a2.txt\t0.9744\ndocs/b.txt\tdocs/b2.txt\t1.0000\n' '' neardup -k 1 docs
	# 16-hash sketches estimate the 0.8765 (b2 and s2, copies, count once)
	check 0 'docs/a.txt\tdocs/a2.txt\t0.8734\ndocs/b.txt\tdocs/b2.txt\t1.0000\n' '' neardup -n 16 docs
}

@test "neardup: a template four pages share counts less (-d)" {
	boilerplate
	# plain Jaccard 26/86; with rarity 2 the 26 shingles in 4 pages weigh 1/2
	local all='site/p1.txt\tsite/p2.txt\t0.3023\nsite/p1.txt\tsite/p3.txt\t0.3023\nsite/p1.txt\tsite/p4.txt\t0.3023\nsite/p2.txt\tsite/p3.txt\t0.3023\nsite/p2.txt\tsite/p4.txt\t0.3023\nsite/p3.txt\tsite/p4.txt\t0.3023\n'
	check 0 '' '' neardup site
	check 0 '' '' neardup -d 3 site
	check 0 "$all" '' neardup -d 0 site
	check 0 "$all" '' neardup -d 4 site
	check 0 'site/p1.txt\tsite/p1.txt\nsite/p2.txt\tsite/p1.txt\nsite/p3.txt\tsite/p1.txt\nsite/p4.txt\tsite/p1.txt\n' '' \
		neardup -d 0 -c site
}

@test "neardup: lists of paths (-l, -0) and JSON Lines (-j)" {
	find docs -type f | sort >list
	check 0 "$pairs" '' neardup -l <list
	tr '\n' '\0' <list >list0
	check 0 "$unique" '' neardup -0 -u <list0
	awk '{ printf "{\"id\":\"%s\",\"text\":\"%s\"}\n", FILENAME, $0 }' docs/a.txt docs/c.txt docs/a2.txt >d.jsonl
	check 0 'docs/a.txt\tdocs/a2.txt\t0.8765\n' '' neardup -j d.jsonl
	check 0 'docs/a.txt\tdocs/a2.txt\t0.8765\n' '' neardup -j <d.jsonl
}

@test "neardup: HTML text: main content, all text, raw (-e)" {
	mkdir h
	{
		printf '<html><head><title>T</title></head><body><nav>menu one two three four five six</nav><main><p>'
		cat docs/a.txt
		printf '</p></main></body></html>\n'
	} >h/a.html
	cp docs/a.txt h/a.txt
	check 0 'h/a.html\th/a.txt\t1.0000\n' '' neardup h
	check 0 'h/a.html\th/a.txt\t1.0000\n' '' neardup -e main h
	check 0 'h/a.html\th/a.txt\t0.9157\n' '' neardup -e all h
	check 0 'h/a.html\th/a.txt\t0.7755\n' '' neardup -e raw h
}

@test "neardup: CRLF documents are the same text" {
	mkdir crlf
	sed 's/$/\r/' docs/a.txt >crlf/a.txt
	cp docs/a.txt crlf/b.txt
	check 0 'crlf/a.txt\tcrlf/b.txt\t1.0000\n' '' neardup crlf
}

@test "neardup: IDs with TAB and backslash travel escaped" {
	mkdir e
	cp docs/a.txt "e/x	y.txt"
	cp docs/a.txt 'e/x\y.txt'
	check 0 'e/x\\ty.txt\te/x\\\\y.txt\t1.0000\n' '' neardup e
	check 0 'e/x\\ty.txt\te/x\\ty.txt\ne/x\\\\y.txt\te/x\\ty.txt\n' '' neardup -c e
}

@test "neardup -v: the settings and the stage timings on stderr" {
	run --separate-stderr neardup -v docs
	[ "$status" -eq 0 ]
	[ "${#stderr_lines[@]}" -eq 3 ]
	[ "${stderr_lines[0]}" = "neardup: extract main, shingles of 5 words, sketches of 128 hashes, minimum 10 shingles, rarity 2, threshold 0.25, output pairs" ]
	[[ ${stderr_lines[1]} =~ ^neardup:\ sketched\ 7\ documents\ in\ [0-9.]+\ s\ \([0-9]+/s\)$ ]]
	[[ ${stderr_lines[2]} =~ ^neardup:\ joined\ in\ [0-9.]+\ s$ ]]
	run --separate-stderr neardup -v -u -e raw -k 3 -n 64 -m 5 -d 0 -t 0.5 -o st docs
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "neardup: extract raw, shingles of 3 words, sketches of 64 hashes, minimum 5 shingles, rarity 0, threshold 0.5, output unique, state st (-o)" ]
	run --separate-stderr neardup -v -q st docs/a.txt
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "neardup: extract raw, shingles of 3 words, sketches of 64 hashes, minimum 10 shingles, rarity 2, threshold 0.25, output pairs, state st (-q)" ]
}

@test "neardup -v on a terminal: the sketching's progress" {
	command -v script >/dev/null 2>&1 || skip "no script(1)"
	run script -qec 'neardup -v docs 2>&1 >/dev/null' /dev/null
	[ "$status" -eq 0 ]
	# the documents of all parts, of the total, then the join's progress
	# (issue 18.7)
	[[ $output == *$'\rneardup: 7 of 7 documents, '[0-9]*/s' '*$'\r\n'neardup:\ sketched\ 7\ documents* ]]
	[[ $output == *$'\rsimjoin: pairing 0 of 7 documents, 0%'*$'\rsimjoin: paired 7 documents '*$'\r\n'neardup:\ joined\ in* ]]
	# a binary file is no document of the total: named, left out
	head -c 3000 /bin/cp >docs/z.bin
	run script -qec 'neardup -v docs 2>&1 >/dev/null' /dev/null
	[ "$status" -eq 0 ]
	[[ $output == *$'docsplit: docs/z.bin: binary, skipped\r\n'* ]]
	[[ $output == *$'\rneardup: 7 of 7 documents, '[0-9]*/s' '*$'\r\n'neardup:\ sketched\ 7\ documents* ]]
}

@test "neardup -o, -q: a kept state answers new documents" {
	check 0 "$pairs" '' neardup -o st docs
	check 0 "$params" '' grep -v '^index [1-9][0-9]*$' st/current/params
	check 0 'st\n' '' sh -c 'ls -d st*'
	check 0 'current\nlock\nv.1\n' '' ls -A st
	docsplit -f docs | htmltext | sketch >want
	ndstate -d st | cmp - want
	mkdir new
	gendoc 5 80 >new/d.txt
	cp docs/c.txt new/c.txt
	cp new/d.txt new/d2.txt
	# a query against the kept documents and the earlier queries
	check 0 'new/c.txt\tdocs/c.txt\t1.0000\nnew/d2.txt\tnew/d.txt\t1.0000\n' '' neardup -q st new
	# the new ones: no kept document and no earlier query like them
	check 0 'new/d.txt\n' '' neardup -u -q st new
	# the kept parameters are taken
	check 0 'new/c.txt\tdocs/c.txt\t1.0000\nnew/d2.txt\tnew/d.txt\t1.0000\n' '' neardup -k 5 -n 128 -e main -q st new
	# the state is not changed by queries
	ndstate -d st | cmp - want
	# -o again replaces it
	check 0 'docs/a.txt\tdocs/a2.txt\t0.8765\n' '' neardup -o st docs/a.txt docs/a2.txt
	check 0 '2\n' '' sh -c 'ndstate -d st | awk "END { print NR }"'
	check 0 'st\n' '' sh -c 'ls -d st*'
	check 0 'current\nlock\nv.2\n' '' ls -A st
	# a trailing slash names the same state
	check 0 "$pairs" '' neardup -o st/ docs
	check 0 "$pairs" '' neardup -o st// docs
	check 0 'st\n' '' sh -c 'ls -d st*'
	# a query replaces the kept document of its ID: no pair with itself
	check 0 '' '' neardup -q st/ docs/c.txt
	check 0 'docs/c.txt\n' '' neardup -u -q st/ docs/c.txt
}

@test "neardup -a: documents added to a kept state" {
	neardup -o st docs/a.txt docs/b.txt >/dev/null
	ndstate -d st >before
	check 0 'docs/a2.txt\tdocs/a.txt\t0.8765\n' '' neardup -a st docs/a2.txt docs/c.txt
	docsplit -f docs/a2.txt docs/c.txt | sketch >added
	cat before added >want
	ndstate -d st | cmp - want
	check 0 'current\nlock\nv.2\n' '' ls -A st
	# the added documents are kept now: c is no longer new
	gendoc 5 80 >d.txt
	# c replaces the kept c: it is new unless like another one
	check 0 'docs/c.txt\nd.txt\n' '' neardup -u -q st docs/c.txt d.txt
	check 0 'docs/c.txt\nd.txt\n' '' neardup -u -a st docs/c.txt d.txt
	check 0 '5\n' '' sh -c 'ndstate -d st | awk "END { print NR }"'
}

@test "neardup -a: a state that cannot be written is left as it was" {
	needasuser
	# relative: the user of asuser cannot walk the path to here
	mkdir tmp
	chmod 777 tmp
	export TMPDIR=tmp
	neardup -o st docs/a.txt >/dev/null
	ndstate -d st >before
	chmod 555 st
	run --separate-stderr asuser neardup -a st docs/b.txt
	chmod 755 st
	[ "$status" -eq 1 ]
	[ "${stderr_lines[-1]}" = "ndstate: st/lock: Permission denied" ]
	ndstate -d st | cmp - before
	check 0 'current\nlock\nv.1\n' '' ls -A st
	check 0 '' '' ls -A tmp
}

@test "neardup: a state of another version, other parameters, or not a state" {
	neardup -o st docs >/dev/null
	check 1 '' 'neardup: st: made with words 5, not 4\n' neardup -k 4 -q st docs/a.txt
	check 1 '' 'neardup: st: made with size 128, not 64\n' neardup -n 64 -a st docs/a.txt
	check 1 '' 'neardup: st: made with extract main, not raw\n' neardup -e raw -q st docs/a.txt
	mkdir v3
	printf 'neardup-state\n4\nwords 5\nsize 128\nextract main\n' >v3/params
	: >v3/sketches
	check 1 '' 'ndstate: v3: state version 4, this neardup reads versions 1 to 3\n' neardup -q v3 docs/a.txt
	mkdir bad
	printf 'neardup-state\n1\nwords five\nsize 128\nextract main\n' >bad/params
	: >bad/sketches
	check 1 '' 'ndstate: bad/params: bad parameters\n' neardup -q bad docs/a.txt
	mkdir other
	printf 'something else\n' >other/params
	: >other/sketches
	check 1 '' 'ndstate: other/params: not a neardup state\n' neardup -q other docs/a.txt
	check 1 '' 'ndstate: other: not a neardup state: not replaced\n' neardup -o other docs
	mkdir full
	: >full/x
	check 1 '' 'ndstate: full: a directory that is not a neardup state: not replaced\n' neardup -o full docs
	mkdir nostate
	check 1 '' 'ndstate: nostate: not a neardup state (no params or sketches)\n' neardup -q nostate docs/a.txt
	check 1 '' 'ndstate: nope: no such state directory\n' neardup -q nope docs/a.txt
	: >file
	check 1 '' 'ndstate: file: not a directory\n' neardup -q file docs/a.txt
	check 1 '' 'ndstate: file: exists and is not a directory\n' neardup -o file docs
	check 0 '' '' cat file
	# nothing was left in those directories
	check 0 'params\nsketches\n' '' ls -A other
	check 0 'x\n' '' ls -A full
	check 0 '' '' ls -A nostate
	# an empty directory may become a state
	mkdir empty
	check 0 "$pairs" '' neardup -o empty docs
	check 0 "$params" '' grep -v '^index [1-9][0-9]*$' empty/current/params
}

# ---- Hardening: bad input, output faults, atomic state ----
load faults

@test "neardup: unreadable and missing files" {
	# the others are read: pairs, then the exit status says one was not
	check 1 "$pairs" 'docsplit: nope: No such file or directory\n' neardup docs nope
	needasuser
	chmod 000 docs/c.txt
	run --separate-stderr asuser neardup docs
	[ "$status" -eq 1 ]
	[ "$output" = "$(printf "$pairs")" ]
	[ "$stderr" = "docsplit: docs/c.txt: Permission denied" ]
}

@test "neardup: a file named twice is read once, and said so" {
	# not a duplicate ID in the join, named by temporary files
	local n
	printf 'docs/a.txt\ndocs\n' >list
	for n in 1 2; do
		parts "$n"
		check 1 "$pairs" 'docsplit: docs/a.txt: named again: read once\n' \
			env PATH="$PWD/fakes:$PATH" neardup docs/a.txt docs
		check 1 "$pairs" 'docsplit: docs/a.txt: named again: read once\n' \
			env PATH="$PWD/fakes:$PATH" neardup -l <list
		rm -rf st
		check 1 "$pairs" 'docsplit: docs/a.txt: named again: read once\n' \
			env PATH="$PWD/fakes:$PATH" neardup -o st docs/a.txt docs
		kept st >k
		check 0 'docs/a.txt\ndocs/a2.txt\ndocs/b.txt\ndocs/b2.txt\ndocs/c.txt\ndocs/s.txt\ndocs/s2.txt\n' '' cut -f1 k
	done
	check 1 "$pairs" 'docsplit: docs/a.txt: named again: read once\n' neardup -P 2 docs/a.txt docs
}

@test "neardup: standard output closed is said at once; standard input closed is /dev/null unless read" {
	neardup docs >want
	check 1 '' 'neardup: <stdout>: Bad file descriptor\n' sh -c 'neardup docs >&-'
	check 1 '' 'neardup: <stdout>: Bad file descriptor\n' sh -c 'neardup -o st docs >&-'
	[ ! -e st ]
	cmpout 0 want /dev/null sh -c 'neardup docs <&-'
	check 1 '' 'neardup: <stdin>: Bad file descriptor\n' sh -c 'neardup -l <&-'
	check 1 '' 'neardup: <stdin>: Bad file descriptor\n' sh -c 'neardup docs - <&-'
	# a state's writer, its lock opened by ndstate: not on descriptor 0
	cmpout 0 want /dev/null sh -c 'neardup -o st docs <&-'
	check 0 'current\nlock\nv.1\n' '' ls -A st
}

@test "neardup: too few descriptors (ulimit -n) is said, never waited on" {
	local n said=
	neardup docs >want
	for n in 11 12 13 14 15 16 17 18 19 20 22 24; do
		run sh -c "ulimit -n $n && exec timeout 20 neardup docs 2>&1"
		case $status in
		0)
			[ "$output" = "$(cat want)" ] ;;
		1)
			[ "$output" = "neardup: too few file descriptors (ulimit -n)" ]
			said=1 ;;
		2)
			# so few that the shell cannot open the script or
			# pipeline.sh: the shell's own failure
			;;
		*)
			echo "ulimit -n $n: status $status: $output"
			false ;;
		esac
	done
	[ -n "$said" ]
	[ "$status" -eq 0 ]
}

@test "neardup: an empty collection has no pairs" {
	mkdir empty
	check 0 '' '' neardup empty
	check 0 '' '' neardup -u empty
	check 0 '' '' neardup -j </dev/null
	check 0 '' '' neardup -o st empty
	check 0 '' '' ndstate -d st
	check 0 '' '' neardup -q st docs/a.txt
	check 0 'docs/a.txt\n' '' neardup -u -q st docs/a.txt
}

@test "neardup: write error" {
	check 1 '' 'simjoin: <stdout>: write error: No space left on device\n' sh -c 'exec neardup docs >/dev/full'
	check 1 '' 'simjoin: <stdout>: write error: No space left on device\n' sh -c 'exec neardup -u docs >/dev/full'
}

@test "neardup: a failing run leaves the state as it was, and no temporary file" {
	mkdir tmp
	export TMPDIR=$PWD/tmp
	neardup -o st docs/a.txt docs/b.txt >/dev/null
	cp -R st saved
	check 1 '' 'simjoin: <stdout>: write error: No space left on device\n' sh -c 'exec neardup -o st docs >/dev/full'
	diff -r st saved
	check 1 '' 'simjoin: <stdout>: write error: No space left on device\n' sh -c 'exec neardup -a st docs/a2.txt >/dev/full'
	diff -r st saved
	# a stage that fails without a word of its own is named
	mkdir fake
	printf '#!/bin/sh\ncat >/dev/null\nexit 3\n' >fake/htmltext
	chmod +x fake/htmltext
	check 1 '' 'neardup: stage text failed (status 3)\n' env PATH="$PWD/fake:$PATH" neardup -o st docs
	diff -r st saved
	check 0 'saved\nst\n' '' sh -c 'ls -A | grep -e "^st" -e "^saved"'
	check 0 'current\nlock\nv.1\n' '' ls -A st
	check 0 '' '' ls -A tmp
}

@test "neardup -p: page files, as docsplit reads them" {
	local d
	for d in a a2 b b2 c s s2; do
		printf 'docs/%s.txt\n' "$d"
		cat "docs/$d.txt"
		printf '\f'
	done >pages.txt
	check 0 "$pairs" '' neardup -p pages.txt
	check 0 "$pairs" '' sh -c 'neardup -p <pages.txt'
}

# parts N: neardup runs N parts (NEARDUP_PARTS).
parts() {
	export NEARDUP_PARTS=$1
}

@test "neardup -p, -j, -l, -0: read once, dealt out to parts, the output of one part (issue 22.4)" {
	local n d real
	for d in a a2 b b2 c s s2; do
		printf 'docs/%s.txt\n' "$d"
		cat "docs/$d.txt"
		printf '\f'
	done >pages.txt
	# a bad line and a duplicate ID, which the merge of the parts names
	{
		awk '{ printf "{\"id\":\"%s\",\"text\":\"%s\"}\n", FILENAME, $0 }' docs/a.txt docs/c.txt
		echo '{bad'
		awk '{ printf "{\"id\":\"%s\",\"text\":\"%s\"}\n", FILENAME, $0 }' docs/b.txt docs/a2.txt docs/c.txt docs/b2.txt
	} >d.jsonl
	find docs -type f | sort >list
	tr '\n' '\0' <list >list0
	real=$(command -v sketch)
	mkdir fakes
	printf '#!/bin/sh\necho >>"%s/calls"\nexec "%s" "$@"\n' "$PWD" "$real" >fakes/sketch
	chmod +x fakes/sketch
	for n in 1 2 3 4; do
		parts "$n"
		: >calls
		check 0 "$pairs" '' env PATH="$PWD/fakes:$PATH" neardup -p pages.txt
		check 0 "$unique" '' env PATH="$PWD/fakes:$PATH" neardup -u -p pages.txt
		check 0 "$clusters" '' env PATH="$PWD/fakes:$PATH" sh -c 'neardup -c -p <pages.txt'
		check 1 'docs/a.txt\tdocs/a2.txt\t0.8765\ndocs/b.txt\tdocs/b2.txt\t1.0000\n' \
			'docsplit: d.jsonl:3: invalid JSON at byte 2: expected a member name\nneardup: docs/c.txt: a duplicate ID: the first is kept\n' \
			env PATH="$PWD/fakes:$PATH" neardup -j d.jsonl
		check 1 'docs/a.txt\ndocs/c.txt\ndocs/b.txt\n' \
			'docsplit: <stdin>:3: invalid JSON at byte 2: expected a member name\nneardup: docs/c.txt: a duplicate ID: the first is kept\n' \
			env PATH="$PWD/fakes:$PATH" sh -c 'neardup -u -j <d.jsonl'
		check 0 "$pairs" '' env PATH="$PWD/fakes:$PATH" neardup -l <list
		check 0 "$unique" '' env PATH="$PWD/fakes:$PATH" neardup -0 -u <list0
		rm -rf st
		check 0 "$pairs" '' env PATH="$PWD/fakes:$PATH" neardup -p -o st pages.txt
		kept st >"kept.$n"
		cmp kept.1 "kept.$n"
		# a sketch a part, for every kind of input
		[ "$(wc -l <calls)" -eq $((8 * n)) ]
	done
	check 0 'docs/a.txt\ndocs/a2.txt\ndocs/b.txt\ndocs/b2.txt\ndocs/c.txt\ndocs/s.txt\ndocs/s2.txt\n' '' cut -f1 kept.1
}

@test "neardup: NEARDUP_PARTS must be a number from 1 to 64, said before the work" {
	local p
	for p in 0 65 x '' -1; do
		run -2 --separate-stderr env NEARDUP_PARTS="$p" neardup -o st docs
		[ "$output" = "" ]
		[ "${stderr_lines[0]#neardup: NEARDUP_PARTS }" != "${stderr_lines[0]}" ]
	done
	check 2 '' "neardup: NEARDUP_PARTS '65' is out of range (allowed: 1 to 64)\n" \
		env NEARDUP_PARTS=65 neardup -o st docs
	[ ! -e st ]
	check 0 "$pairs" '' env NEARDUP_PARTS=064 neardup docs
}

@test "neardup: no more parts, nor simjoin processes, than the processors it may run on" {
	local real
	command -v taskset >/dev/null || skip "no taskset"
	[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "one processor: one part either way"
	real=$(command -v sketch)
	mkdir fakes
	printf '#!/bin/sh\necho >>"%s/calls"\nexec "%s" "$@"\n' "$PWD" "$real" >fakes/sketch
	real=$(command -v simjoin)
	printf '#!/bin/sh\necho "$*" | grep -o -- "-j [0-9]*" >>"%s/procs"\nexec "%s" "$@"\n' "$PWD" "$real" >fakes/simjoin
	chmod +x fakes/sketch fakes/simjoin
	: >calls
	check 0 "$pairs" '' taskset -c 0 env PATH="$PWD/fakes:$PATH" neardup docs
	check 0 '\n' '' cat calls
	check 0 '-j 1\n' '' cat procs
}

# ---- The state's guarantees (issue 17) ----

# kept STATE: the sketches a state keeps, in either version's layout.
kept() {
	if [ -e "$1/current" ]; then
		ndstate -d "$1"
	else
		cat "$1/sketches"
	fi
}

# fake STAGE SCRIPT: a stand-in for a stage, first on PATH (fakes/).
fake() {
	mkdir -p fakes
	printf '#!/bin/sh\n%s\n' "$2" >"fakes/$1"
	chmod +x "fakes/$1"
}

@test "neardup -j: an ID of 80 MB is said and skipped in linear time; the others paired" {
	t=$(gendoc 21 80)
	{
		printf '{"id":"'
		head -c 80000000 /dev/zero | tr '\0' x
		printf '","text":"%s"}\n{"id":"b","text":"%s"}\n{"id":"c","text":"%s"}\n' "$t" "$t" "$t"
	} >big.jsonl
	# (before the bound on IDs, awk's merge of the parts took minutes)
	check 1 'b\tc\t1.0000\n' 'docsplit: big.jsonl:1: an ID of 80000000 bytes (more than 1048576): skipped\n' \
		timeout 30 neardup -j big.jsonl
}

@test "neardup: a message pipe that cannot be opened is an I/O error, status 1" {
	mkdir tmp
	export TMPDIR=$PWD/tmp
	neardup -o st docs/a.txt >/dev/null
	cp -R st saved
	# the FIFO of the stages' messages made a directory: the shell
	# cannot open it (and awk cannot read it)
	fake mkfifo 'for f; do
	case $f in */errors) mkdir "$f" ;; *) '"$(command -v mkfifo)"' "$f" || exit ;; esac
done'
	run --separate-stderr env PATH="$PWD/fakes:$PATH" neardup -o st docs
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	# neardup's own line, last (awk's complaint may come before it);
	# the temporary files of -o are in the state's directory
	case ${stderr_lines[${#stderr_lines[@]} - 1]} in
	"neardup: st/tmp."*"/errors: cannot open") ;;
	*) false ;;
	esac
	diff -r st saved
	check 0 '' '' ls -A tmp
}

@test "neardup -a: two runs at once: refused or waiting (-w), no batch lost (issue 17.1)" {
	mkdir b1 b2
	gendoc 11 80 >b1/x.txt
	gendoc 12 80 >b2/y.txt
	neardup -o st0 docs >/dev/null
	kept st0 >base
	docsplit -f b1 | sketch >s1
	docsplit -f b2 | sketch >s2
	cat base s1 s2 >want12
	cat base s2 s1 >want21
	cat base s1 >want1
	cat base s2 >want2
	local n i w p1 p2 st1 st2 busy='^ndstate: st: in use by another run \(process [0-9]+\)$'
	n=$(loops 40)
	# every other round waits for the lock
	for ((i = 0; i < n; i++)); do
		w=
		((i % 2 == 0)) || w=-w
		{
			rm -rf st
			cp -R st0 st
			neardup $w -a st b1 >out1 2>err1 3>&- &
			p1=$!
			neardup $w -a st b2 >out2 2>err2 3>&- &
			p2=$!
			st1=0 st2=0
			wait "$p1" || st1=$?
			wait "$p2" || st2=$?
			kept st >got
			if [ "$st1" -eq 0 ] && [ "$st2" -eq 0 ]; then
				cmp -s got want12 || cmp got want21
			elif [ -z "$w" ] && [ "$st1" -eq 1 ] && [ "$st2" -eq 0 ]; then
				[[ $(cat err1) =~ $busy ]]
				cmp got want2
			elif [ -z "$w" ] && [ "$st1" -eq 0 ] && [ "$st2" -eq 1 ]; then
				[[ $(cat err2) =~ $busy ]]
				cmp got want1
			else
				echo "round $i ($w): statuses $st1 $st2" >&2
				cat err1 err2 >&2
				false
			fi
		}
	done
}

@test "neardup -a: refused at once while another run holds the state, or waits (-w)" {
	neardup -o st docs/a.txt >/dev/null
	fake htmltext 'echo $$ >>"$PWD/started"; exec sleep 3'
	PATH="$PWD/fakes:$PATH" neardup -a st docs/b.txt >/dev/null 2>&1 3>&- &
	local pid=$! i
	for i in $(seq 100); do
		[ -s started ] && break
		sleep 0.1
	done
	run --separate-stderr neardup -a st docs/c.txt
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[[ $stderr =~ ^ndstate:\ st:\ in\ use\ by\ another\ run\ \(process\ [0-9]+\)$ ]]
	check 0 '' '' neardup -w -a st docs/c.txt
	wait "$pid"
	check 0 'docs/a.txt\ndocs/c.txt\n' '' sh -c 'ndstate -d st | cut -f1'
}

@test "neardup -o: two runs at once leave one whole state, never one inside the other (issue 17.2)" {
	docsplit -f docs/a.txt | htmltext | sketch >sa
	docsplit -f docs/b.txt | htmltext | sketch >sb
	neardup -o st0 docs/c.txt >/dev/null
	local n i w p1 p2 st1 st2
	n=$(loops 40)
	# every other round waits for the lock
	for ((i = 0; i < n; i++)); do
		w=
		((i % 2 == 0)) || w=-w
		{
			rm -rf st
			cp -R st0 st
			neardup $w -o st docs/a.txt >/dev/null 2>err1 3>&- &
			p1=$!
			neardup $w -o st docs/b.txt >/dev/null 2>err2 3>&- &
			p2=$!
			st1=0 st2=0
			wait "$p1" || st1=$?
			wait "$p2" || st2=$?
			[ "$st1" -eq 0 ] || [ -z "$w" ]
			[ "$st2" -eq 0 ] || [ -z "$w" ]
			[ "$st1" -eq 0 ] || [ "$st2" -eq 0 ]
			kept st >got
			if [ "$st1" -ne 0 ]; then
				cmp got sb
			elif [ "$st2" -ne 0 ]; then
				cmp got sa
			else
				cmp -s got sa || cmp got sb
			fi
			check 0 'st\nst0\n' '' sh -c 'ls -d st*'
			run sh -c 'ls -A st | grep -e new -e old -e tmp'
			[ "$output" = "" ]
		}
	done
}

@test "neardup -o, -a: a SIGKILL at any moment leaves the old state or the new one; readers never fail (issue 17.3, 17.4)" {
	mkdir tmp b q
	export TMPDIR=$PWD/tmp
	gendoc 11 80 >b/x.txt
	cp docs/c.txt q/c.txt
	neardup -o st docs >/dev/null
	kept st >wantA
	cp -R st stB
	neardup -a stB b >/dev/null
	kept stB >wantB
	rm -rf stB
	# a reader, all along
	(
		while [ ! -e stop ] && [ "$SECONDS" -lt 300 ]; do
			neardup -q st q >rout 2>rerr || { cat rerr >failed; break; }
			[ "$(cat rout)" = "$(printf 'q/c.txt\tdocs/c.txt\t1.0000')" ] || { cat rout rerr >failed; break; }
			sleep 0.02
		done
	) 3>&- &
	local reader=$! n i pid
	n=$(loops 200)
	for ((i = 0; i < n; i++)); do
		if ((i % 2)); then
			setsid neardup -o st docs >/dev/null 2>&1 3>&- &
		else
			setsid neardup -a st b >/dev/null 2>&1 3>&- &
		fi
		pid=$!
		sleep "0.$(printf '%03d' $((RANDOM % 90)))"
		# the whole run, or only neardup, its stages left running
		if ((i % 4 < 2)); then
			kill -KILL -- "-$pid" 2>/dev/null || :
		else
			kill -KILL "$pid" 2>/dev/null || :
		fi
		wait "$pid" || :
		kept st >got
		cmp -s got wantA || cmp got wantB
	done
	touch stop
	wait "$reader"
	[ ! -e failed ] || { cat failed >&2; false; }
	# a writer whose ndstate was killed stopped, every stage with it
	sleep 0.5
	check 0 '' '' ourprocs neardup
	# the next run removes what the killed ones left
	check 0 "$pairs" '' neardup -o st docs
	check 0 'current\nlock\n' '' sh -c 'ls -A st | grep -v "^v\.[0-9]*$"'
	check 0 '1\n' '' sh -c 'ls -A st | grep -c "^v\."'
	rm -f rout rerr
	check 0 '' '' ls -A tmp
}

@test "neardup: what a killed run left in TMPDIR is removed by a later run (issue 17.4)" {
	mkdir tmp tmp/neardup.999999999.abcdef tmp/neardup.$$.abcdef tmp/other.1.x
	sleep 60 3>&- &
	local live=$!
	mkdir "tmp/neardup.$live.abcdef"
	check 0 "$pairs" '' env TMPDIR="$PWD/tmp" neardup docs
	kill "$live"
	# of a process gone: removed; of a live one, and not ours: kept
	check 0 "neardup.$$.abcdef\nneardup.$live.abcdef\nother.1.x\n" '' sh -c 'ls -A tmp | sort'
	# by a state's writer and reader too (a killed -P writer's work is there)
	mkdir tmp/neardup.999999999.0
	check 0 "$pairs" '' env TMPDIR="$PWD/tmp" neardup -o st docs
	check 0 "neardup.$$.abcdef\nother.1.x\n" '' sh -c 'ls -A tmp | sort'
	mkdir tmp/neardup.999999999.0
	env TMPDIR="$PWD/tmp" neardup -q st docs/a.txt >/dev/null
	check 0 "neardup.$$.abcdef\nother.1.x\n" '' sh -c 'ls -A tmp | sort'
}

@test "neardup -o: a state in a directory that cannot be written fails at once, clearly (issue 17.4, 22.5)" {
	check 1 '' 'ndstate: nodir/st: No such file or directory\n' neardup -o nodir/st docs
	[ ! -e nodir ]
	needasuser
	mkdir w
	chmod 777 w
	asuser neardup -o w/st docs >/dev/null
	chmod 555 w/st
	run --separate-stderr asuser neardup -o w/st docs/a.txt
	chmod 755 w/st
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "$stderr" = "ndstate: w/st: Permission denied" ]
	check 0 'docs/a2.txt\tdocs/a.txt\t0.8765\n' '' neardup -q w/st docs/a2.txt
	chmod 555 w
	run --separate-stderr asuser neardup -o w/new docs/a.txt
	chmod 777 w
	[ "$status" -eq 1 ]
	[ "$stderr" = "ndstate: w/new: Permission denied" ]
}

@test "neardup -o, -a, -q: a state whose directory is missing fails before a document is read (issue 22.5)" {
	local o
	# documents that never end (a pipe that is never written nor closed):
	# the run must not wait for them
	mkfifo never
	exec 7<>never
	for o in -o -a -q; do
		check 1 '' "ndstate: nodir/st: $([ "$o" = -o ] && echo 'No such file or directory' || echo 'no such state directory')\n" \
			timeout 20 neardup -j "$o" nodir/st <&7
	done
	exec 7<&-
	[ ! -e nodir ]
}

@test "neardup: a state that is a symbolic link is followed (issue 17.5)" {
	mkdir real new
	ln -s real st
	check 0 "$pairs" '' neardup -o st docs
	[ -L st ]
	check 0 'current\nlock\nv.1\n' '' ls -A real
	gendoc 5 80 >new/d.txt
	check 0 'new/d.txt\n' '' neardup -u -a st new
	[ -L st ]
	check 0 'current\nlock\nv.2\n' '' ls -A real
	check 0 'd.txt\tnew/d.txt\t1.0000\n' '' sh -c 'cp new/d.txt d.txt && neardup -q st d.txt'
}

@test "neardup: a version 1 state is read, and written as version 3" {
	mkdir v1
	printf 'neardup-state\n1\nwords 5\nsize 128\nextract main\n' >v1/params
	docsplit -f docs | htmltext | sketch >v1/sketches
	cp v1/sketches before
	check 0 'docs/c.txt\tdocs/c.txt\t1.0000\n' '' sh -c 'mkdir q && cp docs/c.txt q/ && cd q && ln -s ../v1 v1 && neardup -q v1 c.txt | sed "s|^c.txt|docs/c.txt|"'
	gendoc 5 80 >d.txt
	check 0 '' '' neardup -a v1 d.txt
	check 0 'current\nlock\nv.1\n' '' ls -A v1
	docsplit -f d.txt | sketch >added
	cat before added >want && ndstate -d v1 | cmp - want
	check 0 "$params" '' grep -v '^index [1-9][0-9]*$' v1/current/params
}

@test "neardup -a: adding a batch twice leaves the state and the answer as once (issue 17.6)" {
	neardup -o st docs/a.txt docs/b.txt >/dev/null
	check 0 'docs/a2.txt\tdocs/a.txt\t0.8765\n' '' neardup -a st docs/a2.txt docs/c.txt
	kept st >once
	check 0 'docs/a2.txt\tdocs/a.txt\t0.8765\n' '' neardup -a st docs/a2.txt docs/c.txt
	kept st | cmp - once
	# a document of a kept ID replaces it: a's text changed to c's
	printf '{"id":"docs/a.txt","text":"%s"}\n' "$(cat docs/c.txt)" >a.jsonl
	check 0 'docs/a.txt\tdocs/c.txt\t1.0000\n' '' neardup -j -q st a.jsonl
	# duplicate IDs in a batch: the first is kept
	{
		printf '{"id":"j","text":"%s"}\n' "$(cat docs/c.txt)"
		printf '{"id":"j","text":"%s"}\n' "$(gendoc 21 80)"
	} >dup.jsonl
	check 1 'j\tdocs/c.txt\t1.0000\n' 'neardup: j: a duplicate ID: the first is kept\n' neardup -j -a st dup.jsonl
	check 1 'j\tdocs/c.txt\t1.0000\n' 'neardup: j: a duplicate ID: the first is kept\n' neardup -j -a st dup.jsonl
	check 0 'docs/a.txt\ndocs/b.txt\ndocs/a2.txt\ndocs/c.txt\nj\n' '' sh -c 'ndstate -d st | cut -f1'
	check 1 '' 'neardup: j: a duplicate ID: the first is kept\n' neardup -j dup.jsonl
	check 1 '' 'neardup: j: a duplicate ID: the first is kept\n' neardup -j -o st2 dup.jsonl
	check 0 'j\n' '' sh -c 'ndstate -d st2 | cut -f1'
}

# interrupt SIGNAL STATUS [ARG ...]: stop neardup ARG ... with SIGNAL while
# its text stages run: it stops them all, leaves nothing, says nothing.
interrupt() {
	local sig=$1 want=$2 pid i st p

	shift 2
	mkdir -p tmp
	fake htmltext 'echo $$ >>"$PWD/started"; exec sleep 60'
	env --default-signal=INT PATH="$PWD/fakes:$PATH" TMPDIR="$PWD/tmp" \
		neardup "$@" >out 2>err 3>&- &
	pid=$!
	for i in $(seq 100); do
		[ -s started ] && break
		sleep 0.1
	done
	[ -s started ]
	sleep 0.3
	kill "-$sig" "$pid"
	st=0
	wait "$pid" || st=$?
	[ "$st" -eq "$want" ]
	# every stage was stopped, before neardup returned
	for p in $(cat started); do
		run kill -0 "$p"
		[ "$status" -ne 0 ]
	done
	sleep 0.3
	check 0 '' '' cat out err
	check 0 '' '' ls -A tmp
	rm -f started
}

@test "neardup: SIGINT and SIGTERM stop every process it started (issue 17.7)" {
	interrupt INT 130 docs
	interrupt TERM 143 docs
	neardup -o st docs/a.txt >/dev/null
	kept st >before
	interrupt INT 130 -o st docs
	interrupt TERM 143 -a st docs
	kept st | cmp - before
	check 0 'current\nlock\nv.1\n' '' ls -A st
}

@test "neardup: unreadable documents do not blank the run: the others are read and kept (issue 17.8)" {
	ln -s nowhere docs/dangling
	check 1 "$pairs" 'docsplit: docs/dangling: No such file or directory\n' neardup docs
	check 1 "$pairs" 'docsplit: docs/dangling: No such file or directory\n' neardup -o st docs
	rm docs/dangling
	docsplit -f docs | htmltext | sketch >want && ndstate -d st | cmp - want
	awk '{ printf "{\"id\":\"%s\",\"text\":\"%s\"}\n", FILENAME, $0 }' docs/a.txt docs/a2.txt >d.jsonl
	printf 'not json\n' >>d.jsonl
	check 1 'docs/a.txt\tdocs/a2.txt\t0.8765\n' 'docsplit: d.jsonl:3: invalid JSON at byte 1: not an object\n' neardup -j d.jsonl
	# a stage that fails otherwise still stops the run
	fake sketch 'cat >/dev/null; exit 3'
	check 1 '' 'neardup: stage sketch failed (status 3)\n' env PATH="$PWD/fakes:$PATH" neardup -o st docs
	docsplit -f docs | htmltext | sketch >want && ndstate -d st | cmp - want
}

@test "neardup: files are walked once and dealt out: each read once, each error said once (issue 17.9)" {
	local n i f
	mkdir many
	for i in $(seq 200); do
		echo "doc $i" >"many/f$i"
	done
	# a file that comes and goes while the runs walk
	(
		while [ ! -e stop ] && [ "$SECONDS" -lt 300 ]; do
			: >many/a0
			rm -f many/a0
			sleep 0.01
		done
	) 3>&- &
	local churn=$!
	n=$(loops 40)
	for ((i = 0; i < n; i++)); do
		neardup -c many 2>/dev/null | cut -f1 | grep -v '^many/a0$' | sort >got
		[ "$(wc -l <got)" -eq 200 ]
		[ "$(uniq <got | wc -l)" -eq 200 ]
	done
	touch stop
	wait "$churn"
	# an error once, whatever the parts
	mkdir d
	for f in 1 2 3 4 5 6 7 8; do
		ln -s nowhere "d/l$f"
	done
	check 1 '' 'docsplit: d/l1: No such file or directory\ndocsplit: d/l2: No such file or directory\ndocsplit: d/l3: No such file or directory\ndocsplit: d/l4: No such file or directory\ndocsplit: d/l5: No such file or directory\ndocsplit: d/l6: No such file or directory\ndocsplit: d/l7: No such file or directory\ndocsplit: d/l8: No such file or directory\n' neardup d
}

@test "neardup: a forged params is refused, never waited on (issue 17.11)" {
	mkdir f1 f2 f3 f4
	mkfifo f1/params
	: >f1/sketches
	check 1 '' 'ndstate: f1/params: not a regular file\n' timeout 10 neardup -q f1 docs/a.txt
	check 1 '' 'ndstate: f1: not a neardup state: not replaced\n' timeout 10 neardup -o f1 docs
	printf 'neardup-state\n1\nwords 99999999999\nsize 128\nextract main\n' >f2/params
	: >f2/sketches
	check 1 '' 'ndstate: f2/params: bad parameters\n' neardup -q f2 docs/a.txt
	printf 'neardup-state\n1\nwords 5\nsize 1000\nextract main\n' >f3/params
	: >f3/sketches
	check 1 '' 'ndstate: f3/params: bad parameters\n' neardup -a f3 docs/a.txt
	neardup -o f4 docs/a.txt >/dev/null
	rm f4/current/index
	mkfifo f4/current/index
	check 1 '' 'ndstate: f4/current/index: not a regular file\n' timeout 10 neardup -q f4 docs/a.txt
}

@test "neardup: a damaged index is named by its state's path, in -q and -a" {
	neardup -o st docs/a.txt docs/a2.txt >/dev/null
	len=$(wc -c <st/current/index)
	truncate -s 1000 st/current/index
	check 1 '' "simjoin: st/current/index: truncated index (1000 bytes, not $len)\n" \
		neardup -q st docs/a.txt
	check 1 '' "simjoin: st/current/index: truncated index (1000 bytes, not $len)\n" \
		neardup -a st docs/a.txt
}

@test "neardup: names that begin with - are names (issue 17.12)" {
	mkdir -- -d -t
	cp docs/a.txt docs/a2.txt ./-d/
	check 0 '-d/a.txt\t-d/a2.txt\t0.8765\n' '' neardup -- -d
	check 0 '-d/a.txt\t-d/a2.txt\t0.8765\n' '' neardup -o -st -- -d
	check 0 'current\nlock\nv.1\n' '' ls -A -- -st
	check 0 '-d/a.txt\t-d/a2.txt\t0.8765\n' '' neardup -q -st -- -d/a.txt
	check 0 '-d/a.txt\t-d/a2.txt\t0.8765\n' '' neardup -a -st -- -d/a.txt
	check 0 '-d/a.txt\t-d/a2.txt\t0.8765\n' '' env TMPDIR=-t neardup -- -d
	check 0 '' '' ls -A -- -t
}

@test "neardup: the environment does not change the result (issue 17.14)" {
	neardup -e raw -o st docs >/dev/null
	check 0 'docs/a2.txt\tdocs/a.txt\t0.8765\n' '' env extract_set=1 bad=1 held=1 tmp=/nonexistent neardup -q st docs/a2.txt
	check 0 "$pairs" '' env NDSTATE_PID=1 NDSTATE_WORK=/nonexistent NDSTATE_PARAMS='1 1 raw' neardup docs
}

@test "neardup: a full TMPDIR is reported once, by the stage that met it (issue 17.15)" {
	awk '{ printf "{\"id\":\"%s\",\"text\":\"%s\"}\n", FILENAME, $0 }' docs/a.txt docs/a2.txt >d.jsonl
	# (its messages through a pipe, which the file size limit spares)
	check 1 '' 'sketch: <stdout>: write error: File too large\n' \
		bash -c 'set -o pipefail; (ulimit -f 0; exec neardup -j d.jsonl) 2>&1 | cat >&2'
	neardup -o st docs/a.txt >/dev/null
	kept st >before
	check 1 '' 'sketch: <stdout>: write error: File too large\n' \
		bash -c 'set -o pipefail; (ulimit -f 0; exec neardup -j -a st d.jsonl) 2>&1 | cat >&2'
	kept st | cmp - before
	# said once, however many parts met it
	for n in 2 4; do
		parts "$n"
		check 1 '' 'sketch: <stdout>: write error: File too large\n' \
			env PATH="$PWD/fakes:$PATH" bash -c 'set -o pipefail; (ulimit -f 0; exec neardup -j d.jsonl) 2>&1 | cat >&2'
		check 1 '' 'sketch: <stdout>: write error: File too large\n' \
			env PATH="$PWD/fakes:$PATH" bash -c 'set -o pipefail; (ulimit -f 0; exec neardup -p <d.jsonl) 2>&1 | cat >&2'
	done
}

@test "neardup: binary files are not compared unless -b (issue 18.4)" {
	mkdir bin
	head -c 30000 /bin/cp >bin/cp1
	cp bin/cp1 bin/cp2
	printf 'x\0' >>bin/cp2
	cp docs/a.txt docs/a2.txt bin/
	check 0 'bin/a.txt\tbin/a2.txt\t0.8765\n' '' neardup bin
	# -v names and counts them
	run --separate-stderr neardup -v bin
	[ "$status" -eq 0 ]
	[ "${#stderr_lines[@]}" -eq 6 ]
	[ "${stderr_lines[1]}" = "docsplit: bin/cp1: binary, skipped" ]
	[ "${stderr_lines[2]}" = "docsplit: bin/cp2: binary, skipped" ]
	[ "${stderr_lines[3]}" = "docsplit: 2 binary files skipped, 0 WARC records skipped" ]
	check 0 'bin/a.txt\tbin/a2.txt\t0.7849\nbin/cp1\tbin/cp2\t1.0000\n' '' neardup -b bin
}

# A WARC record (WARC/1.1) of type response, target URI $1, HTML body $2.
warcresponse() {
	printf 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>%s</p>' "$2" >block
	printf 'WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n' "$1"
	printf 'Content-Type: application/http; msgtype=response\r\n'
	printf 'WARC-Record-ID: <urn:uuid:1>\r\nContent-Length: %d\r\n\r\n' "$(wc -c <block)"
	cat block
	printf '\r\n\r\n'
}

@test "neardup: a file of no document or of many keeps the order of one run (issue 22.4)" {
	# Records, not files, are dealt out to the parts: a binary file
	# skipped, first, once shifted every later document into another
	# part, and the pairs came out reversed, -u kept the later copy.
	local n
	mkdir ord crawl
	head -c 30000 /bin/cp >ord/a.bin
	cp docs/a.txt ord/b.txt
	cp docs/a2.txt ord/c.txt
	cp docs/b.txt ord/d.txt
	cp docs/b2.txt ord/e.txt
	printf 'ord/%s\n' a.bin b.txt c.txt d.txt e.txt >list
	# a WARC file of two documents, then a copy of its second
	{
		warcresponse http://one/ "$(cat docs/c.txt)"
		warcresponse http://two/ "$(cat docs/a.txt)"
	} >crawl/1.warc
	cp docs/a.txt crawl/2.txt
	for n in 1 2 3 4; do
		parts "$n"
		check 0 'ord/b.txt\tord/c.txt\t0.8765\nord/d.txt\tord/e.txt\t1.0000\n' '' \
			env PATH="$PWD/fakes:$PATH" neardup ord
		check 0 'ord/b.txt\nord/d.txt\n' '' env PATH="$PWD/fakes:$PATH" neardup -u ord
		check 0 'ord/b.txt\nord/d.txt\n' '' env PATH="$PWD/fakes:$PATH" neardup -u -l <list
		check 0 'http://two/\tcrawl/2.txt\t1.0000\n' '' env PATH="$PWD/fakes:$PATH" neardup crawl
		check 0 'http://one/\nhttp://two/\n' '' env PATH="$PWD/fakes:$PATH" neardup -u crawl
	done
	# in shards, whose walk lists only the files that give a document
	for n in 2 3 4; do
		check 0 'ord/b.txt\tord/c.txt\t0.8765\nord/d.txt\tord/e.txt\t1.0000\n' '' neardup -P "$n" ord
		check 0 'ord/b.txt\nord/d.txt\n' '' neardup -u -P "$n" -l <list
	done
}

@test "neardup: duplicate IDs said by the ID, 10 at most, whatever the parts" {
	# a crawl that fetched one URI 12 times (once said by the part file
	# and line of a temporary file, one line each)
	local n i want
	mkdir crawl
	for i in $(seq 12); do
		warcresponse http://a/ "$(cat docs/a.txt) $i"
	done >crawl/1.warc
	for i in $(seq 10); do
		want="${want-}simjoin: http://a/: a duplicate ID: the first is kept\n"
	done
	for n in 1 2 3 4; do
		parts "$n"
		check 1 'http://a/\n' "${want}simjoin: 11 duplicate IDs, the first 10 said\n" \
			env PATH="$PWD/fakes:$PATH" neardup -u crawl
		rm -rf st
		check 1 'http://a/\n' "$(printf "$want" | sed 's/^simjoin/neardup/')
neardup: 11 duplicate IDs, the first 10 said
" env PATH="$PWD/fakes:$PATH" neardup -u -o st crawl
	done
}

# rewrite N: docs/ with p.txt (400 words), its edit e.txt (words 10, 30,
# ... replaced: 5%), u1.txt to u3.txt unrelated, and N exact copies of p.
rewrite() {
	local i

	rm -rf docs
	mkdir docs
	gendoc 5 400 >docs/p.txt
	awk '{ for (i = 10; i <= NF; i += 20) $i = "edited" i; print }' docs/p.txt >docs/e.txt
	for i in 1 2 3; do
		gendoc $((20 + i)) 400 >docs/u$i.txt
	done
	for i in $(seq "$1"); do
		cp docs/p.txt "docs/p$i.txt"
	done
}

@test "neardup: exact copies count once: a pair's SIM does not depend on them (issue 18.1)" {
	local n

	for n in 0 5 30; do
		rewrite $n
		neardup docs >out$n
		check 0 'docs/e.txt\tdocs/p.txt\t0.6016\n' '' awk '$2 == "docs/p.txt"' out$n
		neardup -o st docs/p*.txt docs/u*.txt >/dev/null
		# the edit is paired with p and each copy, each at the same SIM
		neardup -q st docs/e.txt >q$n
		check 0 "$((n + 1)) 0.6016\n" '' awk '{ n++; s[$3] } END { for (x in s) print n, x }' q$n
	done
	# with 30 copies the edit is still paired with p: p is not kept too
	check 0 'docs/e.txt\ndocs/u1.txt\ndocs/u2.txt\ndocs/u3.txt\n' '' neardup -u docs
}

# chain: chain/a.txt to c.txt, 300 words each, b.txt the second half of a
# and the first of c: a~b and b~c, but a and c share no text.
chain() {
	mkdir chain
	gendoc 7 600 >words
	cut -d ' ' -f 1-300 words >chain/a.txt
	cut -d ' ' -f 151-450 words >chain/b.txt
	cut -d ' ' -f 301-600 words >chain/c.txt
}

@test "neardup -u: greedy in input order: a chain a~b~c keeps a and c, -c one cluster (issue 18.6)" {
	chain
	check 0 'chain/a.txt\tchain/b.txt\t0.3438\nchain/b.txt\tchain/c.txt\t0.3438\n' '' neardup chain
	check 0 'chain/a.txt\tchain/a.txt\nchain/b.txt\tchain/a.txt\nchain/c.txt\tchain/a.txt\n' '' neardup -c chain
	check 0 'chain/a.txt\nchain/c.txt\n' '' neardup -u chain
	# the join in shards keeps the same
	check 0 'chain/a.txt\nchain/c.txt\n' '' neardup -u -P 2 chain
	check 0 'chain/a.txt\tchain/a.txt\nchain/b.txt\tchain/a.txt\nchain/c.txt\tchain/a.txt\n' '' neardup -c -P 3 chain
	# a kept collection counts as kept
	neardup -o st chain/a.txt >/dev/null
	check 0 'chain/c.txt\n' '' neardup -u -q st chain/b.txt chain/c.txt
}

@test "neardup -z: fields ended by NUL, names as they are: a newline survives (issue 18.8)" {
	mkdir z
	cp docs/a.txt "z/a
b.txt"
	cp docs/a2.txt "z/c	d.txt"
	cp docs/c.txt 'z/e\f.txt'
	check 0 'z/a\\nb.txt\tz/c\\td.txt\t0.8765\n' '' neardup z
	check 0 'z/a\nb.txt\x00z/c\td.txt\x000.8765\x00' '' neardup -z z
	check 0 'z/a\nb.txt\x00z/a\nb.txt\x00z/c\td.txt\x00z/a\nb.txt\x00z/e\\f.txt\x00z/e\\f.txt\x00' '' neardup -z -c z
	check 0 'z/a\nb.txt\x00z/e\\f.txt\x00' '' neardup -z -u z
	neardup -o st z >/dev/null
	cp docs/b.txt "new
q.txt"
	check 0 'new\nq.txt\x00' '' neardup -z -u -q st docs/a2.txt "new
q.txt"
	# the names read back, as from find -print0: each file found
	check 0 "$(cat "z/a
b.txt" 'z/e\f.txt' | wc -l)\n" '' sh -c 'neardup -z -u z | xargs -0 cat | wc -l'
}

@test "neardup: a name with a line break in a message is one line, as the tools write it (issue 18.8)" {
	neardup -o 's
t' docs >/dev/null
	check 1 '' 'neardup: s\\nt: made with words 5, not 4\n' neardup -k 4 -q 's
t' docs
	check 1 '' 'ndstate: s\\nu: no such state directory\n' neardup -q 's
u' docs
	check 2 '' "neardup: threshold 'x\\\\ny' is invalid (allowed: a decimal fraction from 0 to 1, at most 15 decimals)\n" \
		neardup -t 'x
y' docs
	check 2 '' "neardup: extract 'a\\\\rb' is invalid (main, all or raw)\n" neardup -e $'a\rb' docs
}

@test "neardup: the reader of stdout goes away: quiet, status 141, no new state" {
	local i
	mkdir many
	# 400 copies of one text: 79,800 pairs, well over a pipe's 64 kB
	seq -s ' ' 1000 1200 >many/0.txt
	for ((i = 1; i < 400; i++)); do cp many/0.txt "many/$i.txt"; done
	env --default-signal=PIPE neardup many 2>err | head -c 1 >/dev/null
	[ "${PIPESTATUS[0]}" -eq 141 ]
	check 0 '' '' cat err
	env --default-signal=PIPE neardup -o st many 2>err | head -c 1 >/dev/null
	[ "${PIPESTATUS[0]}" -eq 141 ]
	check 0 '' '' cat err
	[ ! -e st/current ]
	# with SIGPIPE ignored, simjoin's write fails, which it says
	env --ignore-signal=PIPE neardup many 2>err | head -c 1 >/dev/null
	[ "${PIPESTATUS[0]}" -eq 1 ]
	check 0 'simjoin: <stdout>: write error: Broken pipe\n' '' cat err
}
