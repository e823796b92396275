#!/usr/bin/env bats
# wordfreq: word counts of page records, in total or per page.

load helper

u='usage: wordfreq [-Fadipu] [-T totals] [-c part/parts] [-k length] [-n count -t top] [-s stopwords] [-v vocabulary] [file ...]\n'

@test "wordfreq -h: usage on stdout" {
	check 0 "$u" '' wordfreq -h
}

@test "wordfreq: bad option" {
	badopt "usage: wordfreq [-Fadipu] [-T totals] [-c part/parts] [-k length] [-n count -t top] [-s stopwords] [-v vocabulary] [file ...]" wordfreq -x
}

# A page file with the bytes records escape, blank IDs, CR LF lines,
# UTF-8 and empty pages: -F reads it as docsplit(1) does.
pagefile() {
	awk 'BEGIN {
		srand(7)
		for (i = 0; i < 3000; i++) {
			printf "%s%s ID%d%s\n", (i ? "\f" : ""), (i % 97 ? "" : "\n \t\n"), i, (i % 5 ? "" : "\r")
			n = int(rand() * 40)
			for (j = 0; j < n; j++) {
				r = rand()
				if (r < 0.05) printf "\\"
				else if (r < 0.1) printf "\t"
				else if (r < 0.13) printf "\\n"
				else if (r < 0.16) printf "\303\251"
				else if (r < 0.18) printf "\r\n"
				else if (r < 0.19) printf "\f\f"
				printf "W%d ", int(rand() * 500)
			}
			printf "\n"
		}
		printf "\flast\nno final newline\\"
	}' >"$1"
}

@test "wordfreq: a file that is standard output is not read, the others are" {
	printf 'A\thello world\n' >p
	printf 'B\tbye\n' >q
	run sh -c 'wordfreq -p p q >>p'
	[ "$status" -eq 1 ]
	[ "$output" = "wordfreq: p: input file is output file" ]
	check 0 'A\thello world\nB\tbye:1\n' '' cat p
}

@test "wordfreq -F -c: page files read as docsplit reads them, in parts" {
	local o P i
	pagefile pf
	printf 'w1\nw2\nw3\nw10\n' >voc
	printf 'w4\n' >stop
	for o in "-p" "-pu" "-ip -T tot" "-ip -v voc -s stop" "-d" "-k 2 -p" ""; do
		for P in 1 2 3 7; do
			for ((i = 0; i < P; i++)); do
				rm -f tot
				# shellcheck disable=SC2086
				docsplit -p "$i/$P" pf | wordfreq $o >want.out 2>want.err
				[ ! -e tot ] || mv tot want.tot
				# shellcheck disable=SC2086
				cmpout 0 want.out want.err wordfreq -F -c "$i/$P" $o pf
				[ ! -e tot ] || cmp tot want.tot
			done
		done
	done
	# the parts together are the whole
	wordfreq -F -p pf >whole
	check 0 "$(wc -l <whole)\n" '' sh -c 'for i in 0 1 2 3 4; do wordfreq -F -c $i/5 -p pf; done | cmp - whole && wc -l <whole'
}

@test "wordfreq -F -c: standard input from a regular file is cut from where it is" {
	local i
	pagefile pf
	# what is left after the first page (its ID and blank lines first)
	awk 'BEGIN { RS = "\f" } NR > 1 { printf "%s%s", (NR > 2 ? "\f" : ""), $0 }' pf >rest
	wordfreq -F -p rest >whole
	: >cat
	for ((i = 0; i < 3; i++)); do
		# dd reads the first page and leaves the offset after it
		sh -c 'dd bs=1 count="$1" 2>/dev/null >/dev/null; exec wordfreq -F -c "$2" -p -' sh \
		    "$(($(wc -c <pf) - $(wc -c <rest)))" "$i/3" <pf >>cat
	done
	cmpout 0 whole /dev/null cat cat
}

