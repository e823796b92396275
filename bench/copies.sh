#!/bin/sh
# bench/copies.sh [DIR]: does a pair's similarity depend on how many
# exact copies of its documents exist (issue 18.1)? From the labelled set
# (bench-quality-data, DIR default build/quality): 100 kernel reST pages
# of 4 to 40 kB, each with an edit of 5% and one of 10% of its words
# (genedits subst, donor words from a Python page), and C exact copies of
# each page, C = 0 1 2 5 10 30. For each C: how many of the 100 edits
# neardup pairs with their page, and their mean SIM. BIN=dir runs the
# tools of another build.
set -eu
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/bin}
set=${1:-$here/build/quality}
PATH=$bin:$here/pipelines:$PATH
export PATH
[ -d "$set/docs/linux/rst" ] || { echo "copies: no set in $set (make bench-quality-data)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
donor=$set/docs/python/rst/c-api/exceptions.rst.txt

(cd "$set" && find docs/linux/rst -name '*.rst.txt' -size +4k -size -40k) | sort |
	awk 'NR % 5 == 0' | head -n 100 >"$tmp/bases"
n=0
while read -r f; do
	n=$((n + 1))
	cp "$set/$f" "$tmp/b$n"
	genedits -d "$donor" -s $n subst 5 "$tmp/b$n" >"$tmp/e5-$n"
	genedits -d "$donor" -s $n subst 10 "$tmp/b$n" >"$tmp/e10-$n"
done <"$tmp/bases"
echo "copies: $n pages; edits found (of $n) and their mean SIM, by exact copies of each page"
printf '%6s %14s %14s\n' copies 'subst 5%' 'subst 10%'
for c in 0 1 2 5 10 30; do
	rm -rf "$tmp/docs"
	mkdir "$tmp/docs"
	i=0
	while [ $i -lt $n ]; do
		i=$((i + 1))
		cp "$tmp/b$i" "$tmp/docs/b$i.txt"
		cp "$tmp/e5-$i" "$tmp/docs/e5-$i.txt"
		cp "$tmp/e10-$i" "$tmp/docs/e10-$i.txt"
		k=0
		while [ $k -lt $c ]; do
			k=$((k + 1))
			cp "$tmp/b$i" "$tmp/docs/b$i-c$k.txt"
		done
	done
	(cd "$tmp" && neardup docs >pairs)
	# a pair of page i (the original, not a copy) and its edit
	awk -F '\t' -v c=$c '
		{ a = $1; b = $2; sub(".*/", "", a); sub(".*/", "", b)
		  if (a ~ /^e/) { t = a; a = b; b = t }
		  if (a !~ /^b[0-9]+\.txt$/ || b !~ /^e(5|10)-/) next
		  sub(/^b/, "", a); sub(/\.txt$/, "", a)
		  split(b, e, "-"); sub(/\.txt$/, "", e[2])
		  if (a == e[2]) { n[e[1]]++; s[e[1]] += $3 } }
		END { printf "%6d %4d %9.4f %4d %9.4f\n", c, n["e5"], n["e5"] ? s["e5"] / n["e5"] : 0,
		    n["e10"], n["e10"] ? s["e10"] / n["e10"] : 0 }' "$tmp/pairs"
done
