#!/usr/bin/env bats
# docsplit: page files split at form feeds, whole files (-f), JSON Lines (-j),
# directories and lists of paths (-0, -l) -> "ID<TAB>TEXT" page records.

load helper

u='usage: docsplit [-0afjlnsuv] [-i name] [-m max] [-o prefix -r parts] [-p part/parts] [-t name] [file ...]\n'

@test "docsplit -h: usage on stdout" {
	check 0 "$u" '' docsplit -h
}

@test "docsplit: bad option" {
	badopt "usage: docsplit [-0afjlnsuv] [-i name] [-m max] [-o prefix -r parts] [-p part/parts] [-t name] [file ...]" docsplit -x
}

@test "docsplit: options that do not go together" {
	check 2 '' "docsplit: -f cannot go with -j\n$u" docsplit -f -j
	check 2 '' "docsplit: -0 cannot go with -l\n$u" docsplit -0 -l
	check 2 '' "docsplit: -i and -t need -j\n$u" docsplit -i name
	check 2 '' "docsplit: -i and -t need -j\n$u" docsplit -f -t body
	badopt "usage: docsplit [-0afjlnsuv] [-i name] [-m max] [-o prefix -r parts] [-p part/parts] [-t name] [file ...]" docsplit -j -i
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
	check 0 'I\tt\\\\a\\tb\\0c\\rd\\ne\\n\n' '' docsplit -a in
}

@test "docsplit: escaping of TAB, backslash, CR and NUL in the ID" {
	printf 'a\\b\tc\0d\re \r\nx' >in
	check 0 'a\\\\b\\tc\\0d\\re\tx\n' '' docsplit -a in
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

@test "docsplit: a directory of page files is walked" {
	mkdir -p d/sub empty
	printf 'B\nb\n' >d/sub/p
	printf 'A\na\fC\nc' >d/p
	check 0 'A\ta\nC\tc\nB\tb\\n\nD\tx\\n\n' '' docsplit d empty - <<<$'D\nx'
}

@test "docsplit: an unreadable file" {
	needasuser
	printf 'A\nx\n' >f
	chmod 000 f
	check 1 '' 'docsplit: f: Permission denied\n' asuser docsplit f
}

@test "docsplit: NUL bytes and bytes >= 0x80 in ID and text" {
	printf '\0\377I\200D\0\n\0x\377\f\200\n' >f
	check 0 '\\0\377I\200D\\0\t\\0x\377\n\200\t\n' '' docsplit -a f
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

# ---- One document per file (-f), directories, lists of paths (-0, -l) ----

@test "docsplit -f: a file is one document, form feeds and all" {
	printf 'first line\n\fA\nsecond\f\fthird\n' >f1
	printf 'x' >f2
	check 0 'f1\tfirst line\\n\fA\\nsecond\f\fthird\\n\nf2\tx\n' '' docsplit -f f1 f2
}

@test "docsplit -f: an empty file is a document with empty text" {
	: >e1
	printf '\n' >nl
	: >e2
	check 0 'e1\t\nnl\t\\n\ne2\t\n' '' docsplit -f e1 nl e2
}

@test "docsplit -f: the ID is the path as given, escaped; the text escaped" {
	mkdir sub
	printf 'a\tb\\c\0d\re\n' >'sub/x y'
	check 0 './sub//x y\ta\\tb\\\\c\\0d\\re\\n\n' '' docsplit -fa './sub//x y'
}

@test "docsplit -f: standard input is the document -" {
	check 0 '-\tin\fo\n' '' docsplit -f < <(printf 'in\fo')
	check 0 'a\t1\n-\t2\n' '' sh -c 'printf 1 >a; printf 2 | docsplit -f a -'
}

@test "docsplit -f: a directory is walked in strcmp order of names, depth first" {
	mkdir -p d/a/z d/b
	printf 1 >d/B
	printf 2 >d/a.txt
	printf 3 >d/a-1
	printf 4 >d/a/z/deep
	printf 5 >d/a/x
	: >d/b/empty
	printf 6 >d/_
	printf 7 >d/.hidden
	check 0 'd/.hidden\t7\nd/B\t1\nd/_\t6\nd/a/x\t5\nd/a/z/deep\t4\nd/a-1\t3\nd/a.txt\t2\nd/b/empty\t\n' '' \
		docsplit -f d
	# no doubled slash after an operand ending in one
	check 0 'd/a/x\t5\nd/a/z/deep\t4\n' '' docsplit -f d/a/
}

@test "docsplit -f: symbolic links" {
	mkdir -p real/in d
	printf r >real/in/f
	printf t >target
	ln -s ../target d/1file
	ln -s ../real d/2dir
	ln -s nowhere d/3dangling
	ln -s . d/5loop
	printf x >d/4
	ln -s real top
	# an operand is followed; in a walk, links to files are, links to
	# directories are not; a dangling link is reported
	check 1 'top/in/f\tr\nd/1file\tt\nd/4\tx\n' 'docsplit: d/3dangling: No such file or directory\n' \
		docsplit -f top d
}

@test "docsplit -f: FIFOs in a walk are not documents; as operands they are reported" {
	mkdir d
	mkfifo d/fifo
	printf x >d/y
	check 0 'd/y\tx\n' '' docsplit -f d
	# no writer: an open that waited for one would never return
	mkfifo p
	check 1 'd/y\tx\n' 'docsplit: p: not a regular file\n' timeout 10 docsplit -f p d/y
	check 1 'A\ta\\n\n' 'docsplit: p: not a regular file\n' timeout 10 docsplit p - <<<$'A\na'
	printf 'p\nd/y\n' >list
	check 1 'd/y\tx\n' 'docsplit: p: not a regular file\n' timeout 10 docsplit -fl list
	printf 'p\0d/y\0' >list0
	check 1 'd/y\tx\n' 'docsplit: p: not a regular file\n' timeout 10 docsplit -0f -p 0/1 list0
	check 1 '' 'docsplit: p: not a regular file\n' timeout 10 docsplit -0f -p 0/2 list0
	check 1 '' 'docsplit: d/fifo: not a regular file\n' timeout 10 docsplit -f d/fifo
	# a device is no document either; standard input is read whatever it is
	check 1 '' 'docsplit: /dev/null: not a regular file\n' docsplit -f /dev/null
	printf 'data\f' | check 0 '-\tdata\f\n' '' timeout 10 docsplit -f -
}

@test "docsplit -f: files turned into FIFOs under a walk do not block it" {
	local i st pid rounds=0 hits=0
	mkdir d
	for i in 0 1 2 3 4 5 6 7 8 9; do printf x >"d/$i"; done
	# each name flips between a file and a FIFO for 3 s: a walk that
	# looked at a file and opened a FIFO blocked for good (every few runs
	# of 1000 entries); now it reports the FIFO
	fifoflip 3 d/* >flips &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		st=0
		timeout 10 docsplit -f $(printf 'd %.0s' $(seq 100)) >out 2>err || st=$?
		case $st in
		0) ;;
		1) hits=$((hits + 1)) ;;
		*) false ;;
		esac
		[ "$(grep -cvx 'docsplit: d/[0-9]: not a regular file' err)" -eq 0 ]
		[ "$(grep -cvx 'd/[0-9]	x' out)" -eq 0 ]
		rounds=$((rounds + 1))
	done
	wait "$pid"
	[ "$(cat flips)" -gt 0 ]
	echo "# $rounds runs, $hits met a FIFO" >&3
}

@test "docsplit: with standard input closed, descriptor 0 is a file like any other" {
	mkdir -p d/sub
	printf x >d/a
	printf y >d/sub/b
	printf 'A\na' >p
	printf 'd\0p\0' >list
	# open(2) gives a file descriptor 0: it was taken for standard input,
	# so an operand directory was read as a file and the file left open
	check 0 'd/a\tx\nd/sub/b\ty\n' '' docsplit -f d <&-
	check 0 'd/a\tx\nd/sub/b\ty\nd/a\tx\nd/sub/b\ty\n' '' docsplit -f d/ d <&-
	check 0 'd/a\tx\nd/sub/b\ty\np\tA\\na\n' '' docsplit -0f list <&-
	check 0 'A\ta\nA\ta\n' '' docsplit p p <&-
	check 1 '' 'docsplit: <stdin>: read error: Bad file descriptor\n' docsplit - <&-
	# and a file read at descriptor 0 is closed, not standard input after
	check 1 'p\tA\\na\n-\t\n' 'docsplit: <stdin>: read error: Bad file descriptor\n' docsplit -f p - <&-
}

@test "docsplit -f: an unreadable file is reported and skipped" {
	needasuser
	mkdir d
	printf a >d/1
	printf b >d/2
	printf c >d/3
	chmod 000 d/2
	check 1 'd/1\ta\nd/3\tc\n' 'docsplit: d/2: Permission denied\n' asuser docsplit -f d
}

@test "docsplit -f: a file truncated while it is read is reported" {
	[ -d /proc/self/fdinfo ] || skip "no /proc/PID/fdinfo"
	# truncated once docsplit has read some of it, and is still reading
	for try in 1 2 3 4 5; do
		yes 'alpha beta gamma delta' | head -c 200000000 >big.txt
		docsplit -f big.txt >out 2>err &
		pid=$!
		caught=
		while kill -0 "$pid" 2>/dev/null; do
			for fd in /proc/"$pid"/fd/*; do
				case $(readlink "$fd" 2>/dev/null) in
				*/big.txt) ;;
				*) continue ;;
				esac
				# (gone meanwhile: awk fails, look again)
				pos=$(awk '$1 == "pos:" { print $2 }' /proc/"$pid"/fdinfo/"${fd##*/}" 2>/dev/null) || pos=
				[ "${pos:-0}" -gt 0 ] || break	# not begun: look again
				# far from its end: truncated while read; else too late
				if [ "$pos" -lt 100000000 ]; then
					truncate -s 1000 big.txt
					caught=1
				else
					caught=late
				fi
				break 2
			done
		done
		run wait "$pid"
		[ "$caught" != 1 ] || break
	done
	[ "$caught" = 1 ] || skip "docsplit was never caught early in its reading"
	[ "$status" -eq 1 ]
	[ "$(cat err)" = "docsplit: big.txt: changed as it was read" ]
}

