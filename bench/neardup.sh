#!/bin/sh
# bench/neardup.sh: neardup's speed on a large real collection, the size of
# issue 11's benchmark (about 235 MB of documentation pages), built from the
# Debian documentation packages that the quality set uses, offline:
#   docs/html/  postgresql-doc-15, python3.11 and linux-doc-6.1 HTML pages
#   docs/text/  python3.11 reST sources (.txt), linux-doc-6.1 reST sources
#               (html/_sources/*.rst.txt) and its plain .txt files (.gz,
#               decompressed)
# in NDCORPUS (default build/ndcorpus; rebuilt when its stamp, the line
# below, changes: change it with what goes into the collection).
# It prints, each the median of REPS runs (default 3), wall and CPU seconds
# (user + system, children included):
#   - neardup end to end on the whole collection, on the text and on the
#     HTML alone: MB/s and documents/s, and peak memory (the largest
#     process, /usr/bin/time's %M);
#   - each stage alone: docsplit -f | htmltext, sketch, simjoin;
#   - yardsticks in the same session, and neardup's time as a ratio of
#     theirs: wc -l of the same files (reading them), wc -w of them (reading
#     and splitting words); and cat of the same bytes as one file. Not cat
#     of the files: GNU cat spent 4 s of system time on them here, 6 times
#     what wc -l or tar needs to read them, a cost of cat's own.
# Without the packages it says so and exits 0. Environment: BIN, REPS,
# NDCORPUS.
set -eu
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/bin}
PATH=$bin:$here/pipelines:$PATH
export PATH
corpus=${NDCORPUS:-$here/build/ndcorpus}
doc=/usr/share/doc

for p in postgresql-doc-15 python3.11-doc linux-doc-6.1; do
	if ! [ -d "$doc/$p" ]; then
		echo "bench-neardup: skipped ($doc/$p is missing; apt-get install postgresql-doc-15 python3.11-doc linux-doc-6.1)"
		exit 0
	fi
done
if ! [ -x /usr/bin/time ]; then
	echo "bench-neardup: skipped (no /usr/bin/time for CPU times and peak memory; apt-get install time)"
	exit 0
fi

# The collection, built once: copied with tar (the page names kept), the
# .txt.gz files decompressed.
stamp='ndcorpus 1: postgresql-doc-15, python3.11, linux-doc-6.1 *.html; python3.11, linux-doc-6.1 *.txt, *.txt.gz'

if [ "$(cat "$corpus/stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "building $corpus from $doc ..."
	rm -rf "$corpus"
	mkdir -p "$corpus/docs/html" "$corpus/docs/text"
	corpus=$(cd "$corpus" && pwd)
	(cd "$doc" && find postgresql-doc-15 -type f -name '*.html' &&
	    find python3.11/html linux-doc-6.1 -type f -name '*.html') | sort >"$corpus/html.list"
	(cd "$doc" && find python3.11/html linux-doc-6.1 -type f -name '*.txt') | sort >"$corpus/text.list"
	(cd "$doc" && tar -cf - -T "$corpus/html.list") | (cd "$corpus/docs/html" && tar -xf -)
	(cd "$doc" && tar -cf - -T "$corpus/text.list") | (cd "$corpus/docs/text" && tar -xf -)
	(cd "$doc" && find linux-doc-6.1 -type f -name '*.txt.gz') | sort |
	while read -r f; do
		out=$corpus/docs/text/${f%.gz}
		mkdir -p "${out%/*}"
		gzip -dc "$doc/$f" >"$out"
	done
	rm -f "$corpus/html.list" "$corpus/text.list"
	echo "$stamp" >"$corpus/stamp"
fi
cd "$corpus"

# shellcheck source=bench/timing.sh
. "$here/bench/timing.sh"
timing_work ndspeed

# peak KEY 'COMMAND': run once more for the largest resident set, in kB
peak() {
	/usr/bin/time -f '%M' -o "$work/peak.one" sh -c "$2"
	echo "$1 $(cat "$work/peak.one")" >>"$work/peaks"
}
: >"$work/peaks"

find docs -type f | sort >"$work/files.all"
grep '^docs/text/' "$work/files.all" >"$work/files.text"
grep '^docs/html/' "$work/files.all" >"$work/files.html"
n_all=$(wc -l <"$work/files.all") n_text=$(wc -l <"$work/files.text") n_html=$(wc -l <"$work/files.html")
b_all=$(xargs cat <"$work/files.all" | wc -c)
b_text=$(xargs cat <"$work/files.text" | wc -c)
b_html=$(xargs cat <"$work/files.html" | wc -c)

echo "neardup speed on $corpus/docs: $n_all documents, $(awk -v b="$b_all" 'BEGIN { printf "%.1f", b / 1e6 }') MB" \
	"($n_text text, $(awk -v b="$b_text" 'BEGIN { printf "%.1f", b / 1e6 }') MB;" \
	"$n_html HTML, $(awk -v b="$b_html" 'BEGIN { printf "%.1f", b / 1e6 }') MB);" \
	"median of ${REPS:-3} runs, $(nproc 2>/dev/null || echo '?') processors, load $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo '?')"

# yardsticks, on the same files; and on the same bytes as one file
timed wcl "xargs wc -l <$work/files.all >/dev/null"
timed wcw "xargs wc -w <$work/files.all >/dev/null"
xargs cat <"$work/files.all" >"$work/onefile"
timed cat1 "cat $work/onefile | cat >/dev/null"
rm -f "$work/onefile"

# end to end
for set in all text html; do
	case $set in
	all) dir=docs ;;
	*) dir=docs/$set ;;
	esac
	timed "neardup.$set" "neardup $dir >$work/pairs.$set"
	peak "neardup.$set" "neardup $dir >/dev/null"
