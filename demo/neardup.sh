#!/bin/sh
# demo/neardup.sh DIR: the neardup part of make demo, on the collection
# tools/gendocs wrote in DIR (docs/, new/, labels.tsv). Prints each command
# and its output, shortened to a few lines; the full outputs stay in DIR.
# The tools must be on PATH.
set -e
cd "$1"

# show N FILE: the first N lines of FILE, and "..." if there are more.
show() {
	head -n "$1" "$2"
	[ "$(wc -l <"$2")" -le "$1" ] || echo "..."
}

n=$(find docs -type f | wc -l)
echo "demo: $n documents in $1/docs (HTML and text, four site templates), truth in labels.tsv"
echo
echo '$ neardup -o state docs > pairs          # which are near-duplicates (and keep the state)'
neardup -o state docs >pairs
echo "\$ head -5 pairs                          # $(wc -l <pairs) pairs: ID_A ID_B SIM"
show 5 pairs
echo
echo '$ neardup -c docs > clusters              # ID CLUSTER'
neardup -c docs >clusters
echo "\$ awk '\$1 != \$2' clusters | head -3       # $(cut -f2 clusters | sort -u | wc -l) clusters"
awk -F '\t' '$1 != $2' clusters >clusters.joined
show 3 clusters.joined
echo
echo '$ neardup -u docs > unique                # which to keep: the first of each cluster'
neardup -u docs >unique
echo "\$ head -3 unique                         # $(wc -l <unique) of $n documents"
show 3 unique
echo
echo '$ neardup -q state new                    # which new documents we already have'
neardup -q state new
echo '$ neardup -u -q state new                 # the new ones that are really new'
neardup -u -q state new
echo
echo '$ paireval labels.tsv pairs               # how good: against the planted truth'
paireval labels.tsv pairs
echo

# A crawl as crawlers keep it: one site's pages as WARC response records,
# one gzip member each; each record is a document, named by its URI.
for f in docs/harbor/*.html docs/harbor/archive/*.html; do
	n=$(wc -c <"$f")
	http="HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: $n\r\n\r\n"
	len=$(($(printf '%b' "$http" | wc -c) + n))
	{
		printf 'WARC/1.1\r\nWARC-Type: response\r\n'
		printf 'WARC-Target-URI: https://harbor.example/%s\r\n' "${f#docs/harbor/}"
		printf 'Content-Type: application/http; msgtype=response\r\n'
		printf 'WARC-Record-ID: <https://harbor.example/record/%s>\r\nContent-Length: %d\r\n\r\n' \
		    "$(printf '%s' "$f" | cksum | cut -d' ' -f1)" "$len"
		printf '%b' "$http"
		cat "$f"
		printf '\r\n\r\n'
	} | gzip -n
done >crawl.warc.gz
echo '$ neardup crawl.warc.gz                   # a crawl: each WARC record a document'
neardup crawl.warc.gz >crawl.pairs
show 3 crawl.pairs
