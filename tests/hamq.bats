#!/usr/bin/env bats
# hamq: index fingerprints within a Hamming distance of each query.

load helper

u='usage: hamq [-as] [-d distance] [-m auto | index | scan] [-o file] index [file ...]\n'

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	printf 'i1\t0000\ni2\t1111\ni3\t0001\ni4\t0011\ni5\t0000\ni6\t1000\n' >idx
	printf 'q1\t0000\nq2\t1111\nq3\t0101\n' >q
	# distances: q1 0 4 1 2 0 1, q2 4 0 3 2 4 3, q3 2 2 1 2 2 3
	all='q1\t0\ti1\nq1\t0\ti5\nq1\t1\ti3\nq1\t1\ti6\nq1\t2\ti4\n'
	all=$all'q2\t0\ti2\nq2\t2\ti4\nq2\t3\ti3\nq2\t3\ti6\n'
	all=$all'q3\t1\ti3\nq3\t2\ti1\nq3\t2\ti2\nq3\t2\ti4\nq3\t2\ti5\nq3\t3\ti6\n'
}

@test "hamq -h: usage on stdout" {
	check 0 "$u" '' hamq -h
}

@test "hamq: bad option" {
	badopt "usage: hamq [-as] [-d distance] [-m auto | index | scan] [-o file] index [file ...]" hamq -x idx q
}

@test "hamq: no index" {
	check 2 '' "$u" hamq
	check 2 '' "$u" hamq -a -d 1
}

@test "hamq: by query, then distance, then index order" {
	check 0 "$all" '' hamq idx q
	check 0 "$all" '' hamq -d 3 idx <q
}

@test "hamq -d 0: equal fingerprints only" {
	check 0 'q1\t0\ti1\nq1\t0\ti5\nq2\t0\ti2\n' '' hamq -d 0 idx q
}

@test "hamq -d beyond M: every index entry" {
	out='q1\t0\ti1\nq1\t0\ti5\nq1\t1\ti3\nq1\t1\ti6\nq1\t2\ti4\nq1\t4\ti2\n'
	check 0 "$out" '' hamq -d 4 idx - <<-EOF
	q1	0000
	EOF
	check 0 "$out" '' hamq -d 128 idx - <<-EOF
	q1	0000
	EOF
}

@test "hamq -a: a header record before each query's matches" {
	check 0 'q1\nq1\t0\ti1\nq1\t0\ti5\nq2\nq2\t0\ti2\nq3\n' '' hamq -a -d 0 idx q
	# a query ID twice keeps two blocks
	check 0 'q\nq\t1\ti2\nq\t1\ti4\nq\nq\t1\ti2\nq\t1\ti4\n' '' hamq -a -d 1 idx - <<-EOF
	q	0111
	q	0111
	EOF
}

@test "hamq: bad -d" {
	check 2 '' "hamq: distance '129' is too large (allowed: 0 to 128)\n" hamq -d 129 idx q
	check 2 '' "hamq: distance 'x' is invalid (allowed: 0 to 128)\n" hamq -d x idx q
	check 2 '' "hamq: distance '' is invalid (allowed: 0 to 128)\n" hamq -d '' idx q
}

@test "hamq: several query files, a missing one, a missing index" {
	printf 'r\t1000\n' >r
	check 1 'r\t0\ti6\nr\t1\ti1\nr\t1\ti5\nr\t2\ti3\nr\t3\ti2\nr\t3\ti4\n' \
		'hamq: nope: No such file or directory\n' hamq -d 4 idx nope r
	check 1 '' 'hamq: nope: No such file or directory\n' hamq nope q
}

@test "hamq: empty index, empty queries" {
	: >empty
	check 0 '' '' hamq empty q
	check 0 'q1\nq2\nq3\n' '' hamq -a empty q
	check 0 '' '' hamq idx empty
	check 0 '' '' hamq -a idx </dev/null
}

@test "hamq: width differs between index and queries" {
	printf 'r\t000\nq\t0000\n' >r
	check 1 'q\t0\ti1\nq\t0\ti5\nq\t1\ti3\nq\t1\ti6\nq\t2\ti4\n' 'hamq: r:1: fingerprint has 3 bits, not 4 like the first\n' hamq idx r
	printf 'a\t0000\nb\t00000\n' >bad
	check 1 '' 'hamq: bad:2: fingerprint has 5 bits, not 4 like the first\n' hamq bad q
}

