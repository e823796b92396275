#!/bin/sh
# bench/quality-data.sh [DIR]: build the labelled near-duplicate set (default
# build/quality) from the Debian documentation packages: documents under
# DIR/docs (their paths from DIR are the IDs), DIR/labels.tsv in the format
# of paireval(1), DIR/docs.jsonl (the same documents as JSON Lines, "id" and
# "text"). How the pairs are made and labelled: bench/README.
#
# Deterministic: every choice comes from a hash of the path and SEED, every
# edit from genedits with a seed. Without the packages, as root it installs
# them; otherwise it says so and exits 0 without a set. Few processes per
# document (copies go through tar in batches): the machine is shared.
set -eu
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/bin}
out=${1:-$here/build/quality}
# absolute: the work is done from the source directories too
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
SEED=${SEED:-1}

doc=${DOCROOT:-/usr/share/doc}	# another root: for trying the script
L1=$doc/linux-doc-6.1/html
L2=$doc/linux-doc-6.12/html
LT=$doc/linux-doc-6.1/Documentation
PY=$doc/python3.11/html
PG=$doc/postgresql-doc-15/html

say() { printf 'quality-data: %s\n' "$*" >&2; }

# ---- sources ----
missing=
[ -d "$L1/_sources" ] || missing="$missing linux-doc-6.1"
[ -d "$PY/_sources" ] || missing="$missing python3.11-doc"
[ -d "$PG" ] || missing="$missing postgresql-doc-15"
if [ -n "$missing" ]; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		say "installing$missing"
		# shellcheck disable=SC2086
		apt-get install -y $missing >/dev/null || { apt-get update >/dev/null &&
			apt-get install -y $missing >/dev/null; } || {
			say "skipped: could not install$missing"; exit 0; }
	else
		say "skipped: the set needs the Debian packages$missing (as root: apt-get install -y$missing)"
		exit 0
	fi
fi
# The neighbouring kernel version gives the natural-version pairs; optional.
if [ ! -d "$L2/_sources" ] && [ "$(id -u)" -eq 0 ] && [ -z "${QUALITY_NO_INSTALL:-}" ]; then
	say "installing linux-doc-6.12 (the neighbouring version, optional)"
	apt-get install -y linux-doc-6.12 >/dev/null 2>&1 || true
fi
[ -d "$L2/_sources" ] || say "linux-doc-6.12 not installed: no natural-version pairs"

tmp=$out.tmp
rm -rf "$tmp"
w=$tmp/work
mkdir -p "$tmp/docs" "$w"
: >"$w/labels"
: >"$w/put"

# shuffle SALT: the lines of stdin in an order fixed by a hash of SEED, SALT and the line.
shuffle() {
	awk -v seed="$SEED$1" 'BEGIN { for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i }
	function h(s,   i, x, n) {
		x = 7; n = length(s)
		for (i = 1; i <= n; i++) x = (x * 131 + ord[substr(s, i, 1)]) % 1000000007
		for (i = 0; i < 3; i++) x = (x * 48271 + 11) % 2147483647
		return x
	}
	{ printf "%d\t%s\n", h(seed "/" $0), $0 }' | sort -n -k1,1 -k2 | cut -f2-
}

# take N: the next N lines of the pool $w/pool (removed from it) to stdout.
take() {
	head -n "$1" "$w/pool"
	tail -n +"$(($1 + 1))" "$w/pool" >"$w/pool.rest"
	mv "$w/pool.rest" "$w/pool"
}

# The documents copied as they are: "put ROOT PATH" queues ROOT/PATH for
# docs/DEST/PATH; flush copies the queue with one tar per root.
roots='L1 docs/linux/html
L1S docs/linux/rst
L2 docs/linux-6.12/html
LT docs/linux/txt
LD docs/linux/src
PY docs/python/html
PYS docs/python/rst
PG docs/postgres/html'
put() { printf '%s %s\n' "$1" "$2" >>"$w/put"; }
rootdir() {
	case $1 in
	L1) echo "$L1" ;; L1S) echo "$L1/_sources" ;; L2) echo "$L2" ;; LT|LD) echo "$LT" ;;
	PY) echo "$PY" ;; PYS) echo "$PY/_sources" ;; PG) echo "$PG" ;;
	esac
}
flush() {
	printf '%s\n' "$roots" | while read -r r d; do
		awk -v r="$r" '$1 == r { print substr($0, length(r) + 2) }' "$w/put" | sort -u >"$w/put.$r"
		[ -s "$w/put.$r" ] || continue
		mkdir -p "$tmp/$d"
		tar -C "$(rootdir "$r")" -cf - -T "$w/put.$r" | tar -C "$tmp/$d" -xf -
	done
	# the plain texts and the Documentation sources are shipped compressed
	find "$tmp/docs/linux/txt" "$tmp/docs/linux/src" -name '*.gz' -exec gzip -df {} + \
		2>/dev/null || true
	: >"$w/put"
}

label() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$w/labels"; }

# Made documents get neutral IDs (nothing of their kind in their name).
nderived=0
mkdir -p "$tmp/docs/mirror"
for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do mkdir -p "$tmp/docs/mirror/$i"; done
derived() {	# EXT: sets new (7919 is prime: the numbers do not repeat)
	nderived=$((nderived + 1))
	new=docs/mirror/$((nderived * 7 % 16))/p$((nderived * 7919 % 100000 + 100000)).$1
}

# ---- candidate lists (relative paths without extension), sorted ----
say "listing the sources"
(cd "$L1/_sources" && find . -name '*.rst.txt' -size +2k | sed 's|^\./||; s|\.rst\.txt$||') |
	sort >"$w/linuxsrc"
(cd "$L1" && find . -name '*.html' ! -path './_*' | sed 's|^\./||; s|\.html$||') | sort >"$w/linuxhtml"
comm -12 "$w/linuxsrc" "$w/linuxhtml" >"$w/linux"
(cd "$PY/_sources" && find . -name '*.rst.txt' -size +2k | sed 's|^\./||; s|\.rst\.txt$||') |
	sort >"$w/pythonsrc"
(cd "$PY" && find . -name '*.html' ! -path './_*' ! -name 'genindex*' | sed 's|^\./||; s|\.html$||') |
	sort >"$w/pythonhtml"
comm -12 "$w/pythonsrc" "$w/pythonhtml" >"$w/python"
(cd "$PG" && find . -name '*.html' | sed 's|^\./||; s|\.html$||') | sort >"$w/postgres"
(cd "$LT" && find . -name '*.txt.gz' -size +1k | sed 's|^\./||; s|\.txt\.gz$||') | sort >"$w/ltxt"
say "$(wc -l <"$w/linux") kernel pages with sources, $(wc -l <"$w/python") Python, $(wc -l <"$w/postgres") PostgreSQL, $(wc -l <"$w/ltxt") kernel .txt"

# Every page goes to one role only, so that no unlabelled copy of a
# labelled page (its source, its other version) is in the set; the pages
# left (.rest: HTML pages, with or without a source) give the hard
# negatives and the distractors.
shuffle linux <"$w/linux" >"$w/pool"
take 300 >"$w/l.nat"
take 400 >"$w/l.edit"
take 80 >"$w/l.tpl"
take 600 >"$w/l.ver"
take 60 >"$w/l.copy"
sort "$w/l.nat" "$w/l.edit" "$w/l.tpl" "$w/l.ver" "$w/l.copy" >"$w/l.used"
comm -23 "$w/linuxhtml" "$w/l.used" | shuffle linuxrest >"$w/l.rest"
shuffle python <"$w/python" >"$w/pool"
take 150 >"$w/p.nat"
take 100 >"$w/p.edit"
take 40 >"$w/p.tpl"
sort "$w/p.nat" "$w/p.edit" "$w/p.tpl" >"$w/p.used"
comm -23 "$w/pythonhtml" "$w/p.used" | shuffle pythonrest >"$w/p.rest"
shuffle postgres <"$w/postgres" >"$w/pool"
take 300 >"$w/g.edit"
shuffle postgresrest <"$w/pool" >"$w/g.rest"
shuffle ltxt <"$w/ltxt" >"$w/pool"
take 250 >"$w/t.edit"
take 300 >"$w/t.rest"
# donors of inserted words and paragraphs: any page of the manual
shuffle ldonor <"$w/linux" | sed "s|.*|$L1/_sources/&.rst.txt|" >"$w/l.donor"
shuffle pdonor <"$w/python" | sed "s|.*|$PY/_sources/&.rst.txt|" >"$w/p.donor"
shuffle gdonor <"$w/postgres" | sed "s|.*|$PG/&.html|" >"$w/g.donor"

# ---- natural pairs: a page as HTML and as its reST source ----
say "natural pairs"
while read -r p; do
	put L1 "$p.html"
	put L1S "$p.rst.txt"
	label "docs/linux/html/$p.html" "docs/linux/rst/$p.rst.txt" 1 natural-html-rst
