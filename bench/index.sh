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
#
# INDEX_STEP=S (a divisor of N) builds the index by steps, as a state
# grows: skidx -o of the first S documents, then skidx -a of each next S,
# each step timed on its own and the build the sum; the sketch records
# go from gensketch through split(1) (GNU) to one step at a time, and
# are not kept (no text comparison). So 10M documents need the index's
# 32 GB of disk, a step's records and its scratch (7 GB at S = 1M), and
# gensketch's 10 GB of memory. The additions are timed on the index
# itself, cut back to its length after.
set -eu
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/bin}
PATH=$bin:$PATH
n=${INDEX_N:-1000000}
dir=${INDEX_DIR:-$here/build/index-bench}
text=${INDEX_TEXT:-1}
step=${INDEX_STEP:-$n}

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

# One step of a build by steps, run by split --filter with a step's records
# on standard input as $FILE (s000000, s000001, ...): the first made with
# -o, the others added with -a, and the 20,000 records past N kept.
if [ "${1-}" = -step ]; then
	i=${FILE#s}
	if [ "$i" -ge $((n / step)) ]; then
		cat >>tail.sk
		exit 0
	fi
	cat >step.sk
	if [ "$i" -eq 0 ]; then
		measure "step-$i" skidx -o "coll.$n.idx" step.sk
	else
		measure "step-$i" skidx -a "coll.$n.idx" step.sk
	fi
	rm -f step.sk
	exit 0
fi

# the collection, then 20,000 more of the same stream: 10,000 queries, 10,000
# additions, a tenth of them edited copies of earlier documents
if ! [ -s "coll.$n.idx" ] || ! [ -s add10k ]; then
	if [ "$step" -lt "$n" ]; then
		if [ $((n % step)) -ne 0 ] || [ "$step" -lt 1 ]; then
			echo "bench-index: INDEX_STEP must divide INDEX_N" >&2
			exit 2
		fi
		rm -f "coll.$n.idx" "coll.$n.sk" step-*.time tail.sk
		export FILE n step
		gensketch -s 1 $((n + 20000)) |
		    split -a 6 -d -l "$step" --filter="sh '$here/bench/index.sh' -step" - s
		[ "$(wc -l <tail.sk)" -eq 20000 ] || { echo "bench-index: the steps failed" >&2; exit 1; }
		awk '{ w += $1; if ($2 > m) m = $2 } END { printf "build (%d steps)       %8.3f s (the sum) %8.1f MB (the largest)\n", NR, w, m / 1024 }' \
		    step-*.time
		head -n 10000 tail.sk >q10k
		tail -n 10000 tail.sk >add10k
		rm tail.sk
		text=0
	else
		gensketch -s 1 $((n + 20000)) >all.sk
		head -n "$n" all.sk >"coll.$n.sk"
		tail -n 20000 all.sk | head -n 10000 >q10k
		tail -n 10000 all.sk >add10k
		rm all.sk
		echo "kept: $n documents, $(wc -c <"coll.$n.sk") bytes of sketch records"
		measure build skidx -o "coll.$n.idx" "coll.$n.sk"
	fi
	head -1 q10k >q1
	wc -c <"coll.$n.idx" >"coll.$n.len"
else
	echo "kept: $n documents (index made before)"
	[ -s "coll.$n.len" ] || wc -c <"coll.$n.idx" >"coll.$n.len"
	# what an interrupted run's additions left
	truncate -s "$(cat "coll.$n.len")" "coll.$n.idx"
fi
measure one-query simjoin -x "coll.$n.idx" -q q1
measure 10k-queries simjoin -x "coll.$n.idx" -q q10k
wc -l <10k-queries.out | awk '{ printf "  (%d pairs)\n", $1 }'
# verified by a process a processor, as neardup -q does on an idle machine
procs=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || procs=1
measure "10k-queries-j$procs" simjoin -j "$procs" -x "coll.$n.idx" -q q10k
cmp -s 10k-queries.out "10k-queries-j$procs.out" ||
    { echo "bench-index: -j $procs gave other pairs" >&2; exit 1; }
# the additions go to the index itself, cut back to its length after:
# a copy would need its disk, and the copy's own bytes, synced by skidx -a,
# would be timed as the addition's
size=$(cat "coll.$n.len")
sync
measure 10k-additions skidx -a "coll.$n.idx" add10k
awk -v s="$size" -v n="$n" 'BEGIN { printf "index: %.0f bytes, %.0f bytes a document\n", s, s / n }'
awk -v a="$(wc -c <"coll.$n.idx")" -v s="$size" 'BEGIN { printf "10k additions: the index grew %.1f MB\n", (a - s) / 1e6 }'
truncate -s "$size" "coll.$n.idx"
if [ "$text" = 1 ] && [ -s "coll.$n.sk" ]; then
	echo "today, simjoin over the sketch records:"
	measure text-one-query simjoin -q q1 "coll.$n.sk"
	measure text-10k-queries simjoin -q q10k "coll.$n.sk"
	cmp -s 10k-queries.out text-10k-queries.out && echo "  (the same pairs)" || echo "  (PAIRS DIFFER)"
fi
