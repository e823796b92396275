#!/bin/sh
# bench/pipeline.sh: time the simtool pipeline, whole and stage by stage.
#
#	sh bench/pipeline.sh [-r runs] [-k] [corpus ...]
#
# Corpora: large (generated: 16,000 articles, 10,000 samples, ~5.6M words,
# ~99,000 distinct words), course (../shared/data/course if present), kdoc
# (the kernel documentation of the Debian package linux-doc-6.1, if
# installed); large1m (bench-large: 1,000,000 generated articles, 1.25 GB,
# not in the default set). Default: all that are available but large1m.
# Generated data lives under
# bench/out/ (not in git). For each corpus the table gives, per stage run
# alone on files, the median wall time of the runs, the median CPU time
# (user + system), the peak RSS, the input size and MB/s (input / wall);
# the open-world stages (wordfreq -u, with the ratio of its times to those
# of wordfreq; -d and -p with 3-grams; fphash -H, raw and TF-IDF), not part
# of the pipeline;
# then the yardsticks, run in the same session on the same inputs: a
# table-driven byte scan (bench/scan.c), LC_ALL=C wc -w, and for the course
# data the course task as one small C program (bench/mono.c, its result
# checked against simtool's); then the whole pipeline (simtool N M) the
# same way: its CPU time is that of all its processes, its RSS that of the
# largest; its wall, CPU and peak-memory ratios to each yardstick, and its
# process count (with strace). CPU times are perf's task-clock where perf
# runs, else GNU time's (10 ms steps); MB/cpu-s is the input over it. The machine's load is printed with each table: wall
# times on a loaded machine are inflated, CPU times much less. The large
# corpus is then checked against the reference tests/ref/simref for two
# (N, M) pairs, the course data against the course's own result.
#
# Needs GNU time (/usr/bin/time) for peak memory. -k keeps going after a
# failed check (the exit status still says so). BENCH_PATH, if set, goes
# first on PATH: to time other builds of the tools.

LC_ALL=C
export LC_ALL
cd "$(dirname "$0")/.." || exit 1
root=$(pwd)
out=$root/bench/out
runs=5
keep=0
while getopts kr: c; do
	case $c in
	k) keep=1 ;;
	r) runs=$OPTARG ;;
	*) echo "usage: bench/pipeline.sh [-r runs] [-k] [corpus ...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
PATH=${BENCH_PATH:+$BENCH_PATH:}$root/bin:$root/pipelines:$PATH
export PATH
yard=$root/build/bench
[ -x "$yard/mono" ] && [ -x "$yard/scan" ] || { echo "bench: run make bench-pipeline (the yardsticks)" >&2; exit 1; }
TIME=/usr/bin/time
# CPU times from perf's task-clock (to the microsecond) where perf runs,
# else from GNU time (to 10 ms).
PERF=
if perf stat -x, -e task-clock -o /dev/null true 2>/dev/null; then
	PERF="perf stat -x, -e task-clock -o $root/bench/out/.perf"
fi
[ -x "$TIME" ] || { echo "bench: $TIME (GNU time) is needed for peak memory" >&2; exit 1; }
course=${SIMTOOL_COURSE:-$root/../shared/data/course}
kdocdir=/usr/share/doc/linux-doc-6.1
fail=0

mkdir -p "$out" || exit 1

now() {
	date +%s.%N
}