done <"$w/l.nat"
while read -r p; do
	put PY "$p.html"
	put PYS "$p.rst.txt"
	label "docs/python/html/$p.html" "docs/python/rst/$p.rst.txt" 1 natural-html-rst
done <"$w/p.nat"
# the same reST source shipped twice: html/_sources and Documentation
while read -r p; do
	[ -f "$LT/$p.rst.gz" ] || continue
	put L1S "$p.rst.txt"
	put LD "$p.rst.gz"
	label "docs/linux/rst/$p.rst.txt" "docs/linux/src/$p.rst" 1 natural-copy
done <"$w/l.copy"

# ---- natural pairs: the same page in two kernel versions ----
# Judged on the reST sources: the lines diff(1) marks as changed, over the
# lines of both. Up to 10% (and not identical) is a near-duplicate, 30% to
# 50% is not (as for the edits); pages in between are left out.
if [ -d "$L2/_sources" ]; then
	say "version pairs (6.1 and 6.12)"
	while read -r p; do
		a=$L1/_sources/$p.rst.txt b=$L2/_sources/$p.rst.txt
		if [ ! -f "$b" ] || [ ! -f "$L2/$p.html" ]; then continue; fi
		diff "$a" "$b" | awk -v p="$p" -v a="$a" -v b="$b" '/^[<>]/ { c++ }
			END { while ((getline l < a) > 0) n++; while ((getline l < b) > 0) n++
			printf "%s %d\n", p, 1000 * c / n }'
	done <"$w/l.ver" >"$w/ver"
	awk '$2 > 0 && $2 <= 100 && np < 150 { np++; print $1, 1, "natural-version" }
	     $2 >= 300 && $2 <= 500 && nn < 100 { nn++; print $1, 0, "hardneg-version" }' "$w/ver" |
	while read -r p v kind; do
		put L1 "$p.html"
		put L2 "$p.html"
		printf '%s\t%s\t%s\t%s\n' "docs/linux/html/$p.html" "docs/linux-6.12/html/$p.html" \
			"$v" "$kind" >>"$w/labels.ver"
	done
	say "version pairs: $(grep -c natural "$w/labels.ver") within 10% changed, $(grep -c hardneg "$w/labels.ver") at 30-50%"
fi

# ---- controlled edits ----
# Originals of four kinds (kernel reST, Python reST, PostgreSQL HTML, kernel
# plain text), one original per edited copy; the donor of inserted words and
# paragraphs is another page of the same manual.
say "controlled edits"
sed 's|.*|l &|' "$w/l.edit" >"$w/orig.l"
sed 's|.*|p &|' "$w/p.edit" >"$w/orig.p"
sed 's|.*|g &|' "$w/g.edit" >"$w/orig.g"
sed 's|.*|t &|' "$w/t.edit" >"$w/orig.t"
# interleaved, so that every edit kind gets all four; the text originals at
# the end are kept for the paragraph kinds
paste -d '\n' "$w/orig.l" "$w/orig.p" "$w/orig.g" "$w/orig.t" | grep . >"$w/orig.all"
grep -v '^g ' "$w/orig.all" | tail -n 160 >"$w/orig.text"
grep -vxF -f "$w/orig.text" "$w/orig.all" >"$w/orig.any"
# queue and copy the originals first: genedits reads them in the set
: >"$w/origids"
while read -r k p; do
	case $k in
	l) put L1S "$p.rst.txt"; echo "docs/linux/rst/$p.rst.txt" ;;
	p) put PYS "$p.rst.txt"; echo "docs/python/rst/$p.rst.txt" ;;
	g) put PG "$p.html"; echo "docs/postgres/html/$p.html" ;;
	t) put LT "$p.txt.gz"; echo "docs/linux/txt/$p.txt" ;;
	esac
done <"$w/orig.all" >"$w/origids"
flush