@test "hamq: bad records" {
	printf 'r\t0000\ns\t00a0\nt\t0000\n' >r
	check 1 'r\t0\ti1\nr\t0\ti5\nt\t0\ti1\nt\t0\ti5\n' 'hamq: r:2: fingerprint character 3 is not 0 or 1\n' hamq -d 0 idx r
	printf 'r0000\n' >r
	check 1 '' 'hamq: r:1: no TAB between ID and fingerprint\n' hamq idx r
	printf 'r\t\n' >r
	check 1 '' 'hamq: r:1: fingerprint has 0 bits, not 1 to 128\n' hamq idx r
	printf 'r\t%0129d\n' 0 >r
	check 1 '' 'hamq: r:1: fingerprint has 129 bits, not 1 to 128\n' hamq r q
}

@test "hamq: CRLF records" {
	printf 'i1\t0000\r\ni2\t0111\r\n' >crlf
	check 0 'q1\t0\ti1\nq1\t3\ti2\n' '' hamq crlf - <<-EOF
	q1	0000
	EOF
}

@test "hamq: IDs are copied as they are" {
	printf 'a\\tb\377\t1\n' >i
	printf 'q\\\\ \t1\r\n' >r
	check 0 'q\\\\ \t0\ta\\tb\377\n' '' hamq i r
}

@test "hamq: M=1" {
	printf 'a\t0\nb\t1\n' >i
	printf 'q\t1\n' >r
	check 0 'q\t0\tb\nq\t1\ta\n' '' hamq i r
	check 0 'q\t0\tb\n' '' hamq -d 0 i r
}

@test "hamq: M=128" {
	z=$(printf '%0128d' 0)
	ends=1$(printf '%0126d' 0)1
	mid=$(printf '%060d' 0)11111111$(printf '%060d' 0)
	printf 'i1\t%s\ni2\t%s\ni3\t%s\n' "$z" "$ends" "$mid" >i
	printf 'q\t%s\nr\t%s\n' "$z" "$ends" >r
	check 0 'q\t0\ti1\nq\t2\ti2\nr\t0\ti2\nr\t2\ti1\n' '' hamq i r
	check 0 'q\t0\ti1\nq\t2\ti2\nq\t8\ti3\nr\t0\ti2\nr\t2\ti1\nr\t10\ti3\n' '' hamq -d 10 i r
	check 0 'q\nq\t0\ti1\nq\t2\ti2\nq\t8\ti3\nr\nr\t0\ti2\nr\t2\ti1\nr\t10\ti3\n' '' hamq -a -d 128 i r
}

# --- the index (-m), the self-join (-s) and index files (-o) ---

# same CMD...: the index and the forced scan give the same output and status.
same() {
	local a=0 b=0

	hamq -m index "$@" >idx.out 2>idx.err || a=$?
	hamq -m scan "$@" >scan.out 2>scan.err || b=$?
	[ "$a" -eq "$b" ] && cmp idx.out scan.out && cmp idx.err scan.err
}

# bruteself D FILE: the self-join pairs by brute force (awk popcount on the text).
bruteself() {
	awk -F '\t' -v d="$1" '
	{ id[NR] = $1; fp[NR] = $2 }
	END {
		for (i = 1; i <= NR; i++) {
			for (j = i + 1; j <= NR; j++) {
				n = 0
				for (c = 1; c <= length(fp[i]); c++)
					if (substr(fp[i], c, 1) != substr(fp[j], c, 1))
						n++
				dist[j] = n
			}
			for (k = 0; k <= d; k++)
				for (j = i + 1; j <= NR; j++)
					if (dist[j] == k)
						print id[i] "\t" k "\t" id[j]
		}
	}' "$2"
}

@test "hamq -m: index, scan and auto agree on random and skewed data" {
	for m in 1 7 16 33 64 65 100 128; do
		for opts in "-n 40" "-u 20 -z 10 -p 40 -v 2" "-p 70"; do
			genfp -s "$m" -m "$m" $opts 2500 >all
			head -n 2000 all >i
			tail -n 500 all >q
			for d in 0 1 3 6; do
				same -a -d "$d" i q || { echo "m=$m d=$d $opts"; return 1; }
				hamq -a -d "$d" i q | cmp - idx.out
			done
		done
	done
}

