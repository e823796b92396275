#!/usr/bin/env bats
# docsplit: page files split at form feeds -> "ID<TAB>TEXT" page records.

load helper

u='usage: docsplit [file ...]\n'

@test "docsplit -h: usage on stdout" {
	check 0 "$u" '' docsplit -h
}

@test "docsplit: bad option" {
	badopt "usage: docsplit [file ...]" docsplit -x
}

@test "docsplit: pages on stdin" {
	printf 'A\nhello world\n\fB\nbye\n' >in
	check 0 'A\thello world\\n\nB\tbye\\n\n' '' docsplit <in
}

@test "docsplit: several files and - for stdin" {
	printf 'A\na\n' >f1
	printf 'B\nb\n\fC\nc\n' >f2
	printf 'D\nd\n' >f3
	check 0 'A\ta\\n\nB\tb\\n\nC\tc\\n\nD\td\\n\n' '' docsplit f1 - f3 <f2
}

@test "docsplit: file end ends a page" {
	printf 'A\ntext' >f1
	printf 'more\nB\n' >f2
	check 0 'A\ttext\nmore\tB\\n\n' '' docsplit f1 f2
}

@test "docsplit: an ID line cut by file end stays in its file" {
	printf '  \nID1' >f1
	printf 'ID2\n' >f2
	check 0 'ID1\t\nID2\t\n' '' docsplit f1 f2
}

@test "docsplit: missing file, keeps going" {
	printf 'A\na\n' >f1
	printf 'B\nb\n' >f2
	check 1 'A\ta\\n\nB\tb\\n\n' 'docsplit: nope: No such file or directory\n' \
		docsplit f1 nope f2
}

@test "docsplit: empty input" {
	: >empty
	check 0 '' '' docsplit empty
	check 0 '' '' docsplit </dev/null
}

@test "docsplit: CRLF input" {
	printf 'A\r\nhello\r\nworld\r\n\fB\r\nx\r\n' >in
	check 0 'A\thello\\r\\nworld\\r\\n\nB\tx\\r\\n\n' '' docsplit in
}

@test "docsplit: missing final newline" {
	printf 'A\nno final' >in
	check 0 'A\tno final\n' '' docsplit in
}

@test "docsplit: trailing form feed" {
	printf 'A\ntext\n\f' >in
	check 0 'A\ttext\\n\n' '' docsplit in
	printf '\f' >ff
	check 0 '' '' docsplit ff
}

@test "docsplit: empty pages and chunks of blank lines are no pages" {
	printf '\f\f\n\n\f  \t\r\n\v\n\fB\nb\f \f' >in
	check 0 'B\tb\n' '' docsplit in
}

@test "docsplit: blank lines before the ID" {
	printf '\n\r\n \t \nID1\ntext' >in
	check 0 'ID1\ttext\n' '' docsplit in
}

@test "docsplit: ID with letters, trimmed of space, TAB, CR, VT" {
	printf ' \t Sample-1 x\t \v\r\nbody\n\f\vB\v\n' >in
	check 0 'Sample-1 x\tbody\\n\nB\t\n' '' docsplit in
}

@test "docsplit: ID line followed directly by a form feed" {
	printf 'ID\fnext\nt' >in
	check 0 'ID\t\nnext\tt\n' '' docsplit in
	printf 'ID\n\fX\n' >in2
	check 0 'ID\t\nX\t\n' '' docsplit in2
}

@test "docsplit: escaping of TAB, backslash, CR, NUL and LF in the text" {
	printf 'I\nt\\a\tb\0c\rd\ne\n' >in
	check 0 'I\tt\\\\a\\tb\\0c\\rd\\ne\\n\n' '' docsplit in
}

@test "docsplit: escaping of TAB, backslash, CR and NUL in the ID" {
	printf 'a\\b\tc\0d\re \r\nx' >in
	check 0 'a\\\\b\\tc\\0d\\re\tx\n' '' docsplit in
}

@test "docsplit: high bytes pass as they are" {
	printf 'x\377\344\n\376\200\n' >in
	check 0 'x\377\344\t\376\200\\n\n' '' docsplit in
}

@test "docsplit: a 1 MB line" {
	repeat a 1048576 >big
	{ printf 'ID\n'; cat big; printf '\n'; } >in
	{ printf 'ID\t'; cat big; printf '\\n\n'; } >want
	cmpout 0 want /dev/null docsplit in
}

@test "docsplit: a 1 MB ID" {
	repeat b 1048576 >big
	{ printf '\n \t'; cat big; printf ' \r\nbody\f'; } >in
	{ cat big; printf '\tbody\n'; } >want
	cmpout 0 want /dev/null docsplit in
}

# ---- Hardening: bad input, output faults, resource bounds ----
load faults

@test "docsplit: an empty file" {
	: >e
	check 0 '' '' docsplit e
}

@test "docsplit: a directory" {
	mkdir d
	check 1 'A\tx\\n\n' 'docsplit: d: read error: Is a directory\n' docsplit d - <<<$'A\nx'
}

@test "docsplit: an unreadable file" {
	needasuser
	printf 'A\nx\n' >f
	chmod 000 f
	check 1 '' 'docsplit: f: Permission denied\n' asuser docsplit f
}

@test "docsplit: NUL bytes and bytes >= 0x80 in ID and text" {
	printf '\0\377I\200D\0\n\0x\377\f\200\n' >f
	check 0 '\\0\377I\200D\\0\t\\0x\377\n\200\t\n' '' docsplit f
}

@test "docsplit: a 50 MB line" {
	{ printf 'ID\n'; repeat a 50000000; printf '\n'; } >big
	docsplit big >out
	[ "$(wc -c <out)" -eq 50000006 ]
	[ "$(head -c 4 out)" = "ID${TAB:-	}a" ]
	[ "$(tail -c 4 out | od -An -c | tr -d ' ')" = 'a\n\n' ]
}

@test "docsplit: duplicate IDs are labels: both pages are kept" {
	printf 'A\nx\fA\ny\f A \nz\n' >f
	check 0 'A\tx\nA\ty\nA\tz\\n\n' '' docsplit f
}

@test "docsplit: stdout cannot be written" {
	printf 'A\nx\n' >small
	devfull docsplit small
	{ printf 'A\n'; repeat a 300000; } >big
	devfull docsplit big
	devfull docsplit big small
}

@test "docsplit: the reader of stdout goes away" {
	{ printf 'A\n'; repeat a 2000000; } >big
	sigpipe docsplit big
}

@test "docsplit: a page far bigger than its memory limit streams through" {
	needvlimit
	(
		ulimit -v 50000
		{ printf 'P\n'; words 120000000; } | docsplit | wc -c >n
	)
	[ "$(cat n)" -eq 120000003 ]
}