@test "docsplit: a file that is standard output is not read" {
	yes 'alpha beta' | head -c 1000000 >big
	cp big want
	run sh -c 'docsplit -f big >>big'
	[ "$status" -eq 1 ]
	[ "$output" = "docsplit: big: input file is output file" ]
	cmp big want
	printf 'A\nhello\n' >p
	printf 'B\nbye\n' >q
	run sh -c 'docsplit p q >>p'
	[ "$status" -eq 1 ]
	[ "$output" = "docsplit: p: input file is output file" ]
	check 0 'A\nhello\nB\tbye\\n\n' '' cat p
	# standard input too; an empty output file is read (there is nothing)
	run sh -c 'docsplit <p >>p'
	[ "$status" -eq 1 ]
	[ "$output" = "docsplit: <stdin>: input file is output file" ]
	: >e
	check 0 'e\t\n' '' sh -c 'docsplit -f e >e; cat e'
}

@test "docsplit -f: an unreadable directory is reported and skipped" {
	needasuser
	mkdir -p d/no d/yes
	printf a >d/no/f
	printf b >d/yes/f
	chmod 000 d/no
	check 1 'd/yes/f\tb\n' 'docsplit: d/no: Permission denied\n' asuser docsplit -f d
	# and so by -n
	check 1 'd/yes/f\0' 'docsplit: d/no: Permission denied\n' asuser docsplit -n d
}

@test "docsplit -f: a missing operand is reported, the others still come out" {
	printf a >a
	check 1 'a\ta\n' 'docsplit: nope: No such file or directory\n' docsplit -f nope a
}

@test "docsplit -0: NUL-separated paths, names with newline, TAB and backslash" {
	mkdir d
	printf 1 >$'d/new\nline'
	printf 2 >$'d/t\tab'
	printf 3 >'d/back\slash'
	printf 'd/new\nline\0d/t\tab\0\0d/back\\slash\0' >list
	check 0 'd/new\\nline\t1\nd/t\\tab\t2\nd/back\\\\slash\t3\n' '' docsplit -0f <list
	# a final path without its NUL counts
	printf 'd/back\\slash' | check 0 'd/back\\\\slash\t3\n' '' docsplit -0 -f
}

@test "docsplit -0: find -print0 on a folder of HTML and text files" {
	mkdir -p site/sub
	printf '<p>a\fb</p>' >site/sub/b.html
	printf 'text\n' >site/a.txt
	: >site/empty.html
	find site -type f -print0 | sort -z >list
	check 0 'site/a.txt\ttext\\n\nsite/empty.html\t\nsite/sub/b.html\t<p>a\fb</p>\n' '' \
		docsplit -0 -f list
}

@test "docsplit -l: newline-separated paths; directories walked; - is a file" {
	mkdir d
	printf 1 >d/x
	printf 2 >./-
	printf 3 >f
	printf 'f\n\nd\n-\nmissing\nf' >list
	check 1 'f\t3\nd/x\t1\n-\t2\nf\t3\n' 'docsplit: missing: No such file or directory\n' \
		docsplit -fl list
}

