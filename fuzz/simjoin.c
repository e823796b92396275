/*
 * Fuzz the join (lib/join): sketch records of a collection (part 0, and
 * with OPT1 bit 0 and no query mode part 1 too, read after it) and of
 * queries (part 1) through join_read, the weights, the candidates, the
 * verification and the pairs and clusters. OPT2: bit 0 clusters, bit 1
 * unique documents, bit 2 query mode (part 1 the queries), bits 3-5 the
 * minimum size, bit 6 threshold 0 (else 0.25), bit 7 containment 0.5;
 * OPT1 >> 4 is the rarity, OPT1 bits 1-2 the words the spill keeps in
 * memory (times 32). The candidates must be distinct, ordered as
 * join.h says, and, with up to JOIN_RUNMAX documents (so that the cap on
 * a hash's run does not apply), the pairs exactly the similar pairs among
 * those that share one of the JOIN_PREFIX smallest hashes of each. IDs
 * are keys: after loading, no two documents have the same ID (a
 * duplicate in one input is skipped, a query replaces the collection's
 * document). With few hashes, every weight is the one join_int.h
 * defines, counted by a scan: identical sketches count once. Unique
 * documents are greedy: those written are exactly the documents that no
 * reported pair joins to an earlier one kept.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "join_int.h"

/* Add the records of the file path to j. */
static void
load(struct join *j, const char *path)
{
	struct rdr r;

	if (rdr_open(&r, path) < 0)
		return;
	join_read(j, &r);
	rdr_close(&r);
}

/* Abort if two documents have the same ID. */
static void
distinctids(const struct join *j)
{
	const char *x, *y;
	size_t a, b, na, nb;

	for (a = 0; a < j->ndocs; a++) {
		x = join_id(j, (uint32_t)a, &na);
		for (b = a + 1; b < j->ndocs; b++) {
			y = join_id(j, (uint32_t)b, &nb);
			if (na == nb && memcmp(x, y, na) == 0)
				abort();
		}
	}
}

/* Do documents a and b share one of the JOIN_PREFIX smallest hashes of each? */
static int
share(struct join *j, size_t a, size_t b)
{
	unsigned i, k, na = j->hn[a] < JOIN_PREFIX ? j->hn[a] : JOIN_PREFIX;
	unsigned nb = j->hn[b] < JOIN_PREFIX ? j->hn[b] : JOIN_PREFIX;
	struct sketch x, y;

	join_sketch(j, (uint32_t)a, &x);
	join_sketch(j, (uint32_t)b, &y);
	for (i = 0; i < na; i++)
		for (k = 0; k < nb; k++)
			if (x.h[i] == y.h[k])
				return 1;
	return 0;
}

/* Whether the sketches of documents a and b are identical. */
static int
same(struct join *j, size_t a, size_t b)
{
	struct sketch x, y;

	join_sketch(j, (uint32_t)a, &x);
	join_sketch(j, (uint32_t)b, &y);
	return x.n == y.n && x.nshingles == y.nshingles &&
	    memcmp(x.h, y.h, x.n * sizeof *x.h) == 0;
}

/* Does document d's sketch hold h? */
static int
holds(struct join *j, size_t d, uint64_t h)
{
	struct sketch s;
	unsigned i;

	join_sketch(j, (uint32_t)d, &s);
	for (i = 0; i < s.n; i++)
		if (s.h[i] == h)
			return 1;
	return 0;
}

/*
 * Abort unless each weight is min(1, rarity / (df * ndistinct / c)) over
 * the distinct sketches (join_int.h), the first of each set of identical
 * ones standing for it.
 */
static void
checkweights(struct join *j)
{
	unsigned char *first = calloc(j->ndocs ? j->ndocs : 1, 1);
	size_t a, b, d, ndistinct = 0, df, can;
	unsigned i;
	uint64_t h, reach;
	struct sketch s;
	double x;
	float want;

	if (!first)
		abort();
	for (a = 0; a < j->ndocs; a++) {
		for (b = 0; b < a && !(first[b] && same(j, a, b)); b++)
			;
		first[a] = b == a;
		ndistinct += first[a];
	}
	for (d = 0; d < j->ndocs; d++)
		for (i = 0; i < j->hn[d]; i++) {
			join_sketch(j, (uint32_t)d, &s);
			h = s.h[i];
			df = can = 0;
			for (a = 0; a < j->ndocs; a++) {
				if (!first[a])
					continue;
				join_sketch(j, (uint32_t)a, &s);
				reach = s.n < s.nshingles ? s.h[s.n - 1] : UINT64_MAX;
				can += reach >= h;
				df += holds(j, a, h);
			}
			x = (double)df * (double)ndistinct / (double)can;
			want = j->opt.rarity == 0 || x <= j->opt.rarity ? 1 :
			    (float)(j->opt.rarity / x);
			if (join_weights(j, d)[i] != want)
				abort();
		}
	free(first);
}

/* A reported pair, as join_pairs gives it (the query first). */
struct pair {
	uint32_t first, second;
	double sim;
};

/* The candidates as join_candidates gives them, and the pairs among them. */
struct pairs {
	struct join *j;
	struct pair *p;
	size_t n, cap, ncand, next;
	uint32_t lasta, lastb;
	unsigned char *written;	/* unique documents: by document, 1 if written */
};