# median of the numbers on stdin
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# measure label inputs -- command...: run the command $runs times in the
# current directory, stdout to $label.out; print a table row.
measure() {
	label=$1 ins=$2
	shift 3
	# one wc for all of them (a fork a file costs seconds on thousands):
	# its last line is the one file's size or the total
	# shellcheck disable=SC2086
	bytes=$(wc -c $ins | awk 'END { print $1 }')
	: >"$out/.walls"
	: >"$out/.cpus"
	: >"$out/.rss"
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(now)
		if ! $PERF $TIME -f '%M %U %S' -o "$out/.rss1" "$@" >"$label.out"; then
			echo "bench: $label failed" >&2
			fail=1
			return 1
		fi
		t1=$(now)
		echo "$t0 $t1" | awk '{ print $2 - $1 }' >>"$out/.walls"
		tail -n 1 "$out/.rss1" | awk '{ print $1 >>"'"$out/.rss"'" }'
		if [ -n "$PERF" ]; then
			# task-clock in ms, of the command and its children
			awk -F, '$3 ~ /task-clock/ { print $1 / 1000 }' "$out/.perf" >>"$out/.cpus"
		else
			tail -n 1 "$out/.rss1" | awk '{ print $2 + $3 >>"'"$out/.cpus"'" }'
		fi
		i=$((i + 1))
	done
	wall=$(median <"$out/.walls")
	cpu=$(median <"$out/.cpus")
	rss=$(sort -n "$out/.rss" | tail -n 1)
	printf '%-24s %8.3f %8.3f %8.1f %8.1f %9.1f %9.1f\n' "$label" "$wall" "$cpu" \
	    "$(echo "$rss" | awk '{ print $1 / 1024 }')" \
	    "$(echo "$bytes" | awk '{ print $1 / 1e6 }')" \
	    "$(echo "$bytes $wall" | awk '{ print ($2 > 0 ? $1 / 1e6 / $2 : 0) }')" \
	    "$(echo "$bytes $cpu" | awk '{ print ($2 > 0 ? $1 / 1e6 / $2 : 0) }')"
}

# ratio name [shown]: the last measure against the one saved by "save
# name", as wall, CPU and peak-memory ratios.
save() {
	eval "y_$1=\"\$wall \$cpu \$rss\""
}
ratio() {
	eval "set -- \"\${2:-$1}\" \$y_$1"
	echo "$wall $cpu $rss $2 $3 $4" | awk -v n="$1" '{
		printf "  %-22s wall %6.2fx  cpu %6.2fx  RSS %6.2fx\n", "/ " n,
		    ($4 > 0 ? $1 / $4 : 0), ($5 > 0 ? $2 / $5 : 0), ($6 > 0 ? $3 / $6 : 0) }'
}

header() {
	echo
	echo "== $1"
	uptime | sed 's/^ */load: /'
	printf '%-24s %8s %8s %8s %8s %9s %9s\n' stage wall/s cpu/s RSS/MB in/MB MB/s MB/cpu-s
}

# The stages of pipelines/simtool, one at a time, on files; then the whole.
table() {
	n=$1 m=$2 dir=$3
	header "$4: simtool $n $m (median of $runs runs)"
	w=$out/work.$$
	rm -rf "$w" && mkdir -p "$w" && cd "$w" || exit 1
	# links, not copies: the inputs are only read
	for f in article.txt sample.txt stopwords.txt hashvalue.txt; do
		ln -s "$dir/$f" . || exit 1
	done
	measure "docsplit article" article.txt -- docsplit article.txt
	mv "docsplit article.out" article.rec
	measure "docsplit sample" sample.txt -- docsplit sample.txt
	mv "docsplit sample.out" sample.rec
	measure "wordfreq (totals)" article.rec -- wordfreq -s stopwords.txt article.rec
	mv "wordfreq (totals).out" counts
	asciiwall=$wall asciicpu=$cpu
	measure "topn $n" counts -- topn "$n" counts
	mv "topn $n.out" features
	measure "wordfreq -p article" article.rec -- wordfreq -p -s stopwords.txt -v features article.rec
	mv "wordfreq -p article.out" article.pages
	measure "wordfreq -p sample" sample.rec -- wordfreq -p -s stopwords.txt -v features sample.rec
	mv "wordfreq -p sample.out" sample.pages
	measure "fphash article" article.pages -- fphash -f features -m "$m" -n "$n" -t hashvalue.txt article.pages
	mv "fphash article.out" article.fp
	measure "fphash sample" sample.pages -- fphash -f features -m "$m" -n "$n" -t hashvalue.txt sample.pages
	mv "fphash sample.out" sample.fp
	measure "hamq" "article.fp sample.fp" -- hamq -a -d 3 article.fp sample.fp
	mv hamq.out matches
	measure "fmtresult" matches -- fmtresult matches
	[ "$4" = large1m ] || openworld
	yardsticks "$@"
}