@test "docsplit -l: a list with CR LF line ends reads as one with LF; -0 keeps a CR" {
	printf 1 >f
	printf 2 >g
	printf 3 >$'h\r'
	printf 'f\r\ng\r\n\r\nf\r' >list
	check 0 'f\t1\ng\t2\nf\t1\n' '' docsplit -fl list
	check 0 'f\0g\0f\0' '' docsplit -nl list
	check 0 'h\\r\t3\n' '' sh -c 'printf "h\r\0" | docsplit -f0'
	check 1 '' 'docsplit: h: No such file or directory\n' sh -c 'printf "h\r\n" | docsplit -fl'
}

@test "docsplit -l: a NUL in a path" {
	printf 1 >f
	printf 'f\0x\nf\n' >list
	check 1 'f\t1\n' 'docsplit: list:1: NUL in a path (a list for -0?)\n' docsplit -f -l list
}

@test "docsplit -0 -l: lists of page files and of JSON Lines files" {
	printf 'A\na\fB\nb' >p1
	printf '{"id":"J","text":"j"}\n' >j1
	check 0 'A\ta\nB\tb\n' '' docsplit -l <<<p1
	check 0 'J\tj\n' '' docsplit -0j < <(printf 'j1\0')
}

@test "docsplit -l: many paths, none meet the argument length limit" {
	mkdir d
	for i in $(seq 1000 2999); do printf "$i" >"d/$i"; done
	find d -type f | sort >list
	docsplit -l -f list >out
	[ "$(wc -l <out)" -eq 2000 ]
	[ "$(head -n 1 out)" = "d/1000${TAB:-	}1000" ]
	[ "$(tail -n 1 out)" = "d/2999${TAB:-	}2999" ]
	cmp out <(docsplit -f d)
}

@test "docsplit -f: stdout cannot be written" {
	mkdir d
	printf x >d/a
	repeat a 300000 >d/b
	devfull docsplit -f d/a
	devfull docsplit -f d
	printf 'd/b\nd/a\n' >list
	devfull docsplit -fl list
}

@test "docsplit -f: a file far bigger than its memory limit streams through" {
	needvlimit
	(
		ulimit -v 50000
		words 120000000 | docsplit -f | wc -c >n
	)
	[ "$(cat n)" -eq 120000003 ]
}

# Each gzip file's reader took its decoder anew (110 kB, and 64 kB for
# its input), given back to the system between files: fresh memory, a
# page fault for each 4 kB. 20 files of 1 MB and 20 gzip copies took 662
# faults, one of each 148. A closed reader's decoder serves the next one
# now: 150. Faults are counted, not time.
@test "docsplit -f: many gzip files take the decoder's memory once" {
	need_rss
	mkdir one many
	awk 'BEGIN { for (i = 0; i < 100000; i++) printf "word%d\n", i }' >one/f
	gzip -c one/f >one/g.gz
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		cp one/f "many/f$i"
		cp one/g.gz "many/g$i.gz"
	done
	faults one 'docsplit -f one >one.rec'
	faults many 'docsplit -f many >many.rec'
	[ "$(wc -l <many.rec)" -eq 40 ]
	[ "$(cut -f 2 many.rec | sort -u | wc -l)" -eq 1 ]
	[ "$(cut -f 2 many.rec | sort -u)" = "$(head -n 1 one.rec | cut -f 2)" ]
	[ "$(cat many.faults)" -le $(($(cat one.faults) * 3 / 2)) ]
}

# ---- JSON Lines (-j) ----

@test "docsplit -j: ID and text members, others skipped" {
	printf '{"id":"a","text":"hello"}\n{"x":1,"text":"t","id":"b","y":{"z":[1,{"q":null}]}}\n' >in.jsonl
	check 0 'a\thello\nb\tt\n' '' docsplit -j in.jsonl
}

@test "docsplit -j: every string escape, surrogate pairs to UTF-8" {
	printf '%s\n' '{"id":"e","text":"q\" b\\ s\/ \b\f\n\r\t \u0041\u00e9\u20ac\ud83d\ude00\u0000."}' >in
	check 0 'e\tq" b\\\\ s/ \b\f\\n\\r\\t A\303\251\342\202\254\360\237\230\200\\0.\n' '' docsplit -j in
}

@test "docsplit -j: lone surrogates become U+FFFD" {
	printf '%s\n' '{"id":"s","text":"\ud800x\udc00\ud83d\ud83d\ude00\ud800"}' >in
	check 0 's\t\357\277\275x\357\277\275\357\277\275\360\237\230\200\357\277\275\n' '' docsplit -j in
}

@test "docsplit -j: a numeric ID is taken as written" {
	printf '{"id":7,"text":"a"}\n{"id":-0.50E+01,"text":"b"}\n{"id":1e999,"text":"c"}\n' >in
	check 0 '7\ta\n-0.50E+01\tb\n1e999\tc\n' '' docsplit -j in
}

@test "docsplit -j: IDs and texts with bytes that need escaping" {
	printf '{"id":"a\\tb\\\\c\\nd","text":"x\\r\\ny"}\n' >in
	check 0 'a\\tb\\\\c\\nd\tx\\r\\ny\n' '' docsplit -j in
}

@test "docsplit -j: -i and -t choose the members" {
	printf '{"url":"u1","body":"b1","id":"no","text":"no"}\n' >in
	check 0 'u1\tb1\n' '' docsplit -j -i url -t body in
	check 0 'no\tb1\n' '' docsplit -jt body in
}

@test "docsplit -j: names are compared decoded; the last of a duplicate wins" {
	printf '{"\\u0069d":"k","text":"first","text":"last"}\n' >in
	check 0 'k\tlast\n' '' docsplit -j in
}

@test "docsplit -j: bad lines are reported with file:line, the others come out" {
	{
		printf '{"id":"1","text":"one"}\n'
		printf '{"id":"2","text":"two"} x\n'
		printf '{"id":"3" "text":"three"}\n'
		printf '{"id":01,"text":"x"}\n'
		printf '{"id":"4","text":"\\x"}\n'
		printf '{"id":"5","text":"\\u12g4"}\n'
		printf '{"id":"6","text":"tab\there"}\n'
		printf '{"id":"7","text":"unterminated}\n'
		printf '[1,2]\n'
		printf '{"id":"8","text":"eight",}\n'
		printf '{"id":"9","x":[1,}],"text":"nine"}\n'
		printf 'nul\n'
		printf '{"id":"10","text":"ten"}\n'
	} >in
	check 1 '1\tone\n10\tten\n' 'docsplit: in:2: invalid JSON at byte 25: more after the value
docsplit: in:3: invalid JSON at byte 11: expected '"','"' or '"'}'"'
docsplit: in:4: invalid JSON at byte 8: expected '"','"' or '"'}'"'
docsplit: in:5: invalid JSON at byte 19: bad escape
docsplit: in:6: invalid JSON at byte 19: bad \\u escape
docsplit: in:7: invalid JSON at byte 22: control character in string
docsplit: in:8: invalid JSON at byte 32: unterminated string
docsplit: in:9: invalid JSON at byte 1: not an object
docsplit: in:10: invalid JSON at byte 26: expected a member name
docsplit: in:11: invalid JSON at byte 18: expected a value
docsplit: in: 11 bad records, the first 10 said
' docsplit -j in
}