@test "hamq -m index: adversarial inputs" {
	z=$(printf '%064d' 0)
	o=1$(printf '%063d' 0)
	for i in $(seq 1 300); do printf 'z%d\t%s\n' "$i" "$z"; done >zeros
	for i in $(seq 1 300); do printf 'e%d\t%s\n' "$i" "$o"; done >equal
	cat zeros equal >both
	printf 'q\t%s\nr\t%s\n' "$z" "$o" >q
	for d in 0 1 3 63 64 128; do
		same -d "$d" zeros q
		same -d "$d" equal q
		same -a -d "$d" both q
		same -s -d "$d" both
	done
	# 300 all-zero pages: every pair, once
	hamq -s -m index -d 0 zeros | awk 'END { exit NR != 300 * 299 / 2 }'
	: >empty
	same empty q
	same -s empty
	same -a zeros empty
	check 0 '' '' hamq -m index -s empty
	check 0 'q\n' '' hamq -m index -a empty - <<-EOF
	q	0101
	EOF
}

@test "hamq -m index: M=1 and M=128 at every distance" {
	printf 'a\t0\nb\t1\nc\t0\n' >i1
	printf 'q\t1\nr\t0\n' >q1
	for d in 0 1 2 128; do
		same -a -d "$d" i1 q1
		same -s -d "$d" i1
	done
	check 0 'a\t0\tc\na\t1\tb\nb\t1\tc\n' '' hamq -s -m index -d 1 i1
	genfp -s 3 -m 128 -n 50 -u 10 -z 5 1000 >i128
	for d in 0 1 2 3 10 40 127 128; do
		same -d "$d" i128 i128
		same -s -d "$d" i128
	done
}

@test "hamq -s: each pair once, by first page, distance, second page" {
	check 0 'i1\t0\ti5\ni1\t1\ti3\ni1\t1\ti6\ni1\t2\ti4\ni2\t2\ti4\ni3\t1\ti4\ni3\t1\ti5\ni3\t2\ti6\ni4\t2\ti5\ni5\t1\ti6\n' '' \
		hamq -s -d 2 idx
	check 0 'i1\ni1\t0\ti5\ni2\ni3\ni4\ni5\ni6\n' '' hamq -s -a -d 0 idx
	check 2 '' "$u" hamq -s idx q
}

@test "hamq -s: pairs equal a brute-force reference" {
	genfp -s 5 -m 24 -n 40 -u 10 -z 5 -p 20 300 >f
	for d in 0 1 3 5; do
		bruteself "$d" f >want
		for mode in index scan auto; do
			hamq -s -m "$mode" -d "$d" f | cmp - want
		done
	done
}

@test "hamq -m: bad mode" {
	check 2 '' "hamq: mode 'fast' is invalid (allowed: auto, index, scan)\n" hamq -m fast idx q
}

@test "hamq -o: index file round trip" {
	genfp -s 9 -m 64 -n 30 -u 10 -p 30 3000 >f
	tail -n 500 f >q
	check 0 '' '' hamq -d 3 -o f.hix f
	hamq -a -d 3 f q >want
	for mode in auto index scan; do
		hamq -m "$mode" -a -d 3 f.hix q | cmp - want
	done
	hamq -d 2 f q | cmp - <(hamq -d 2 f.hix q)
	# a larger distance than the file was built for still answers exactly
	hamq -d 5 f q | cmp - <(hamq -m index -d 5 f.hix q)
	hamq -s -d 3 f | cmp - <(hamq -s -d 3 f.hix)
	# -o with queries answers them too; an index file of an empty index
	hamq -a -d 3 -o g.hix f q | cmp - want
	cmp f.hix g.hix
	: >empty
	hamq -o e.hix empty
	check 0 'q\n' '' hamq -a e.hix - <<-EOF
	q	0101
	EOF
}