# The plan: KIND OP RATE COUNT LABEL FORMATS (the paragraph kinds need text)
cat >"$w/plan" <<'EOF'
edit-subst-1 subst 1 40 1 any
edit-subst-3 subst 3 40 1 any
edit-subst-5 subst 5 40 1 any
edit-subst-10 subst 10 40 1 any
edit-ins-1 ins 1 40 1 any
edit-ins-3 ins 3 40 1 any
edit-ins-5 ins 5 40 1 any
edit-ins-10 ins 10 40 1 any
edit-del-1 del 1 40 1 any
edit-del-3 del 3 40 1 any
edit-del-5 del 5 40 1 any
edit-del-10 del 10 40 1 any
para-reorder reorder 20 40 1 text
para-add padd 10 40 1 text
para-del pdel 10 40 1 text
trunc-90 trunc 90 40 1 any
trunc-70 trunc 70 40 1 any
trunc-50 trunc 50 40 1 any
hardneg-edit-30 mix 30 80 0 any
hardneg-edit-40 mix 40 80 0 any
hardneg-edit-50 mix 50 80 0 any
EOF
seed=0
exec 3<"$w/orig.any" 4<"$w/orig.text" 5<"$w/l.donor" 6<"$w/p.donor" 7<"$w/g.donor"
while read -r kind op rate n lab fmt; do
	i=0
	while [ "$i" -lt "$n" ]; do
		if [ "$fmt" = text ]; then
			read -r k p <&4 || break
		else
			read -r k p <&3 || break
		fi
		case $k in
		l) id=docs/linux/rst/$p.rst.txt ext=rst; read -r d <&5 ;;
		p) id=docs/python/rst/$p.rst.txt ext=txt; read -r d <&6 ;;
		g) id=docs/postgres/html/$p.html ext=html; read -r d <&7 ;;
		t) id=docs/linux/txt/$p.txt ext=txt; read -r d <&5 ;;
		esac
		seed=$((seed + 1))
		derived "$ext"
		# an original too short for the edit is passed over
		"$bin/genedits" -s "$SEED$seed" -d "$d" "$op" "$rate" "$tmp/$id" \
		    >"$tmp/$new" 2>/dev/null || { rm -f "$tmp/$new"; continue; }
		label "$id" "$new" "$lab" "$kind"
		i=$((i + 1))
	done
done <"$w/plan"
exec 3<&- 4<&- 5<&- 6<&- 7<&-
# originals that no edit used are not in the set (unlabelled copies otherwise)
cut -f1 "$w/labels" | sort -u >"$w/edited"
sort "$w/origids" | comm -23 - "$w/edited" | (cd "$tmp" && xargs rm -f)

