#!/bin/sh
# bench/index.sh: a kept state as an index file (issue 22), on generated
# sketches (gensketch: 128 hashes a document, pages of 100 to 1,000
# shingles, one in ten an edited copy): at N kept documents (INDEX_N,
# default 1000000), the build (skidx -o), one query document, 10,000
# queries and 10,000 additions (skidx -a), each with wall seconds, peak
# memory (/usr/bin/time), bytes read and written through system calls and
# to the disk (/proc/PID/io of a shell that waited for it), the index's
# pages touched (minor and major faults, 4 kB each), and the index's bytes
# a document; then, for comparison, the same query and batch as simjoin
# reads them today, over the kept sketch records (INDEX_TEXT=0 skips it).
# The queries and the additions are new documents, a tenth of them edited
# copies of earlier ones; the additions replace none. Work in INDEX_DIR (default
# build/index-bench), kept between runs for the same N.
set -eu
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/bin}
PATH=$bin:$PATH
n=${INDEX_N:-1000000}
dir=${INDEX_DIR:-$here/build/index-bench}
text=${INDEX_TEXT:-1}

if ! [ -x /usr/bin/time ]; then
	echo "bench-index: skipped (no /usr/bin/time; apt-get install time)"
	exit 0
fi
mkdir -p "$dir"
cd "$dir"

# measure NAME CMD...: run CMD (output to NAME.out) and print its figures.
measure() {
	name=$1
	shift
	/usr/bin/time -f '%e %M %R %F' -o "$name.time" sh -c '"$@" >"$0.out"; s=$?; cat /proc/$$/io >"$0.io"; exit $s' "$name" "$@"
	read -r wall rss minflt majflt <"$name.time"
	awk -v name="$name" -v wall="$wall" -v rss="$rss" -v minf="$minflt" -v majf="$majflt" '
		{ v[$1] = $2 }
		END {
			printf "%-22s %8.3f s %8.1f MB  read %9.1f MB (disk %8.1f)  written %8.1f MB (disk %8.1f)  faults %d + %d\n",
			    name, wall, rss / 1024, v["rchar:"] / 1e6, v["read_bytes:"] / 1e6,
			    v["wchar:"] / 1e6, v["write_bytes:"] / 1e6, minf, majf
		}' "$name.io"
}

# the collection, then 20,000 more of the same stream: 10,000 queries, 10,000
# additions, a tenth of them edited copies of earlier documents
if ! [ -s "coll.$n.idx" ] || ! [ -s add10k ]; then
	gensketch -s 1 $((n + 20000)) >all.sk
	head -n "$n" all.sk >"coll.$n.sk"
	tail -n 20000 all.sk | head -n 10000 >q10k
	tail -n 10000 all.sk >add10k
	rm all.sk
	head -1 q10k >q1
	echo "kept: $n documents, $(wc -c <"coll.$n.sk") bytes of sketch records"
	measure build skidx -o "coll.$n.idx" "coll.$n.sk"
else
	echo "kept: $n documents (index made before)"
fi
measure one-query simjoin -x "coll.$n.idx" -q q1
measure 10k-queries simjoin -x "coll.$n.idx" -q q10k
wc -l <10k-queries.out | awk '{ printf "  (%d pairs)\n", $1 }'
cp "coll.$n.idx" work.idx
# skidx -a syncs the file it extends: the copy's own 3 GB would be
# written out then, and timed as the addition's (6.9 s, not 1.5, at 1M)
sync
measure 10k-additions skidx -a work.idx add10k
size=$(wc -c <"coll.$n.idx")
awk -v s="$size" -v n="$n" 'BEGIN { printf "index: %.0f bytes, %.0f bytes a document\n", s, s / n }'
awk -v a="$(wc -c <work.idx)" -v s="$size" 'BEGIN { printf "10k additions: the index grew %.1f MB\n", (a - s) / 1e6 }'
rm -f work.idx
if [ "$text" = 1 ] && [ -s "coll.$n.sk" ]; then
	echo "today, simjoin over the sketch records:"
	measure text-one-query simjoin -q q1 "coll.$n.sk"
	measure text-10k-queries simjoin -q q10k "coll.$n.sk"
	cmp -s 10k-queries.out text-10k-queries.out && echo "  (the same pairs)" || echo "  (PAIRS DIFFER)"
fi
