#!/bin/sh
# bench/ndspeed.sh: neardup's end-to-end speed on folders of small files
# (issue 21), against cat and wc -l of the same files, which pay the same
# cost per file (an open, a few reads, a close), on a quiet machine and on
# a loaded one.
#
#	sh bench/ndspeed.sh
#
# The folders are made once from the project's generators, under
# $NDSPEED (default build/ndspeed; made again when the generators or the
# settings below change):
#   text/  the articles and samples of gencorpus -a 6000 -q 600 -l 800
#          -L 4000, a file each (6,600 files, about 70 MB, 5 to 25 kB)
#   html/  the HTML pages of gendocs -n 20000 (three site templates,
#          25,000 files, about 82 MB, planted near-duplicates)
# For each folder and condition it runs, in rounds, cat, wc -l and neardup
# over the same files one after another (paired: a round's runs see the
# same load), and prints the medians over the rounds of neardup's MB/s
# and of its wall time over cat's and over wc -l's. With BASE=dir (a
# built tree: dir/bin and dir/pipelines) neardup of BASE runs in each
# round too, after ours, and the median of the rounds' time ratios
# (BASE over ours) is printed: a before-and-after measured side by side.
# Loaded: one CPU-bound process per online processor (a shell loop),
# started here and stopped by its PID.
# Environment: BIN (default bin), NDSPEED, ROUNDS (default 5), BASE,
# LOADS ("quiet loaded" by default).
set -eu
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/bin}
data=${NDSPEED:-$here/build/ndspeed}
rounds=${ROUNDS:-5}
base=${BASE:-}
loads=${LOADS:-quiet loaded}
oursp=$bin:$here/pipelines:$PATH
basep=
[ -z "$base" ] || basep=$base/bin:$base/pipelines:$PATH

textgen='-a 6000 -q 600 -l 800 -L 4000 -s 1'
htmlgen='-n 20000 -q 0 -s 1'
stamp="ndspeed 1: gencorpus $textgen; gendocs $htmlgen; $(cat "$here/tools/gencorpus.c" \
	"$here/tools/gendocs.c" "$here/tools/rng.h" | cksum)"
if [ "$(cat "$data/stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "ndspeed: making $data/text and $data/html ..."
	rm -rf "$data"
	mkdir -p "$data/gen/corpus" "$data/text" "$data/html"
	# shellcheck disable=SC2086
	"$bin/gencorpus" $textgen "$data/gen/corpus"
	# a page a file, 100 to a directory (pages are separated by form feeds)
	for f in article sample; do
		awk -v d="$data/text" -v f="$f" 'BEGIN { RS = "\f" }
		/[^ \t\r\n]/ {
			n++
			dir = sprintf("%s/%s%02d", d, f, n % 100)
			if (!(dir in made)) {
				system("mkdir -p \"" dir "\"")
				made[dir]
			}
			out = sprintf("%s/%05d.txt", dir, n)
			printf "%s", $0 >out
			close(out)
		}' "$data/gen/corpus/$f.txt"
	done
	# shellcheck disable=SC2086
	"$bin/gendocs" $htmlgen "$data/gen/docs"
	for s in harbor lantern meadow; do
		mv "$data/gen/docs/docs/$s" "$data/html/"
	done
	rm -rf "$data/gen"
	echo "$stamp" >"$data/stamp"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ndspeed.XXXXXX")
hogs=
stophogs() {
	# shellcheck disable=SC2086
	[ -z "$hogs" ] || { kill $hogs 2>/dev/null || :; wait $hogs 2>/dev/null || :; }
	hogs=
}
trap 'stophogs; rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

# now: the wall clock in seconds
now() { date +%s.%N; }

# run NAME PATH COMMAND: the wall seconds of sh -c COMMAND, appended to
# $work/NAME
run() {
	_s=$(now)
	PATH=$2 sh -c "$3"
	echo "$_s $(now)" | awk '{ printf "%.4f\n", $2 - $1 }' >>"$work/$1"
}

# median FILE: the median of its numbers
median() {
	sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# ratios A B: the file of the rounds' ratios A/B
ratios() {
	paste "$work/$1" "$work/$2" | awk '{ print $1 / $2 }' >"$work/$1.over.$2"
	echo "$work/$1.over.$2"
}

echo "neardup end to end on folders of small files (bench/ndspeed.sh): median of $rounds paired rounds," \
	"$ncpu processors, load $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo '?')"
printf '%-7s %-6s %6s %6s %7s %8s %8s %8s %8s%s\n' set load files MB "nd s" "nd MB/s" "xcat" "xwc -l" "cat s" \
	"${base:+  BASE/ours}"
for load in $loads; do
	case $load in
	loaded)
		i=0
		while [ "$i" -lt "$ncpu" ]; do
			sh -c 'while :; do :; done' &
			hogs="$hogs $!"
			i=$((i + 1))
		done ;;
	esac
	for set in text html; do
		(cd "$data" && find "$set" -type f) | sort >"$work/list"
		files=$(wc -l <"$work/list")
		bytes=$(cd "$data" && xargs cat <"$work/list" | wc -c)
		rm -f "$work/cat" "$work/wcl" "$work/nd" "$work/base"
		r=0
		while [ "$r" -lt "$rounds" ]; do
			(cd "$data" && run cat "$PATH" "xargs cat <$work/list >/dev/null")
			(cd "$data" && run wcl "$PATH" "xargs wc -l <$work/list >/dev/null")
			(cd "$data" && run nd "$oursp" "neardup $set >$work/pairs")
			if [ -n "$base" ]; then
				(cd "$data" && run base "$basep" "neardup $set >$work/pairs.base")
				cmp -s "$work/pairs" "$work/pairs.base" ||
					echo "ndspeed: $set: neardup's pairs differ from BASE's" >&2
			fi
			r=$((r + 1))
		done
		nd=$(median "$work/nd")
		printf '%-7s %-6s %6d %6.1f %7.3f %8.1f %8.2f %8.2f %8.3f' "$set" "$load" "$files" \
			"$(echo "$bytes" | awk '{ print $1 / 1e6 }')" "$nd" \
			"$(echo "$bytes $nd" | awk '{ print $1 / 1e6 / $2 }')" \
			"$(median "$(ratios nd cat)")" "$(median "$(ratios nd wcl)")" "$(median "$work/cat")"
		if [ -n "$base" ]; then
			printf '  %8.2f' "$(median "$(ratios base nd)")"
		fi
		echo
	done
	stophogs
done
echo "(nd s: neardup's median wall seconds; xcat, xwc -l: the medians of its wall time over theirs," \
	"round by round; targets: text >= 150 MB/s, html >= 100 MB/s)"