# ---- the same body in another site's template ----
# Kernel pages (Read the Docs theme) put into the chrome of a Python docs
# page (related bars, sidebar, footer) or of a PostgreSQL page (navigation
# header and footer), and Python pages into the kernel's chrome; the title
# is the page's own.
say "template swaps"
# swap PAGE BSTART BEND CHROME CSTART CEND TITLESUFFIX: the lines of PAGE
# between its BSTART and BEND lines, in CHROME's lines up to its CSTART line
# and from its CEND line, titled with PAGE's title.
swap() {
	awk -v page="$1" -v bs="$2" -v be="$3" -v cs="$5" -v ce="$6" -v suf="$7" '
	BEGIN {
		while ((getline l < page) > 0) {
			if (t == "" && match(l, /<title>.*<\/title>/)) {
				t = substr(l, RSTART + 7, RLENGTH - 15)
				sub(/ *(&mdash;|&#8212;).*/, "", t)
			}
			if (index(l, be)) on = 0
			if (on) body = body l "\n"
			if (index(l, bs)) on = 1
		}
	}
	# not sub(): its replacement would read the & of entities
	match($0, /<title>.*<\/title>/) {
		$0 = substr($0, 1, RSTART - 1) "<title>" t " " suf "</title>" substr($0, RSTART + RLENGTH) }
	state == 0 { print; if (index($0, cs)) { state = 1; printf "%s", body; print "</div></div></div>" }
		next }
	state == 1 && index($0, ce) { state = 2 }
	state == 2 { print }' "$4"
}
# PostgreSQL pages are a few long lines: cut at the navigation divs.
pgswap() {	# PAGE BSTART BEND CHROME
	awk -v page="$1" -v bs="$2" -v be="$3" 'BEGIN {
		while ((getline l < page) > 0) {
			if (t == "" && match(l, /<title>.*<\/title>/)) {
				t = substr(l, RSTART + 7, RLENGTH - 15)
				sub(/ *(&mdash;|&#8212;).*/, "", t)
			}
			if (index(l, be)) on = 0
			if (on) body = body l "\n"
			if (index(l, bs)) on = 1
		}
		RS = "\001"
	}
	{	if (match($0, /<title>[^<]*<\/title>/))
			$0 = substr($0, 1, RSTART - 1) "<title>" t "</title>" substr($0, RSTART + RLENGTH)
		a = index($0, "<hr /></div>"); b = index($0, "<div class=\"navfooter\">")
		if (a == 0 || b == 0) { printf "%s", $0; exit }
		printf "%s%s%s", substr($0, 1, a + 11), body, substr($0, b) }' "$4"
}
# chrome donors: Python pages of modest size (their sidebar holds their own contents)
tail -n 80 "$w/p.rest" | sed "s|.*|$PY/&.html|" | xargs wc -c |
	awk '$2 != "total" && $1 < 40000 { print $2 }' >"$w/py.chrome"
tail -n 60 "$w/l.rest" | sed "s|.*|$L1/&.html|" >"$w/l.chrome"
tail -n 60 "$w/g.rest" | sed "s|.*|$PG/&.html|" >"$w/g.chrome"
i=0
exec 5<"$w/py.chrome" 6<"$w/g.chrome"
while read -r p; do
	i=$((i + 1))
	put L1 "$p.html"
	derived html
	if [ $((i % 2)) -eq 1 ]; then
		read -r c <&5
		swap "$L1/$p.html" 'itemprop="articleBody"' '<footer>' "$c" \
			'role="main"' 'class="sphinxsidebar"' '&#8212; Python 3.11.2 documentation' >"$tmp/$new"
		label "docs/linux/html/$p.html" "$new" 1 template-python
	else
		read -r c <&6
		pgswap "$L1/$p.html" 'itemprop="articleBody"' '<footer>' "$c" >"$tmp/$new"
		label "docs/linux/html/$p.html" "$new" 1 template-postgres
	fi
done <"$w/l.tpl"
exec 5<&- 6<&- 5<"$w/l.chrome"
while read -r p; do
	put PY "$p.html"
	derived html
	read -r c <&5
	swap "$PY/$p.html" 'role="main"' 'class="sphinxsidebar"' "$c" \
		'itemprop="articleBody"' '<footer>' '&mdash; The Linux Kernel  documentation' >"$tmp/$new"
	label "docs/python/html/$p.html" "$new" 1 template-linux
done <"$w/p.tpl"
exec 5<&-

# ---- hard negatives ----
# From the pages left (none of them labelled above): HTML pages of one
# manual, so every pair shares the site's template.
say "hard negatives"
head -n 900 "$w/l.rest" >"$w/l.neg"
cp "$w/p.rest" "$w/p.neg"
head -n 700 "$w/g.rest" >"$w/g.neg"
# neighbours: adjacent pages of one directory, in file name order
neighbours() {	# list n
	sort "$1" | awk -v n="$2" '
		{ d = $0; if (!sub(/\/[^\/]*$/, "", d)) d = "." }
		d == pd && !used { print prev "\t" $0; used = 1; if (++k == n) exit; next }
		{ prev = $0; pd = d; used = 0 }'
}
neighbours "$w/l.neg" 120 | sed 's|^|L1\t|' >"$w/neigh"
neighbours "$w/p.neg" 60 | sed 's|^|PY\t|' >>"$w/neigh"
# PostgreSQL pages are one directory: neighbours share a prefix (sql-alter*)
sort "$w/g.neg" | awk -F- '$1 == p && !u { print "PG\t" prev "\t" $0; u = 1; if (++k == 120) exit; next }
	{ p = $1; prev = $0; u = 0 }' >>"$w/neigh"
# same template: pairs of different pages (the lists are shuffled)
templ() {	# root list n
	awk -v k="$1" -v n="$3" '{ a[NR] = $0 } END {
		for (i = 1; 2 * i <= NR && i <= n; i++) print k "\t" a[i] "\t" a[NR + 1 - i] }' "$2"
}
templ L1 "$w/l.neg" 100 >"$w/templ"
templ PY "$w/p.neg" 60 >>"$w/templ"
templ PG "$w/g.neg" 100 >>"$w/templ"
# short pages: little body text, so mostly the shared boilerplate
bodytext() {	# start end: PATH<TAB>BYTES of the body text of the files named on stdin
	xargs awk -v s="$1" -v e="$2" '
	FNR == 1 { if (f != "") print f "\t" n; f = FILENAME; n = 0; on = 0 }
	e != "" && index($0, e) { on = 0 }
	on { t = $0; gsub(/<[^>]*>/, "", t); gsub(/[ \t\r]+/, " ", t); n += length(t) }
	s == "" || index($0, s) { on = 1 }
	END { if (f != "") print f "\t" n }'
}
(cd "$L1" && sed 's|$|.html|' "$w/l.rest" | bodytext 'itemprop="articleBody"' '<footer>') |
	awk -F '\t' '$2 < 1200 { sub(/\.html$/, "", $1); print $1 }' >"$w/l.short"
(cd "$PY" && sed 's|$|.html|' "$w/p.rest" | bodytext 'role="main"' 'class="sphinxsidebar"') |
	awk -F '\t' '$2 < 1500 { sub(/\.html$/, "", $1); print $1 }' >"$w/p.short"
(cd "$PG" && sed 's|$|.html|' "$w/g.rest" | bodytext '' '') |
	awk -F '\t' '$2 < 900 { sub(/\.html$/, "", $1); print $1 }' >"$w/g.short"
say "short pages: $(wc -l <"$w/l.short") kernel, $(wc -l <"$w/p.short") Python, $(wc -l <"$w/g.short") PostgreSQL"
for m in l p g; do
	case $m in l) r=L1 ;; p) r=PY ;; g) r=PG ;; esac
	shuffle "short$m" <"$w/$m.short" | awk -v k="$r" '{ a[NR] = $0 } END {
		for (i = 1; i + 1 <= NR && i < 100; i += 2) print k "\t" a[i] "\t" a[i + 1] }'
