#!/usr/bin/env bats
# htmltext: the text of HTML page records.
#
# rec TEXT... writes one page record "p<TAB>TEXT" per argument, with IDs
# p1, p2, ...; TEXT is given escaped (\n is the two characters).

load helper

u='usage: htmltext [-aH] [file ...]\n'

rec() {
	local i=0 t

	for t in "$@"; do
		i=$((i + 1))
		printf 'p%d\t%s\n' "$i" "$t"
	done
}

@test "htmltext -h: usage on stdout" {
	check 0 "$u" '' htmltext -h
}

@test "htmltext: bad option" {
	badopt "usage: htmltext [-aH] [file ...]" htmltext -x
}

@test "htmltext: empty input" {
	check 0 '' '' htmltext </dev/null
}

@test "htmltext: pages with no text (fuzz finding: an empty first page)" {
	printf 'p1\t\np2\t<p> </p>\n' >in
	check 0 'p1\t\np2\t\n' '' htmltext -H in
	check 0 'p1\t\np2\t\n' '' htmltext -aH in
	check 0 'p1\t\np2\t\n' '' htmltext in
}

@test "htmltext: paragraphs, blocks, inline elements" {
	rec '<p>one<p>two <b>bold</b>  and\n<i>italic</i><div>three</div>four<h2>Head</h2>five' >in
	check 0 'p1\tone\\n\\ntwo bold and italic\\n\\nthree\\n\\nfour\\n\\nHead\\n\\nfive\n' '' htmltext -a in
}

@test "htmltext: unclosed and misnested tags" {
	rec '<p><b><i>bold italic</b> after</i> x<p>para</span></div>end' \
	    '<div><p>a<div>b</p>c</div>d' '<h1>Head<h2>sub</h1>x' >in
	check 0 'p1\tbold italic after x\\n\\nparaend\np2\ta\\n\\nb\\n\\nc\\n\\nd\np3\tHead\\n\\nsub\\n\\nx\n' '' htmltext -a in
}

@test "htmltext: lists, nested lists, definition lists" {
	rec '<ul><li>a<li>b<ul><li>b1<li>b2</ul><li>c</ul>' '<dl><dt>term<dd>def<dt>t2<dd>d2</dl>' >in
	check 0 'p1\ta\\n\\nb\\n\\nb1\\n\\nb2\\n\\nc\np2\tterm\\n\\ndef\\n\\nt2\\n\\nd2\n' '' htmltext -a -H in
}

@test "htmltext: tables: rows are paragraphs, cells separated by a TAB" {
	rec '<table><tr><th>h1<th>h2<tr><td>c1<td> c2 </table>' '<p>a<table><tr><td>x</table>b' >in
	check 0 'p1\th1\\th2\\n\\nc1\\tc2\np2\ta\\n\\nx\\n\\nb\n' '' htmltext -a in
}

@test "htmltext: br, pre" {
	rec '<p>a<br>b<br><br>c<br></p>d' '<p>x<pre>\n  code  here\n\n   more\n</pre>after' >in
	check 0 'p1\ta\\nb\\n\\nc\\n\\nd\np2\tx\\n\\n  code  here\\n\\n   more\\n\\nafter\n' '' htmltext -a in
}

@test "htmltext: script, style, noscript, template, svg, title skipped" {
	rec '<p>a<script>document.write("<p>no</p>")</script>b<style>p{}</style>c<noscript>ns</noscript>d<template>t</template>e<svg><text>s</text></svg>f<title>T</title>g<SCRIPT type=x>x</SCRIPT >h' >in
	check 0 'p1\tabcdefgh\n' '' htmltext -a in
}

@test "htmltext: comments, CDATA, doctype, processing instructions" {
	rec '<!DOCTYPE html><p>x<!-- <p>hidden --> y <![CDATA[ cdata ]]> z<?pi x ?>w<!---->v<!-- unclosed' >in
	check 0 'p1\tx y zwv\n' '' htmltext -a in
}

@test "htmltext: attributes in any quoting" {
	rec '<p class=x id='"'"'a>b'"'"' title="c>d" data-x = y hidden-no>text</p><p hidden>h</p><p aria-hidden="true">a</p><p style="color:red; display: none">s</p><p>v' >in
	check 0 'p1\ttext\\n\\nv\n' '' htmltext -a in
}

@test "htmltext: stray < and &" {
	rec 'a < b && c <3 </ x> y & z &; <' >in
	check 0 'p1\ta < b && c <3 y & z &; <\n' '' htmltext -aH in
}

