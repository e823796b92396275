#!/bin/sh
# bench/heldout.sh [DIR]: score main-content extraction and neardup on the
# held-out documentation sets that heldout-data.sh builds (default
# build/heldout), per source, TUNE and HELD apart (bench/README).
#
# Extraction: htmltext's default mode against the gold of each page, token
# 4-gram precision, recall and F1 by bench/f1.awk (the mean over pages;
# recall is the share of the true body kept). Pairs: neardup with its
# defaults and with -e all, scored by paireval per source (the labels of
# that source, the reported pairs that touch its labelled documents), then
# over everything: F1, F1 of the Japanese and Chinese pairs, and precision
# over everything reported. BIN=dir runs the tools of another build.
set -eu
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/bin}
set=${1:-$here/build/heldout}
PATH=$bin:$here/pipelines:$PATH
export PATH
[ -s "$set/labels.tsv" ] || { echo "heldout: no set in $set (sh bench/heldout-data.sh)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "extraction (htmltext default): token 4-gram P R F1, mean over pages"
htmltext "$set/extract/pages" >"$tmp/ex"
awk -f "$here/bench/f1.awk" "$set/extract/gold" "$tmp/ex" >"$tmp/f1"
awk 'FNR == NR { g[$1] = $2; next }
	$1 in g { printf "%-4s %-12s %5d %7.3f %7.3f %7.3f\n", g[$1], $1, $2, $3, $4, $5 }
	$1 == "overall" { o = $0 }
	END { print "     " o }' "$set/sources.tsv" "$tmp/f1" | sort -s -k1,1r
for grp in TUNE HELD; do
	awk -v grp="$grp" 'FNR == NR { if ($2 == grp) g[$1] = 1; next }
		$1 in g { n += $2; p += $2 * $3; r += $2 * $4; f += $2 * $5 }
		END { if (n) printf "%-4s %-12s %5d %7.3f %7.3f %7.3f\n", grp, "(pages)", n, p / n, r / n, f / n }' \
	    "$set/sources.tsv" "$tmp/f1"
done

# score LABELS PAIRS: tp fp fn F1 p.all of the labelled pairs
score() {
	paireval "$1" "$2" | awk -F '\t' '$1 == "all" { tp = $2; fp = $3; fn = $4; f = $8 }
		END { printf "%4d %4d %4d %7s", tp, fp, fn, f }'
}
echo
echo "labelled pairs by kind (label count; SOURCE: left out; bench/README):"
awk -F '\t' '{ k = $4; sub(/^[^:]*:/, "", k); n[k " " $3]++ }
	END { for (k in n) print k, n[k] }' "$set/labels.tsv" | sort | paste - - - - | column -t
echo
echo "pairs: per source, tp fp fn F1 with neardup's defaults | with -e all"
(cd "$set" && neardup docs >"$tmp/p.def" && neardup -e all docs >"$tmp/p.all")
while read -r name grp gen lang; do
	awk -F '\t' -v s="$name" 'index($4, s ":") == 1' "$set/labels.tsv" >"$tmp/l.$name"
	[ -s "$tmp/l.$name" ] || continue
	cut -f1,2 "$tmp/l.$name" | tr '\t' '\n' | sort -u >"$tmp/ids"
	for m in def all; do
		awk -F '\t' 'FNR == NR { id[$1] = 1; next } ($1 in id) || ($2 in id)' \
		    "$tmp/ids" "$tmp/p.$m" >"$tmp/pp.$m"
	done
	printf '%-4s %-12s %s | %s\n' "$grp" "$name" "$(score "$tmp/l.$name" "$tmp/pp.def")" \
	    "$(score "$tmp/l.$name" "$tmp/pp.all")"
done <"$set/sources.tsv" | sort -s -k1,1r
gray=$set/gray.tsv
[ -f "$gray" ] || gray=/dev/null
for m in def all; do
	awk -F '\t' 'FNR == NR { if ($2 == "HELD") h[$1] = 1; next }
		{ s = $4; sub(/:.*/, "", s) } s in h' "$set/sources.tsv" "$set/labels.tsv" >"$tmp/l.held"
	awk -F '\t' 'FNR == NR { if ($2 == "TUNE") h[$1] = 1; next }
		{ s = $4; sub(/:.*/, "", s) } s in h' "$set/sources.tsv" "$set/labels.tsv" >"$tmp/l.tune"
	awk -F '\t' '$4 ~ /:cjk$/' "$set/labels.tsv" >"$tmp/l.cjk"
	paireval "$set/labels.tsv" "$tmp/p.$m" >"$tmp/ev.$m"
	printf '%s: all F1 %s (tp %s fp %s fn %s), TUNE F1 %s, HELD F1 %s, CJK F1 %s, precision over everything %s\n' \
	    "$([ $m = def ] && echo 'neardup defaults' || echo 'neardup -e all  ')" \
	    "$(awk -F '\t' '$1 == "all" { print $8 }' "$tmp/ev.$m")" \
	    "$(awk -F '\t' '$1 == "all" { print $2 }' "$tmp/ev.$m")" \
	    "$(awk -F '\t' '$1 == "all" { print $3 }' "$tmp/ev.$m")" \
	    "$(awk -F '\t' '$1 == "all" { print $4 }' "$tmp/ev.$m")" \
	    "$(paireval "$tmp/l.tune" "$tmp/p.$m" | awk -F '\t' '$1 == "all" { print $8 }')" \
	    "$(paireval "$tmp/l.held" "$tmp/p.$m" | awk -F '\t' '$1 == "all" { print $8 }')" \
	    "$(paireval "$tmp/l.cjk" "$tmp/p.$m" | awk -F '\t' '$1 == "all" { print $8 }')" \
	    "$(awk -F '\t' '$1 == "reported" { print $5 }' "$tmp/ev.$m")"
	# the reported pairs without a label: gray (gold Jaccard 0.3 to 0.5) or not
	awk -F '\t' 'FILENAME == ARGV[1] { l[$1 "\t" $2] = l[$2 "\t" $1] = 1; next }
		FILENAME == ARGV[2] { g[$1 "\t" $2] = g[$2 "\t" $1] = 1; next }
		!(($1 "\t" $2) in l) { n++; if (($1 "\t" $2) in g) gr++ }
		END { printf "  unlabelled reported: %d (gray %d, under 0.3 %d)\n", n, gr, n - gr }' \
	    "$set/labels.tsv" "$gray" "$tmp/p.$m"
done
