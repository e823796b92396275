#!/usr/bin/env bats
# paireval: reported pairs scored against labelled pairs.

load helper

u='usage: paireval [-s] [-t threshold] labels [file ...]\n'
simerr='is invalid (allowed: a decimal fraction from 0 to 1, at most 15 decimals)'

hall='#type\ttp\tfp\tfn\ttn\tprecision\trecall\tf1\n'
hkind='#type\tkind\tlabel\tpairs\treported\trate\n'
hrep='#type\tpairs\tlabelled\tunlabelled\tprecision\n'
hsweep='#type\tthreshold\ttp\tfp\tfn\tunlabelled\tprecision\trecall\tf1\n'

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	# (a,b) and (c,d) found, (e,f) a false positive, (g,h) missed, (i,j)
	# rightly not reported, (x,y) reported without a label. (b,a) is (a,b)
	# again, with the same label: it counts once, with the first KIND.
	printf 'a\tb\t1\tnat\nc\td\t1\tedit\ne\tf\t0\tneg\ng\th\t1\nb\ta\t1\tdup\ni\tj\t0\tneg\tnote\n' >labels
	printf 'b\ta\t0.9\nd\tc\t0.5\ne\tf\t0.7\nx\ty\t0.95\na\tb\t0.3\n' >pairs
	want="${hall}all\t2\t1\t1\t1\t0.6667\t0.6667\t0.6667\n${hkind}kind\tnat\t1\t1\t1\t1.0000\nkind\tedit\t1\t1\t1\t1.0000\nkind\tneg\t0\t2\t1\t0.5000\nkind\t-\t1\t1\t0\t0.0000\n${hrep}reported\t4\t3\t1\t0.5000\n"
}

# sweeprows FROM TO FIELDS: sweep lines for thresholds FROM/20 to TO/20.
sweeprows() {
	local k

	for ((k = $1; k <= $2; k++)); do
		printf 'sweep\t%d.%02d\t%s\n' $((k / 20)) $((k % 20 * 5)) "$3"
	done
}

@test "paireval -h: usage on stdout" {
	check 0 "$u" '' paireval -h
}

@test "paireval: bad option, no labels operand" {
	badopt "usage: paireval [-s] [-t threshold] labels [file ...]" paireval -x labels
	check 2 '' "paireval: no labels operand\n$u" paireval
	check 2 '' "paireval: no labels operand\n$u" paireval -s
}

@test "paireval: labels and pairs cannot both be standard input" {
	check 2 '' 'paireval: labels and pairs cannot both be standard input\n' paireval - </dev/null
	check 2 '' 'paireval: labels and pairs cannot both be standard input\n' paireval - pairs - </dev/null
}

@test "paireval: tp, fp, fn, tn, kinds, unlabelled pairs" {
	check 0 "$want" '' paireval labels pairs
	check 0 "$want" '' paireval labels <pairs
	check 0 "$want" '' paireval - pairs <labels
}

@test "paireval: pairs are unordered, on both sides" {
	printf 'b\ta\t1\n' >l
	printf 'a\tb\n' >p
	check 0 "${hall}all\t1\t0\t0\t0\t1.0000\t1.0000\t1.0000\n${hkind}kind\t-\t1\t1\t1\t1.0000\n${hrep}reported\t1\t1\t0\t1.0000\n" '' \
		paireval l p
}

@test "paireval: a pair reported twice counts once, with its highest SIM" {
	printf 'a\tb\t1\nc\td\t0\n' >l
	printf 'a\tb\t0.2\nb\ta\t0.8\na\tb\nx\ty\t1\ny\tx\t1\nc\td\t0.1\n' >p
	check 0 "${hall}all\t1\t1\t0\t0\t0.5000\t1.0000\t0.6667\n${hkind}kind\t-\t1\t1\t1\t1.0000\nkind\t-\t0\t1\t1\t1.0000\n${hrep}reported\t3\t2\t1\t0.3333\n" '' \
		paireval l p
	# the highest SIM is kept: (a,b) stays at 0.8 >= 0.5
	sed 3d p >q
	check 0 "${hall}all\t1\t0\t0\t1\t1.0000\t1.0000\t1.0000\n${hkind}kind\t-\t1\t1\t1\t1.0000\nkind\t-\t0\t1\t0\t0.0000\n${hrep}reported\t2\t1\t1\t0.5000\n" '' \
		paireval -t 0.5 l q
}