@test "htmltext: named references, with and without semicolon" {
	rec '<p>&amp; &lt;&gt; &copy; &copy &notin; &notit; &AElig &amp= &nbsp;| &CounterClockwiseContourIntegral; &bogus; &ampx' >in
	check 0 'p1\t& <> \302\251 \302\251 \342\210\211 \302\254it; \303\206 &= | \342\210\263 &bogus; &x\n' '' htmltext -a in
}

@test "htmltext: numeric references, invalid ones" {
	rec '<p>&#65;&#x42;&#X43;&#68 &#0;&#x110000;&#xD800;&#128;&#x9F;&#99999999999999999999;&#;&#x;' >in
	check 0 'p1\tABCD \357\277\275\357\277\275\357\277\275\342\202\254\305\270\357\277\275&#;&#x;\n' '' htmltext -a in
}

@test "htmltext: a windows-1252 page with meta charset" {
	printf 'p1\t<html><head><meta charset="windows-1252"></head><p>caf\351 \223quoted\224 \200\n' >in
	printf 'p2\t<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><p>na\357ve\n' >>in
	printf 'p3\t<meta charset=no-such-charset><p>caf\303\251\n' >>in
	printf 'p4\t<html><head><script>%s</script><meta charset=latin1></head><body><p>caf\351<meta charset=utf-8>\n' "$(repeat x 2000)" >>in
	printf 'p5\t<html><head></head><body><script>%s</script><meta charset=latin1><p>caf\351\n' "$(repeat x 2000)" >>in
	check 0 'p1\tcaf\303\251 \342\200\234quoted\342\200\235 \342\202\254\np2\tna\303\257ve\np3\tcaf\303\251\np4\tcaf\303\251\np5\tcaf\357\277\275\n' '' htmltext -aH in
}

@test "htmltext: a meta in a comment names no charset" {
	printf 'p1\t<html><head><!-- <meta charset="windows-1251"> --></head><p>caf\303\251\n' >in
	printf 'p2\t<html><head><!--><meta charset="windows-1252"></head><p>caf\351\n' >>in
	printf 'p3\t<html><head><!-- unclosed <meta charset=latin1></head><p>caf\303\251\n' >>in
	check 0 'p1\tcaf\303\251\np2\tcaf\303\251\np3\t\n' '' htmltext -aH in
}

@test "htmltext: a meta naming UTF-7, which the standard does not know, is UTF-8" {
	printf 'p1\t<meta charset="UTF-7"><p>+AGE- caf\303\251\n' >in
	check 0 'p1\t+AGE- caf\303\251\n' '' htmltext -aH in
}

@test "htmltext: charsets read in wide units or named with iconv suffixes are UTF-8; what iconv writes is checked" {
	# iconv wrote 5- and 6-byte forms for the first five, read the page in
	# 32-bit units for utf-32 and 16-bit units for ucs-2 and unicode;
	# iso-ir-193, a name of iconv's UTF-8, passes 5- and 6-byte forms: only
	# the check of iconv's output catches it
	local cs i=0 r='\357\277\275' want=
	for cs in ucs-4 wchar_t ISO-10646/UTF8/ utf-8//ignore UCS-4LE utf-32 ucs-2 \
	    unicode iso-ir-193 utf-8//translit; do
		i=$((i + 1))
		printf 'p%d\t<meta charset="%s"><p>ab\374\204\200\200\200\200cd \370\210\200\200\200\n' \
		    "$i" "$cs" >>in
		want="${want}p$i\\tab$r$r$r$r$r${r}cd $r$r$r$r$r\\n"
	done
	check 0 "$want" '' htmltext -H in
	check 0 "$want" '' htmltext -aH in
}

@test "htmltext: a BOM wins over meta; UTF-16" {
	printf 'p1\t\357\273\277<meta charset=windows-1252><p>caf\303\251\n' >in
	printf 'p2\t\377\376<\000p\000>\000h\000\351\000!\000\n' >>in
	printf 'p3\t\376\377\000<\000p\000>\000h\000\351\330\075\336\000\n' >>in
	check 0 'p1\tcaf\303\251\np2\th\303\251!\np3\th\303\251\360\237\230\200\n' '' htmltext -aH in
}

@test "htmltext: each invalid UTF-8 byte is U+FFFD" {
	printf 'p1\t<p>a\377b\303c\355\240\200d\342\202\n' >in
	check 0 'p1\ta\357\277\275b\357\277\275c\357\277\275\357\277\275\357\277\275d\357\277\275\357\277\275\n' '' htmltext -a in
}

@test "htmltext: records that do not look like HTML pass through" {
	rec 'plain text, <p> later\\' '  <!DOCTYPE HTML><p>yes' '\n<P>up' '<pa>no' '<ul><li>no' '<!-- c -->x' '<b>b' >in
	check 0 'p1\tplain text, <p> later\\\\\np2\tyes\np3\tup\np4\t<pa>no\np5\t<ul><li>no\np6\tx\np7\tb\n' '' htmltext -a in
	check 0 'p1\tplain text,\\n\\nlater\\\\\np2\tyes\np3\tup\np4\tno\np5\tno\np6\tx\np7\tb\n' '' htmltext -aH in
}