@test "hamq: truncated, corrupt and wrong-version index files" {
	genfp -s 9 -m 64 -n 30 1000 >f
	hamq -o f.hix f
	size=$(wc -c <f.hix)
	head -c $((size - 8)) f.hix >t.hix
	check 1 '' 'hamq: t.hix: index file truncated\n' hamq t.hix f
	head -c 100 f.hix >h.hix
	check 1 '' 'hamq: h.hix: index file truncated (100 bytes, less than its header)\n' hamq h.hix f
	cp f.hix c.hix
	at=$((size / 2))
	byte=$(od -An -tu1 -j "$at" -N1 c.hix | tr -d ' ')
	printf "\\$(printf '%03o' $(( (byte + 1) % 256 )))" |
		dd of=c.hix bs=1 seek="$at" conv=notrunc 2>/dev/null
	check 1 '' 'hamq: c.hix: index file corrupt (checksum mismatch)\n' hamq c.hix f
	cp f.hix v.hix
	printf '\011' | dd of=v.hix bs=1 seek=8 conv=notrunc 2>/dev/null
	check 1 '' 'hamq: v.hix: index file version not supported\n' hamq v.hix f
	cat f.hix f.hix >x.hix
	check 1 '' 'hamq: x.hix: index file has trailing bytes\n' hamq x.hix f
	check 1 '' 'hamq: nodir/f.hix: No such file or directory\n' hamq -o nodir/f.hix f
	# a failed write leaves the old index file whole, and no temporary file
	cp f.hix old.hix
	check 1 '' 'hamq: old.hix: write error: File too large\n' \
		sh -c 'trap "" XFSZ; ulimit -f 1; exec hamq -o old.hix f'
	cmp old.hix f.hix
	[ "$(ls old.hix*)" = old.hix ]
}

# ---- Hardening: bad input, output faults, resource bounds ----
load faults

@test "hamq: an empty index file and an empty query file" {
	: >e
	check 0 '' '' hamq e q
	check 0 '' '' hamq -a idx e
}

@test "hamq: a directory as index or queries" {
	mkdir d
	check 1 '' 'hamq: d: read error: Is a directory\n' hamq d q
	check 1 'q1\t0\ti1\nq1\t0\ti5\nq2\t0\ti2\n' 'hamq: d: read error: Is a directory\n' \
		hamq -d 0 idx d q
}

@test "hamq: an unreadable index or query file" {
	needasuser
	: >f
	chmod 000 f
	chmod 644 idx q
	check 1 '' 'hamq: f: Permission denied\n' asuser hamq f q
	check 1 'q1\t0\ti1\nq1\t0\ti5\nq2\t0\ti2\n' 'hamq: f: Permission denied\n' \
		asuser hamq -d 0 idx f q
}

@test "hamq: NUL bytes and bytes >= 0x80 in IDs; in fingerprints they are bad" {
	printf 'i\0\377\t01\n' >i
	printf 'q\200\0\t01\n' >r
	check 0 'q\200\0\nq\200\0\t0\ti\0\377\n' '' hamq -a i r
	check 0 'q\200\0\t0\ti\0\377\n' '' hamq i r
	printf 'q\t0\0\nr\t1\377\n' >r
	check 1 '' 'hamq: r:1: fingerprint character 2 is not 0 or 1
hamq: r:2: fingerprint character 2 is not 0 or 1
' hamq i r
}

@test "hamq: mixed widths in one file" {
	printf 'i1\t0000\ni2\t00001\ni3\t1111\n' >mix
	check 1 '' 'hamq: mix:2: fingerprint has 5 bits, not 4 like the first\n' hamq mix q
	printf 'q\t0000\n' >q4
	check 1 'i1\t0\tq\n' 'hamq: mix:2: fingerprint has 5 bits, not 4 like the first\n' hamq q4 mix
}

@test "hamq: a 10 MB ID" {
	{ repeat I 10000000; printf '\t0000\n'; } >big
	{ printf 'q1\t0\t'; repeat I 10000000; printf '\n'; } >want
	printf 'q1\t0000\n' >q1
	cmpout 0 want /dev/null hamq -d 0 big q1
}

@test "hamq: distances with signs, spaces, hex, overflow" {
	for d in +1 ' 1' 0x1 1x 99999999999999999999; do
		case $d in
		99*) e='too large' ;;
		*) e=invalid ;;
		esac
		check 2 '' "hamq: distance '$d' is $e (allowed: 0 to 128)\n" hamq -d "$d" idx q
	done
}

