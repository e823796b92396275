#!/usr/bin/env bats
# neardup.mk: neardup as make rules over kept intermediates, rerunning only
# the stages after a changed parameter.

load helper

mkfile="$BATS_TEST_DIRNAME/../pipelines/neardup.mk"

# make with the rules; free of the flags of a make that runs the tests.
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -f "$mkfile" DOCS=docs OUT=w "$@"
}

# The first word of each command make runs (its echo, on stdout).
ran() {
	mk "$@" | awk '{ print $1 }'
}

# A small collection of HTML and text pages with near-duplicates.
docs() {
	gendocs -n 12 -q 0 -s 3 . >/dev/null
}

# Date the documents, then each stage after the ones it reads, in the
# past; ref comes last, so "find -newer ref" lists what the next make
# writes.
age() {
	find docs -exec touch -t 199901010000 {} +
	touch -t 200001010000 w/pages.rec w/*.param
	touch -t 200001010001 w/text.rec
	touch -t 200001010002 w/sketches
	touch -t 200001010003 w/pairs w/clusters w/unique
	touch -t 200001010004 ref
}

newer() {
	find w -newer ref -type f | LC_ALL=C sort
}

@test "neardup.mk: pairs, clusters and unique are neardup's" {
	docs
	run -0 mk -s
	[ "$output" = "" ]
	neardup docs >want
	[ -s want ]
	cmp w/pairs want
	neardup -c docs | cmp - w/clusters
	neardup -u docs | cmp - w/unique
	check 0 'extract main\n' '' cat w/extract.param
	check 0 'words 5 size 128\n' '' cat w/sketch.param
	check 0 'rarity 2 minsize 10 threshold 0.25\n' '' cat w/join.param
	[ -z "$(find w -name '*.tmp')" ]
}

@test "neardup.mk: other settings are neardup's too" {
	docs
	run -0 mk -s E=raw K=3 N=64 D=0 M=5 T=0.1
	neardup -e raw -k 3 -n 64 -d 0 -m 5 -t 0.1 docs | cmp - w/pairs
	neardup -c -e raw -k 3 -n 64 -d 0 -m 5 -t 0.1 docs | cmp - w/clusters
	neardup -u -e raw -k 3 -n 64 -d 0 -m 5 -t 0.1 docs | cmp - w/unique
	run -0 mk -s E=all T=0.9
	neardup -e all -t 0.9 docs | cmp - w/pairs
}

@test "neardup.mk: nothing changed, only the documents are read again" {
	docs
	mk -s
	age
	check 0 'docsplit\n' '' ran
	check 0 '' '' newer
}

@test "neardup.mk: a new threshold reruns simjoin, not sketch" {
	docs
	mk -s
	age
	check 0 'docsplit\nsimjoin\nsimjoin\nsimjoin\n' '' ran T=0.5
	check 0 'w/clusters\nw/join.param\nw/pairs\nw/unique\n' '' newer
	check 0 'rarity 2 minsize 10 threshold 0.5\n' '' cat w/join.param
	neardup -t 0.5 docs | cmp - w/pairs
	# and back: the same outputs as the first run
	check 0 'docsplit\nsimjoin\nsimjoin\nsimjoin\n' '' ran
	neardup docs | cmp - w/pairs
}

@test "neardup.mk: a new M or D reruns simjoin only" {
	docs
	mk -s
	age
	check 0 'docsplit\nsimjoin\nsimjoin\nsimjoin\n' '' ran M=20
	age
	check 0 'docsplit\nsimjoin\nsimjoin\nsimjoin\n' '' ran M=20 D=0
	neardup -m 20 -d 0 docs | cmp - w/pairs
}

@test "neardup.mk: a new K or N reruns sketch and simjoin" {
	docs
	mk -s
	age
	check 0 'docsplit\nsketch\nsimjoin\nsimjoin\nsimjoin\n' '' ran K=4
	check 0 'w/clusters\nw/pairs\nw/sketch.param\nw/sketches\nw/unique\n' '' newer
	age
	check 0 'docsplit\nsketch\nsimjoin\nsimjoin\nsimjoin\n' '' ran K=4 N=32
	neardup -k 4 -n 32 docs | cmp - w/pairs
}

@test "neardup.mk: a new E reruns the extraction and all after it" {
	docs
	mk -s
	age
	check 0 'docsplit\ncat\nsketch\nsimjoin\nsimjoin\nsimjoin\n' '' ran E=raw
}

@test "neardup.mk: a changed document reruns every stage" {
	docs
	mk -s
	age
	printf 'one more page, not like the others at all\n' >docs/extra.txt
	check 0 'docsplit\nhtmltext\nsketch\nsimjoin\nsimjoin\nsimjoin\n' '' ran
	neardup -u docs | cmp - w/unique
	grep -q '^docs/extra.txt$' w/unique
}

@test "neardup.mk: no documents, a bad setting: exit 2, nothing written" {
	run -2 --separate-stderr env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -f "$mkfile" OUT=w
	[ "$output" = "" ]
	[ "${stderr_lines[0]}" = "neardup.mk: no documents: set DOCS=" ]
	docs
	run -2 --separate-stderr mk -s E=bad
	[ "${stderr_lines[0]}" = "neardup.mk: E=bad is invalid (main, all or raw)" ]
	[ ! -e w/text.rec ]
}

@test "neardup.mk: a failed stage keeps the outputs and leaves no .tmp" {
	docs
	mk -s
	cp w/pairs want
	run -2 --separate-stderr mk -s DOCS=nope
	[ "$output" = "" ]
	[ "${stderr_lines[0]}" = "docsplit: nope: No such file or directory" ]
	cmp w/pairs want
	run -2 --separate-stderr mk -s K=99
	[ "$output" = "" ]
	case ${stderr_lines[0]} in
	sketch:*) ;;
	*) false ;;
	esac
	cmp w/pairs want
	[ -z "$(find w -name '*.tmp')" ]
}

@test "neardup.mk: query gives neardup -q's pairs and new documents" {
	gendocs -n 12 -q 6 -s 3 . >/dev/null
	# it says where the results are (issue 18.8)
	check 0 'neardup.mk: pairs in w/query.pairs, new documents in w/query.unique\n' '' mk -s Q=new query
	neardup -o state docs >/dev/null
	neardup -q state new >want
	[ -s want ]
	cmp w/query.pairs want
	neardup -u -q state new | cmp - w/query.unique
	[ ! -e w/pairs ]
	touch -t 200001010000 w/*.param w/pages.rec w/query.rec
	touch -t 200001010001 w/query.text.rec w/text.rec
	touch -t 200001010002 w/query.sketches w/sketches
	touch -t 200001010003 w/query.pairs w/query.unique
	check 0 'docsplit\ndocsplit\nsimjoin\nsimjoin\nneardup.mk:\n' '' ran Q=new query T=0.6
	neardup -t 0.6 -q state new | cmp - w/query.pairs
}

@test "neardup.mk: query without Q: exit 2" {
	docs
	run -2 --separate-stderr mk -s query
	[ "$output" = "" ]
	[ "${stderr_lines[0]}" = "neardup.mk: no queries: set Q=" ]
}

@test "neardup.mk: a directory in a target's place is an error" {
	docs
	mkdir -p w/pairs w/sketch.param
	run -2 --separate-stderr mk -s
	[ "$output" = "" ]
	[ "${stderr_lines[0]}" = "w/sketch.param: is a directory" ]
	rmdir w/sketch.param
	run -2 --separate-stderr mk -s
	[ "${stderr_lines[0]}" = "w/pairs: is a directory" ]
	check 0 '' '' find w/pairs -type f
	[ -z "$(find w -name '*.tmp')" ]
}