@test "htmltext: text that is not HTML: as it came, or escaped again" {
	# raw TAB, CR and NUL in the text come out escaped, as always
	printf 'p1\ta\tb\rc\0d\\\\e\\n\n' >in
	check 0 'p1\ta\\tb\\rc\\0d\\\\e\\n\n' '' htmltext in
	# a bad escape is said, even in text that is not HTML
	printf 'p1\tok\np2\tbad\\x\np3\tend\\\n' >in
	check 1 'p1\tok\n' 'htmltext: in:2: bad escape in the page text\nhtmltext: in:3: bad escape in the page text\n' htmltext in
	# the sniff sees past a long run of white space, and of escapes
	{ printf 'p1\t'; for i in $(seq 3000); do printf ' \\n'; done; printf '<p>html\n'; } >in
	check 0 'p1\thtml\n' '' htmltext in
	{ printf 'p1\t'; for i in $(seq 3000); do printf ' \\n'; done; printf 'plain <p>\n'; } >in
	run htmltext in
	[ "$status" -eq 0 ]
	cmp -s in - <<<"$output"
	# the byte order mark, then white space, then html
	printf 'p1\t\357\273\277 \\n <html>x\n' >in
	check 0 'p1\tx\n' '' htmltext in
}

@test "htmltext: -a keeps the navigation, the default drops it" {
	body='<p>The article has a first paragraph that is long enough to count, with commas, words, and more words than the menu.</p><p>A second paragraph follows it, also long enough to be scored as content by the extraction, and so on.</p>'
	rec "<html><body><nav><ul><li><a href=/>Home</a><li><a href=/news>News</a></ul></nav><div class=\"story-body\">$body</div><div class=footer><a href=/about>About us</a> | <a href=/c>Contact</a></div></body></html>" >in
	text='The article has a first paragraph that is long enough to count, with commas, words, and more words than the menu.\\n\\nA second paragraph follows it, also long enough to be scored as content by the extraction, and so on.'
	check 0 "p1\\t$text\\n" '' htmltext in
	check 0 "p1\\tHome\\\\n\\\\nNews\\\\n\\\\n$text\\\\n\\\\nAbout us | Contact\\n" '' htmltext -a in
}

@test "htmltext: bad records: file:line, the others still converted, exit 1" {
	printf 'p1\t<p>a\np2\t<p>bad\\q\nnotab\np4\t<p>b\n' >in
	check 1 'p1\ta\np4\tb\n' 'htmltext: in:2: bad escape in the page text\nhtmltext: in:3: no TAB after the page ID\n' htmltext -a in
}

@test "htmltext: missing file, several files" {
	rec '<p>x' >a
	check 1 'p1\tx\np1\tx\n' 'htmltext: nope: No such file or directory\n' htmltext -a a nope - <a
}

@test "htmltext: write error" {
	rec '<p>x' >in
	check 1 '' 'htmltext: <stdout>: write error: No space left on device\n' sh -c 'htmltext in >/dev/full'
}

@test "htmltext: 1,000,000 nested divs: no stack overflow, nesting flattened" {
	awk 'BEGIN { printf "p\t"; for (i = 0; i < 1000000; i++) printf "<div>"
		printf "deep"; for (i = 0; i < 1000000; i++) printf "</div>"; print "<p>after" }' >in
	check 0 'p\tdeep\\n\\nafter\n' '' htmltext -a in
	check 0 'p\tdeep\\n\\nafter\n' '' htmltext in
}

@test "htmltext: form controls flooding deep nesting: linear time, small constant" {
	# 20 pages of 65,000 inputs under 250 divs, 5000 divs, 83 tables, or
	# 250 divs with a hint: each input dropped from the content was
	# subtracted from every ancestor, and all tries ran: 7 s of CPU, now
	# 0.25 s. The CPU limit is 8 times that (40 times under sanitizers).
	awk 'BEGIN { for (r = 0; r < 20; r++) { printf "p%d\t", r
		if (r % 4 == 0) for (i = 0; i < 250; i++) printf "<div>"
		if (r % 4 == 1) for (i = 0; i < 5000; i++) printf "<div>"
		if (r % 4 == 2) for (i = 0; i < 83; i++) printf "<table><tr><td>"
		if (r % 4 == 3) for (i = 0; i < 250; i++) printf "<div class=content>"
		for (i = 0; i < 65000; i++) printf "<input>"
		print "" } }' >in
	awk 'BEGIN { for (r = 0; r < 20; r++) printf "p%d\t\n", r }' >want
	limit=2
	[ -z "${SIMTOOL_SAN:-}" ] || limit=10
	cmpout 0 want /dev/null sh -c "ulimit -t $limit && htmltext in"
}