# The open-world stages, on the files table left.
openworld() {
	echo "-- open-world stages (not part of simtool)"
	measure "wordfreq -u (totals)" article.rec -- wordfreq -u -s stopwords.txt article.rec
	echo "$asciiwall $wall $asciicpu $cpu" |
	    awk '{ printf "wordfreq -u / wordfreq: wall %.2f, cpu %.2f\n", $2 / $1, ($3 > 0 ? $4 / $3 : 0) }'
	measure "wordfreq -d -k 3" article.rec -- wordfreq -d -k 3 -s stopwords.txt article.rec
	mv "wordfreq -d -k 3.out" article.df3
	measure "wordfreq -p -k 3" article.rec -- wordfreq -p -k 3 -s stopwords.txt article.rec
	mv "wordfreq -p -k 3.out" article.pages3
	measure "fphash -H" article.pages3 -- fphash -H -m "$m" article.pages3
	measure "fphash -H -w tfidf" article.pages3 -- fphash -H -m "$m" -w tfidf -D article.df3 article.pages3
}

# The yardsticks, then simtool whole, and their ratios.
yardsticks() {
	n=$1 m=$2
	echo "---- yardsticks: a byte scan, wc -w$( [ "$4" = course ] && echo ', the monolithic bench/mono.c')"
	measure "scan (bytes)" "article.txt sample.txt" -- "$yard/scan" article.txt sample.txt
	save scan
	measure "wc -w" "article.txt sample.txt" -- wc -w article.txt sample.txt
	save wc
	if [ "$4" = course ]; then
		measure "mono $n $m" "article.txt sample.txt" -- "$yard/mono" "$n" "$m"
		save mono
		mv result.txt mono-result.txt
	fi
	echo "----"
	measure "simtool (whole)" "article.txt sample.txt" -- simtool "$n" "$m"
	echo "result.txt: $(wc -l <result.txt) lines, $(wc -c <result.txt) bytes"
	echo "simtool $n $m against the yardsticks (medians; RSS: largest process):"
	ratio scan
	ratio wc
	if [ "$4" = course ]; then
		ratio mono
		if cmp -s result.txt mono-result.txt; then
			echo "check mono $n $m = simtool $n $m: OK"
		else
			echo "check mono $n $m = simtool $n $m: FAILED"
			fail=1
		fi
	fi
	[ "$4" = large1m ] || procs
	cd "$root" || exit 1
	rm -rf "$w"
}

