#!/bin/sh
# bench/quality.sh: the labelled near-duplicate set (bench/quality-data.sh,
# built again only when its generators changed) and the scores of two
# trivial baselines on it through paireval(1), as the smoke check of the
# measuring instrument:
#   exact    identical text once white space is normalized (cksum)
#   simhash  a textbook 64-bit simhash from the toolkit's own stages: every
#            word but stop words a feature weighted by its count, a random
#            hash row per word (genhash), tags stripped crudely; pairs at
#            Hamming distance <= 3 (hamq -s), SIM = 1 - distance / 64
# Environment: QUALITY (the set's directory, default build/quality), BIN.
set -eu
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/bin}
set_dir=${QUALITY:-$here/build/quality}
D=3
M=64

stamp=$(cat "$here/bench/quality-data.sh" "$here/tools/genedits.c" | cksum)
if [ ! -f "$set_dir/labels.tsv" ] || [ "$(cat "$set_dir/stamp" 2>/dev/null)" != "$stamp" ]; then
	s=$(date +%s)
	sh "$here/bench/quality-data.sh" "$set_dir"
	if [ ! -f "$set_dir/labels.tsv" ]; then
		echo "bench-quality: skipped (no labelled set)"
		exit 0
	fi
	echo "$stamp" >"$set_dir/stamp"
	echo "quality set built in $(($(date +%s) - s)) s"
fi
cd "$set_dir"
work=$(mktemp -d "${TMPDIR:-/tmp}/quality.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ndocs=$(find docs -type f | wc -l)
echo "quality set $set_dir: $ndocs documents, $(du -sm docs | cut -f1) MB," \
	"$(wc -l <labels.tsv) labelled pairs ($(awk -F '\t' '$3 == 1' labels.tsv | wc -l) positive)"

now() { date +%s.%N; }
since() { awk -v s="$1" -v e="$(now)" 'BEGIN { printf "%.1f", e - s }'; }

# exact: one awk writes every document's normalized text, one cksum reads them.
# Each awk gets all the paths at once (a few hundred kB; they hold no blanks):
# run in parts by xargs it would number them, or separate pages, wrongly.
t0=$(now)
find docs -type f | sort >"$work/files"
mkdir "$work/norm"
# shellcheck disable=SC2046
awk -v dir="$work/norm" '
	FNR == 1 { if (out != "") close(out); out = dir "/" ++n; print FILENAME > (dir "/names"); printf "" > out }
	{ $1 = $1; if (NF) printf "%s ", $0 > out }' $(cat "$work/files")
(cd "$work/norm" && awk '{ print NR }' names | xargs cksum) | awk '{ print $1 "-" $2, $3 }' >"$work/sums"
awk 'NR == FNR { name[FNR] = $0; next } { id[$1] = id[$1] "\t" name[$2] }
	END { for (k in id) { n = split(substr(id[k], 2), v, "\t")
		for (i = 1; i < n; i++) for (j = i + 1; j <= n; j++) print v[i] "\t" v[j] "\t1" } }' \
	"$work/norm/names" "$work/sums" | sort >"$work/exact"
time_exact=$(since "$t0")

# simhash: page records through the toolkit
t0=$(now)
# shellcheck disable=SC2046
awk '
	FNR == 1 { if (NR > 1) printf "\f"; print FILENAME }
	{ gsub(/\f/, " "); gsub(/<[^>]*>/, " "); print }' $(cat "$work/files") >"$work/pages.txt"
"$bin/docsplit" "$work/pages.txt" >"$work/pages.rec"
"$bin/wordfreq" -s "$here/demo/stopwords.txt" "$work/pages.rec" >"$work/counts"
nw=$(awk 'END { print NR }' "$work/counts")
"$bin/topn" "$nw" "$work/counts" >"$work/features"
"$bin/genhash" -s 7 "$nw" "$M" >"$work/hashvalue.txt"
"$bin/wordfreq" -p -s "$here/demo/stopwords.txt" -v "$work/features" "$work/pages.rec" >"$work/pages"
"$bin/fphash" -f "$work/features" -m "$M" -t "$work/hashvalue.txt" "$work/pages" >"$work/fp"
"$bin/hamq" -s -d "$D" "$work/fp" |
	awk -F '\t' -v OFS='\t' -v m="$M" '{ print $1, $3, 1 - $2 / m }' >"$work/simhash"
time_simhash=$(since "$t0")

"$bin/paireval" -s labels.tsv "$work/exact" >"$work/exact.ev"
"$bin/paireval" -s labels.tsv "$work/simhash" >"$work/simhash.ev"

echo
printf '%-9s %7s %9s %7s %7s %7s %9s %10s %8s\n' baseline "time s" reported tp fp fn precision recall f1
for b in exact simhash; do
	case $b in exact) t=$time_exact ;; *) t=$time_simhash ;; esac
	awk -F '\t' -v b="$b" -v t="$t" '
		$1 == "all" { tp = $2; fp = $3; fn = $4; p = $6; r = $7; f = $8 }
		$1 == "reported" { n = $2 }
		END { printf "%-9s %7s %9d %7d %7d %7d %9s %10s %8s\n", b, t, n, tp, fp, fn, p, r, f }' "$work/$b.ev"
done
echo
echo "precision over everything reported (unlabelled pairs counted false):"
for b in exact simhash; do
	awk -F '\t' -v b="$b" '$1 == "reported" { printf "  %-9s %s of %d pairs (%d unlabelled)\n", b, $5, $2, $4 }' "$work/$b.ev"
done
echo
echo "simhash, SIM threshold with the best F1 (distance = 64 * (1 - SIM)):"
awk -F '\t' '$1 == "best" { printf "  SIM >= %s: tp %d fp %d fn %d, precision %s recall %s f1 %s\n", $2, $3, $4, $5, $7, $8, $9 }' "$work/simhash.ev"
echo
echo "by kind: pairs, and the share reported (recall for label 1, false-positive rate for 0):"
printf '%-20s %5s %6s %8s %8s\n' kind label pairs exact simhash
awk -F '\t' '
	FILENAME ~ /exact/ && $1 == "kind" { k = $2 "\t" $3; order[++n] = k; pairs[k] = $4; ex[k] = $6 }
	FILENAME ~ /simhash/ && $1 == "kind" { sh[$2 "\t" $3] = $6 }
	END { for (i = 1; i <= n; i++) { k = order[i]; split(k, f, "\t")
		printf "%-20s %5s %6d %8s %8s\n", f[1], f[2], pairs[k], ex[k], sh[k] } }' \
	"$work/exact.ev" "$work/simhash.ev"

# ---- paragraph-level matching (parsplit, parjoin) and I-Match ----
sh "$here/bench/quality-para.sh" "$bin" "$work"

# ---- neardup's configurations and page simhash candidates (bench/ndquality.sh) ----
BIN=$bin sh "$here/bench/ndquality.sh"
