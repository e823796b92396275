#!/usr/bin/env bats
# wordfreq: word counts of page records, in total or per page.

load helper

u='usage: wordfreq [-p] [-s stopwords] [-v vocabulary] [file ...]\n'

@test "wordfreq -h: usage on stdout" {
	check 0 "$u" '' wordfreq -h
}

@test "wordfreq: bad option" {
	badopt "usage: wordfreq [-p] [-s stopwords] [-v vocabulary] [file ...]" wordfreq -x
}

@test "wordfreq: totals in order of first appearance" {
	printf 'p1\tThe cat sat\np2\ton the mat, the cat\n' >in
	check 0 'the\t3\ncat\t2\nsat\t1\non\t1\nmat\t1\n' '' wordfreq in
}

@test "wordfreq: several files and stdin count together" {
	printf 'p1\tb a\n' >f1
	printf 'p2\tc b\n' >f2
	printf 'p3\ta d\n' >f3
	check 0 'b\t2\na\t2\nc\t1\nd\t1\n' '' wordfreq f1 - f3 <f2
}

@test "wordfreq: missing file, keeps going" {
	printf 'p1\tb a\n' >f1
	printf 'p2\tc b\n' >f2
	check 1 'b\t2\na\t1\nc\t1\n' 'wordfreq: nope: No such file or directory\n' \
		wordfreq f1 nope f2
	check 1 'p1\tb:1 a:1\np2\tc:1 b:1\n' 'wordfreq: nope: No such file or directory\n' \
		wordfreq -p f1 nope f2
}

@test "wordfreq: empty input" {
	: >empty
	check 0 '' '' wordfreq empty
	check 0 '' '' wordfreq -p </dev/null
}

@test "wordfreq -p: one record per page, words by first occurrence" {
	printf 'p1\tThe cat sat on the mat\np2\t\np3\tthe A\np4\t, 42 ...\n' >in
	printf 'the a\n' >sw
	check 0 'p1\tthe:2 cat:1 sat:1 on:1 mat:1\np2\t\np3\tthe:1 a:1\np4\t\n' '' wordfreq -p in
	check 0 'p1\tcat:1 sat:1 on:1 mat:1\np2\t\np3\t\np4\t\n' '' wordfreq -p -s sw in
}

@test "wordfreq -p: the ID is kept as read, escapes and all" {
	printf 'a\\tb \\\\\377\tx\nS-1\r\ty\n' >in
	check 0 'a\\tb \\\\\377\tx:1\nS-1\r\ty:1\n' '' wordfreq -p in
}

@test "wordfreq -p: last record without newline" {
	printf 'q\tx y x' >in
	check 0 'q\tx:2 y:1\n' '' wordfreq -p in
}

@test "wordfreq -s: odd whitespace, CRLF, no final newline, uppercase" {
	printf 'The\t a\r\nON\r\n\v\f  X' >sw
	printf 'p1\tthe cat sat on a mat\np2\tx y\n' >in
	check 0 'cat\t1\nsat\t1\nmat\t1\ny\t1\n' '' wordfreq -s sw in
	check 0 'p1\tcat:1 sat:1 mat:1\np2\ty:1\n' '' wordfreq -p -s sw in
}

@test "wordfreq -v: first field, in vocabulary order; a stopword wins" {
	printf 'cat\t9\nDog\nmat\r\nthe\t1\n' >voc
	printf 'the\n' >sw
	printf 'p1\tthe mat and the cat\np2\tdog bird\n' >in
	check 0 'cat\t1\ndog\t1\nmat\t1\nthe\t2\n' '' wordfreq -v voc in
	check 0 'cat\t1\ndog\t1\nmat\t1\n' '' wordfreq -s sw -v voc in
	check 0 'p1\tmat:1 cat:1\np2\tdog:1\n' '' wordfreq -p -s sw -v voc in
}

@test "wordfreq -v: vocabulary with an empty line" {
	printf 'cat\n\ndog\n' >voc
	printf 'p\tcat\n' >in
	check 1 '' 'wordfreq: voc:2: empty word\n' wordfreq -v voc in
}

@test "wordfreq: missing stopword or vocabulary file" {
	printf 'p\tcat\n' >in
	check 1 '' 'wordfreq: nosw: No such file or directory\n' wordfreq -s nosw in
	check 1 '' 'wordfreq: novoc: No such file or directory\n' wordfreq -p -v novoc in
}

@test "wordfreq: words end at digits, punctuation, NUL, high bytes, escapes" {
	printf 'p\tDOG2dog,cat\\0x\377y\\ty\\\\z a\\nb c\\rd e\0f\n' >in
	check 0 'p\tdog:2 cat:1 x:1 y:2 z:1 a:1 b:1 c:1 d:1 e:1 f:1\n' '' wordfreq -p in
}

@test "wordfreq: an escaped backslash before n is no newline" {
	printf 'p\tx\\\\ny\n' >in
	check 0 'x\t1\nny\t1\n' '' wordfreq in
}

@test "wordfreq: an escape cut at the end of a read block" {
	# the backslash is the last byte of the reader's first 256 KiB block
	{ printf 'p\t'; repeat a 262141; printf '\\nb\n'; } >in
	{ repeat a 262141; printf '\t1\nb\t1\n'; } >want
	cmpout 0 want /dev/null wordfreq in
}

@test "wordfreq: uppercase is folded" {
	printf 'p\tWord word WORD wOrD\n' >in
	check 0 'word\t4\n' '' wordfreq in
}

@test "wordfreq: a 100 kB word is one word" {
	repeat A 102400 >w
	{ printf 'p\t'; cat w; printf ' x '; cat w; printf '\nq\t'; cat w; printf '\n'; } >in
	{ repeat a 102400; printf '\t3\nx\t1\n'; } >want
	cmpout 0 want /dev/null wordfreq in
}

@test "wordfreq: record with no TAB" {
	printf 'p1\tab\nnotab\np3\tcd\nlast' >in
	check 1 'p1\tab:1\np3\tcd:1\n' \
		'wordfreq: in:2: no TAB after the page ID\nwordfreq: in:4: no TAB after the page ID\n' \
		wordfreq -p in
	check 1 'ab\t1\ncd\t1\n' \
		'wordfreq: <stdin>:2: no TAB after the page ID\nwordfreq: <stdin>:4: no TAB after the page ID\n' \
		wordfreq <in
}
