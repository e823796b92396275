#!/bin/sh
# bench/hamq.sh: hamq's index against its own forced scan (-m scan) on
# fingerprints from genfp (seeded, so every run sees the same data).
#
# Each figure is the median wall time of RUNS runs (the machine may be
# shared). A scan of 10^5 queries or of a 10^6 self-join takes minutes, so
# the scan is timed on the first K queries (for a self-join, the first K
# fingerprints as queries, pairs j > i kept) and extrapolated linearly:
# load + (sample - load) * total / K, where load is a run with no queries.
# On that sample the index's output and the scan's must be identical (cmp).
# Memory is the maximum resident set of the index run (/usr/bin/time).
#
# Environment: BIN (the tools), N (index size), NQ (queries), K, RUNS.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/bin}
N=${N:-1000000}
NQ=${NQ:-100000}
K=${K:-1000}
RUNS=${RUNS:-3}
D=3
dir=$(mktemp -d "${TMPDIR:-/tmp}/hamqbench.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
timer=/usr/bin/time
[ -x "$timer" ] || timer=

# time_one OUT CMD...: run once, stdout to OUT; sets t (seconds) and rss (KB or -).
time_one() {
	out=$1
	shift
	if [ -n "$timer" ]; then
		"$timer" -f '%e %M' -o "$dir/time" "$@" >"$out" || { echo "bench: $* failed" >&2; exit 1; }
		read -r t rss <"$dir/time"
	else
		s=$(date +%s.%N)
		"$@" >"$out" || { echo "bench: $* failed" >&2; exit 1; }
		t=$(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
		rss=-
	fi
}

# measure OUT CMD...: RUNS runs; sets T (median seconds) and RSS (largest KB).
measure() {
	out=$1
	shift
	: >"$dir/times"
	RSS=0
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		time_one "$out" "$@"
		echo "$t" >>"$dir/times"
		[ "$rss" != - ] && [ "$rss" -gt "$RSS" ] && RSS=$rss
		i=$((i + 1))
	done
	T=$(sort -n "$dir/times" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	[ -z "$timer" ] && RSS=-
}

row() {	# case index scan how identical rss n
	awk -v c="$1" -v ti="$2" -v ts="$3" -v how="$4" -v same="$5" -v rss="$6" -v n="$7" 'BEGIN {
		ratio = ti > 0 ? ts / ti : 0
		mem = rss == "-" ? "-" : sprintf("%.1f", rss / 1024)
		bpf = rss == "-" ? "-" : sprintf("%.1f", rss * 1024 / n)
		printf "%-34s %9.2f %11.1f %-6s %7.0fx %-4s %8s %6s\n", c, ti, ts, how, ratio, same, mem, bpf
	}'
}

# Sample scan: T0 the load alone, TS the first K queries; extrapolated to total.
extrapolate() {	# total
	awk -v t0="$T0" -v ts="$TS" -v k="$K" -v n="$1" 'BEGIN {
		x = ts - t0; if (x < 0) x = 0; printf "%.2f", t0 + x * n / k }'
}

querycase() {	# name index queries [index file]
	name=$1 idx=$2 q=$3 ixf=${4:-$2}
	measure "$dir/iout" "$bin/hamq" -m index -d $D "$ixf" "$q"
	ti=$T irss=$RSS
	head -n "$K" "$q" >"$dir/qs"
	measure "$dir/sscan" "$bin/hamq" -m scan -d $D "$idx" "$dir/qs"
	TS=$T
	measure "$dir/none" "$bin/hamq" -m scan -d $D "$idx" /dev/null
	T0=$T
	"$bin/hamq" -m index -d $D "$ixf" "$dir/qs" >"$dir/sidx"
	cmp -s "$dir/sidx" "$dir/sscan" && same=yes || same=NO
	nq=$(awk 'END { print NR }' "$q")
	row "$name" "$ti" "$(extrapolate "$nq")" "extrap" "$same" "$irss" "$N"
}

selfcase() {	# name fingerprints
	name=$1 f=$2
	measure "$dir/iout" "$bin/hamq" -s -m index -d $D "$f"
	ti=$T irss=$RSS
	head -n "$K" "$f" >"$dir/qs"
	measure "$dir/sscan" "$bin/hamq" -m scan -d $D "$f" "$dir/qs"
	TS=$T
	measure "$dir/none" "$bin/hamq" -m scan -d $D "$f" /dev/null
	T0=$T
	# IDs are f1, f2, ...: pairs (i, j) with i <= K from the index, j > i from the scan.
	awk -F '\t' -v k="$K" 'substr($1, 2) + 0 <= k' "$dir/iout" >"$dir/sidx"
	awk -F '\t' 'substr($3, 2) + 0 > substr($1, 2) + 0' "$dir/sscan" >"$dir/sref"
	cmp -s "$dir/sidx" "$dir/sref" && same=yes || same=NO
	row "$name" "$ti" "$(extrapolate "$N")" "extrap" "$same" "$irss" "$N"
}

echo "hamq benchmark: N=$N index fingerprints, NQ=$NQ queries, d=$D, median of $RUNS runs"
echo "generating (genfp, seeded) in $dir ..."
"$bin/genfp" -s 11 -m 64 -n 20 $((N + NQ)) >"$dir/all64"
head -n "$N" "$dir/all64" >"$dir/u64"
tail -n "$NQ" "$dir/all64" >"$dir/q64"
rm -f "$dir/all64"
"$bin/genfp" -s 12 -m 128 -n 20 "$N" >"$dir/u128"
"$bin/genfp" -s 13 -m 64 -n 10 -u 10 -p 10 "$N" >"$dir/k64"
"$bin/genfp" -s 14 -m 128 -n 10 -u 10 -p 10 "$N" >"$dir/k128"

echo
echo "scan: hamq -m scan on the first $K queries (self-join: the first $K fingerprints),"
echo "extrapolated linearly; identical: cmp of index and scan output on that sample."
printf '%-34s %9s %11s %-6s %8s %-4s %8s %6s\n' case "index s" "scan s" "" ratio same "RSS MiB" "B/fp"
querycase "queries $N x $NQ, M=64" "$dir/u64" "$dir/q64"
# the same queries answered from an index file built once (hamq -o), mapped
"$bin/hamq" -d $D -o "$dir/u64.hix" "$dir/u64"
querycase "  the same, from an index file" "$dir/u64" "$dir/q64" "$dir/u64.hix"
selfcase "self-join $N, M=64" "$dir/u64"
selfcase "self-join $N, M=128" "$dir/u128"
selfcase "self-join $N skewed, M=64" "$dir/k64"
selfcase "self-join $N skewed, M=128" "$dir/k128"
echo "skewed: 10% exact duplicates, 10% sharing one value of the first M/4 bits, 10% planted."