@test "paireval: pairs from several files are one stream" {
	head -n 2 pairs >p1
	tail -n +3 pairs >p2
	check 0 "$want" '' paireval labels p1 p2
	check 0 "$want" '' paireval labels p1 - <p2
}

@test "paireval: conflicting labels, with file and line" {
	printf 'a\tb\t1\nc\td\t0\nb\ta\t0\na\tb\t1\nd\tc\t1\n' >l
	check 1 '' 'paireval: l:3: pair labelled 0 here and 1 at line 1\npaireval: l:5: pair labelled 1 here and 0 at line 2\n' \
		paireval l pairs
	check 1 '' 'paireval: <stdin>:3: pair labelled 0 here and 1 at line 1\npaireval: <stdin>:5: pair labelled 1 here and 0 at line 2\n' \
		paireval - pairs <l
	# past 10, counted: one pair labelled 1, then 0 eleven times
	{ printf 'a\tb\t1\n'; for i in $(seq 11); do printf 'a\tb\t0\n'; done; } >l12
	for i in $(seq 2 11); do
		printf 'paireval: l12:%d: pair labelled 0 here and 1 at line 1\n' "$i"
	done >want.err
	printf 'paireval: l12: 11 labels that disagree, the first 10 said\n' >>want.err
	: >want.out
	cmpout 1 want.out want.err paireval l12 pairs
}

@test "paireval: bad label records" {
	printf 'a\tb\t1\na b 1\na\tb\nc\td\tyes\nc\td\t\nc\td\t01\n\tb\t1\nc\tc\t0\n' >l
	check 1 '' "paireval: l:2: fewer than 3 fields (ID_A, ID_B, LABEL)
paireval: l:3: fewer than 3 fields (ID_A, ID_B, LABEL)
paireval: l:4: label 'yes' is invalid (allowed: 0 or 1)
paireval: l:5: label '' is invalid (allowed: 0 or 1)
paireval: l:6: label '01' is invalid (allowed: 0 or 1)
paireval: l:7: empty ID
paireval: l:8: an ID paired with itself
" paireval l pairs
	printf '\n' >l
	check 1 '' 'paireval: l:1: fewer than 3 fields (ID_A, ID_B, LABEL)\n' paireval l pairs
}

@test "paireval: bad pair records: no figures, every error named" {
	printf 'a\tb\t1\nab\nc\td\t3\ne\t\t0.5\nf\tf\n' >p
	check 1 '' "paireval: p:2: fewer than 2 fields (ID_A, ID_B)
paireval: p:3: similarity '3' $simerr
paireval: p:4: empty ID
paireval: p:5: an ID paired with itself
" paireval labels pairs p
}

@test "paireval: SIM forms" {
	printf 'a\tb\t1\n' >l
	for s in 0 1 1. 1.0 0.5 .5 00.25 0.000000000000001 1.000000000000000; do
		printf 'a\tb\t%s\n' "$s" >p
		check 0 "${hall}all\t1\t0\t0\t0\t1.0000\t1.0000\t1.0000\n${hkind}kind\t-\t1\t1\t1\t1.0000\n${hrep}reported\t1\t1\t0\t1.0000\n" '' \
			paireval l p
	done
	for s in '' . 1.5 2 -0.1 +0.5 ' 0.5' '0.5 ' 1e-3 0x1 nan 0.0000000000000001 1.0000000000000001 10; do
		printf 'a\tb\t%s\n' "$s" >p
		check 1 '' "paireval: p:1: similarity '$s' $simerr\n" paireval l p
	done
}

@test "paireval: extra fields, CRLF, KIND absent or empty" {
	printf 'a\tb\t1\t\tnote\r\nc\td\t0\r\n' >l
	printf 'a\tb\t0.5\tx\ty\r\nc\td\t1\r\n' >p
	check 0 "${hall}all\t1\t1\t0\t0\t0.5000\t1.0000\t0.6667\n${hkind}kind\t-\t1\t1\t1\t1.0000\nkind\t-\t0\t1\t1\t1.0000\n${hrep}reported\t2\t2\t0\t0.5000\n" '' \
		paireval l p
}

