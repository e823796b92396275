# f1.awk GOLD PRED: how well page records PRED match the GOLD ones (both
# "SOURCE/NAME<TAB>TEXT", escaped as in simrec(5)), by the F1 of shared
# token 4-grams: tokens are maximal runs of letters and digits (bytes of
# UTF-8 sequences count as letters, but for the signs of U+0080 to U+00BF:
# a heading's permalink sign is no part of its word), lowercased; 4-grams
# are a multiset.
# Prints per source and overall the mean precision, recall and F1 of the pages.
BEGIN { FS = "\t" }

function grams(s, g,    n, i, t, k) {
	gsub(/\\\\/, " ", s)
	gsub(/\\[ntr0]/, " ", s)
	s = tolower(s)
	gsub(/\302[\200-\277]/, " ", s)
	gsub(/[^a-z0-9\200-\377]+/, " ", s)
	n = split(s, t, " ")
	k = 0
	for (i = 1; i + 3 <= n; i++) {
		if (t[i] == "")
			continue
		g[t[i] " " t[i + 1] " " t[i + 2] " " t[i + 3]]++
		k++
	}
	return k
}

FNR == NR { gold[$1] = substr($0, length($1) + 2); next }

{
	id = $1
	if (!(id in gold))
		next
	delete G
	delete P
	ng = grams(gold[id], G)
	np = grams(substr($0, length($1) + 2), P)
	tp = 0
	for (k in P)
		if (k in G)
			tp += P[k] < G[k] ? P[k] : G[k]
	p = np ? tp / np : (ng ? 0 : 1)
	r = ng ? tp / ng : 1
	f = p + r > 0 ? 2 * p * r / (p + r) : 0
	src = id
	sub(/\/.*/, "", src)
	if (!(src in cnt))
		order[++nsrc] = src
	cnt[src]++; sp[src] += p; sr[src] += r; sf[src] += f
	all++; ap += p; ar += r; af += f
	if (ENVIRON["F1_PAGES"] != "")
		printf "%-30s %.3f %.3f %.3f\n", id, p, r, f > "/dev/stderr"
}

END {
	for (i = 1; i <= nsrc; i++) {
		s = order[i]
		printf "%-10s %5d %9.3f %7.3f %7.3f\n", s, cnt[s], sp[s] / cnt[s], sr[s] / cnt[s], sf[s] / cnt[s]
	}
	if (all)
		printf "%-10s %5d %9.3f %7.3f %7.3f\n", "overall", all, ap / all, ar / all, af / all
}