@test "htmltext: a 20 MB page in 300 MB of virtual memory" {
	[ -z "${SIMTOOL_SAN:-}" ] || skip "sanitizer build: huge virtual memory"
	awk 'BEGIN { printf "p\t<html><body><div class=content>"
		for (i = 0; i < 200000; i++)
			printf "<p>Paragraph %d of a long page, with <b>some</b> <a href=#x>links</a> &amp; entities.</p>\\n", i
		print "</div></body></html>" }' >in
	run -0 sh -c 'ulimit -v 300000 && htmltext in | cksum'
	[ "$output" = "$(sh -c 'htmltext in' | cksum)" ]
	run -0 sh -c 'ulimit -v 300000 && htmltext in | wc -c'
	[ "$output" -gt 12000000 ]
}

@test "htmltext: 20 MB of tiny elements in 300 MB of virtual memory" {
	[ -z "${SIMTOOL_SAN:-}" ] || skip "sanitizer build: huge virtual memory"
	awk 'BEGIN { printf "p\t<p>"; for (i = 0; i < 5000000; i++) printf "<p>x"; print "" }' >in
	run -0 sh -c 'ulimit -v 300000 && htmltext in | wc -c'
	[ "$output" -gt 5000000 ]
}

# Three paragraphs long enough to score as content.
P1='The first paragraph of the story is long enough to be counted, with commas, clauses, and plenty of words in it.'
P2='A second paragraph continues the story, again with enough words and commas, so that it scores as content too.'
P3='The third paragraph closes the story, long and plain, without links, as articles usually end their text.'

@test "htmltext: a blog: menu, comments and footer dropped, the heading kept, the title not" {
	rec "<html><head><title>Story</title></head><body><div id=menu><a href=/>Home</a> <a href=/a>About</a></div><div class=post><h1>Story</h1><p>$P1</p><p>$P2</p></div><div id=comments><h3>2 Comments</h3><div class=x1><p>Great post, I loved it, thanks for writing it, really, it was very good.</p></div><div class=x1><p>I disagree with most of it, but thanks anyway, it was interesting to read.</p></div></div><div class=footer>Copyright 2024</div></body></html>" >in
	check 0 "p1\\tStory\\\\n\\\\n$P1\\\\n\\\\n$P2\\n" '' htmltext in
}

@test "htmltext: an article split across siblings, a related box between" {
	rec "<html><body><header><nav><a href=/>Home</a></nav></header><main><div class=c9><p>$P1</p></div><div class=zz><h4>Related</h4><ul><li><a href=/1>Another story about something</a><li><a href=/2>Yet another story to read</a></ul></div><div class=c9><p>$P2</p><p>$P3</p></div></main><aside><p>Subscribe to our newsletter for more stories like this one, every day, free.</p></aside></body></html>" >in
	check 0 "p1\\t$P1\\\\n\\\\n$P2\\\\n\\\\n$P3\\n" '' htmltext in
}

@test "htmltext: a table layout: the text cell, not the link column" {
	rec "<html><body><table><tr><td width=150><a href=/>Home</a><br><a href=/b>Blog</a><br><a href=/c>Contact us</a></td><td><font size=2>$P1<br><br>$P2</font></td></tr></table></body></html>" >in
	check 0 "p1\\t$P1\\\\n\\\\n$P2\\n" '' htmltext in
}

@test "htmltext: a link list inside the content goes, links in a paragraph stay" {
	rec "<html><body><div class=k1><div class=k2><p>$P1</p><p>$P2 <a href=/x>one link</a> inside.</p><ul><li><a href=/s1>Share on a network</a></li><li><a href=/s2>Share on another one</a></li><li><a href=/s3>Print this page</a></li></ul><p>$P3</p></div></div><div class=k3><a href=/1>Link one</a> <a href=/2>Link two</a> <a href=/3>Link three</a></div></body></html>" >in
	check 0 "p1\\t$P1\\\\n\\\\n$P2 one link inside.\\\\n\\\\n$P3\\n" '' htmltext in
}

@test "htmltext: no paragraph scores: the page less its boilerplate" {
	rec '<html><body><nav><a href=/>Home</a></nav><div>Short text.</div><footer>Foot</footer></body></html>' >in
	check 0 'p1\tShort text.\n' '' htmltext in
}