@test "wordfreq -F: gzip read whole by part 0, binary skipped, WARC refused" {
	pagefile pf
	gzip -c pf >pf.gz
	docsplit pf | wordfreq -p >want
	cmpout 0 want /dev/null wordfreq -F -p pf.gz
	cmpout 0 want /dev/null wordfreq -F -c 0/2 -p pf.gz
	check 0 '' '' wordfreq -F -c 1/2 -p pf.gz
	# a page file is told binary by its magic number; a NUL is a byte of a page
	printf '%%PDF-1.7\nsome text\n' >bin
	check 0 '' '' wordfreq -F -p bin
	printf 'ID\nsome\0text\n' >nul
	check 0 'ID\tsome:1 text:1\n' '' wordfreq -F -p nul
	printf 'WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n' >w.warc
	check 1 'A\tb:1\n' 'wordfreq: w.warc: a WARC file: read it with docsplit\n' \
		sh -c 'printf "A\nb\n" >a; wordfreq -F -p w.warc a'
}

@test "wordfreq -F -a: every file is pages, whatever its first bytes" {
	printf '%%PDF-1\na pdf by its magic\n\fP2\nmagic\n' >pdf
	check 0 '' '' wordfreq -F -p pdf
	check 0 '%%PDF-1\ta:1 pdf:1 by:1 its:1 magic:1\nP2\tmagic:1\n' '' wordfreq -F -a -p pdf
	check 0 'P2\tmagic:1\n' '' wordfreq -F -a -c 1/2 -p pdf
	# letters of a magic number (MP3's) without the NUL after them: text
	printf 'ID3\ntext\n' >id3
	check 0 'ID3\ttext:1\n' '' wordfreq -F -p id3
	printf 'WARC/1.0\r\nWARC-Type: warcinfo\r\n' >w.warc
	check 0 'WARC/1.0\twarc:1 type:1 warcinfo:1\n' '' wordfreq -F -a -p w.warc
	check 2 '' "wordfreq: -a needs -F\n$u" wordfreq -a -p bin
}