@test "paireval: IDs are compared as escaped bytes" {
	printf 'a\\tb\tc\\\\\t1\nd\\q\te\377\t1\n' >l
	printf 'c\\\\\ta\\tb\nd\\q\te\377\nc\\\\\ta\n' >p
	check 0 "${hall}all\t2\t0\t0\t0\t1.0000\t1.0000\t1.0000\n${hkind}kind\t-\t1\t2\t2\t1.0000\n${hrep}reported\t3\t2\t1\t0.6667\n" '' \
		paireval l p
}

@test "paireval: empty inputs" {
	: >e
	check 0 "${hall}all\t0\t0\t0\t0\t-\t-\t-\n${hkind}${hrep}reported\t0\t0\t0\t-\n" '' paireval e e
	check 0 "${hall}all\t0\t0\t3\t2\t-\t0.0000\t0.0000\n${hkind}kind\tnat\t1\t1\t0\t0.0000\nkind\tedit\t1\t1\t0\t0.0000\nkind\tneg\t0\t2\t0\t0.0000\nkind\t-\t1\t1\t0\t0.0000\n${hrep}reported\t0\t0\t0\t-\n" '' \
		paireval labels </dev/null
	check 0 "${hall}all\t0\t0\t0\t0\t-\t-\t-\n${hkind}${hrep}reported\t4\t0\t4\t0.0000\n" '' paireval e pairs
	printf 'a\tb\t0\n' >n
	check 0 "${hall}all\t0\t0\t0\t1\t-\t-\t-\n${hkind}kind\t-\t0\t1\t0\t0.0000\n${hrep}reported\t0\t0\t0\t-\n" '' paireval n e
}

@test "paireval -t: pairs below the threshold are not reported" {
	check 0 "${hall}all\t1\t1\t2\t1\t0.5000\t0.3333\t0.4000\n${hkind}kind\tnat\t1\t1\t1\t1.0000\nkind\tedit\t1\t1\t0\t0.0000\nkind\tneg\t0\t2\t1\t0.5000\nkind\t-\t1\t1\t0\t0.0000\n${hrep}reported\t3\t2\t1\t0.3333\n" '' \
		paireval -t 0.7 labels pairs
	check 0 "${hall}all\t0\t0\t3\t2\t-\t0.0000\t0.0000\n${hkind}kind\tnat\t1\t1\t0\t0.0000\nkind\tedit\t1\t1\t0\t0.0000\nkind\tneg\t0\t2\t0\t0.0000\nkind\t-\t1\t1\t0\t0.0000\n${hrep}reported\t1\t0\t1\t0.0000\n" '' \
		paireval -t .95 labels pairs
	check 0 "$want" '' paireval -t 0 labels pairs
}

@test "paireval -t, -s: bad threshold, pairs without SIM" {
	check 2 '' "paireval: threshold '1.5' $simerr\n" paireval -t 1.5 labels pairs
	check 2 '' "paireval: threshold '' $simerr\n" paireval -t '' labels pairs
	printf 'a\tb\t0.5\nc\td\n' >p
	check 1 '' 'paireval: p:2: no similarity (-s and -t need one)\n' paireval -t 0.5 labels p
	check 1 '' 'paireval: p:2: no similarity (-s and -t need one)\n' paireval -s labels p
}

@test "paireval -s: the sweep and the best threshold" {
	{
		printf "$want$hsweep"
		sweeprows 0 10 $'2\t1\t1\t1\t0.6667\t0.6667\t0.6667'
		sweeprows 11 14 $'1\t1\t2\t1\t0.5000\t0.3333\t0.4000'
		sweeprows 15 18 $'1\t0\t2\t1\t1.0000\t0.3333\t0.5000'
		sweeprows 19 19 $'0\t0\t3\t1\t-\t0.0000\t0.0000'
		sweeprows 20 20 $'0\t0\t3\t0\t-\t0.0000\t0.0000'
		printf 'best\t0.5\t2\t1\t1\t1\t0.6667\t0.6667\t0.6667\n'
	} >want.out
	: >want.err
	cmpout 0 want.out want.err paireval -s labels pairs
}

