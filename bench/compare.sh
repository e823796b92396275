#!/bin/sh
# bench/compare.sh: neardup against the near-duplicate finders users compare
# it with, as Debian packages them, on labelled collections, scored by
# paireval(1) and timed in the same session:
#   ssdeep   context-triggered piecewise hashing (package ssdeep): every
#            file hashed and matched against the files before it,
#            ssdeep -l -r -c -d docs; score 0-100, SIM = score / 100
#   tlsh     Trend Micro's locality-sensitive hash (package tlsh-tools):
#            tlsh_unittest -xref -r docs, every file against every other;
#            distance D (0 identical, lower is closer), SIM = 1 - D / 300
#            for D <= 300 (farther pairs are left out)
#   simhash  Debian's simhash (package simhash): despite its name Manasse's
#            shingleprinting, the 128 smallest CRC32 hashes of the 8-byte
#            shingles of a file; simhash -m FILE... writes the similarity
#            matrix of all the files, SIM in 0..1 with two decimals
#   neardup  pipelines/neardup docs, its defaults
# Each competitor is run as its documentation says to compare every file of
# a collection with every other, on the raw files (what a user would do),
# then on our extraction of their main text (docsplit -f | htmltext, each
# page written back to one file) to tell extraction from matching.
# MinHash-LSH has no Debian package; neardup's sketch and simjoin are a
# bottom-k MinHash with weighted verification, so there is no separate row.
#
# Rows, two per tool and input:
#   default  at the threshold the tool documents: ssdeep reports a score
#            above -t, default 0; tlsh_unittest's -T reports everything
#            (9999), and the TLSH paper's cut-off is D < 100 (94.5% detected,
#            6.43% false positives on its malware set), taken here as D <= 100;
#            Debian's simhash documents none, so 0.50 (half the shingle
#            prints shared) is ours; neardup -t 0.25
#   best     at the threshold with the best F1 on these labels (paireval -s):
#            optimistic, the labels chose it
#   p.all.9  at the threshold step (SIM by 0.05, of paireval -s) with the best
#            F1 among those whose p.all is at least 0.90 (issue 11's bar, as
#            ndquality.sh's t*): optimistic too
# Columns: reported pairs, tp fp fn, precision, recall, F1 over the labelled
# pairs; p.all = precision over everything reported (paireval's "reported"
# line: unlabelled pairs count as false, as in ndquality.sh); cpu s and
# wall s of the tool's run at its default (median of REPS runs, default 3;
# the text rows add the extraction's CPU), and x nd = cpu s / neardup's.
# Collections: the labelled set (QUALITY, default build/quality, built by
# make bench-quality-data; skipped when missing) and a gendocs(1) demo
# collection of GENDOCS_PAGES pages (default 2000, seed 42).
# Environment: BIN, QUALITY, REPS, GENDOCS_PAGES, COMPARE_ONLY=quality or
# gendocs for one collection.
set -eu
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/bin}
PATH=$bin:$here/pipelines:$PATH
export PATH
set_dir=${QUALITY:-$here/build/quality}
case $set_dir in /*) ;; *) set_dir=$here/$set_dir ;; esac
pages=${GENDOCS_PAGES:-2000}
# shellcheck source=bench/timing.sh
. "$here/bench/timing.sh"
timing_work compare

# Tool, Debian package, program; the competitors present.
tools=
for t in ssdeep:ssdeep:ssdeep tlsh:tlsh-tools:tlsh_unittest simhash:simhash:simhash; do
	name=${t%%:*} prog=${t##*:} pkg=${t#*:} pkg=${pkg%:*}
	if command -v "$prog" >/dev/null 2>&1; then
		tools="$tools $name"
	else
		echo "$name: not installed (apt-get install $pkg)"
	fi
done

# run TOOL OUT KEY: TOOL on docs/ of the current directory, its pairs as
# ID_A TAB ID_B TAB SIM in OUT, timed as KEY (the conversion is not timed);
# its warnings are counted in one line naming KEY.
run() {
	case $1 in
	ssdeep)
		# it warns, once per run, when some file is under 4096 bytes
		timed "$3" "ssdeep -l -r -c -d docs >$work/raw 2>$work/err"
		if grep -q 'large enough' "$work/err"; then
			echo "$3: ssdeep warned; $(find docs -type f -size -4096c | wc -l) of $(find docs -type f | wc -l) files under 4096 bytes, which ssdeep warns are too small for meaningful results"
		fi
		# "A","B",SCORE; IDs may hold commas, not quotes
		awk '{ n = match($0, /",[0-9]+$/); s = substr($0, n + 2); ids = substr($0, 2, n - 2)
			i = index(ids, "\",\""); a = substr(ids, 1, i - 1); b = substr(ids, i + 3)
			if (a != b) printf "%s\t%s\t%.2f\n", a, b, s / 100 }' "$work/raw" >"$2" ;;
	tlsh)
		# timed at the default threshold; the sweep needs farther pairs
		timed "$3" "tlsh_unittest -xref -r docs -T 100 >$work/raw 2>$work/err"
		n=$(grep -c 'too small' "$work/err" || :)
		[ "$n" -eq 0 ] || echo "$3: $n of $(find docs -type f | wc -l) files not hashed: \"file too small\""
		tlsh_unittest -xref -r docs -T 300 2>/dev/null |
			awk -F '\t' 'NF == 3 && $1 != $2 && $3 <= 300 { printf "%s\t%s\t%.4f\n", $1, $2, 1 - $3 / 300 }' >"$2" ;;
	simhash)
		# one process must see every file: the matrix is all pairs
		find docs -type f | sort >"$work/files"
		timed "$3" "simhash -m \$(cat $work/files) >$work/raw"
		# rows: NAME INDEX SIM(1) ... SIM(INDEX - 1); keep SIM >= 0.05
		awk 'NR > 1 { name[$2] = $1; for (i = 3; i <= NF; i++) if ($i + 0 >= 0.05)
			printf "%s\t%s\t%s\n", name[i - 2], $1, $i }' "$work/raw" >"$2" ;;
	neardup)
		timed "$3" "neardup docs >$2"
		neardup -t 0 docs >"$2.sweep" ;;
	esac
}

# default TOOL: the SIM of its documented threshold; shown TOOL SIM: that
# threshold in the tool's own unit.
default() {
	case $1 in
	ssdeep) echo 0.01 ;;
	tlsh) echo 0.6667 ;;
	simhash) echo 0.5 ;;
	neardup) echo 0.25 ;;
	esac
}
shown() {
	awk -v t="$1" -v s="$2" 'BEGIN {
		if (t == "ssdeep") printf "score>=%d", s * 100 + 0.5
		else if (t == "tlsh") printf "D<=%d", 300 - s * 300 + 0.5
		else printf "SIM>=%.2f", s }'
}

hdr() {
	printf '%-8s %-5s %-7s %-11s %8s %5s %5s %5s %6s %6s %6s %6s %7s %6s %6s\n' \
	    tool input row threshold reported tp fp fn prec recall F1 p.all "cpu s" "wall s" "x nd"
}

# row TOOL INPUT ROW THRESHOLD EVAL CPU WALL NDCPU
row() {
	awk -F '\t' -v tool="$1" -v input="$2" -v r="$3" -v th="$4" -v c="$6" -v w="$7" -v nd="$8" '
		$1 == "all" { tp = $2; fp = $3; fn = $4; p = $6; rc = $7; f = $8 }
		$1 == "reported" { n = $2; pa = $5 }
		END { x = (nd + 0 > 0 && c != "-") ? sprintf("%.1f", c / nd) : "-"
			printf "%-8s %-5s %-7s %-11s %8d %5d %5d %5d %6s %6s %6s %6s %7s %6s %6s\n",
			    tool, input, r, th, n, tp, fp, fn, p, rc, f, pa, c, w, x }' "$5"
}

add() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a + b }'; }

# text DIR: our main text of docs/ (docsplit -f | htmltext), one file a
# page under DIR/docs/, as the page's ID names it (simrec(5) escapes undone;
# NUL bytes dropped).
text() {
	timed "extract" "docsplit -f docs | htmltext >$work/text.rec"
	awk -F '\t' '{ n = split($1, p, "/"); d = p[1]; for (i = 2; i < n; i++) d = d "/" p[i]; print d }' \
	    "$work/text.rec" | sort -u | while IFS= read -r d; do mkdir -p "$1/$d"; done
	awk -F '\t' -v dir="$1" '
		function unescape(s,   n, seg, i, r) {
			n = split(s, seg, /\\\\/)
			for (i = 1; i <= n; i++) {
				gsub(/\\n/, "\n", seg[i]); gsub(/\\t/, "\t", seg[i])
				gsub(/\\r/, "\r", seg[i]); gsub(/\\0/, "", seg[i])
				r = (i == 1) ? seg[i] : r "\\" seg[i]
			}
			return r
		}
		{ f = dir "/" $1; printf "%s", unescape(substr($0, length($1) + 2)) >f; close(f) }' \
	    "$work/text.rec"
}

# bykind COLLECTION ROW WHAT: per kind, the share of the pairs that each
# tool's ROW (best or bar; neardup's default for best) reported.
bykind() {
	echo
	echo "by kind, $3: the share reported,"
	echo "recall for label 1, false-positive rate for label 0"
	printf '%-20s %5s %5s' kind label pairs
	files=
	for r in $rows; do
		f=$work/$1.$r.$2
		[ "$r.$2" != neardup.raw.best ] || f=$work/$1.$r.def
		[ -f "$f" ] || continue
		files="$files $f"
		printf ' %12s' "$r"
	done
	echo
	# shellcheck disable=SC2086
	awk -F '\t' '
		FNR == 1 { col++ }
		$1 == "kind" { k = $2 "\t" $3; if (!(k in pairs)) { order[++n] = k; pairs[k] = $4 } rate[k, col] = $6 }
		END { for (i = 1; i <= n; i++) { k = order[i]; split(k, f, "\t")
			printf "%-20s %5s %5d", f[1], f[2], pairs[k]
			for (j = 1; j <= col; j++) printf " %12s", rate[k, j]
			printf "\n" } }' $files
}

# compare NAME: every tool on the collection in the current directory.
compare() {
	c=$1
	ndocs=$(find docs -type f | wc -l)
	echo
	echo "$c: $ndocs documents, $(du -sm docs | cut -f1) MB, $(wc -l <labels.tsv) labelled pairs" \
	    "($(awk -F '\t' '$3 == 1' labels.tsv | wc -l) positive) (REPS=${REPS:-3})"
	run neardup "$work/$c.neardup.raw" "$c.neardup.raw"
	ndcpu=$(cpu "$c.neardup.raw")
	rows="neardup.raw"
	for t in $tools; do
		run "$t" "$work/$c.$t.raw" "$c.$t.raw"
		rows="$rows $t.raw"
	done
	if [ -n "$tools" ]; then
		rm -rf "$work/text"
		mkdir "$work/text"
		text "$work/text"
		for t in $tools; do
			(cd "$work/text" && run "$t" "$work/$c.$t.text" "$c.$t.text")
			rows="$rows $t.text"
		done
	fi
	echo
	hdr
	for r in $rows; do
		t=${r%.*} in=${r#*.} p=$work/$c.$r
		sw=$p
		[ "$t" != neardup ] || sw=$p.sweep
		paireval -s labels.tsv "$sw" >"$p.sw"
		best=$(awk -F '\t' '$1 == "best" { print $2 }' "$p.sw")
		d=$(default "$t")
		if [ "$t" = neardup ]; then
			paireval labels.tsv "$p" >"$p.def"
		else
			paireval -t "$d" labels.tsv "$p" >"$p.def"
		fi
		ct=$(cpu "$c.$r") wt=$(wall "$c.$r")
		[ "$in" = raw ] || ct=$(add "$ct" "$(cpu extract)")
		row "$t" "$in" default "$(shown "$t" "$d")" "$p.def" "$ct" "$wt" "$ndcpu"
		if [ "$best" != - ]; then
			paireval -t "$best" labels.tsv "$sw" >"$p.best"
			row "$t" "$in" best "$(shown "$t" "$best")" "$p.best" "$ct" "$wt" "$ndcpu"
		fi
		# the best F1 of the sweep's steps whose p.all >= 0.90
		bar=$(awk -F '\t' '$1 == "sweep" { u = $3 + $4 + $6
				if (u > 0 && $3 / u >= 0.90 && $9 != "-" && $9 + 0 > f + 0) { f = $9; t = $2 } }
			END { print t }' "$p.sw")
		if [ -n "$bar" ]; then
			paireval -t "$bar" labels.tsv "$sw" >"$p.bar"
			row "$t" "$in" p.all.9 "$(shown "$t" "$bar")" "$p.bar" "$ct" "$wt" "$ndcpu"
		else
			printf '%-8s %-5s %-7s %s\n' "$t" "$in" p.all.9 "(no threshold step reaches p.all >= 0.90)"
		fi
		case $t in
		simhash | tlsh)
			# pairs below the lowest SIM kept are not in the sweep
			awk -F '\t' -v t="$t" -v lo="$(cut -f3 "$p" | sort -n | head -1)" '$1 == "best" && $2 + 0 <= lo + 0 {
				printf "%s: the best threshold is the lowest kept; farther pairs could change it\n", t }' "$p.sw" ;;
		esac
	done
	[ -z "$tools" ] || echo "text rows: cpu s includes the extraction (docsplit -f | htmltext, $(cpu extract) s)"
	bykind "$c" best "at each tool's best threshold (neardup: its default)"
	bykind "$c" bar "at issue 11's bar (each tool's p.all.9 row)"
}

s=$(date +%s)
if [ "${COMPARE_ONLY:-quality}" = quality ]; then
	if [ -f "$set_dir/labels.tsv" ] && [ -d "$set_dir/docs" ]; then
		(cd "$set_dir" && compare quality)
	else
		echo "quality: skipped (no labelled set in $set_dir; make bench-quality-data)"
	fi
fi
if [ "${COMPARE_ONLY:-gendocs}" = gendocs ]; then
	gendocs -n "$pages" -s 42 "$work/gendocs" >/dev/null
	(cd "$work/gendocs" && compare "gendocs-$pages")
fi
echo
echo "bench-compare: $(($(date +%s) - s)) s"
