#!/bin/sh
# bench/quality-para.sh: paragraph-level matching and I-Match on the
# labelled near-duplicate set, scored by paireval(1). Called by
# bench/quality.sh once the set exists; runs in the set's directory.
#   parjoin    the text of every document (docsplit -f | htmltext), split
#              into paragraphs of at least PARMIN non-blank bytes
#              (parsplit), each fingerprinted (wordfreq -u -p, fphash -H
#              -m 64 -w log), matched within PARD = 7 bits (hamq -s), page
#              pairs from the matches (parjoin): every pair with a shared
#              paragraph, SIM the share of both pages' text in shared
#              paragraphs
#   parjoin.5  the same pairs with SIM >= 0.5
#   contain.9  the same pairs with a containment >= 0.9 (a page within
#              another), SIM = the larger containment
#   imatch     I-Match: the 128-bit signature of each page's set of
#              mid-IDF words (fphash -w imatch, default band), pages with
#              equal signatures (hamq -s -d 0), SIM 1
# Usage: quality-para.sh BIN WORK (the set's directory is the current one).
set -eu
bin=$1
work=$2
PARMIN=100
PARD=7

now() { date +%s.%N; }
since() { awk -v s="$1" -v e="$(now)" 'BEGIN { printf "%.1f", e - s }'; }

# The text, shared by both methods.
t0=$(now)
"$bin/docsplit" -f docs | "$bin/htmltext" >"$work/text.rec"
time_text=$(since "$t0")

para_rows() {
	t0=$(now)
	"$bin/parsplit" -m "$work/par.map" -n "$PARMIN" "$work/text.rec" >"$work/par.rec"
	"$bin/wordfreq" -u -p "$work/par.rec" | "$bin/fphash" -H -m 64 -w log >"$work/par.fp"
	"$bin/hamq" -s -d "$PARD" "$work/par.fp" >"$work/par.matches"
	"$bin/parjoin" -m "$work/par.map" "$work/par.matches" >"$work/parjoin"
	time_parjoin=$(since "$t0")
	awk -F '\t' '$3 >= 0.5' "$work/parjoin" >"$work/parjoin.5"
	awk -F '\t' -v OFS='\t' '{ print $1, $2, ($4 > $5 ? $4 : $5) }' "$work/parjoin" >"$work/contain"
	awk -F '\t' '$3 >= 0.9' "$work/contain" >"$work/contain.9"
	npar=$(awk 'END { print NR }' "$work/par.map")
	nmatch=$(awk 'END { print NR }' "$work/par.matches")
}

imatch_rows() {
	t0=$(now)
	"$bin/wordfreq" -u -d "$work/text.rec" >"$work/text.df"
	"$bin/wordfreq" -u -p "$work/text.rec" |
		"$bin/fphash" -H -m 128 -w imatch -D "$work/text.df" >"$work/imatch.fp"
	"$bin/hamq" -s -d 0 "$work/imatch.fp" |
		awk -F '\t' -v OFS='\t' '{ print $1, $3, 1 }' >"$work/imatch"
	time_imatch=$(since "$t0")
	nsig=$(awk 'END { print NR }' "$work/imatch.fp")
}

para_rows
imatch_rows
for b in parjoin parjoin.5 contain contain.9 imatch; do
	"$bin/paireval" -s labels.tsv "$work/$b" >"$work/$b.ev"
done

echo
echo "paragraphs and I-Match (text: docsplit -f | htmltext, $time_text s):"
echo "  parjoin: $npar paragraphs (parsplit -n $PARMIN), $nmatch matches (hamq -s -d $PARD)"
echo "  imatch: $nsig of the documents have a signature (a mid-IDF word)"
printf '%-9s %7s %9s %7s %7s %7s %9s %10s %8s %9s\n' method "time s" reported tp fp fn precision recall f1 "prec. all"
for b in parjoin parjoin.5 contain.9 imatch; do
	case $b in imatch) t=$time_imatch ;; *) t=$time_parjoin ;; esac
	awk -F '\t' -v b="$b" -v t="$t" '
		$1 == "all" { tp = $2; fp = $3; fn = $4; p = $6; r = $7; f = $8 }
		$1 == "reported" { n = $2; pa = $5 }
		END { printf "%-9s %7s %9d %7d %7d %7d %9s %10s %8s %9s\n", b, t, n, tp, fp, fn, p, r, f, pa }' "$work/$b.ev"
done
echo
echo "threshold with the best F1 (parjoin: on SIM; contain: on the larger containment):"
for b in parjoin contain; do
	awk -F '\t' -v b="$b" '$1 == "best" { printf "  %-8s SIM >= %s: tp %d fp %d fn %d, precision %s recall %s f1 %s\n", b, $2, $3, $4, $5, $7, $8, $9 }' "$work/$b.ev"
done
echo
echo "by kind: the share reported (recall for label 1, false-positive rate for 0):"
printf '%-20s %5s %6s %8s %9s %9s %8s\n' kind label pairs parjoin parjoin.5 contain.9 imatch
awk -F '\t' '
	FILENAME ~ /parjoin.ev$/ && $1 == "kind" { k = $2 "\t" $3; order[++n] = k; pairs[k] = $4; pj[k] = $6 }
	FILENAME ~ /parjoin.5.ev$/ && $1 == "kind" { p5[$2 "\t" $3] = $6 }
	FILENAME ~ /contain.9.ev$/ && $1 == "kind" { ct[$2 "\t" $3] = $6 }
	FILENAME ~ /imatch.ev$/ && $1 == "kind" { im[$2 "\t" $3] = $6 }
	END { for (i = 1; i <= n; i++) { k = order[i]; split(k, f, "\t")
		printf "%-20s %5s %6d %8s %9s %9s %8s\n", f[1], f[2], pairs[k], pj[k], p5[k], ct[k], im[k] } }' \
	"$work/parjoin.ev" "$work/parjoin.5.ev" "$work/contain.9.ev" "$work/imatch.ev"