@test "htmltext: paragraphs in <body> itself are the content, not a cell beside them (groff -Thtml)" {
	rec "<html><body><h1>TOOL</h1><h2>NAME</h2><p>$P1</p><h2>ERRORS</h2><table><tr><td></td><td><p>ENOMEM</p></td><td><p>Not enough memory available.</p></td></tr></table><h2>BUGS</h2><p>$P2</p></body></html>" >in
	check 0 "p1\\tTOOL\\\\n\\\\nNAME\\\\n\\\\n$P1\\\\n\\\\nERRORS\\\\n\\\\nENOMEM\\\\n\\\\nNot enough memory available.\\\\n\\\\nBUGS\\\\n\\\\n$P2\\n" '' htmltext in
}

@test "htmltext: a box with under a quarter of the page's good text gives way to the page (a tagline)" {
	rec "<html><body><div class=top><a href=/><img src=logo.png></a><div class=tagline>Small. Fast. Reliable. Choose any three.</div></div><h2>Release 3.6.11 On 2009-02-18</h2><ol><li>Added the hot-backup interface to the library.<li>Added new commands to the shell for backups.<li>Various minor bug fixes, found by the fuzzers.</ol><p>Methods: <a href=/1>sqlite3_backup_init</a>, <a href=/2>sqlite3_backup_step</a>, <a href=/3>sqlite3_backup_finish</a>, <a href=/4>sqlite3_backup_remaining</a>, <a href=/5>sqlite3_backup_pagecount</a></p></body></html>" >in
	check 0 'p1\tSmall. Fast. Reliable. Choose any three.\\n\\nRelease 3.6.11 On 2009-02-18\\n\\nAdded the hot-backup interface to the library.\\n\\nAdded new commands to the shell for backups.\\n\\nVarious minor bug fixes, found by the fuzzers.\\n\\nMethods: sqlite3_backup_init, sqlite3_backup_step, sqlite3_backup_finish, sqlite3_backup_remaining, sqlite3_backup_pagecount\n' '' htmltext in
}

@test "htmltext: a CR before the LF ends no field (simrec(5))" {
	printf 'a\tplain text\r\nb\t<p>html</p>\r\n' >crlf
	check 0 'a\tplain text\nb\thtml\n' '' htmltext crlf
}

# A page of four long paragraphs (over 500 characters: the first, strictest
# try stands) and what follows them.
intro='<p>This guide says how the program writes its reports, why it writes them where it does, and what a user can change in them, with examples.</p>'
introtext='This guide says how the program writes its reports, why it writes them where it does, and what a user can change in them, with examples.'
conf='<p>The configuration is read once, at start, from the file named on the command line, and each setting is checked before the first run.</p>'
conftext='The configuration is read once, at start, from the file named on the command line, and each setting is checked before the first run.\\n\\n'
# a paragraph of the tables-of-packages tests, and its text
p='<p>Debian ships many tools for this, and the ones below are those that most users install first, with what each one does for them.</p>'
pt='Debian ships many tools for this, and the ones below are those that most users install first, with what each one does for them.\\n\\n'

@test "htmltext: class and id hints are whole tokens; heading slugs carry none" {
	rec "<div class=\"menu\"><a href=\"/\">Home</a> <a href=\"/a\">About</a></div><div class=\"document\"><h1>Guide</h1>$intro$intro$intro$intro<section id=\"generating-reports\"><h2>Generating reports</h2><p>Reports are written once a day, after the nightly run, to the spool.</p></section><section id=\"the-tools-organization\"><h2>Tools</h2><p>Each tool is one file, with its options, a worker, and a usage line.</p></section><div class=\"unavailable\"><p>Some features are unavailable, and expectations differ.</p></div></div><div class=\"footer\">Copyright 2026</div>" >in
	i="$introtext"'\\n\\n'
	check 0 'p1\tGuide\\n\\n'"$i$i$i$i"'Generating reports\\n\\nReports are written once a day, after the nightly run, to the spool.\\n\\nTools\\n\\nEach tool is one file, with its options, a worker, and a usage line.\\n\\nSome features are unavailable, and expectations differ.\n' '' htmltext in
}

@test "htmltext: a table of packages (cells of links beside text) is not navigation" {
	rec "<div class=\"nav\"><a href=\"/\">Home</a></div><div class=\"content\"><h1>Tools</h1>$p$p$p<table><tr><td><a href=\"/p/apt\">apt</a></td><td><a href=\"/v\">2.6.1</a></td><td>package manager</td></tr><tr><td><a href=\"/p/dpkg\">dpkg</a></td><td><a href=\"/v\">1.21.22</a></td><td>package manager</td></tr></table>$p</div>" >in
	check 0 'p1\tTools\\n\\n'"$pt$pt$pt"'apt\\t2.6.1\\tpackage manager\\n\\ndpkg\\t1.21.22\\tpackage manager\\n\\n'"${pt%??????}"'\n' '' htmltext in
}