@test "hamq: duplicate IDs are labels: every index entry and query block is kept" {
	printf 'a\t00\na\t01\nb\t00\n' >i
	printf 'q\t00\nq\t11\nq\t00\n' >r
	check 0 'q\t0\ta\nq\t0\tb\nq\t1\ta\nq\t1\ta\nq\t0\ta\nq\t0\tb\nq\t1\ta\n' '' hamq -d 1 i r
	check 0 'q\nq\t0\ta\nq\t0\tb\nq\t1\ta\nq\nq\t1\ta\nq\nq\t0\ta\nq\t0\tb\nq\t1\ta\n' '' hamq -a -d 1 i r
}

@test "hamq: stdout cannot be written" {
	devfull hamq idx q
	awk 'BEGIN { for (i = 0; i < 20000; i++) print "query" i "\t0000" }' >big
	devfull hamq idx big
}

@test "hamq: the reader of stdout goes away" {
	awk 'BEGIN { for (i = 0; i < 100000; i++) print "query" i "\t0000" }' >big
	sigpipe hamq idx big
}

@test "hamq: empty IDs in index and queries" {
	# found in review: the first empty ID was copied to a null buffer (UB)
	printf '\t0000\nb\t1111\n' >i
	printf '\t0001\n' >r
	check 0 '\t1\t\n' '' hamq -d 1 i r
}

@test "hamq -o with -d 128: the index file can be read back" {
	# fuzz finding: -d 128 wrote a distance the reader refused
	printf 'a\t0101\nb\t1111\n' >i
	check 0 '' '' hamq -d 128 -o i.hix i
	printf 'q\t0101\n' >r
	check 0 'q\t0\ta\nq\t2\tb\n' '' hamq -d 3 i.hix r
	check 0 'q\t0\ta\nq\t2\tb\n' '' hamq -d 128 i.hix r
}

# ---- The index over structured inputs, forged index files, bounds ----

# Fingerprints in clusters of about 70 that share their first 28 bits,
# among random ones: nested tables (the build once wrote through a
# dangling address here and crashed).
@test "hamq: crowds that differ in 16 bits (nested tables): index equals scan" {
	for m in 64 128; do
		genfp -s 3 -m "$m" -b $((m - 16)) -v 5 -p 90 -n 5 -u 5 20000 >f
		hamq -s -m scan f >want
		hamq -s -m index f | cmp - want
		hamq -s f | cmp - want
		hamq -d 3 -o f.hix f
		hamq -s f.hix | cmp - want
		hamq -s -m scan -d 5 f | cmp - <(hamq -s -m index -d 5 f)
	done
}

@test "hamq: clusters sharing a 28-bit prefix: index equals scan" {
	for m in 32 64 128; do
		genfp -s 7 -m "$m" -b 28 -v 100 -p 35 -n 10 -u 5 20000 >f
		hamq -s -m scan f >want
		hamq -s -m index f | cmp - want
		hamq -s f | cmp - want
		hamq -s -a -m index -d 2 f | cmp - <(hamq -s -a -m scan -d 2 f)
		head -n 3000 f | hamq -m index -d 4 f - | cmp - <(head -n 3000 f | hamq -m scan -d 4 f -)
		hamq -d 3 -o f.hix f
		hamq -s f.hix | cmp - want
	done
}

@test "hamq: the course pipeline on 20,000 generated pages, M=64 and M=32" {
	gencorpus -a 20000 -q 2000 -s 5 .
	genhash -s 7 2000 128 >hashvalue.txt
	cp "$BATS_TEST_DIRNAME/../demo/stopwords.txt" .
	for m in 64 32; do
		run -0 simtool 1000 "$m"	# hamq was killed by SIGSEGV
		[ -s result.txt ]
	done
}

@test "hamq: forged index files with valid checksums are refused" {
	# five crowds of fingerprints that differ in 16 bits: nested tables
	genfp -b 48 -v 5 -p 100 -n 0 -s 3 -m 64 20000 >f
	for kind in reset fan share; do
		hixforge "$kind" f "$kind.hix"
		check 1 '' "hamq: $kind.hix: bad bucket table\n" hamq -d 3 "$kind.hix" f
	done
}

