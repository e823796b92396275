#!/usr/bin/env bats
# neardup: near-duplicate pairs, clusters and unique documents of a
# collection; kept states, queries and additions.

load helper
load neardocs

u='usage: neardup [-cuvw] [-0 | -j | -l | -p] [-a state | -o state | -q state] [-d rarity] [-e extract] [-k words] [-m minsize] [-n size] [-t threshold] [file ...]\n'
pairs='docs/a.txt\tdocs/a2.txt\t0.8765\ndocs/b.txt\tdocs/b2.txt\t1.0000\n'
clusters='docs/a.txt\tdocs/a.txt\ndocs/a2.txt\tdocs/a.txt\ndocs/b.txt\tdocs/b.txt\ndocs/b2.txt\tdocs/b.txt\ndocs/c.txt\tdocs/c.txt\ndocs/s.txt\tdocs/s.txt\ndocs/s2.txt\tdocs/s2.txt\n'
unique='docs/a.txt\ndocs/b.txt\ndocs/c.txt\ndocs/s.txt\ndocs/s2.txt\n'
params='neardup-state\n2\nwords 5\nsize 128\nextract main\n'

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	neardocs
}

@test "neardup -h: usage on stdout" {
	check 0 "$u" '' neardup -h
}

@test "neardup: usage errors" {
	check 2 '' "$u" neardup
	check 2 '' "$u" neardup -l docs
	check 2 '' "$u" neardup -0 docs
	check 2 '' "$u" neardup -c -q st docs
	check 2 '' "$u" neardup -c -a st docs
	check 2 '' "$u" neardup -a st -o st docs
	check 2 '' "$u" neardup -q st -q st docs
	check 2 '' "neardup: words '0' is out of range (allowed: 1 to 16)\n" neardup -k 0 docs
	check 2 '' "neardup: words '17' is out of range (allowed: 1 to 16)\n" neardup -k 17 docs
	check 2 '' "neardup: size '257' is out of range (allowed: 1 to 256)\n" neardup -n 257 docs
	check 2 '' "neardup: size 'x' is invalid\n" neardup -n x docs
	check 2 '' "neardup: rarity '-1' is invalid\n" neardup -d -1 docs
	check 2 '' "neardup: minsize '1000000000' is out of range (allowed: 0 to 999999999)\n" neardup -m 1000000000 docs
	check 2 '' "neardup: extract 'bogus' is invalid (main, all or raw)\n" neardup -e bogus docs
	local t
	for t in 2 1.05 09 x . 0.5.1 ''; do
		check 2 '' "neardup: threshold '$t' is invalid (allowed: 0 to 1)\n" neardup -t "$t" docs
	done
	run -2 --separate-stderr neardup -x docs
	[ "$output" = "" ]
	[ "${stderr_lines[-1]}" = "${u%\\n}" ]
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
	# 16-hash sketches estimate the 0.8765
	check 0 'docs/a.txt\tdocs/a2.txt\t0.8739\ndocs/b.txt\tdocs/b2.txt\t1.0000\n' '' neardup -n 16 docs
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
	# (documents read in parts: the first part's count)
	[[ $output == *$'\rsketch: '[0-9]*' documents, '[0-9]*/s$'\r\n'neardup:\ sketched\ 7\ documents* ]]
}

@test "neardup -o, -q: a kept state answers new documents" {
	check 0 "$pairs" '' neardup -o st docs
	check 0 "$params" '' cat st/current/params
	check 0 'st\n' '' sh -c 'ls -d st*'
	check 0 'current\nlock\nv.1\n' '' ls -A st
	docsplit -f docs | htmltext | sketch >want
	cmp st/current/sketches want
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
	cmp st/current/sketches want
	# -o again replaces it
	check 0 'docs/a.txt\tdocs/a2.txt\t0.8765\n' '' neardup -o st docs/a.txt docs/a2.txt
	check 0 '2\n' '' awk 'END { print NR }' st/current/sketches
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
	cp st/current/sketches before
	check 0 'docs/a2.txt\tdocs/a.txt\t0.8765\n' '' neardup -a st docs/a2.txt docs/c.txt
	docsplit -f docs/a2.txt docs/c.txt | sketch >added
	cat before added >want
	cmp st/current/sketches want
	check 0 'current\nlock\nv.2\n' '' ls -A st
	# the added documents are kept now: c is no longer new
	gendoc 5 80 >d.txt
	# c replaces the kept c: it is new unless like another one
	check 0 'docs/c.txt\nd.txt\n' '' neardup -u -q st docs/c.txt d.txt
	check 0 'docs/c.txt\nd.txt\n' '' neardup -u -a st docs/c.txt d.txt
	check 0 '5\n' '' awk 'END { print NR }' st/current/sketches
}

@test "neardup -a: a state that cannot be written is left as it was" {
	needasuser
	# relative: the user of asuser cannot walk the path to here
	mkdir tmp
	chmod 777 tmp
	export TMPDIR=tmp
	neardup -o st docs/a.txt >/dev/null
	cp st/current/sketches before
	chmod 555 st
	run --separate-stderr asuser neardup -a st docs/b.txt
	chmod 755 st
	[ "$status" -eq 1 ]
	[ "${stderr_lines[-1]}" = "ndstate: st/lock: Permission denied" ]
	cmp st/current/sketches before
	check 0 'current\nlock\nv.1\n' '' ls -A st
	check 0 '' '' ls -A tmp
}

@test "neardup: a state of another version, other parameters, or not a state" {
	neardup -o st docs >/dev/null
	check 1 '' 'neardup: st: made with words 5, not 4\n' neardup -k 4 -q st docs/a.txt
	check 1 '' 'neardup: st: made with size 128, not 64\n' neardup -n 64 -a st docs/a.txt
	check 1 '' 'neardup: st: made with extract main, not raw\n' neardup -e raw -q st docs/a.txt
	mkdir v3
	printf 'neardup-state\n3\nwords 5\nsize 128\nextract main\n' >v3/params
	: >v3/sketches
	check 1 '' 'ndstate: v3: state version 3, this neardup reads versions 1 and 2\n' neardup -q v3 docs/a.txt
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
	check 0 "$params" '' cat empty/current/params
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

@test "neardup: an empty collection has no pairs" {
	mkdir empty
	check 0 '' '' neardup empty
	check 0 '' '' neardup -u empty
	check 0 '' '' neardup -j </dev/null
	check 0 '' '' neardup -o st empty
	check 0 '' '' cat st/current/sketches
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
