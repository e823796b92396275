#!/usr/bin/env bats
# simtool.mk: the simtool pipeline as make rules over kept intermediates.

load helper

mkfile="$BATS_TEST_DIRNAME/../pipelines/simtool.mk"

# make with the rules, quiet; free of the flags of a make that runs the tests.
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -f "$mkfile" "$@"
}

# Date the inputs, then the intermediates, in the past; ref comes after
# them, so "find -newer ref" lists what the next make writes.
age() {
	touch -t 199901010000 ./*.txt
	touch -t 200001010000 simtool.work/* result.txt
	touch -t 200001010001 ref
}

# The first word of each command make would run.
commands() {
	mk -n "$@" | awk '{ print $1 }'
}

@test "simtool.mk: small corpus" {
	small
	check 0 'S1\n0:A1 \n2:A3 \n3:A2 \n' '' mk N=3 M=4
	printf "$small4" >want
	cmp result.txt want
	[ -z "$(find . -name '*.tmp')" ]
}

@test "simtool.mk: a new M reuses the per-page counts" {
	small
	mk N=3 M=4 >/dev/null
	age
	check 0 'fphash\nfphash\nhamq\nfmtresult\n' '' commands N=3 M=8
	check 0 'S1\n0:A1 \n' '' mk N=3 M=8
	printf "$small8" >want
	cmp result.txt want
	check 0 'result.txt\nsimtool.work/article.fp-3-8\nsimtool.work/matches-3-8-3\nsimtool.work/sample.fp-3-8\n' '' \
		sh -c 'find result.txt simtool.work -newer ref -type f | LC_ALL=C sort'
}

@test "simtool.mk: result.txt is rebuilt when M changes back" {
	small
	mk N=3 M=4 >/dev/null
	mk N=3 M=8 >/dev/null
	age
	check 0 'fmtresult\n' '' commands N=3 M=4
	check 0 'S1\n0:A1 \n2:A3 \n3:A2 \n' '' mk N=3 M=4
	printf "$small4" >want
	cmp result.txt want
	check 0 'result.txt\n' '' sh -c 'find result.txt simtool.work -newer ref -type f | LC_ALL=C sort'
}

@test "simtool.mk: a new N reuses the pages and the article's counts" {
	small
	mk N=3 M=4 >/dev/null
	age
	# the article's words are counted once, for every N; only the
	# sample's counts are of the features
	check 0 'topn\nfphash\nwordfreq\nfphash\nhamq\nfmtresult\n' '' \
		commands N=2 M=4
}

@test "simtool.mk: a failed stage keeps result.txt and leaves no .tmp" {
	small
	printf 'old\n' >result.txt
	run -2 --separate-stderr mk N=3 M=9
	[ "$output" = "" ]
	[ "${stderr_lines[0]}" = "fphash: hashvalue.txt:1: row has 8 bits, 9 needed" ]
	check 0 'old\n' '' cat result.txt
	[ -z "$(find . -name '*.tmp')" ]
}

@test "simtool.mk: the course data gives the official result" {
	course course
	firstblock "$shared/course/result(example).txt" >want.screen
	cmpout 0 want.screen /dev/null mk N=1000 M=16
	cmp result.txt "$shared/course/result(example).txt"
}

@test "simtool.mk: the CRLF course data gives the same result" {
	course course-crlf
	firstblock "$shared/course/result(example).txt" >want.screen
	cmpout 0 want.screen /dev/null mk
	cmp result.txt "$shared/course/result(example).txt"
}

@test "simtool.mk: same result as simtool on the course data, M=32" {
	course course
	simtool 1000 32 >screen.sh
	mv result.txt result.sh
	cmpout 0 screen.sh /dev/null mk N=1000 M=32
	cmp result.txt result.sh
}

@test "simtool.mk: result.txt is a directory: an error, the directory untouched" {
	small
	mkdir result.txt
	printf 'keep\n' >result.txt/old
	run -2 --separate-stderr mk N=3 M=4
	[ "$output" = "" ]
	[ "${stderr_lines[0]}" = "fmtresult: result.txt: Is a directory" ]
	check 0 'old\n' '' ls -A result.txt
	check 0 'keep\n' '' cat result.txt/old
	[ -z "$(find . -name '*.tmp')" ]
}