@test "htmltext: an <a> without href is an anchor, not a link: its heading and table stay" {
	r='<tr><td><a href="/p/apt">apt</a></td><td><a href="/pop">V:900</a></td><td>package manager for the command line</td></tr>'
	rt='apt\\tV:900\\tpackage manager for the command line\\n\\n'
	rec "<div class=\"navheader\"><a href=\"/\">Home</a></div><div class=\"chapter\"><h2 class=\"title\"><a id=\"_tools\"/>2.1. Tools</h2>$p$p$p<div class=\"table\"><a id=\"listoftools\"/><p class=\"title\"><strong>Table 2.1. List of tools</strong></p><div class=\"table-contents\"><table>$r$r</table></div></div>$p</div>" >in
	check 0 'p1\t2.1. Tools\\n\\n'"$pt$pt$pt"'Table 2.1. List of tools\\n\\n'"$rt$rt${pt%??????}"'\n' '' htmltext in
}

@test "htmltext: a table of links and text wrapped in a div goes by its links, as a bare table" {
	p='<p>This library parses and writes JSON, and the functions below are those that most programs call first, with what each one does for them.</p>'
	pt='This library parses and writes JSON, and the functions below are those that most programs call first, with what each one does for them.\\n\\n'
	r='<tr><td><a href="f.html">boxed_serialize</a></td><td>Serializes a boxed value into a node.</td></tr>'
	rt='boxed_serialize\\tSerializes a boxed value into a node.'
	rec "<div class=\"sidebar\"><a href=\"/\">Home</a></div><section id=\"main\"><h1>Json</h1>$p$p$p$p<h2>Functions</h2><div class=\"docblock\"><table>$r$r</table></div></section>" >in
	check 0 'p1\tJson\\n\\n'"$pt$pt$pt$pt"'Functions\\n\\n'"$rt"'\\n\\n'"$rt"'\n' '' htmltext in
}

@test "htmltext: a few words inserted in a table of links and text do not drop the table" {
	p='<p>This library parses and writes JSON, and the functions below are those that most programs call first, with what each one does for them.</p>'
	pt='This library parses and writes JSON, and the functions below are those that most programs call first, with what each one does for them.\\n\\n'
	d='Serializes a boxed value into a node of the tree, at once'
	page() {
		local r="<tr><td><a href=\"f.html\">boxed_serialize</a></td><td>$1.</td></tr>"
		printf '%s' "<div class=\"sidebar\"><a href=\"/\">Home</a></div><section id=\"main\"><h1>Json</h1>$p$p$p$p<h2>Functions</h2><div class=\"docblock\"><table>$r$r</table></div></section>"
	}
	rec "$(page "$d")" "$(page "$d, with its type")" >in
	out() {
		printf 'p%d\\tJson\\\\n\\\\n%s%s%s%sFunctions\\\\n\\\\nboxed_serialize\\\\t%s.\\\\n\\\\nboxed_serialize\\\\t%s.\\n' "$1" "$pt" "$pt" "$pt" "$pt" "$2" "$2"
	}
	check 0 "$(out 1 "$d")$(out 2 "$d, with its type")" '' htmltext in
}

@test "htmltext: an ancestor that scores near the best section, with more good text, holds the article" {
	a='<p>The tool reads its input line by line, splits each line at its tabs, and checks, before it goes on, that the fields are what the header says.</p>'
	at='The tool reads its input line by line, splits each line at its tabs, and checks, before it goes on, that the fields are what the header says.\\n\\n'
	s='It writes, as it reads, one line, one record, one field, a tab, a name, a date.'
	parts= partst=
	for i in 1 2 3 4; do
		parts="$parts<div class=\"part\"><h2>Part $i</h2><div class=\"par\"><p>$s</p></div></div>"
		partst="$partst"'\\n\\nPart '"$i"'\\n\\n'"$s"
	done
	rec "<div class=\"menu\"><a href=\"/\">Home</a> <a href=\"/a\">About</a></div><div class=\"doc\"><div class=\"sect\"><h2>Input</h2>$a$a$a$a</div>$parts</div>" >in
	check 0 'p1\tInput\\n\\n'"$at$at$at${at%??????}$partst"'\n' '' htmltext in
}