# procs: the processes of one simtool run in the current directory, and
# its exec calls that failed (strace, if installed).
procs() {
	command -v strace >/dev/null 2>&1 || { echo "processes: strace not installed"; return; }
	strace -f -o "$out/.strace" -e trace=execve,fork,vfork,clone,clone3 \
	    simtool "$n" "$m" >/dev/null 2>&1
	# threads (hamq's) are not processes
	awk '/ (clone|clone3|fork|vfork)\(/ && !/resumed/ && !/= -1/ && !/CLONE_THREAD/ { p++ }
	    /execve\(/ && / = -1 / { f++ }
	    END { printf "processes: %d (simtool and %d started), failed execs: %d\n", p + 1, p, f }' "$out/.strace"
	rm -f "$out/.strace"
}

# Generate the large corpus once (it is seeded, so always the same).
large() {
	d=$out/large
	if [ ! -f "$d/.done" ]; then
		make -s bin/gencorpus bin/genhash || exit 1
		rm -rf "$d" && mkdir -p "$d" || exit 1
		bin/gencorpus -a 16000 -q 10000 -l 10 -L 1000 -v 100000 -s 1 "$d" &&
		bin/genhash -s 7 10000 128 >"$d/hashvalue.txt" &&
		cp demo/stopwords.txt "$d/" && : >"$d/.done" || exit 1
	fi
	echo
	echo "large corpus: $(cat "$d/article.txt" "$d/sample.txt" | wc -w) words," \
	    "$(grep -c "$(printf '\f')" "$d/article.txt") + 1 articles," \
	    "$(grep -c "$(printf '\f')" "$d/sample.txt") samples," \
	    "$(cat "$d/article.txt" "$d/sample.txt" | wc -c) bytes"
	table 10000 128 "$d" large
	check "$d" 10000 128
	check "$d" 1000 64
}

# The 1M-article corpus (bench-large): about 1.25 GB, generated once
# (40 s); the stages and the whole run once each, no open-world stages. The
# first check computes the reference (simref takes about 2 s per MB: some
# 40 minutes); it is kept.
large1m() {
	d=$out/large1m
	if [ ! -f "$d/.done" ]; then
		make -s bin/gencorpus bin/genhash || exit 1
		rm -rf "$d" && mkdir -p "$d" || exit 1
		bin/gencorpus -a 1000000 -q 10000 -l 10 -L 1000 -v 100000 -s 1 "$d" &&
		bin/genhash -s 7 10000 128 >"$d/hashvalue.txt" &&
		cp demo/stopwords.txt "$d/" && : >"$d/.done" || exit 1
	fi
	echo
	echo "large1m corpus: $(grep -c "$(printf '\f')" "$d/article.txt") + 1 articles," \
	    "$(grep -c "$(printf '\f')" "$d/sample.txt") samples," \
	    "$(cat "$d/article.txt" "$d/sample.txt" | wc -c) bytes"
	r0=$runs runs=1
	table 10000 128 "$d" large1m
	check "$d" 10000 128
	runs=$r0
}

# check dir N M: simtool against the reference on the same inputs.
check() {
	d=$1 n=$2 m=$3
	w=$out/check.$$
	rm -rf "$w" && mkdir -p "$w" || exit 1
	for f in article.txt sample.txt stopwords.txt hashvalue.txt; do
		ln -s "$d/$f" "$w/$f" || exit 1
	done
	ref=$out/ref-$(basename "$d")-$n-$m.txt
	sum=$(cat "$w"/*.txt tests/ref/simref | cksum | tr ' ' -)
	if [ ! -f "$ref" ] || [ "$(cat "$ref.sum" 2>/dev/null)" != "$sum" ]; then
		t0=$(now)
		sh tests/ref/simref "$n" "$m" "$w" >"$ref" || { echo "bench: reference failed" >&2; exit 1; }
		echo "$sum" >"$ref.sum"
		t1=$(now)
		refnote="computed in $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s"
	else
		refnote="cached, inputs unchanged"
	fi
	(cd "$w" && simtool "$n" "$m" >/dev/null) || { echo "bench: simtool $n $m failed" >&2; exit 1; }
	if cmp -s "$w/result.txt" "$ref"; then
		echo "check simtool $n $m = reference (tests/ref/simref, $refnote): OK ($(wc -l <"$ref") lines)"
	else
		echo "check simtool $n $m = reference: FAILED"
		fail=1
		[ "$keep" = 1 ] || exit 1
	fi
	rm -rf "$w"
}

coursedata() {
	if [ ! -f "$course/article.txt" ]; then
		echo
		echo "course data: not found at $course (set SIMTOOL_COURSE), skipped"
		return
	fi
	table 1000 16 "$course" course
	for c in "$course" "$course/../course-crlf"; do
		[ -f "$c/article.txt" ] || continue
		w=$out/course.$$
		rm -rf "$w" && mkdir -p "$w" && cp "$c"/*.txt "$w/" || exit 1
		if (cd "$w" && simtool 1000 16 >/dev/null) && cmp -s "$w/result.txt" "$course/result(example).txt"; then
			echo "check $(basename "$c") simtool 1000 16 = result(example).txt: OK"
		else
			echo "check $(basename "$c") simtool 1000 16 = result(example).txt: FAILED"
			fail=1
		fi
		rm -rf "$w"
	done
}

# The kernel documentation, real text: every reST source one article;
# samples are every tenth of them (exact copies: each matches itself).
kdoc() {
	if [ ! -d "$kdocdir" ]; then
		echo
		echo "kdoc: $kdocdir not installed (apt-get install linux-doc-6.1), skipped"
		return
	fi
	d=$out/kdoc
	if [ ! -f "$d/.done" ]; then
		rm -rf "$d" && mkdir -p "$d" || exit 1
		find "$kdocdir" -type f -name '*.rst.txt' | sort >"$d/list" || exit 1
		# article.txt: every reST source, its path the ID; sample.txt a tenth of them

		while IFS= read -r f; do
			printf '%s\n' "${f#"$kdocdir"/}"
			cat "$f"
			printf '\f'
		done <"$d/list" >"$d/article.txt"
		awk 'NR % 10 == 0' "$d/list" | while IFS= read -r f; do
			printf '%s\n' "${f#"$kdocdir"/}"
			cat "$f"
			printf '\f'
		done >"$d/sample.txt"
		bin/genhash -s 7 10000 128 >"$d/hashvalue.txt" &&
		cp demo/stopwords.txt "$d/" && : >"$d/.done" || exit 1
	fi
	echo
	echo "kdoc corpus: $(cat "$d/article.txt" "$d/sample.txt" | wc -w) words," \
	    "$(grep -c "$(printf '\f')" "$d/article.txt") articles," \
	    "$(grep -c "$(printf '\f')" "$d/sample.txt") samples," \
	    "$(cat "$d/article.txt" "$d/sample.txt" | wc -c) bytes"
	table 10000 128 "$d" kdoc
	check "$d" 10000 128
}

# The neardup pipeline on a generated collection (gendocs, made once and
# again when the generator's source changes): HTML pages of three site
# templates and plain-text notes with planted near-duplicates, and
# labels.tsv, their truth. Its stages alone on files, then per set (all
# of it, the text alone, the HTML alone) the yardsticks and neardup whole.
docsgen="-n 5000 -q 0 -s 1"
docsdata() {
	d=$out/docs
	stamp="gendocs $docsgen $(cat tools/gendocs.c tools/rng.h | cksum)"
	if [ "$(cat "$d/.stamp" 2>/dev/null)" != "$stamp" ]; then
		make -s bin/gendocs || exit 1
		rm -rf "$d" || exit 1
		# shellcheck disable=SC2086
		bin/gendocs $docsgen "$d" && echo "$stamp" >"$d/.stamp" || exit 1
	fi
	w=$out/work.$$
	rm -rf "$w" && mkdir -p "$w" && cd "$w" || exit 1
	# a link, not a copy: IDs are docs/SITE/..., as labels.tsv has them
	ln -s "$d/docs" docs && ln -s "$d/labels.tsv" . || exit 1
	(cd "$d" && find docs -type f) | sort >files.all
	grep '^docs/notes/' files.all >files.text
	grep -v '^docs/notes/' files.all >files.html
	all=$(cat files.all)
	mbs_text='' mbs_html='' cpus_text='' cpus_html=''
	echo
	echo "docs corpus (gendocs $docsgen): $(wc -l <files.all) files," \
	    "$(wc -l <files.text) text, $(wc -l <files.html) HTML;" \
	    "$(xargs wc -w <files.all | awk '$2 == "total" { n += $1 } END { print n }') words," \
	    "$(xargs wc -c <files.all | awk '$2 == "total" { n += $1 } END { print n }') bytes;" \
	    "$(awk -F '\t' '$3 == 1' labels.tsv | wc -l) near-duplicate pairs labelled"
	header "docs: neardup DIR (median of $runs runs)"
	measure "docsplit -f" "$all" -- docsplit -f docs
	mv "docsplit -f.out" docs.rec
	measure "htmltext" docs.rec -- htmltext docs.rec
	mv "htmltext.out" text.rec
	measure "docsplit -f | htmltext" "$all" -- sh -c 'docsplit -f docs | htmltext'
	measure "sketch" text.rec -- sketch text.rec
	mv "sketch.out" sketches
	measure "simjoin" sketches -- simjoin sketches
	docset all "all" docs
	mv "neardup (all).out" pairs.all
	docset text "text only" docs/notes
	docset html "HTML only" docs/harbor docs/lantern docs/meadow
	echo "issue 12 targets, neardup end to end: text 150 MB/s ($mbs_text; $cpus_text per CPU s)," \
	    "HTML 100 MB/s ($mbs_html; $cpus_html per CPU s)"
	docscheck pairs.all "$d" "$stamp"
	cd "$root" || exit 1
	rm -rf "$w"
}

# docset name title dir...: the yardsticks on the files of set name
# (files.name), neardup on dirs, and its ratios to them.
docset() {
	set=$1 title=$2
	shift 2
	files=$(cat "files.$set")
	echo "---- $title ($(wc -l <"files.$set") files in $*): yardsticks: a byte scan, wc -w, wc -l"
	# shellcheck disable=SC2086
	measure "scan (bytes)" "$files" -- "$yard/scan" $files
	save scan
	# shellcheck disable=SC2086
	measure "wc -w" "$files" -- wc -w $files
	save wc
	# shellcheck disable=SC2086
	measure "wc -l" "$files" -- wc -l $files
	save wcl
	echo "----"
	measure "neardup ($set)" "$files" -- neardup "$@"
	mbs=$(echo "$bytes $wall" | awk '{ printf "%.1f", ($2 > 0 ? $1 / 1e6 / $2 : 0) }')
	cpus=$(echo "$bytes $cpu" | awk '{ printf "%.1f", ($2 > 0 ? $1 / 1e6 / $2 : 0) }')
	case $set in
	text) mbs_text=$mbs cpus_text=$cpus ;;
	html) mbs_html=$mbs cpus_html=$cpus ;;
	esac
	echo "neardup $* ($(wc -l <"neardup ($set).out") pairs) against the yardsticks (medians; RSS: largest process):"
	ratio scan
	ratio wc "wc -w"
	ratio wcl "wc -l"
}

# docscheck pairs dir stamp: neardup's pairs scored against the labels
# (F1 and the precision over all it reports at least $docsbar), and
# compared to the pairs of the first run on this collection, kept in
# bench/out (a change of output fails; remove the file to accept one).
docsbar=0.99
docscheck() {
	paireval labels.tsv "$1" >paireval.out || { echo "bench: paireval failed" >&2; fail=1; return; }
	if awk -v bar="$docsbar" '$1 == "all" { p = $6; r = $7; f = $8 }
	    $1 == "reported" { n = $2; pa = $5 }
	    END {
		ok = (f != "" && f >= bar && pa >= bar)
		printf "check neardup docs against labels.tsv (paireval): P %s R %s F1 %s, precision over all %s pairs %s: %s\n",
		    p, r, f, n, pa, (ok ? "OK" : "FAILED (bar " bar ")")
		exit !ok }' paireval.out; then :; else
		fail=1
		[ "$keep" = 1 ] || exit 1
	fi
	ref=$out/ref-docs-pairs.txt
	if [ ! -f "$ref" ] || [ "$(cat "$ref.sum" 2>/dev/null)" != "$3" ]; then
		cp "$1" "$ref" && echo "$3" >"$ref.sum" &&
		echo "the output of commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')," \
		    "$(date -u '+%Y-%m-%d %H:%M UTC')" >"$ref.note" || exit 1
		echo "check neardup docs = reference: none for this collection; this run's pairs kept as it ($ref)"
	elif cmp -s "$1" "$ref"; then
		echo "check neardup docs = reference ($(cat "$ref.note")): OK ($(wc -l <"$ref") pairs)"
	else
		echo "check neardup docs = reference ($(cat "$ref.note")): FAILED:" \
		    "$(diff "$ref" "$1" | grep -c '^[<>]') lines differ (remove $ref to accept the new output)"
		fail=1
		[ "$keep" = 1 ] || exit 1
	fi
}

[ $# -gt 0 ] || set -- large course kdoc docs
for c; do
	case $c in
	large) large ;;
	large1m) large1m ;;
	course) coursedata ;;
	kdoc) kdoc ;;
	docs) docsdata ;;
	*) echo "bench: unknown corpus $c" >&2; exit 2 ;;
	esac
done
rm -f "$out/.walls" "$out/.cpus" "$out/.rss" "$out/.rss1" "$out/.perf"
exit "$fail"