@test "docsplit -j: a missing member, a member of the wrong type" {
	{
		printf '{"text":"no id"}\n'
		printf '{"id":"no text"}\n'
		printf '{"id":null,"text":"t"}\n'
		printf '{"id":["a"],"text":"t"}\n'
		printf '{"id":"a","text":5}\n'
		printf '{"id":"b","text":{"t":"x"}}\n'
		printf '{"id":"ok","text":""}\n'
	} >in
	check 1 'ok\t\n' 'docsplit: in:1: no member "id"
docsplit: in:2: no member "text"
docsplit: in:3: member "id" is not a string or number
docsplit: in:4: member "id" is not a string or number
docsplit: in:5: member "text" is not a string
docsplit: in:6: member "text" is not a string
' docsplit -j in
	check 1 '' 'docsplit: <stdin>:1: no member "body"\n' docsplit -j -t body <<<'{"id":1,"text":"t"}'
}

@test "docsplit -j: blank lines, CRLF, white space, a byte order mark" {
	printf '\xef\xbb\xbf{"id":"a","text":"1"}\r\n\n \t\r\n  { "id" : "b" , "text" : "2" }  \n{"id":"c","text":"3"}' >in
	check 0 'a\t1\nb\t2\nc\t3\n' '' docsplit -j in
	# a byte order mark is only skipped at the start of the file
	printf '{"id":"a","text":"1"}\n\xef\xbb\xbf{"id":"b","text":"2"}\n' >bom2
	check 1 'a\t1\n' 'docsplit: bom2:2: invalid JSON at byte 1: not an object\n' docsplit -j bom2
}

@test "docsplit -j: bytes >= 0x80 pass as they are, invalid UTF-8 too" {
	printf '{"id":"\303\251","text":"\377\200 ok"}\n' >in
	check 0 '\303\251\t\377\200 ok\n' '' docsplit -j in
}

@test "docsplit -j: an empty file, several files, a directory" {
	mkdir d
	: >d/0
	printf '{"id":"a","text":"1"}\n' >d/1
	printf '{"id":"b","text":"2"}\n' >f
	check 0 'a\t1\nb\t2\n' '' docsplit -j d f
}

@test "docsplit -j: a million nested brackets do not crash" {
	{ printf '{"id":"a","text":"t","x":'; repeat '[' 1000000; printf '}\n'; } >open
	{ printf '{"id":"b","x":'; repeat '[' 1000000; repeat ']' 1000000; printf ',"text":"deep"}\n'; } >deep
	check 1 'b\tdeep\n' 'docsplit: open:1: invalid JSON at byte 1000026: expected a value\n' \
		docsplit -j open deep
}

@test "docsplit -j: a 50 MB text" {
	{ printf '{"id":"big","text":"'; repeat a 50000000; printf '"}\n'; } >big
	docsplit -j big >out
	[ "$(wc -c <out)" -eq 50000005 ]
	[ "$(head -c 5 out)" = "big${TAB:-	}a" ]
}

@test "docsplit -j: stdout cannot be written" {
	printf '{"id":"a","text":"1"}\n' >small
	{ printf '{"id":"a","text":"'; repeat a 300000; printf '"}\n'; } >big
	devfull docsplit -j small
	devfull docsplit -j big small
}

@test "docsplit -l: a list is read as it comes, not first whole" {
	# an endless list: only a reader that streams ever writes anything
	repeat a 70000 >f
	timeout 60 sh -c 'yes f | docsplit -fl | head -c 140004' >out
	{ printf 'f\t'; repeat a 70000; printf '\nf\t'; repeat a 69999; } >want
	cmp out want
}

@test "docsplit -f: a tree deeper than the longest path is reported, not a crash" {
	local i name=dddddddddddddddddddddddddddddddddddddddd
	mkdir t
	printf top >t/f
	(
		cd t || exit 1
		for i in $(seq 150); do mkdir "$name" && cd "$name" || exit 1; done
		printf deep >f
	)
	run --separate-stderr docsplit -f t
	[ "$status" -eq 1 ]
	[ "$output" = "t/f${TAB:-	}top" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	case ${stderr_lines[0]} in
	"docsplit: t/$name/"*": File name too long") ;;
	*) false ;;
	esac
}

@test "docsplit: a path with a line break is named on one line" {
	check 1 '' 'docsplit: a\\nb: No such file or directory\n' docsplit -f 'a
b'
}

@test "docsplit -f -p: the parts of a run interleave back into it" {
	mkdir -p d/x d/y
	printf 'one\n' >d/a
	printf 'two\n' >d/x/b
	printf 'three\n' >d/x/c
	printf 'four\n' >d/y/d
	printf 'five\n' >e
	check 0 'd/a\tone\\n\nd/x/c\tthree\\n\ne\tfive\\n\n' '' docsplit -f -p 0/2 d e missing
	check 1 'd/x/b\ttwo\\n\nd/y/d\tfour\\n\n' 'docsplit: missing: No such file or directory\n' \
		docsplit -f -p 1/2 d e missing
	check 0 'd/a\tone\\n\nd/y/d\tfour\\n\nd/x/b\ttwo\\n\ne\tfive\\n\nd/x/c\tthree\\n\n' '' \
		sh -c 'docsplit -f -p 0/3 d e; docsplit -f -p 1/3 d e; docsplit -f -p 2/3 d e'
}

@test "docsplit -p: the byte ranges of a page file concatenate back into it" {
	# pages of every length, blank IDs, a form feed at a cut, CRLF, no final FF
	printf '\f\n \r\nA\r\na b\fB\n\f\f C \nc\nc\fD\n%s\fE\fF\r\nf' \
	    "$(printf 'x%.0s' $(seq 1 300))" >p.txt
	docsplit p.txt >whole
	for parts in 2 3 5 16 64; do
		i=0
		: >cat
		while [ "$i" -lt "$parts" ]; do
			docsplit -p "$i/$parts" p.txt >>cat
			i=$((i + 1))
		done
		cmpout 0 whole /dev/null cat cat
	done
	# the long page D holds the middle: part 1 starts after it
	check 0 'E\t\nF\tf\n' '' docsplit -p 1/2 p.txt
	# what cannot be cut (standard input) is read whole by part 0
	check 0 'A\tx\n' '' sh -c "printf 'A\nx' | docsplit -p 0/2"
	check 0 '' '' sh -c "printf 'A\nx' | docsplit -p 1/2"
}

