#!/usr/bin/env bats
# names: every message names a file, a state or a value with the field
# escape of simrec(5), as a record writes an ID (issue 18.8): a name with
# a TAB, a line break and a backslash in it gives one line on stderr, and
# reads back exactly.

load helper

# The name of the test files, and how every message writes it (as a
# printf format for check: a\tb\nc\\d).
name=$'a\tb\nc\\d'
esc='a\\tb\\nc\\\\d'

# bad CONTENT WHAT TOOL [ARG ...]: the file $name holding CONTENT (a bad
# first record) is reported as "TOOL: NAME:1: WHAT" and the run fails;
# then, removed, as "TOOL: NAME: No such file or directory". One line
# each, nothing on stdout.
bad() {
	local content=$1 what=$2

	shift 2
	printf -- "$content" >"$name"
	check 1 '' "$1: $esc:1: $what\n" "$@" "$name"
	rm -- "$name"
	check 1 '' "$1: $esc: No such file or directory\n" "$@" "$name"
}

@test "docsplit: a name with a TAB, a line break and a backslash is escaped" {
	bad 'x\n' 'invalid JSON at byte 1: not an object' docsplit -j
}

@test "htmltext: a name with a TAB, a line break and a backslash is escaped" {
	bad 'x\n' 'no TAB after the page ID' htmltext
}

@test "sketch: a name with a TAB, a line break and a backslash is escaped" {
	bad 'x\n' 'no TAB after the page ID' sketch
}

@test "simjoin: a name with a TAB, a line break and a backslash is escaped" {
	bad 'x\n' 'no TAB after the ID' simjoin
}

@test "wordfreq: a name with a TAB, a line break and a backslash is escaped" {
	bad 'x\n' 'no TAB after the page ID' wordfreq
	bad 'x\n' 'no TAB after the page ID' wordfreq -p
}

@test "topn: a name with a TAB, a line break and a backslash is escaped" {
	bad 'x\n' 'no TAB between word and count' topn 3
}

@test "fphash: a name with a TAB, a line break and a backslash is escaped" {
	bad 'x\n' 'no TAB after the page ID' fphash -H -m 8
}

@test "hamq: a name with a TAB, a line break and a backslash is escaped" {
	bad 'x\n' 'no TAB between ID and fingerprint' hamq /dev/null
	check 1 '' "hamq: $esc: No such file or directory\n" hamq "$name" /dev/null
}

@test "fmtresult: a name with a TAB, a line break and a backslash is escaped" {
	bad 'a\tx\tb\n' "distance 'x' is invalid" fmtresult
}

@test "fpcluster: a name with a TAB, a line break and a backslash is escaped" {
	bad 'a\tx\tb\n' "distance 'x' is invalid" fpcluster
}

@test "parjoin: a name with a TAB, a line break and a backslash is escaped" {
	bad 'a\tx\tb\n' "distance 'x' is invalid" parjoin -m /dev/null
}

@test "parsplit: a name with a TAB, a line break and a backslash is escaped" {
	bad 'x\n' 'no TAB after the page ID' parsplit -m map
	check 1 '' "parsplit: $esc/map: No such file or directory\n" parsplit -m "$name/map" /dev/null
}

@test "paireval: a name with a TAB, a line break and a backslash is escaped" {
	bad 'x\n' 'fewer than 3 fields (ID_A, ID_B, LABEL)' paireval
	bad 'x\n' 'fewer than 2 fields (ID_A, ID_B)' paireval /dev/null
	printf 'a\tb\t0\na\tb\t1\n' >"$name"
	run -1 --separate-stderr paireval "$name" /dev/null
	[ "$stderr" = "paireval: $(printf "$esc"):2: pair labelled 1 here and 0 at line 1" ]
}

@test "skidx: a name with a TAB, a line break and a backslash is escaped" {
	printf 'x\n' >"$name"
	run -1 --separate-stderr skidx -o ix "$name"
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ "$stderr" = $'skidx: a\\tb\\nc\\\\d:1: no TAB after the ID' ]
	rm -- "$name"
	check 1 '' "skidx: $esc: No such file or directory\n" skidx -d "$name"
	check 1 '' "simjoin: $esc: No such file or directory\n" simjoin -q /dev/null -x "$name"
}

@test "docsplit: a path in a walk is named as its ID is written" {
	mkdir d
	printf 'x' >"d/$name"
	printf '\0\1\2' >"d/$name.bin"
	check 0 "d/$esc\tx\n" "docsplit: d/$esc.bin: binary, skipped
docsplit: 1 binary file skipped, 0 WARC records skipped\n" docsplit -vf d
	# a list of -0 keeps the line break in the path
	printf 'd/%s\0%s\0' "$name" "$name" >list
	check 1 "d/$esc\tx\n" "docsplit: $esc: No such file or directory\n" docsplit -0f list
}

@test "a value in a usage error is escaped as a name is" {
	check 2 '' "sketch: shingle size '$esc' is invalid (allowed: 1 to 16)\n" sketch -k "$name"
	check 2 '' "docsplit: part '$esc' is invalid (part/parts)\n" docsplit -p "$name"
	check 2 '' "fpcluster: threshold '$esc' is invalid (allowed: a decimal fraction from 0 to 1, at most 15 decimals)\n" \
		fpcluster -t "$name"
}

@test "ndstate: a state name is escaped" {
	check 1 '' "ndstate: $esc: no such state directory\n" ndstate -q "$name" true
}

@test "neardup: names and values are escaped as the tools escape them" {
	check 2 '' "neardup: threshold '$esc' is invalid (allowed: a decimal fraction from 0 to 1, at most 15 decimals)\n" \
		neardup -t "$name" .
	check 2 '' "neardup: extract '$esc' is invalid (main, all or raw)\n" neardup -e "$name" .
	check 2 '' "neardup: words '$esc' is invalid (allowed: 1 to 16)\n" neardup -k "$name" .
	check 1 '' "ndstate: $esc: no such state directory\n" neardup -q "$name" .
}