done >"$w/short"
negpairs() {	# kind file
	while IFS='	' read -r r a b; do
		put "$r" "$a.html"
		put "$r" "$b.html"
		case $r in L1) d=docs/linux/html ;; PY) d=docs/python/html ;; PG) d=docs/postgres/html ;; esac
		label "$d/$a.html" "$d/$b.html" 0 "$1"
	done <"$2"
}
negpairs hardneg-neighbour "$w/neigh"
negpairs hardneg-template "$w/templ"
negpairs hardneg-short "$w/short"
[ -f "$w/labels.ver" ] && cat "$w/labels.ver" >>"$w/labels"

# ---- distractors: unlabelled pages of the same manuals ----
say "distractors"
tail -n +901 "$w/l.rest" | head -n 400 | while read -r p; do put L1 "$p.html"; done
tail -n +701 "$w/g.rest" | while read -r p; do put PG "$p.html"; done
while read -r p; do put LT "$p.txt.gz"; done <"$w/t.rest"
flush

# ---- labels, JSON Lines, done ----
# A pair labelled twice (a page drawn for two negative pairs) keeps one record.
awk -F '\t' '!seen[$1 "\t" $2]++ && !seen[$2 "\t" $1]' "$w/labels" >"$tmp/labels.tsv"
"$bin/paireval" "$tmp/labels.tsv" </dev/null >/dev/null
# every labelled document is in the set
cut -f1,2 "$tmp/labels.tsv" | tr '\t' '\n' | sort -u | (cd "$tmp" && xargs ls >/dev/null)
say "JSON Lines"
# One line per document, written as it is read (linear in its size); the
# text is the file's lines, each ended by \n.
(cd "$tmp" && find docs -type f | sort | xargs awk '
	# s with every byte c replaced by rep, taken literally (no gsub: awks
	# differ on backslashes in its replacement)
	function repl(s, c, rep,   n, i, p, r) {
		n = split(s, p, c)
		r = p[1]
		for (i = 2; i <= n; i++) r = r rep p[i]
		return r
	}
	function esc(s,   i, c, r) {
		if (index(s, "\\")) s = repl(s, "\\", "\\\\")
		if (index(s, "\"")) s = repl(s, "\"", "\\\"")
		if (s ~ /[\001-\037\177]/) {
			r = ""
			for (i = 1; i <= length(s); i++) {
				c = substr(s, i, 1)
				r = r (c ~ /[\001-\037\177]/ ? sprintf("\\u%04x", ord[c]) : c)
			}
			s = r
		}
		return s
	}
	BEGIN { for (i = 1; i < 128; i++) ord[sprintf("%c", i)] = i }
	FNR == 1 { if (NR > 1) print "\"}"; printf "{\"id\":\"%s\",\"text\":\"", esc(FILENAME) }
	{ printf "%s\\n", esc($0) }
	END { if (NR > 0) print "\"}" }') >"$tmp/docs.jsonl"
rm -rf "$w"
rm -rf "$out"
mv "$tmp" "$out"
ndocs=$(cd "$out" && find docs -type f | wc -l)
say "$ndocs documents ($(du -sm "$out/docs" | cut -f1) MB), $(wc -l <"$out/labels.tsv") labelled pairs in $out"