@test "hamq: memory does not grow with the output" {
	[ -z "${SIMTOOL_SAN:-}" ] || skip "address space limits do not suit sanitizers"
	awk 'BEGIN { for (i = 0; i < 10000; i++) printf "e%d\t%064d\n", i, 0 }' >e
	# 49,995,000 pairs, 689 MB of output, in 200 MB of address space
	run -0 sh -c 'ulimit -v 200000; hamq -s -d 0 e | wc -l'
	[ "$output" = 49995000 ]
	want=$(head -n 3000 e | hamq -a -d 0 e - | cksum)
	run -0 sh -c 'ulimit -v 200000; head -n 3000 e | hamq -a -d 0 e - | cksum'
	[ "$output" = "$want" ]
}

@test "hamq -m auto: a shared block value does not make it quadratic" {
	[ -z "${SIMTOOL_SAN:-}" ] || skip "CPU limits do not suit sanitizers"
	# 50,000 fingerprints of 128 bits that differ in their first 32 only:
	# the tables took 26 s, the scan 2.3 s
	awk 'BEGIN { srand(7); for (i = 0; i < 50000; i++) { s = "";
		for (j = 0; j < 32; j++) s = s (rand() < 0.5 ? "0" : "1");
		printf "p%d\t%s%096d\n", i, s, 0 } }' >p
	run -0 sh -c 'ulimit -t 12; hamq -s p | cksum'
	want=$(hamq -s -m scan p | cksum)
	[ "$output" = "$want" ]
	run -0 sh -c 'ulimit -t 12; fpcluster p | cksum'
}

@test "hamq: an index given as a FIFO is opened once" {
	mkfifo fifo
	{ cat idx >fifo & } 2>/dev/null
	check 0 "$all" '' timeout 10 hamq idx q
	check 0 "$all" '' timeout 10 hamq fifo q
	wait
	hamq -o i.hix idx
	{ cat i.hix >fifo & } 2>/dev/null
	check 1 '' 'hamq: fifo: an index file must be a regular file\n' timeout 10 hamq fifo q
	wait
}

@test "hamq: the index operand is opened once (strace)" {
	command -v strace >/dev/null || skip "strace not installed"
	[ -z "${SIMTOOL_SAN:-}" ] || skip "sanitizer runtimes open files of their own"
	mkfifo fifo
	{ cat idx >fifo & } 2>/dev/null
	run -0 sh -c 'strace -f -e trace=open,openat -o trace timeout 10 hamq fifo q >/dev/null'
	wait
	run -0 grep -c '"fifo"' trace
	[ "$output" = 1 ]
}

@test "hamq -o: a symbolic link is written through, a device or FIFO written to" {
	hamq -o real.hix idx
	ln -s real.hix link.hix
	printf 'j1\t0000\n' >idx2
	check 0 '' '' hamq -o link.hix idx2
	[ -L link.hix ]
	check 0 'q1\t0\tj1\n' '' hamq -d 0 link.hix q
	check 0 'q1\t0\tj1\n' '' hamq -d 0 real.hix q
	mkdir o
	cd o
	hamq -o want.hix ../idx
	outpath want.hix hamq -o OUT ../idx
}

@test "hamq: no more threads than the processors it may run on" {
	command -v taskset >/dev/null || skip "no taskset"
	command -v strace >/dev/null || skip "no strace"
	[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "one processor: one thread either way"
	genfp -s 3 -m 64 -n 50 -u 10 1000 >i
	hamq i i >want
	# 1000 queries are 8 chunks: a thread for each processor, at most 8
	# (threads: CLONE_THREAD; the leak checker of a sanitizer build
	# cannot run under ptrace)
	export ASAN_OPTIONS="${ASAN_OPTIONS-}:detect_leaks=0"
	strace -f -e trace=clone,clone3 -o trace hamq i i >got
	cmp got want
	[ "$(grep -c CLONE_THREAD trace)" -ge 1 ]
	taskset -c 0 strace -f -e trace=clone,clone3 -o trace hamq i i >got
	cmp got want
	check 0 '0\n' '' sh -c 'grep -c CLONE_THREAD trace || :'
}