static void
visitpair(uint32_t a, uint32_t b, void *ctx)
{
	struct pairs *ps = ctx;
	struct join *j = ps->j;
	uint32_t first = j->queries ? b : a, second = j->queries ? a : b;
	double sim;

	/* distinct and in output order */
	if (ps->ncand > 0 && (first < ps->lasta || (first == ps->lasta && second <= ps->lastb)))
		abort();
	ps->lasta = first;
	ps->lastb = second;
	ps->ncand++;
	if (a >= b || b >= j->ndocs || (j->queries && b < j->ncoll))
		abort();
	if (!join_similar(j, a, b, &sim))
		return;
	if (!(sim >= 0 && sim <= 1))
		abort();
	egrow(&ps->p, &ps->cap, ps->n + 1, sizeof *ps->p);
	ps->p[ps->n].first = first;
	ps->p[ps->n].second = second;
	ps->p[ps->n].sim = sim;
	ps->n++;
}

/* join_pairs gives the pairs the candidates verified, in the same order. */
static void
reported(uint32_t first, uint32_t second, double sim, void *ctx)
{
	struct pairs *ps = ctx;
	const struct pair *p = ps->p + ps->next;

	if (ps->next >= ps->n || p->first != first || p->second != second || p->sim != sim)
		abort();
	ps->next++;
}

/* A document of the clusters: in input order, its root no later than it. */
static void
clustered(uint32_t d, uint32_t root, void *ctx)
{
	struct pairs *ps = ctx;
	struct join *j = ps->j;

	if (root > d || d >= j->ndocs || (j->queries && d < j->ncoll))
		abort();
	if (ps->ncand > 0 && d <= ps->lasta)
		abort();
	ps->ncand = 1;
	ps->lasta = d;
	if (ps->written)
		ps->written[d] = 1;
}

/*
 * The unique documents written are the greedy ones: a document is kept
 * unless a reported pair joins it to an earlier kept one; a query run's
 * collection is kept (and not written). By a scan of all pairs per
 * document, in input order.
 */
static void
greedy(const struct join *j, const struct pairs *ps)
{
	unsigned char *kept = ecalloc(j->ndocs ? j->ndocs : 1, 1);
	size_t d, i, first = j->queries ? j->ncoll : 0;
	uint32_t a, b;

	for (d = 0; d < j->ndocs; d++) {
		kept[d] = 1;
		for (i = 0; d >= first && i < ps->n; i++) {
			a = ps->p[i].first < ps->p[i].second ? ps->p[i].first : ps->p[i].second;
			b = ps->p[i].first ^ ps->p[i].second ^ a;
			if (b == d && kept[a])
				kept[d] = 0;
		}
		if (d >= first && kept[d] != ps->written[d])
			abort();
	}
	free(kept);
}

static void
oracle(struct join *j, const struct pair *p, size_t np)
{
	size_t a, b, k = 0, i, n = j->ndocs;
	unsigned minsize = j->opt.minsize;
	double sim;

	/* in the order of the pairs: by a then b, or in query mode by b then a */
	for (i = 0; i < n * n; i++) {
		if (j->queries) {
			b = i / n;
			a = i % n;
		} else {
			a = i / n;
			b = i % n;
		}
		if (a >= b || j->nsh[a] < minsize || j->nsh[b] < minsize)
			continue;
		if (j->queries && b < j->ncoll)
			continue;
		if (!share(j, a, b) || !join_similar(j, (uint32_t)a, (uint32_t)b, &sim))
			continue;
		if (k >= np || p[k].first != (j->queries ? b : a) ||
		    p[k].second != (j->queries ? a : b) || p[k].sim != sim)
			abort();
		k++;
	}
	if (k != np)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;
	struct join_opt opt;
	struct join *j;
	struct pairs ps = { 0 };
	size_t i, doc;
	int queries;

	fuzz_begin(&in, d, n, 2);
	queries = (in.o2 & 4) != 0;
	opt.minsize = in.o2 >> 3 & 7;
	opt.thresh = in.o2 & 64 ? 0 : 0.25;
	opt.cthresh = in.o2 & 128 ? 0.5 : -1;
	opt.rarity = in.o1 >> 4;
	j = join_new(&opt);
	/* the spill file from the start, or from 32, 64 or 96 words on */
	j->memmax = (size_t)(in.o1 & 6) * 16;
	load(j, in.path[0]);
	if (queries)
		join_queries(j);
	if (queries || in.o1 & 1)
		load(j, in.path[1]);
	join_prepare(j);
	for (doc = 0; doc < j->ndocs; doc++) {
		const float *w = join_weights(j, doc);

		for (i = 0; i < j->hn[doc]; i++)
			if (!(w[i] > 0 && w[i] <= 1))
				abort();
	}
	if (j->nhv <= 2048)
		checkweights(j);
	ps.j = j;
	join_candidates(j, visitpair, &ps);
	if (j->ndocs <= JOIN_RUNMAX) {
		oracle(j, ps.p, ps.n);
		distinctids(j);
	}
	join_pairs(j, reported, &ps);
	if (ps.next != ps.n)
		abort();
	if (in.o2 & 3) {
		ps.ncand = 0;
		if (in.o2 & 2)
			ps.written = ecalloc(j->ndocs ? j->ndocs : 1, 1);
		join_clusters(j, in.o2 & 2, clustered, &ps);
		if (ps.written)
			greedy(j, &ps);
	}
	free(ps.written);
	free(ps.p);
	join_free(j);
	return 0;
}
