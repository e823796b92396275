#!/usr/bin/env bats
# The word table (lib/wtab.h) under words built to collide: wtabstat(tool)
# counts the probes, so the bound is on work done, not on time.

load helper
load faults

# probes FILE: wtabstat on FILE; 2^16 distinct words, and finding each of
# them once looks at fewer than 3 slots on average (a keyed hash: about
# 1.2). The former hash gave 2^31 probes here.
probes() {
	run --separate-stderr wtabstat "$1"
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	set -- $output
	[ "$1 $2 $3" = "words 65536 probes" ]
	[ "$4" -lt $((3 * 65536)) ]
	[ "$7 $8" = "hash fast" ]
}

@test "wtab: 2^16 byte strings that collided under the former hash" {
	collide $collide_bytes 16 >w
	probes w
}

@test "wtab: 2^16 words of letters that collided under the former hash" {
	collide $collide_letters 16 >w
	probes w
}

@test "wtabstat: ordinary words, and a missing file" {
	printf 'a\nb\na\n\nlonger than seven\nlonger than seven!\n' >w
	run --separate-stderr wtabstat w
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	# 5 words, 5 probes or a few more when hashes meet: the key is random
	case $output in
	'words 5 probes '[5-9]' longest '[1-5]' hash fast') ;;
	*) false ;;
	esac
	check 1 'words 0 probes 0 longest 0 hash fast\n' 'wtabstat: nope: No such file or directory\n' wtabstat nope
}

# The fast hash gives way to SipHash when a lookup looks at more than
# maxprobe slots (wtab.h): wtabstat -m lowers the limit that words made
# to collide would reach, and checks that every word keeps its id.
@test "wtab: a lookup past the probe limit moves the table to SipHash, ids kept" {
	printf 'a\nb\na\n\nlonger than seven\nlonger than seven!\n' >w
	run --separate-stderr wtabstat -m 0 w
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	case $output in
	'words 5 probes '[5-9]' longest '[1-5]' hash siphash') ;;
	*) false ;;
	esac
	# 2^16 words: the limit of 2 is passed by chance early on, in the
	# middle of a growth or of a run of additions
	collide $collide_letters 16 >w
	run --separate-stderr wtabstat -m 2 w
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	set -- $output
	[ "$1 $2 $3" = "words 65536 probes" ]
	[ "$4" -lt $((3 * 65536)) ]
	[ "$7 $8" = "hash siphash" ]
}

@test "wtab: under the default limit ordinary words keep the fast hash" {
	awk 'BEGIN { for (i = 0; i < 100000; i++) print "w" i }' >w
	run --separate-stderr wtabstat w
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	set -- $output
	[ "$1 $2" = "words 100000" ]
	[ "$7 $8" = "hash fast" ]
}

@test "wtabstat: usage" {
	check 2 '' 'wtabstat: maxprobe '"'"'x'"'"' is invalid (allowed: 0 to 256)\n' wtabstat -m x
	check 2 '' 'usage: wtabstat [-m maxprobe] [file ...]\n' wtabstat -q
}
