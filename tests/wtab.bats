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
	'words 5 probes '[5-9]' longest '[1-5]) ;;
	*) false ;;
	esac
	check 1 'words 0 probes 0 longest 0\n' 'wtabstat: nope: No such file or directory\n' wtabstat nope
}