@test "docsplit -p: standard input from a regular file is cut from where it is" {
	printf 'skip me\nA\na\fB\nb b\fC\nc\n\fD\nd\fE\ne e e\n' >p.txt
	tail -n +2 p.txt >rest.txt
	docsplit rest.txt >whole
	[ "$(wc -l <whole)" -eq 5 ]
	for parts in 2 3 5; do
		i=0
		: >cat
		while [ "$i" -lt "$parts" ]; do
			# the shell's read leaves the offset after the first line
			sh -c 'IFS= read -r _; exec docsplit -p "$1" -' sh "$i/$parts" <p.txt >>cat
			i=$((i + 1))
		done
		cmpout 0 whole /dev/null cat cat
	done
}

@test "docsplit -u: a path met again is said and read once" {
	mkdir -p d/e
	printf 'one\n' >d/e/a
	printf 'two\n' >d/b
	# an operand, a walk's path (d/e/ and d/e give d/e/a alike), a list's
	check 1 'd/b\ttwo\\n\nd/e/a\tone\\n\n' "docsplit: d/e/a: named again: read once\ndocsplit: d/b: named again: read once\ndocsplit: d/e/a: named again: read once\n" \
		docsplit -uf d d/e/a d/b d/e/
	check 1 'd/b\0d/e/a\0' "docsplit: d/e/a: named again: read once\n" docsplit -nu d d/e/a
	printf 'd/b\nd/b\nd\n' >list
	check 1 'd/b\ttwo\\n\nd/e/a\tone\\n\n' "docsplit: d/b: named again: read once\ndocsplit: d/b: named again: read once\n" \
		docsplit -luf list
	# dealt out: read once all the same
	check 1 '' "docsplit: d/e/a: named again: read once\n" docsplit -uf -r 2 -o part. d d/e/a
	check 0 'd/b\ttwo\\n\n' '' cat part.0
	check 0 'd/e/a\tone\\n\n' '' cat part.1
	# without -u, each time
	check 0 'd/e/a\tone\\n\nd/e/a\tone\\n\n' '' docsplit -f d/e/a d/e/a
	# -p numbers the files of a list in each part alike: not with -u
	check 2 '' "docsplit: -u cannot go with -p\n$u" docsplit -uf -p 0/2 d
}

@test "docsplit -p: usage" {
	check 2 '' "docsplit: -p cannot go with -j\n$u" docsplit -j -p 0/2 in
	check 2 '' "docsplit: part '1' is invalid (part/parts)\n" docsplit -f -p 1 in
	check 2 '' "docsplit: part '2' is too large (allowed: 0 to 1)\n" docsplit -f -p 2/2 in
	check 2 '' "docsplit: parts '0' is too small (allowed: 1 to 4096)\n" docsplit -f -p 0/0 in
	check 2 '' "docsplit: parts '4097' is too large (allowed: 1 to 4096)\n" docsplit -f -p 0/4097 in
}

@test "docsplit -r: records dealt out in turn, read once, interleave back into one run" {
	# pages, JSON Lines with a bad line, gzip, on standard input too
	printf 'A\na\fB\nb\f\fC\nc c\fD\n\fE\ne\n' >p.txt
	printf '{"id":"1","text":"one"}\n{bad\n\n{"id":2,"text":"t\\nwo"}\n{"id":"3","text":""}\n' >j.jsonl
	gzip -c p.txt >p.gz
	for args in 'p.txt' 'p.gz p.txt' '-j j.jsonl' '-j - <j.jsonl' '<p.gz'; do
		st=0
		eval "docsplit $args" >whole 2>whole.err || st=$?
		for parts in 1 2 3 7; do
			cmpout "$st" /dev/null whole.err eval "docsplit -r $parts -o part. $args"
			i=0
			set --
			while [ "$i" -lt "$parts" ]; do
				set -- "$@" "part.$i"
				i=$((i + 1))
			done
			paste -d '\n' "$@" | grep -v '^$' >dealt || :
			cmpout 0 whole /dev/null cat dealt
		done
	done
	check 0 '' '' docsplit -r 3 -o part. p.txt
	check 0 'A\ta\nD\t\n' '' cat part.0
	check 0 'B\tb\nE\te\\n\n' '' cat part.1
	check 0 'C\tc c\n' '' cat part.2
}

@test "docsplit -r: usage, and a part that cannot be opened" {
	check 2 '' "docsplit: -r needs -o\n$u" docsplit -r 2 in
	check 2 '' "docsplit: -o needs -r\n$u" docsplit -o part. in
	check 2 '' "docsplit: -n cannot go with -r\n$u" docsplit -n -r 2 -o part. d
	check 2 '' "docsplit: parts '0' is too small (allowed: 1 to 64)\n" docsplit -r 0 -o part. in
	check 2 '' "docsplit: parts '65' is too large (allowed: 1 to 64)\n" docsplit -r 65 -o part. in
	printf 'A\na\n' >in
	check 1 '' 'docsplit: no/part.0: No such file or directory\n' docsplit -r 2 -o no/part. in
}

# ---- Listing (-n): one walk, dealt out to parts ----

@test "docsplit -n: the paths a -f run reads, each ended by NUL" {
	mkdir -p d/a d/empty
	printf 1 >d/a/x
	printf 2 >$'d/-t\tab'
	printf 3 >$'d/new\nline'
	printf 4 >e
	printf 5 >-lead
	ln -s nowhere d/dangling
	ln -s ../e d/link
	ln -s a d/dirlink
	mkfifo d/fifo
	# a directory is listed as its files; a dangling link is reported once
	check 1 'd/-t\tab\0d/a/x\0d/link\0d/new\nline\0e\0-lead\0' \
		'docsplit: d/dangling: No such file or directory\ndocsplit: nope: No such file or directory\n' \
		docsplit -n -- d e nope -lead
	check 1 'd/-t\tab\0d/a/x\0d/link\0d/new\nline\0e\0-lead\0' \
		'docsplit: d/dangling: No such file or directory\ndocsplit: nope: No such file or directory\n' \
		docsplit -fn -- d e nope -lead
	# links given as operands are followed, to files and directories
	ln -s d top
	check 0 'top/a/x\0d/link\0' '' docsplit -n top/a d/link
}

@test "docsplit -n -0, -n -l: the paths of lists; - in a list is a file" {
	mkdir d
	printf 1 >d/x
	printf 2 >./-
	printf 3 >f
	printf 'f\n\nd\n-\nmissing\n' >list
	check 1 'f\0d/x\0-\0' 'docsplit: missing: No such file or directory\n' docsplit -nl list
	printf 'd\0-\0' | check 0 'd/x\0-\0' '' docsplit -n0
	# and read back, a - in the list is the same file
	printf 'd\0-\0' | docsplit -n0 >paths
	check 0 'd/x\t1\n-\t2\n' '' docsplit -0f paths
}

