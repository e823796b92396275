#!/usr/bin/env bats
# The pipeline against tests/ref/simref, an independent reference written
# for checking only, on generated corpora (LF and CRLF) and the course data.

load helper

ref="$BATS_TEST_DIRNAME/ref/simref"

# corpus ARGS...: a generated corpus in the current directory.
corpus() {
	gencorpus "$@" .
	genhash -s 3 2000 128 >hashvalue.txt
	cp "$BATS_TEST_DIRNAME/../demo/stopwords.txt" .
}

# same N M: simtool's result.txt is the reference's output.
same() {
	simtool "$1" "$2" >/dev/null
	sh "$ref" "$1" "$2" >ref.txt
	cmp result.txt ref.txt
}

@test "simref: generated corpus, three (N, M) pairs" {
	corpus -a 400 -q 40 -u 5 -s 11
	same 2000 128
	same 300 64
	same 1000 16
}

@test "simref: generated CRLF corpus with short pages" {
	corpus -c -a 300 -q 30 -l 1 -L 40 -s 12
	same 500 32
	same 50 7
}

@test "simref: inputs that start like binary or WARC files are read as pages" {
	corpus -a 200 -q 20 -s 13
	for first in ID3 %PDF-1.7 OTTO WARC/1.0; do
		# the first page of each file gets the ID, its text a copy's
		{ printf '%s\nthe river runs along the valley\f' "$first"; cat article.txt; } >a.new
		{ printf '%s\nthe river runs along the valley\f' "$first"; cat sample.txt; } >s.new
		mv a.new article.txt
		mv s.new sample.txt
		same 300 32
		run head -n 1 result.txt
		[ "$status" -eq 0 ]
		[ "$output" = "$first" ]
	done
	# a NUL byte separates words, as a space does
	tr ' ' '\000' <article.txt >a.nul
	mv a.nul article.txt
	simtool 300 32 >/dev/null
	mv result.txt nul.txt
	tr '\000' ' ' <article.txt >a.sp
	mv a.sp article.txt
	simtool 300 32 >/dev/null
	cmp nul.txt result.txt
}

@test "simref: the course data" {
	need_shared
	cp "$shared/course/article.txt" "$shared/course/sample.txt" \
	    "$shared/course/stopwords.txt" "$shared/course/hashvalue.txt" .
	sh "$ref" 1000 16 >ref.txt
	cmp ref.txt "$shared/course/result(example).txt"
	same 1000 32
}
