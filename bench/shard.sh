#!/bin/sh
# bench/shard.sh: neardup -E local -P SHARDS on DOCS generated documents,
# as files (gencorpus: 90% articles of 200 to 450 words, 10% lightly
# edited copies): the total time, each stage's time and bytes written
# (neardup -v), and the peak resident set of the largest process of each
# stage (GNU time, through wrappers first on PATH, which every task gets).
#
#	sh bench/shard.sh [DOCS [SHARDS [WORK]]]	default 1000000 64 /tmp
#
# Run from the top of the tree after make all. WORK needs about 8 KB a
# document: the documents, the sketches, the key records and the sorts.
set -eu
docs=${1:-1000000} shards=${2:-64} work=${3:-/tmp}
top=$(pwd)
b=$work/shardbench.$$
mkdir -p "$b/bin" "$b/w" "$b/pages"
trap 'rm -rf "$b"' EXIT
for c in skjoin sort sketch htmltext docsplit; do
	real=$(PATH=$top/bin:$PATH command -v "$c")
	printf '#!/bin/sh\nexec /usr/bin/time -a -o %s/rss -f "%%M %%e %s $1" %s "$@"\n' \
		"$b" "$c" "$real" >"$b/bin/$c"
	chmod +x "$b/bin/$c"
done
q=$((docs / 10))
"$top/bin/gencorpus" -a $((docs - q)) -q "$q" -u 0 -l 200 -L 450 -v 100000 -s 7 "$b/pages"
cat "$b/pages/article.txt" "$b/pages/sample.txt" | awk -v b="$b" 'BEGIN { RS = "\f" }
	{ sub(/^\n+/, ""); if ($0 == "") next
	  d = sprintf("%s/docs/%04d", b, int(n / 1000)); if (n % 1000 == 0) system("mkdir -p " d)
	  f = sprintf("%s/%06d.txt", d, n); printf "%s", $0 > f; close(f); n++ }'
rm -rf "$b/pages"
cd "$b"
PATH=$b/bin:$top/bin:$top/pipelines:$PATH /usr/bin/time -f '%e s, %M KiB (the driver)' \
	neardup -v -P "$shards" -W "$b/w" docs >pairs
echo "pairs: $(wc -l <pairs)"
# the largest process of each kind and step
awk '{ k = $3 " " $4; if ($1 > m[k]) m[k] = $1 }
	END { for (k in m) printf "%-16s %8d KiB\n", k, m[k] }' rss | sort