@test "docsplit -n: usage" {
	check 2 '' 'docsplit: -n: no file operand (standard input cannot be listed)\n' docsplit -n
	check 2 '' 'docsplit: -n: standard input cannot be listed\n' docsplit -n a - b
	check 2 '' "docsplit: -n cannot go with -j\n$u" docsplit -nj d
	check 2 '' "docsplit: -n cannot go with -p\n$u" docsplit -nf -p 0/2 d
	check 2 '' "docsplit: -s needs -n\n$u" docsplit -s d
	check 2 '' "docsplit: -s needs -n\n$u" docsplit -fs d
}

@test "docsplit -ns: only the files that give a document, a document an entry" {
	mkdir d
	head -c 3000 /bin/cp >d/a.bin
	printf 'text\n' >d/b.txt
	gzip -c d/b.txt >d/c.gz
	head -c 3000 /bin/cp | gzip >d/e.gz
	ln -s nowhere d/f
	mkfifo d/g
	printf 'WARC/1.1\r\n' >d/h.warc
	printf 'text\n' >d/i.txt
	check 1 'd/b.txt\0d/c.gz\0d/h.warc\0d/i.txt\0' 'docsplit: d/f: No such file or directory\n' docsplit -ns d
	# the binary ones named and counted, or read with -a
	check 1 'd/b.txt\0d/c.gz\0d/h.warc\0d/i.txt\0' 'docsplit: d/a.bin: binary, skipped\ndocsplit: d/e.gz: binary, skipped\ndocsplit: d/f: No such file or directory\ndocsplit: 2 binary files skipped, 0 WARC records skipped\n' docsplit -nsv d
	check 1 'd/a.bin\0d/b.txt\0d/c.gz\0d/e.gz\0d/h.warc\0d/i.txt\0' 'docsplit: d/f: No such file or directory\n' docsplit -nsa d
	# without -s, each regular file, not opened
	check 1 'd/a.bin\0d/b.txt\0d/c.gz\0d/e.gz\0d/h.warc\0d/i.txt\0' 'docsplit: d/f: No such file or directory\n' docsplit -n d
	# an operand, a list's entry: a FIFO is no document, said
	check 1 'd/b.txt\0' 'docsplit: d/g: not a regular file\n' docsplit -ns d/g d/a.bin d/b.txt
	printf 'd/i.txt\nd/a.bin\n-\n' >list
	check 1 'd/i.txt\0' 'docsplit: ./-: No such file or directory\n' docsplit -nsl list
}

@test "docsplit -n: parts of its list read disjoint files and interleave into one run" {
	local i
	mkdir -p d/x d/y/z
	for i in $(seq 10 49); do printf "$i" >"d/x/$i"; done
	for i in $(seq 50 69); do printf "$i" >"d/y/z/$i"; done
	printf 'tab' >$'d/t\tb'
	ln -s nowhere d/y/dangling
	printf e >e
	docsplit -f d e >one 2>one.err && false
	docsplit -n d e >list 2>list.err && false
	[ "$(cat list.err)" = "docsplit: d/y/dangling: No such file or directory" ]
	cmp one.err list.err
	for i in 0 1 2; do
		check 0 '' '' sh -c "docsplit -0f -p $i/3 list >p$i"
	done
	paste -d '\n' p0 p1 p2 | grep -v '^$' >merged
	cmp merged one
	[ "$(cat p0 p1 p2 | wc -l)" -eq 62 ]
	[ "$(cut -f1 p0 p1 p2 | sort | uniq -d | wc -l)" -eq 0 ]
}

@test "docsplit -0 -p: a list entry is one file to deal, a directory is walked by its part" {
	mkdir d
	printf 1 >d/a
	printf 2 >d/b
	printf 3 >f
	printf 'd\0f\0' >list
	check 0 'd/a\t1\nd/b\t2\n' '' docsplit -0f -p 0/2 list
	check 0 'f\t3\n' '' docsplit -0f -p 1/2 list
}

# ---- gzip (issue 18, 3) ----

@test "docsplit: a gzip document reads as its plain twin, under its own path" {
	printf 'hello\tworld\nline two\n' >a.txt
	gzip -n <a.txt >a.txt.gz
	check 0 'a.txt\thello\\tworld\\nline two\\n\na.txt.gz\thello\\tworld\\nline two\\n\n' '' \
		docsplit -f a.txt a.txt.gz
	# the file's name does not matter, its bytes do
	cp a.txt.gz data
	check 0 'data\thello\\tworld\\nline two\\n\n' '' docsplit -f data
	check 0 '-\thello\\tworld\\nline two\\n\n' '' docsplit -f - <a.txt.gz
}

@test "docsplit: gzip page files, JSON Lines, lists and members" {
	printf 'A\na\n\fB\nb\n' | gzip -n >pages.gz
	check 0 'A\ta\\n\nB\tb\\n\n' '' docsplit pages.gz
	printf '{"id":"x","text":"y"}\n' | gzip -n >d.jsonl.gz
	check 0 'x\ty\n' '' docsplit -j d.jsonl.gz
	printf 'one\n' | gzip -n >m
	printf 'two\n' | gzip -n >>m
	printf 'm\n' >list
	check 0 'm\tone\\ntwo\\n\n' '' docsplit -lf list
}

@test "docsplit: a gzip bomb stops at the cap, the other documents come out" {
	repeat a 10000000 | gzip -n >bomb.gz
	printf 'after\n' >b.txt
	check 1 "bomb.gz\t$(repeat a 65536)\nb.txt\tafter\\\\n\n" \
		'docsplit: bomb.gz: gzip: exceeds 65536 bytes\n' docsplit -f -m 65536 bomb.gz b.txt
	# the cap is per file; the default takes this one whole
	run -0 docsplit -f bomb.gz
	[ "${#output}" -eq 10000008 ]
}

@test "docsplit: a truncated gzip member is reported, its text kept" {
	printf 'hello world\n' | gzip -n >full.gz
	size=$(wc -c <full.gz)
	head -c $((size - 8)) full.gz >cut.gz
	printf 'B\n' >b
	check 1 'cut.gz\thello world\\n\nb\tB\\n\n' \
		"docsplit: cut.gz: gzip: unexpected end of input at byte $((size - 8))\n" \
		docsplit -f cut.gz b
	# a damaged member: a bad block type in the first block
	printf '\037\213\010\000\000\000\000\000\000\003\007' >bad.gz
	check 1 'bad.gz\t\n' 'docsplit: bad.gz: gzip: invalid block type at byte 10\n' docsplit -f bad.gz
}

