#!/bin/sh
# extract.sh: how well htmltext finds the main text, and how fast.
#
# Labelled pages (bench/mkbench.py): Debian's linux-doc-6.1, python3.11-doc
# and postgresql-doc-15 HTML when installed (the gold is the text of the
# page's article container), and generated blogs, news pages, table
# layouts, div soup and forums made of real paragraphs (the gold is those
# paragraphs). Scored by bench/f1.awk (token 4-gram precision, recall, F1,
# the mean over pages) for the default mode and for -a. Speed: MB/s of
# HTML over the pages, against wc -w on the same input as a yardstick;
# peak memory (GNU time) on the pages and on one generated 20 MB page.
set -eu
bin=$(cd "$(dirname "$0")/../bin" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null 2>&1 || { echo "bench-extract: python3 missing, skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/mkbench.py" "$tmp"
if [ ! -s "$tmp/pages" ]; then
	echo "bench-extract: no pages (no doc packages and no paragraphs), skipped"
	exit 0
fi
docs=${BENCH_DOCS:-/usr/share/doc}
[ -d "$docs"/linux-doc-6.1/html ] || echo "(linux-doc-6.1 not installed: no linux pages)"
[ -d "$docs"/python3.11/html ] || echo "(python3.11-doc not installed: no python pages)"
[ -d "$docs"/postgresql-doc-15/html ] || echo "(postgresql-doc-15 not installed: no postgres pages)"

"$bin/htmltext" "$tmp/pages" >"$tmp/default"
"$bin/htmltext" -a "$tmp/pages" >"$tmp/all"
awk -f "$here/f1.awk" "$tmp/gold" "$tmp/default" >"$tmp/f1.default"
awk -f "$here/f1.awk" "$tmp/gold" "$tmp/all" >"$tmp/f1.all"
echo "token 4-gram precision, recall, F1 (mean over pages)"
printf '%-10s %5s | %-23s | %-23s\n' "" "" "default" "-a (all text)"
printf '%-10s %5s | %7s %7s %7s | %7s %7s %7s\n' source pages P R F1 P R F1
join -j1 "$tmp/f1.default" "$tmp/f1.all" 2>/dev/null | awk '
	{ printf "%-10s %5d | %7.3f %7.3f %7.3f | %7.3f %7.3f %7.3f\n", $1, $2, $3, $4, $5, $7, $8, $9 }' |
	sort -s -k1,1 | awk '$1 != "overall"' 
join -j1 "$tmp/f1.default" "$tmp/f1.all" | awk '$1 == "overall" {
	printf "%-10s %5d | %7.3f %7.3f %7.3f | %7.3f %7.3f %7.3f\n", $1, $2, $3, $4, $5, $7, $8, $9 }'

# speed: the pages four times over, best of three runs
for i in 1 2 3 4; do cat "$tmp/pages"; done >"$tmp/big"
bytes=$(wc -c <"$tmp/big")
timeit() {
	best=
	for i in 1 2 3; do
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$@" <"$tmp/big" >/dev/null
		t=$(awk '{ print $2 + $3 }' "$tmp/t")
		best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
	done
	echo "$best $(awk '{ print $4 }' "$tmp/t")"
}
if [ -x /usr/bin/time ]; then
	set -- $(timeit "$bin/htmltext"); td=$1 md=$2
	set -- $(timeit "$bin/htmltext" -a); ta=$1 ma=$2
	set -- $(timeit wc -w); tw=$1
	awk -v b="$bytes" -v td="$td" -v ta="$ta" -v tw="$tw" -v md="$md" -v ma="$ma" 'BEGIN {
		mb = b / 1e6
		f = "%-14s %8.1f MB/s (CPU %.2f s for %.1f MB), %.2fx wc -w, peak %d MB\n"
		printf f, "htmltext", mb / td, td, mb, tw / td, md / 1024
		printf f, "htmltext -a", mb / ta, ta, mb, tw / ta, ma / 1024
		printf "%-14s %8.1f MB/s\n", "wc -w", mb / tw }'
	# one 20 MB page: memory follows the page
	awk 'BEGIN { printf "p\t<html><body><nav><a href=/>Home</a></nav><div class=content>"
		for (i = 0; i < 100000; i++)
			printf "<p>Paragraph %d of a very long page, with <b>some</b> <a href=#x>links</a> and &amp; entities &#233;.</p>\\n", i
		print "</div></body></html>" }' >"$tmp/one"
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$bin/htmltext" "$tmp/one" >/dev/null
	awk -v b="$(wc -c <"$tmp/one")" '{ printf "one page of %.1f MB: %.2f s, peak %d MB\n", b / 1e6, $2 + $3, $4 / 1024 }' "$tmp/t"
else
	echo "(GNU time not installed: no speed or memory figures)"
fi