@test "paireval -s: ties keep the higher threshold; exact comparison at the grid" {
	# F1 is 2/3 at 0.95 and at 0.3; 0.95 is kept. 0.05 and 0.95 are on the grid.
	printf 'a\tb\t1\nc\td\t1\ne\tf\t0\n' >l
	printf 'a\tb\t0.95\nc\td\t0.3\ne\tf\t0.05\ng\th\t0.3\n' >p
	{
		printf "${hall}all\t2\t1\t0\t0\t0.6667\t1.0000\t0.8000\n${hkind}kind\t-\t1\t2\t2\t1.0000\nkind\t-\t0\t1\t1\t1.0000\n${hrep}reported\t4\t3\t1\t0.5000\n$hsweep"
		sweeprows 0 1 $'2\t1\t0\t1\t0.6667\t1.0000\t0.8000'
		sweeprows 2 6 $'2\t0\t0\t1\t1.0000\t1.0000\t1.0000'
		sweeprows 7 19 $'1\t0\t1\t0\t1.0000\t0.5000\t0.6667'
		sweeprows 20 20 $'0\t0\t2\t0\t-\t0.0000\t0.0000'
		printf 'best\t0.3\t2\t0\t0\t1\t1.0000\t1.0000\t1.0000\n'
	} >want.out
	: >want.err
	cmpout 0 want.out want.err paireval -s l p
	printf 'a\tb\t1\nc\td\t0\n' >l
	printf 'a\tb\t0.95\nc\td\t0.3\n' >p
	paireval -s l p | grep '^best' >got
	printf 'best\t0.95\t1\t0\t0\t0\t1.0000\t1.0000\t1.0000\n' >want
	cmp got want
}

@test "paireval -s: nothing reported" {
	{
		printf "${hall}all\t0\t0\t1\t0\t-\t0.0000\t0.0000\n${hkind}kind\t-\t1\t1\t0\t0.0000\n${hrep}reported\t0\t0\t0\t-\n$hsweep"
		sweeprows 0 20 $'0\t0\t1\t0\t-\t0.0000\t0.0000'
		printf 'best\t-\t0\t0\t1\t0\t-\t0.0000\t0.0000\n'
	} >want.out
	: >want.err
	printf 'a\tb\t1\n' >l
	cmpout 0 want.out want.err paireval -s l </dev/null
}

# ---- Hardening: bad input, output faults, resource bounds ----
load faults

@test "paireval: missing and unreadable files: no figures" {
	check 1 '' 'paireval: nope: No such file or directory\n' paireval nope pairs
	check 1 '' 'paireval: nope: No such file or directory\n' paireval labels pairs nope
	mkdir d
	check 1 '' 'paireval: d: read error: Is a directory\n' paireval labels d
}

@test "paireval: NUL bytes in IDs, labels and SIM" {
	printf 'a\0\tb\t1\nc\td\t1\0\n' >l
	check 1 '' "paireval: l:2: label '1' is invalid (allowed: 0 or 1)\n" paireval l pairs
	printf 'a\0\tb\t1\n' >l
	printf 'b\ta\0\t0.5\nb\ta\t0.5\0\n' >p
	check 1 '' "paireval: p:2: similarity '0.5' $simerr\n" paireval l p
	printf 'b\ta\0\t0.5\nb\ta\t0.5\n' >p
	check 0 "${hall}all\t1\t0\t0\t0\t1.0000\t1.0000\t1.0000\n${hkind}kind\t-\t1\t1\t1\t1.0000\n${hrep}reported\t2\t1\t1\t0.5000\n" '' \
		paireval l p
}

@test "paireval: write error" {
	devfull paireval labels pairs
	devfull paireval -s labels pairs
}

@test "paireval: 200000 labels and 300000 reports, IDs of one hash-alike shape" {
	# Pairs (pI, qI): even I labelled 1, odd I 0; reported: every I divisible
	# by 3 and 100000 unlabelled pairs. Run time is O(n log n) by sorting.
	awk 'BEGIN { for (i = 0; i < 200000; i++) printf "p%07d\tq%07d\t%d\n", i, i, i % 2 == 0 }' >l
	awk 'BEGIN { for (i = 0; i < 200000; i += 3) printf "q%07d\tp%07d\t1\n", i, i
		for (i = 0; i < 100000; i++) printf "r%07d\tp%07d\t0.5\n", i, i }' >p
	# 66667 reported: 33334 even (tp), 33333 odd (fp); fn 100000 - 33334
	check 0 "${hall}all\t33334\t33333\t66666\t66667\t0.5000\t0.3333\t0.4000\n${hkind}kind\t-\t1\t100000\t33334\t0.3333\nkind\t-\t0\t100000\t33333\t0.3333\n${hrep}reported\t166667\t66667\t100000\t0.2000\n" '' \
		paireval l p
}