@test "docsplit: a .gz file that is no gzip is read as it is; trailing garbage" {
	printf 'plain\n' >not.gz
	printf '\037\213 not gzip\n' >magic2.gz
	check 0 'not.gz\tplain\\n\n' '' docsplit -f not.gz
	printf 'text\n' | gzip -n >g.gz
	size=$(wc -c <g.gz)
	printf 'junk' >>g.gz
	check 1 'g.gz\ttext\\n\n' "docsplit: g.gz: gzip: trailing garbage at byte $size ignored\n" \
		docsplit -f g.gz
}

@test "docsplit -m: a cap of 64 KiB or more" {
	check 2 '' "docsplit: max '65535' is too small (allowed: 65536 to 9223372036854775807)\n" \
		docsplit -m 65535
	check 2 '' "docsplit: max 'x' is invalid (allowed: 65536 to 9223372036854775807)\n" docsplit -m x
}

# ---- binary files (issue 18, 4) ----

binaries() {
	printf '\177ELF\002\001\001\000\000\000\000\000copy\n' >cp
	printf '\211PNG\r\n\032\n\000\000\000\rIHDR' >pic.png
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<!-- callout 21 -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<svg xmlns="http://www.w3.org/2000/svg"><text>21</text></svg>\n' >21.svg
	printf 'caf\351 cr\350me\n' >latin1.txt
	: >empty
	printf '%%PDF-1.4\n' >doc.pdf
	printf '<?xml version="1.0"?>\n<book><para>prose</para></book>\n' >book.xml
}

@test "docsplit: binary files are skipped, text of any encoding kept" {
	binaries
	check 0 'latin1.txt\tcaf\351 cr\350me\\n\nempty\t\nbook.xml\t<?xml version="1.0"?>\\n<book><para>prose</para></book>\\n\n' '' \
		docsplit -f cp pic.png 21.svg latin1.txt empty doc.pdf book.xml
}

@test "docsplit -v: names the binary files skipped and counts them" {
	binaries
	printf 'PNG inside' >x
	cat pic.png | gzip -n >pic.png.gz
	check 0 'latin1.txt\tcaf\351 cr\350me\\n\n' \
		'docsplit: cp: binary, skipped\ndocsplit: pic.png: binary, skipped\ndocsplit: pic.png.gz: binary, skipped\ndocsplit: 21.svg: binary, skipped\ndocsplit: 4 binary files skipped, 0 WARC records skipped\n' \
		docsplit -fv cp pic.png pic.png.gz 21.svg latin1.txt
	# nothing skipped, nothing said
	check 0 'latin1.txt\tcaf\351 cr\350me\\n\n' '' docsplit -fv latin1.txt
}

@test "docsplit: letters of a magic number are text without the NUL of a header" {
	printf 'ID3 tags hold the title of a song.\n' >tags.txt
	printf 'RIFF, the container of WAV files.\n' >riff.txt
	printf 'ID3\003\000\000\000\000\000\020rest' >song.mp3
	printf 'RIFF\044\010\000\000WAVEfmt ' >s.wav
	check 0 'tags.txt\tID3 tags hold the title of a song.\\n\nriff.txt\tRIFF, the container of WAV files.\\n\n' \
		'docsplit: song.mp3: binary, skipped\ndocsplit: s.wav: binary, skipped\ndocsplit: 2 binary files skipped, 0 WARC records skipped\n' \
		docsplit -fv tags.txt riff.txt song.mp3 s.wav
}

@test "docsplit: a NUL byte in a page file or JSON Lines is one document's, not the file's" {
	printf 'P1\nfoo\000bar\n\fP2\nbaz\n' >pages
	check 0 'P1\tfoo\\0bar\\n\nP2\tbaz\\n\n' '' docsplit pages
	printf '{"id":"1","text":"one"}\n\000\n{"id":"2","text":"two"}\n' >j.jsonl
	check 1 '1\tone\n2\ttwo\n' 'docsplit: j.jsonl:2: invalid JSON at byte 1: not an object\n' docsplit -j j.jsonl
	# a file by its magic number is still skipped
	printf '%%PDF-1.4\nP1\ntext\n' >doc.pdf
	check 0 '' '' docsplit doc.pdf
}

@test "docsplit: an ID of more than 1 MB is said, its document skipped" {
	long=$(head -c 1048577 /dev/zero | tr '\0' x)
	printf '{"id":"%s","text":"a"}\n{"id":"%s","text":"b"}\n{"id":"c","text":"c"}\n' "${long%x}" "$long" >j.jsonl
	run --separate-stderr docsplit -j j.jsonl
	[ "$status" -eq 1 ]
	[ "$stderr" = "docsplit: j.jsonl:2: an ID of 1048577 bytes (more than 1048576): skipped" ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "${long%x}	a" ]
	[ "${lines[1]}" = "c	c" ]
	printf '%s\ntext\n\f%s\nmore\n\fP3\nlast\n' "$long" "${long%x}" >pages
	run --separate-stderr docsplit pages
	[ "$status" -eq 1 ]
	[ "$stderr" = "docsplit: pages: a page ID of 1048577 bytes (more than 1048576): skipped" ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "${long%x}	more\n" ]
	[ "${lines[1]}" = "P3	last\n" ]
}

@test "docsplit -r: the parts are written with standard output closed" {
	printf 'P1\na\n\fP2\nb\n\fP3\nc\n' >pf
	check 0 '' '' sh -c 'docsplit -r 2 -o p. pf >&-'
	check 0 'P1\ta\\n\nP3\tc\\n\n' '' cat p.0
	check 0 'P2\tb\\n\n' '' cat p.1
	check 1 '' 'docsplit: <stdout>: write error: Bad file descriptor\n' sh -c 'docsplit pf >&-'
}

@test "docsplit -a: binary files are documents" {
	binaries
	check 0 'cp\t\177ELF\002\001\001\\0\\0\\0\\0\\0copy\\n\n' '' docsplit -fa cp
}

# ---- WARC (issue 18, 5) ----

# warcrec TYPE URI CONTENT-TYPE BLOCK [DELTA]: one WARC/1.1 record whose
# block is the printf %b of BLOCK, its Content-Length off by DELTA.
warcrec() {
	printf '%b' "$4" >block
	printf 'WARC/1.1\r\nWARC-Type: %s\r\n' "$1"
	if [ -n "$2" ]; then printf 'WARC-Target-URI: %s\r\n' "$2"; fi
	if [ -n "$3" ]; then printf 'Content-Type: %s\r\n' "$3"; fi
	printf 'WARC-Record-ID: <urn:uuid:1>\r\nContent-Length: %d\r\n\r\n' \
		$(($(wc -c <block) + ${5:-0}))
	cat block
	printf '\r\n\r\n'
}