done
# the stages alone, on the whole collection
timed text "docsplit -f docs | htmltext >$work/text.rec"
peak text "docsplit -f docs | htmltext >/dev/null"
timed sketch "sketch $work/text.rec >$work/sketches"
peak sketch "sketch $work/text.rec >/dev/null"
timed simjoin "simjoin $work/sketches >$work/pairs"
peak simjoin "simjoin $work/sketches >/dev/null"
b_rec=$(wc -c <"$work/text.rec")
b_sk=$(wc -c <"$work/sketches")

# line NAME KEY BYTES DOCS: wall, CPU, MB/s and documents/s (of the wall
# time), MB/s of the CPU time, peak memory
line() {
	awk -v name="$1" -v w="$(wall "$2")" -v c="$(cpu "$2")" -v b="$3" -v n="$4" \
	    -v m="$(awk -v k="$2" '$1 == k { print $2 }' "$work/peaks")" 'BEGIN {
		printf "%-30s %7.2f %7.2f %8.1f %9s %8.1f %8s\n", name, w, c, (w > 0 ? b / 1e6 / w : 0),
		    (n == "" ? "-" : sprintf("%.0f", (w > 0 ? n / w : 0))), (c > 0 ? b / 1e6 / c : 0),
		    (m == "" ? "-" : sprintf("%.0f", m / 1024)) }'
}
echo
printf '%-30s %7s %7s %8s %9s %8s %8s\n' run "wall s" "cpu s" "MB/s" "docs/s" "MB/cpu-s" "peak MB"
line "neardup DIR (all)" neardup.all "$b_all" "$n_all"
line "neardup DIR (text only)" neardup.text "$b_text" "$n_text"
line "neardup DIR (HTML only)" neardup.html "$b_html" "$n_html"
line "  docsplit -f | htmltext" text "$b_all" "$n_all"
line "  sketch (of its text input)" sketch "$b_rec" "$n_all"
line "  simjoin (of its sketches)" simjoin "$b_sk" "$n_all"
line "yardstick: wc -l FILES" wcl "$b_all" ""
line "yardstick: wc -w FILES" wcw "$b_all" ""
line "yardstick: cat ONEFILE | cat" cat1 "$b_all" ""
echo
echo "text extracted: $(awk -v b="$b_rec" 'BEGIN { printf "%.1f", b / 1e6 }') MB; sketches $(awk -v b="$b_sk" 'BEGIN { printf "%.1f", b / 1e6 }') MB;" \
	"pairs reported: $(wc -l <"$work/pairs.all") (text only $(wc -l <"$work/pairs.text"), HTML only $(wc -l <"$work/pairs.html"))"
awk -v a="$(wall neardup.all)" -v ca="$(cpu neardup.all)" -v c="$(wall wcl)" -v cc="$(cpu wcl)" \
    -v w="$(wall wcw)" -v cw="$(cpu wcw)" 'BEGIN {
	printf "neardup (all) against the yardsticks: %.1f x the wall time of wc -l, %.1f x that of wc -w;\n", (c > 0 ? a / c : 0), (w > 0 ? a / w : 0)
	printf "  in CPU time %.1f x wc -l, %.1f x wc -w\n", (cc > 0 ? ca / cc : 0), (cw > 0 ? ca / cw : 0) }'
awk -v bt="$b_text" -v wt="$(wall neardup.text)" -v bh="$b_html" -v wh="$(wall neardup.html)" \
    -v ba="$b_all" -v wa="$(wall neardup.all)" 'BEGIN {
	printf "targets: whole collection under 10 s (%.2f s);", wa
	printf " text >= 150 MB/s (%.1f); HTML >= 100 MB/s (%.1f), end to end\n", bt / 1e6 / wt, bh / 1e6 / wh }'