@test "htmltext: javadoc: the declared main content and its lists of members stay" {
	l='<p>If you write custom runners, you may need to notify the framework of your progress running tests, and this class does it for you, once per run.</p>'
	lt='If you write custom runners, you may need to notify the framework of your progress running tests, and this class does it for you, once per run.\\n\\n'
	r='<tr><td><a href="#f">fireTestFailure</a>(Failure failure)</td><td>Invoke to tell listeners that a test failed.</td></tr>'
	rt='fireTestFailure(Failure failure)\\tInvoke to tell listeners that a test failed.'
	rec "<div class=\"topNav\"><a href=\"/\">Overview</a> <a href=\"/p\">Package</a></div><main role=\"main\"><div class=\"header\"><h1>Class RunNotifier</h1></div><div class=\"contentContainer\"><div class=\"description\"><ul><li><div class=\"block\">$l$l$l$l</div></li></ul></div><div class=\"summary\"><ul><li><h3>Method Summary</h3><table>$r$r$r</table></li></ul></div></div></main><div class=\"bottomNav\"><a href=\"/\">Overview</a></div>" >in
	check 0 'p1\t'"$lt$lt$lt$lt"'Method Summary\\n\\n'"$rt"'\\n\\n'"$rt"'\\n\\n'"$rt"'\n' '' htmltext in
}

@test "htmltext: a short Sphinx page keeps its line of text, not the site menu" {
	rec '<div class="document"><div class="body" role="main"><h1>sdst</h1><p>Instruction output.</p><p>Size: 1 dword.</p></div></div><div class="sphinxsidebar" role="navigation"><h3>Documentation</h3><ul><li>Getting Started/Tutorials, and more</li><li>User Guides, for all of the tools</li><li>Contributing to the project, step by step</li></ul></div>' >in
	check 0 'p1\tsdst\\n\\nInstruction output.\\n\\nSize: 1 dword.\n' '' htmltext in
}

@test "htmltext: a DocBook sidebar (a tip box) is part of the text" {
	p='<div class="para">The apt-get command installs packages and their dependencies, and it removes them, with the same care for what the system needs.</div>'
	pt='The apt-get command installs packages and their dependencies, and it removes them, with the same care for what the system needs.\\n\\n'
	rec "<html><body><ul class=\"docnav\"><li><a href=\"p.html\">Prev</a></li><li><a href=\"n.html\">Next</a></li></ul><div class=\"section\"><h2>6.2. apt-get</h2>$p$p<div class=\"sidebar\"><div class=\"titlepage\"><p class=\"title\"><strong>TIP Installing a selection</strong></p></div><div class=\"para\">To install the same selection of packages on many machines, save it with dpkg.</div></div>$p$p</div>" >in
	check 0 'p1\t6.2. apt-get\\n\\n'"$pt$pt"'TIP Installing a selection\\n\\nTo install the same selection of packages on many machines, save it with dpkg.\\n\\n'"$pt${pt%??????}"'\n' '' htmltext in
}

@test "htmltext: a list of short items in the content is no boilerplate for being a list" {
	l='<p>If you write custom runners, you may need to notify the framework of your progress running tests, and this class does it for you, once per run.</p>'
	lt='If you write custom runners, you may need to notify the framework of your progress running tests, and this class does it for you, once per run.'
	rec "<div class=\"topNav\"><a href=\"/\">Overview</a> <a href=\"/p\">Package</a></div><div class=\"contentContainer\"><h1>Class OrderWithValidator</h1><ul class=\"inheritance\"><li>java.lang.Object</li><li><ul class=\"inheritance\"><li><a href=\"v.html\">org.junit.validator.AnnotationValidator</a></li><li><ul class=\"inheritance\"><li>org.junit.runner.OrderWithValidator</li></ul></li></ul></li></ul><div class=\"description\">$l$l$l$l</div></div>" >in
	check 0 'p1\tClass OrderWithValidator\\n\\njava.lang.Object\\n\\n'"$lt"'\\n\\n'"$lt"'\\n\\n'"$lt"'\\n\\n'"$lt"'\n' '' htmltext in
}

@test "htmltext: an index page keeps its table of contents, links that hold a third of its text" {
	p='<p>This manual tells how to build the documentation of a project from plain text sources, with cross references, indexes and themes.</p>'
	pt='This manual tells how to build the documentation of a project from plain text sources, with cross references, indexes and themes.\\n\\n'
	toc='<ul><li><a href="a.html">Getting started with a first project</a></li><li><a href="b.html">Writing the sources in plain text</a></li><li><a href="c.html">Cross references between the pages</a></li><li><a href="d.html">Building the pages and the index</a></li><li><a href="e.html">Themes and templates</a></li></ul>'
	toct='Getting started with a first project\\n\\nWriting the sources in plain text\\n\\nCross references between the pages\\n\\nBuilding the pages and the index\\n\\nThemes and templates'
	rec "<div class=\"sphinxsidebar\" role=\"navigation\"><a href=\"/\">Home</a></div><div class=\"body\"><h1>Welcome</h1>$p$p$p$p<h2>User guides</h2><div class=\"toctree-wrapper\">$toc</div><h2>Reference</h2><div class=\"toctree-wrapper\">$toc</div></div>" >in
	check 0 'p1\tWelcome\\n\\n'"$pt$pt$pt$pt"'User guides\\n\\n'"$toct"'\\n\\nReference\\n\\n'"$toct"'\n' '' htmltext in
}