# A crawl: warcinfo, request, an HTML response in Latin-1, a response
# whose Content-Length is 3 short (bad), a WET conversion, a PNG, a 404,
# a chunked response, a text resource (URI in angle brackets, as 1.0 has
# it). With gz, one gzip member per record.
crawl() {
	local gz=${1:-cat} h='application/http; msgtype=response'

	{
		warcrec warcinfo '' application/warc-fields 'software: t\r\n' | $gz
		warcrec request http://a/ 'application/http; msgtype=request' \
			'GET / HTTP/1.1\r\nHost: a\r\n\r\n' | $gz
		warcrec response http://a/ "$h" \
			'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=ISO-8859-1\r\n\r\n<p>caf\351</p>' | $gz
		warcrec response http://bad/ "$h" 'HTTP/1.1 200 OK\r\n\r\nshort' -3 | $gz
		warcrec conversion http://b/ text/plain 'plain\ttext\n' | $gz
		warcrec response http://png/ "$h" 'HTTP/1.0 200 OK\r\nContent-Type: image/png\r\n\r\nPNG' | $gz
		warcrec response http://gone/ "$h" 'HTTP/1.1 404 Not Found\r\n\r\nno' | $gz
		warcrec response http://ch/ "$h" 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n' | $gz
		warcrec resource '<http://r/>' 'text/plain' 'res' | $gz
	}
}

crawlout='http://a/\t<!DOCTYPE html><meta charset="ISO-8859-1"><p>caf\351</p>\nhttp://b/\tplain\\ttext\\n\nhttp://r/\tres\n'
crawlbad='WARC record at byte 569: no CR LF CR LF after its block (a wrong Content-Length?)\n'

@test "docsplit: a WARC file: documents out, a bad record reported, the rest go on" {
	crawl >c.warc
	check 1 "$crawlout" "docsplit: c.warc: $crawlbad" docsplit c.warc
	# whatever the mode
	check 1 "$crawlout" "docsplit: c.warc: $crawlbad" docsplit -f c.warc
}

@test "docsplit: a WARC file of many bad records: 10 said, then how many" {
	local i
	for i in $(seq 12); do
		warcrec response http://bad/ 'application/http; msgtype=response' 'HTTP/1.1 200 OK\r\n\r\nshort' -3
	done >bad.warc
	capped "docsplit: bad.warc: WARC record at byte 0: no CR LF CR LF after its block (a wrong Content-Length?)" \
		"docsplit: bad.warc: 12 bad records, the first 10 said" docsplit bad.warc
}

@test "docsplit: a .warc.gz of one gzip member per record reads the same" {
	crawl 'gzip -n' >c.warc.gz
	check 1 "$crawlout" "docsplit: c.warc.gz: $crawlbad" docsplit -f c.warc.gz
	# one member for the whole file too
	crawl | gzip -n >one.gz
	check 1 "$crawlout" "docsplit: one.gz: $crawlbad" docsplit -f one.gz
}

@test "docsplit -v: the WARC records skipped for a reason, and the counts" {
	crawl >c.warc
	check 1 "$crawlout" "docsplit: c.warc: $crawlbad$(printf '%s\\n' \
		'docsplit: c.warc: WARC record at byte 914: not text (image/png), skipped' \
		'docsplit: c.warc: WARC record at byte 1128: HTTP status 404, skipped' \
		'docsplit: c.warc: WARC record at byte 1324: chunked HTTP payload, skipped' \
		'docsplit: 0 binary files skipped, 5 WARC records skipped')" docsplit -v c.warc
}

@test "docsplit: WARC records over the cap, garbage, truncation" {
	{
		warcrec conversion http://big/ text/plain "$(repeat b 70000)"
		printf 'garbage line\r\n'
		warcrec conversion http://ok/ text/plain 'ok'
		printf 'WARC/1.0\r\nContent-Length: 99999\r\n\r\ncut'
	} >w.warc
	check 1 'http://ok/\tok\n' "$(printf '%s\\n' \
		'docsplit: w.warc: WARC record at byte 0: Content-Length exceeds 65536 bytes' \
		'docsplit: w.warc: WARC record at byte 70148: no WARC/1.0 or WARC/1.1 line' \
		'docsplit: w.warc: WARC record at byte 70307: truncated')" \
		docsplit -m 65536 w.warc
	check 1 "http://big/\t$(repeat b 70000)\nhttp://ok/\tok\n" \
		'docsplit: w.warc: WARC record at byte 70148: no WARC/1.0 or WARC/1.1 line\ndocsplit: w.warc: WARC record at byte 70307: truncated\n' \
		docsplit w.warc
	# gzip'd, the cap holds per record, not for the file
	gzip -n <w.warc >w.gz
	check 1 'http://ok/\tok\n' "$(printf '%s\\n' \
		'docsplit: w.gz: WARC record at byte 0: Content-Length exceeds 65536 bytes' \
		'docsplit: w.gz: WARC record at byte 70148: no WARC/1.0 or WARC/1.1 line' \
		'docsplit: w.gz: WARC record at byte 70307: truncated')" \
		docsplit -m 65536 w.gz
}

@test "docsplit: a WARC record without URI; a binary payload; -a" {
	{
		warcrec conversion '' text/plain 'no id'
		warcrec resource http://x/ text/plain 'a\0b'
	} >w.warc
	check 1 '' 'docsplit: w.warc: WARC record at byte 0: no WARC-Target-URI\n' docsplit w.warc
	check 1 'http://x/\ta\\0b\n' 'docsplit: w.warc: WARC record at byte 0: no WARC-Target-URI\n' \
		docsplit -a w.warc
}

@test "docsplit: white space after a WARC-Target-URI is no part of the ID" {
	{
		warcrec resource 'http://x/a  ' text/plain 'one'
		warcrec resource '<http://x/b>	' text/plain 'two'
	} >w.warc
	check 0 'http://x/a\tone\nhttp://x/b\ttwo\n' '' docsplit w.warc
}

@test "docsplit: a .warc.gz cut inside a member: one gzip error" {
	crawl 'gzip -n' >c.warc.gz
	size=$(wc -c <c.warc.gz)
	head -c $((size - 30)) c.warc.gz >cut.warc.gz
	check 1 'http://a/\t<!DOCTYPE html><meta charset="ISO-8859-1"><p>caf\351</p>\nhttp://b/\tplain\\ttext\\n\n' \
		"docsplit: cut.warc.gz: gzip: unexpected end of input at byte $((size - 30))\ndocsplit: cut.warc.gz: $crawlbad" \
		docsplit cut.warc.gz
}