@test "wordfreq -c: only with -F; a bad part" {
	printf 'p\ta\n' >in
	check 2 '' "$u" wordfreq -c 1/2 in
	check 0 'p\ta:1\n' '' wordfreq -c 0/1 -p in
	check 2 '' "wordfreq: part 'x' is invalid (part/parts)\n" wordfreq -F -c x in
	check 2 '' "wordfreq: part '2' is too large (allowed: 0 to 1)\n" wordfreq -F -c 2/2 in
	check 2 '' "wordfreq: parts '0' is too small (allowed: 1 to 4096)\n" wordfreq -F -c 0/0 in
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

@test "wordfreq: bad escapes in the ID or the text are errors" {
	printf 'p1\tab\nq\\x\tcd\np3\tef \\q gh\np4\tij\np5\tkl\\' >in
	check 1 'p1\tab:1\np4\tij:1\n' \
		'wordfreq: in:2: bad escape in the page ID\nwordfreq: in:3: bad escape in the page text\nwordfreq: in:5: bad escape in the page text\n' \
		wordfreq -p in
	check 1 'ab\t1\ncd\t1\nef\t1\ngh\t1\nij\t1\nkl\t1\n' \
		'wordfreq: <stdin>:2: bad escape in the page ID\nwordfreq: <stdin>:3: bad escape in the page text\nwordfreq: <stdin>:5: bad escape in the page text\n' \
		wordfreq <in
	# a trailing backslash at the end of a line, and in the ID
	printf 'p\tab\\\nq\\\tcd\n' >in
	check 1 '' 'wordfreq: in:1: bad escape in the page text\nwordfreq: in:2: bad escape in the page ID\n' \
		wordfreq -p in
	# the escape letter cut at the end of a read block is checked too
	{ printf 'p\t'; repeat a 262141; printf '\\qb\n'; } >in
	check 1 '' 'wordfreq: in:1: bad escape in the page text\n' wordfreq -p in
}

# ---- Hardening: bad input, output faults, resource bounds ----
load faults

@test "wordfreq: an empty file" {
	: >e
	check 0 '' '' wordfreq e
	check 0 '' '' wordfreq -p e
	check 0 '' '' wordfreq -s e -v e e
}

@test "wordfreq: a directory as input, stopwords or vocabulary" {
	mkdir d
	printf 'P\tab\n' >r
	check 1 'ab\t1\n' 'wordfreq: d: read error: Is a directory\n' wordfreq d r
	check 1 '' 'wordfreq: d: read error: Is a directory\n' wordfreq -s d r
	check 1 '' 'wordfreq: d: read error: Is a directory\n' wordfreq -v d r
}

@test "wordfreq: unreadable input, stopwords or vocabulary" {
	needasuser
	printf 'P\tab\n' >r
	cp r f
	chmod 000 f
	chmod 644 r
	check 1 'ab\t1\n' 'wordfreq: f: Permission denied\n' asuser wordfreq f r
	check 1 '' 'wordfreq: f: Permission denied\n' asuser wordfreq -s f r
	check 1 '' 'wordfreq: f: Permission denied\n' asuser wordfreq -v f r
}

@test "wordfreq: NUL bytes and bytes >= 0x80 in ID, text and word lists" {
	printf 'I\0D\377\tab\0cd\377ef\200GH\\0ij\n' >r
	check 0 'ab\t1\ncd\t1\nef\t1\ngh\t1\nij\t1\n' '' wordfreq r
	check 0 'I\0D\377\tab:1 cd:1 ef:1 gh:1 ij:1\n' '' wordfreq -p r
	# a stopword with such bytes is no word, so it never matches
	printf 'ab\0x cd\377\vef\f\n' >s
	check 0 'ab\t1\ncd\t1\ngh\t1\nij\t1\n' '' wordfreq -s s r
	printf 'gh\0\t1\ncd\t1\n' >v
	check 0 'cd\t1\n' '' wordfreq -v v r
}

@test "wordfreq: a 50 MB line and a 10 MB word" {
	{ printf 'P\t'; words 50000000; printf '\n'; } >big
	check 0 'ab\t8333334\ncd\t8333333\n' '' wordfreq big
	check 0 'P\tab:8333334 cd:8333333\n' '' wordfreq -p big
	{ printf 'P\t'; repeat a 10000000; printf ' b\n'; } >word
	{ repeat a 10000000; printf '\t1\nb\t1\n'; } >want
	cmpout 0 want /dev/null wordfreq word
}

@test "wordfreq -p: a page whose ID is 1 MB" {
	{ repeat I 1000000; printf '\tab ab\n'; } >r
	{ repeat I 1000000; printf '\tab:2\n'; } >want
	cmpout 0 want /dev/null wordfreq -p r
}

@test "wordfreq -p: duplicate IDs are labels: both records are kept" {
	printf 'A\tab\nA\tcd\nA\t\n' >r
	check 0 'A\tab:1\nA\tcd:1\nA\t\n' '' wordfreq -p r
}

@test "wordfreq: stdout cannot be written" {
	printf 'P\tab cd\n' >r
	devfull wordfreq r
	devfull wordfreq -p r
	{ printf 'P\t'; words 300000; printf '\n'; } | sed 's/ /\n/g' | awk '{ print NR "\t" $0 }' >big
	devfull wordfreq -p big
}

@test "wordfreq: the reader of stdout goes away" {
	words 3000000 | sed 's/ /\n/g' | awk '{ print NR "\t" $0 }' >big
	sigpipe wordfreq -p big
}

@test "wordfreq: 2^17 words built to collide under the former hash: linear time" {
	# a minute of CPU with the former hash, a fraction of a second now
	collide $collide_letters 17 >w
	{ printf 'P\t'; tr '\n' ' ' <w; printf '\n'; } >in
	run --separate-stderr bash -c 'set -o pipefail; ulimit -t 10 && wordfreq in | wc -l'
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$output" -eq 131072 ]
}

@test "wordfreq: a page far bigger than its memory limit streams through" {
	needvlimit
	(
		ulimit -v 50000
		{ printf 'P\t'; words 120000000; printf '\n'; } | wordfreq >total
		{ printf 'P\t'; words 120000000; printf '\n'; } | wordfreq -p >pages
	)
	check 0 'ab\t20000000\ncd\t20000000\n' '' cat total
	check 0 'P\tab:20000000 cd:20000000\n' '' cat pages
}

@test "wordfreq -u: letters and digits of any script, folded" {
	printf 'p\tnaïve NAÏVE Straße ΣΟΦΊΑ don'"'"'t e-mail2you\n' >in
	check 0 'p\tnaïve:2 straße:1 σοφία:1 don:1 t:1 e:1 mail2you:1\n' '' wordfreq -u -p in
	check 0 'p\tna:2 ve:2 stra:1 e:2 don:1 t:1 mail:1 you:1\n' '' wordfreq -p in
}

@test "wordfreq -u: scripts without spaces give one word per character" {
	printf 'p\t日本語 hello世界 カタカナ ไทย 한국어 문장\n' >in
	check 0 'p\t日:1 本:1 語:1 hello:1 世:1 界:1 カ:2 タ:1 ナ:1 ไ:1 ท:1 ย:1 한국어:1 문장:1\n' '' \
		wordfreq -u -p in
}

@test "wordfreq -u: combining marks stay in the word; a mark alone separates" {
	# e + U+0301 is one word; a Thai consonant keeps its tone mark; a lone mark is dropped
	printf 'p\te\314\201t \314\201x \340\270\201\340\271\210\340\270\262\n' >in
	check 0 'p\te\314\201t:1 x:1 \340\270\201\340\271\210:1 \340\270\262:1\n' '' wordfreq -u -p in
}

@test "wordfreq -u: invalid UTF-8 separates words" {
	# a stray continuation, an overlong form, a surrogate, a cut sequence, a bad lead
	printf 'p\ta\200b c\300\257d e\355\240\200f g\303h i\377j\n' >in
	check 0 'p\ta:1 b:1 c:1 d:1 e:1 f:1 g:1 h:1 i:1 j:1\n' '' wordfreq -u -p in
}

@test "wordfreq -u: underscore, colon and escapes are never part of a word" {
	printf 'p\tsnake_case a:b x\\ty\\\\z\n' >in
	check 0 'p\tsnake:1 case:1 a:1 b:1 x:1 y:1 z:1\n' '' wordfreq -u -p in
}

@test "wordfreq -u: a character cut at the end of a read block" {
	# the 3 bytes of U+65E5 straddle the reader's first 256 KiB block
	{ printf 'p\t'; repeat a 262140; printf '\346\227\245b\n'; } >in
	{ repeat a 262140; printf '\t1\n\346\227\245\t1\nb\t1\n'; } >want
	cmpout 0 want /dev/null wordfreq -u in
}

@test "wordfreq -u: stopwords and vocabulary are folded the same way" {
	printf 'p\tÉTÉ été Été ÇA ça x\n' >in
	printf 'ÉTÉ\n' >sw
	printf 'ÇA\t9\n' >voc
	check 0 'ça\t2\nx\t1\n' '' wordfreq -u -s sw in
	check 0 'ça\t2\n' '' wordfreq -u -v voc in
}

@test "wordfreq -k: word k-grams joined by underscores, per page and in total" {
	printf 'p\tThe cat sat on the mat\nq\tone two\nr\tsolo\n' >in
	check 0 'p\tthe_cat:1 cat_sat:1 sat_on:1 on_the:1 the_mat:1\nq\tone_two:1\nr\t\n' '' \
		wordfreq -p -k 2 in
	check 0 'the_cat_sat\t1\ncat_sat_on\t1\nsat_on_the\t1\non_the_mat\t1\n' '' wordfreq -k 3 in
	check 0 'p\tthe:2 cat:1 sat:1 on:1 mat:1\nq\tone:1 two:1\nr\tsolo:1\n' '' wordfreq -p -k 1 in
}

@test "wordfreq -k: no k-gram spans two pages; repeats are counted" {
	printf 'p\ta b a b a\nq\tb a\n' >in
	check 0 'p\ta_b:2 b_a:2\nq\tb_a:1\n' '' wordfreq -p -k 2 in
	check 0 'a_b\t2\nb_a\t3\n' '' wordfreq -k 2 in
}

@test "wordfreq -k: stopwords leave the text before the k-grams are made" {
	printf 'p\tthe cat and the dog\n' >in
	printf 'the and\n' >sw
	check 0 'p\tcat_dog:1\n' '' wordfreq -p -k 2 -s sw in
}

@test "wordfreq -k: a vocabulary of k-grams, from topn" {
	printf 'p\ta b c a b\nq\tb c d\n' >in
	wordfreq -k 2 in | topn 2 >voc
	check 0 'a_b\t2\nb_c\t2\n' '' cat voc
	check 0 'p\ta_b:2 b_c:1\nq\tb_c:1\n' '' wordfreq -p -k 2 -v voc in
}

@test "wordfreq -k -u: k-grams of characters in scripts without spaces" {
	printf 'p\t日本語です\n' >in
	check 0 'p\t日_本:1 本_語:1 語_で:1 で_す:1\n' '' wordfreq -u -p -k 2 in
}

@test "wordfreq -k: length out of range" {
	check 2 '' "wordfreq: length '17' is too large (allowed: 1 to 16)\n" wordfreq -k 17 /dev/null
}

@test "wordfreq -k 16: a page of 200000 words stays linear" {
	awk 'BEGIN { printf "p\t"; for (i = 0; i < 200000; i++) printf "w%c ", 97 + i % 26; print "" }' >in
	run wordfreq -p -k 16 in
	[ "$status" -eq 0 ]
	# 26 distinct 16-grams, each 200000/26 times or so
	[ "$(printf '%s\n' "$output" | tr ' ' '\n' | grep -c '_')" -eq 26 ]
}

@test "wordfreq -d: document frequencies, the document count first" {
	printf 'p\ta b a\nq\tb c\nr\t\n' >in
	check 0 '\t3\na\t1\nb\t2\nc\t1\n' '' wordfreq -d in
	check 0 '\t0\n' '' wordfreq -d </dev/null
	printf 'b\n' >sw
	check 0 '\t3\na\t1\nc\t1\n' '' wordfreq -d -s sw in
	check 0 '\t3\na_b\t1\nb_a\t1\nb_c\t1\n' '' wordfreq -d -k 2 in
}

@test "wordfreq -d: shards add up under topn" {
	printf 'p\ta b a c\nq\tb c\n' >s1
	printf 'r\ta d\n' >s2
	wordfreq -d s1 >d1
	wordfreq -d s2 >d2
	check 0 '\t3\na\t2\nb\t2\nc\t2\nd\t1\n' '' topn 100 d1 d2
	check 0 '\t3\na\t2\nb\t2\nc\t2\nd\t1\n' '' sh -c 'wordfreq -d s1 s2 | topn 100'
}

@test "wordfreq -d: a bad record is no document; -d with -p is a usage error" {
	printf 'p\ta\nq\tb\\x\nr\ta\n' >in
	check 1 '\t2\na\t2\n' 'wordfreq: in:2: bad escape in the page text\n' wordfreq -d in
	check 2 '' "$u" wordfreq -d -p in
}

@test "wordfreq -u: a letter with 300000 combining marks is one word" {
	{ printf 'p\tx'; awk 'BEGIN { for (i = 0; i < 300000; i++) printf "\314\201" }'; printf ' y\n'; } >in
	run wordfreq -u in
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	# bytes, in any locale the tests run in
	[ "$(printf '%s' "${lines[0]}" | wc -c)" -eq 600003 ]
	[ "${lines[1]}" = "y	1" ]
}

@test "wordfreq -p -T: the per-page counts and their sums, from one pass" {
	printf 'p\tB a b\nq\tc b\n' >in
	check 0 'p\tb:2 a:1\nq\tc:1 b:1\n' '' wordfreq -p -T tot in
	check 0 'b\t3\na\t1\nc\t1\n' '' cat tot
	wordfreq in >want
	cmp tot want
	# with -v, the sums are those of the vocabulary's words
	printf 'c\n' >v
	check 0 'p\t\nq\tc:1\n' '' wordfreq -p -v v -T tot in
	check 0 'c\t1\n' '' cat tot
}

@test "wordfreq -i -p -T: words as numbers, the lines of the totals" {
	printf 'p\tB a b\nq\tc b\n' >in
	check 0 'p\t0:2 1:1\nq\t2:1 0:1\n' '' wordfreq -ip -T tot in
	check 0 'b\t3\na\t1\nc\t1\n' '' cat tot
	# a word first met in a bad page is numbered when first written, and
	# the totals follow the numbers; a stopword has none
	printf 'x\n' >stop
	printf 'q\tz x\\y\np\tx a z\n' >in
	check 1 'p\t0:1 1:1\n' 'wordfreq: in:1: bad escape in the page text\n' \
		wordfreq -ip -s stop -T tot in
	check 0 'a\t1\nz\t1\n' '' cat tot
}

@test "wordfreq -i -p -v: words as their lines in the vocabulary" {
	# c is on line 0 (and 2), b on 1, d on 3; b is a stopword
	printf 'c\t9\nB\t5\nc\t1\nd\t1\n' >voc
	printf 'b\n' >stop
	printf 'p\tB a b d c\nq\tzz\n' >in
	check 0 'p\t3:1 0:1\nq\t\n' '' wordfreq -ip -s stop -v voc in
	check 0 'p\t3:1 0:1\nq\t\n' '' wordfreq -ip -s stop -v voc -T tot in
	check 0 'c\t1\nd\t1\n' '' cat tot
}

@test "wordfreq -i: only with -p, and -T or -v; not -v with -u" {
	printf 'p\ta\n' >in
	printf 'a\n' >voc
	check 2 '' "$u" wordfreq -i in
	check 2 '' "$u" wordfreq -i -v voc in
	check 2 '' "$u" wordfreq -ip in
	check 2 '' "$u" wordfreq -ipu -v voc in
	check 0 'p\t0:1\n' '' wordfreq -ipu -T tot in
}

@test "wordfreq -p -T: a bad record counts in neither output" {
	printf 'p\ta\nq\tb\\x\nr\ta\n' >in
	check 1 'p\ta:1\nr\ta:1\n' 'wordfreq: in:2: bad escape in the page text\n' wordfreq -p -T tot in
	check 0 'a\t2\n' '' cat tot
}

@test "wordfreq -T: only with -p" {
	printf 'p\ta\n' >in
	check 2 '' "$u" wordfreq -T tot in
	check 2 '' "$u" wordfreq -d -T tot in
	run ls tot
	[ "$status" -ne 0 ]
}

@test "wordfreq -p -T: the totals replace a file whole, or are not written" {
	printf 'p\ta\n' >in
	printf 'old\n' >tot
	check 0 'p\ta:1\n' '' wordfreq -p -T tot in
	check 0 'a\t1\n' '' cat tot
	# stdout lost: no totals, the old file kept, no temporary file left
	printf 'old\n' >tot
	check 1 '' 'wordfreq: <stdout>: write error: No space left on device\n' \
		sh -c 'wordfreq -p -T tot in >/dev/full'
	check 0 'old\n' '' cat tot
	run sh -c 'ls tot.* 2>/dev/null'
	[ "$output" = "" ]
	check 1 '' 'wordfreq: nodir/tot: No such file or directory\n' wordfreq -p -T nodir/tot in
}

@test "wordfreq -p -T: the reader of stdout gone (SIGPIPE): the old totals, no temporary file" {
	awk 'BEGIN { for (i = 0; i < 200000; i++) printf "p%d\tw%d x y z\n", i, i }' >in
	printf 'old\n' >tot
	env --default-signal=PIPE bash -c 'wordfreq -p -T tot in | head -c 1 >/dev/null
		echo "${PIPESTATUS[0]}" >st'
	check 0 '141\n' '' cat st
	check 0 'old\n' '' cat tot
	check 0 '' '' find . -name 'tot.*'
}

@test "wordfreq -p -T: through a symbolic link, to a device or a FIFO" {
	printf 'p\ta b a\n' >in
	printf 'a\t2\nb\t1\n' >want.tot
	outpath want.tot wordfreq -p -T OUT in
}

@test "wordfreq -p -n -t: the most counted words of the sums, as topn ranks them" {
	# ties by bytes; a stopword and a word only of a bad page are not counted
	printf 'x\n' >stop
	printf 'p\tb c a x\nq\tzz\\y\nr\tc b d d\n' >in
	check 1 'p\tb:1 c:1 a:1\nr\tc:1 b:1 d:2\n' 'wordfreq: in:2: bad escape in the page text\n' \
		wordfreq -p -s stop -T tot -n 3 -t top in
	check 0 'b\t2\nc\t2\nd\t2\n' '' cat top
	check 0 'b\t2\nc\t2\nd\t2\n' '' topn 3 tot
	# more than there are words: all of them; numbered pages, same words
	check 1 'p\t0:1 1:1 2:1\nr\t1:1 0:1 3:2\n' 'wordfreq: in:2: bad escape in the page text\n' \
		wordfreq -ip -s stop -T tot -n 9 -t top in
	check 0 'b\t2\nc\t2\nd\t2\na\t1\n' '' cat top
	# without -T, and nothing counted: an empty file
	check 0 'p\t\n' '' wordfreq -p -s stop -n 1 -t top - <<<$'p\tx'
	check 0 '' '' cat top
}

@test "wordfreq -n -t: together, with -p; the file replaced whole or not written" {
	printf 'p\ta\n' >in
	check 2 '' "$u" wordfreq -n 1 -t top in
	check 2 '' "$u" wordfreq -p -t top in
	check 2 '' "$u" wordfreq -p -n 1 in
	check 2 '' "wordfreq: count '0' is too small (allowed: 1 to 9223372036854775807)\n" wordfreq -p -n 0 -t top in
	run ls top
	[ "$status" -ne 0 ]
	printf 'old\n' >top
	check 1 '' 'wordfreq: <stdout>: write error: No space left on device\n' \
		sh -c 'wordfreq -p -n 1 -t top in >/dev/full'
	check 0 'old\n' '' cat top
	check 0 '' '' find . -name 'top.*'
	check 1 '' 'wordfreq: nodir/top: No such file or directory\n' wordfreq -p -n 1 -t nodir/top in
	# the sums not written (a full device): nor the top of them
	check 1 'p\ta:1\n' 'wordfreq: /dev/full: write error: No space left on device\n' \
		wordfreq -p -T /dev/full -n 1 -t top in
	check 0 'old\n' '' cat top
	printf 'a\t1\n' >want.top
	outpath want.top wordfreq -p -n 1 -t OUT in
}

@test "wordfreq -p -n -t: the course data's features are topn's of the sums" {
	course course
	wordfreq -F -ip -s stopwords.txt -T tot -n 1000 -t top article.txt </dev/null >pages
	topn 1000 tot >want
	cmp top want
	check 0 '1000\n' '' sh -c 'wc -l <top'
}

@test "wordfreq -p -T: the totals of the course data are wordfreq's" {
	course course
	docsplit article.txt >a.rec
	wordfreq -s stopwords.txt a.rec >want
	wordfreq -p -s stopwords.txt a.rec >want.pages
	cmpout 0 want.pages /dev/null wordfreq -p -T tot -s stopwords.txt a.rec
	cmp tot want
}
