# neardocs.bash: small generated documents with known near-duplicates, for
# the tests of sketch, simjoin and neardup; load after helper.

# gendoc SEED N: N words "wNNN" of a fixed pseudorandom sequence (Park and
# Miller's generator, exact in any awk), one line.
gendoc() {
	awk -v x="$1" -v n="$2" 'BEGIN {
		for (i = 0; i < n; i++) {
			x = x * 16807 % 2147483647
			printf "%sw%d", i ? " " : "", x % 3000
		}
		printf "\n"
	}'
}

# neardocs: docs/ with a.txt, its edit a2.txt (word 40 of 80 replaced),
# b.txt and b2.txt (the same words in capitals, so the same text to the
# tokenizer), c.txt unrelated, and s.txt and its copy s2.txt of 5 words
# only (1 shingle: fewer than simjoin's default minimum of 10). Jaccard
# similarity of a and a2: the edit takes 5 of a's 76 shingles away and
# brings 5 new ones, 71 / 81 = 0.8765.
neardocs() {
	mkdir -p docs
	gendoc 1 80 >docs/a.txt
	awk '{ $40 = "changed"; print }' docs/a.txt >docs/a2.txt
	gendoc 2 80 >docs/b.txt
	tr 'w' 'W' <docs/b.txt >docs/b2.txt
	gendoc 3 80 >docs/c.txt
	gendoc 4 5 >docs/s.txt
	cp docs/s.txt docs/s2.txt
}

# boilerplate: site/p1.txt .. p4.txt, each 30 words of its own after the
# same 30 words (a site's template): 26 shared shingles of 56 each, plain
# Jaccard 26 / 86 = 0.3023 for every pair.
boilerplate() {
	local i

	mkdir -p site
	for i in 1 2 3 4; do
		{ gendoc 9 30; gendoc $((10 + i)) 30; } >site/p$i.txt
	done
}