@test "htmltext: the hint of an inline element (a highlighter's comment span, a permalink) drops nothing" {
	rec "<div class=\"menu\"><a href=\"/\">Home</a></div><div class=\"content\"><h1>Reading the configuration<a class=\"headerlink\" href=\"#r\">#</a></h1>$conf$conf$conf$conf<pre><span class=\"hljs-comment\">/* read the configuration once, at start */</span>\\nload(<span class=\"hljs-string\">\"app.conf\"</span>);</pre></div>" >in
	check 0 'p1\tReading the configuration#\\n\\n'"$conftext$conftext$conftext$conftext"'/* read the configuration once, at start */\\nload(\"app.conf\");\n' '' htmltext in
}

@test "htmltext: a cell with under half of its table's text is a column: the table is the content" {
	r='<tr><td class="entry"><a href="e.html#a">Exception</a>(String msg)</td><td class="entry"><a href="e.html">Json::Exception</a></td><td class="entry"></td></tr><tr><td class="entry"><a href="e.html#m">msg_</a></td><td class="entry"><a href="e.html">Json::Exception</a></td><td class="entry"><span class="mlabel">protected</span></td></tr><tr><td class="entry"><a href="e.html#b">what</a>() const noexcept override</td><td class="entry"><a href="e.html">Json::Exception</a></td><td class="entry"></td></tr><tr><td class="entry"><a href="r.html#c">RuntimeError</a>(String const &amp;msg)</td><td class="entry"><a href="r.html">Json::RuntimeError</a></td><td class="entry"></td></tr>'
	rec "<div class=\"navpath\"><ul><li><a href=\"n.html\">Json</a></li><li><a href=\"r.html\">RuntimeError</a></li></ul></div><div class=\"header\"><div class=\"title\">Json::RuntimeError Member List</div></div><div class=\"contents\"><p>This is the complete list of members for <a href=\"r.html\">Json::RuntimeError</a>, including all inherited members.</p><table class=\"directory\">$r</table></div>" >in
	check 0 'p1\tThis is the complete list of members for Json::RuntimeError, including all inherited members.\\n\\nException(String msg)\\tJson::Exception\\n\\nmsg_\\tJson::Exception\\tprotected\\n\\nwhat() const noexcept override\\tJson::Exception\\n\\nRuntimeError(String const &msg)\\tJson::RuntimeError\n' '' htmltext in
}

@test "htmltext: short blocks in a run of their class (the lines of a listing) stay; a short box goes" {
	rec "<div class=\"menu\"><a href=\"/\">Home</a></div><div class=\"contents\">$conf$conf$conf$conf<div class=\"fragment\"><div class=\"line\">int</div>\\n<div class=\"line\">main(void)</div>\\n<div class=\"line\">{</div>\\n<div class=\"line\">	return load(\"app.conf\", 0) == 0 ? 0 : 1;</div>\\n<div class=\"line\">}</div></div><div class=\"box\">Advertisement</div></div>" >in
	check 0 'p1\t'"$conftext$conftext$conftext$conftext"'int\\n\\nmain(void)\\n\\n{\\n\\nreturn load(\"app.conf\", 0) == 0 ? 0 : 1;\\n\\n}\n' '' htmltext in
}

@test "htmltext: a word for glued to a word against counts against (mainmenu, pagenav)" {
	rec "<html><body><div class=\"mainmenu\">Browse the whole site from here, search it, and find more of what you like, all in one place.</div><div id=\"maincontent\">$intro$intro$intro$intro</div><div class=\"pagenav\">Turn to the page before this one, or to the one after it, as you like.</div></body></html>" >in
	i="$introtext"'\\n\\n'
	check 0 "p1\\t$i$i$i$introtext\\n" '' htmltext in
}

@test "htmltext: the id of a section, two tokens, is a heading's anchor, no hint" {
	rec "<div class=\"menu\"><a href=\"/\">Home</a></div><div class=\"body\"><h1>Guide</h1>$intro$intro$intro$intro<section id=\"security-headers\"><h2>Security Headers</h2><p>Browsers read the headers of a response to decide what a page may load.</p></section><div id=\"site-header\"><p>Site name and slogan, shown on every page.</p></div></div>" >in
	i="$introtext"'\\n\\n'
	check 0 'p1\tGuide\\n\\n'"$i$i$i$i"'Security Headers\\n\\nBrowsers read the headers of a response to decide what a page may load.\n' '' htmltext in
}
