/*
 * Fuzz simjoin: sketch records of a collection (part 0) and of queries
 * (part 1) through sketch_parse and the tool's loading, weighing, joining
 * and reporting (OPT1 bit 0 and no query mode: -i, the two parts a
 * collection dealt out in turn). OPT2: bit 0 -g, bit 1 -u, bit 2 query mode (part 1 the
 * queries; -g is then off), bits 3-5 the minimum size, bit 6 -t 0 (else
 * 0.25), bit 7 -c 0.5; OPT1 >> 4 is the rarity. The pairs must be distinct,
 * ordered as simjoin(1) says, and, with up to RUNMAX documents (so that
 * the cap on a hash's run does not apply), exactly the similar pairs among
 * those that share one of the PREFIX smallest hashes of each. IDs are
 * keys: after loading, no two documents have the same ID (a duplicate in
 * one input is skipped, a query replaces the collection's document).
 */
#include "fuzz.h"

#define main simjoin_main
#include "../cmd/simjoin.c"
#undef main

static void
reset(void)
{
	free(ids.p);
	memset(&ids, 0, sizeof ids);
	free(idoff);
	free(nsh);
	free(hoff);
	free(hn);
	free(hv);
	free(wv);
	free(shared);
	free(post);
	free(reach);
	free(reachidx);
	shared = NULL;
	post = NULL;
	reach = NULL;
	reachidx = NULL;
	sharedmask = 0;
	memset(&zeroslot, 0, sizeof zeroslot);
	idoff = NULL;
	nsh = NULL;
	hoff = NULL;
	hn = NULL;
	hv = NULL;
	wv = NULL;
	ndocs = doccap = nhv = hvcap = ncoll = 0;
	size = maxwhole = 0;
}

/* Abort if two documents have the same ID. */
static void
distinctids(void)
{
	size_t a, b, na, nb;

	for (a = 0; a < ndocs; a++) {
		na = (a + 1 < ndocs ? idoff[a + 1] : ids.n) - idoff[a];
		for (b = a + 1; b < ndocs; b++) {
			nb = (b + 1 < ndocs ? idoff[b + 1] : ids.n) - idoff[b];
			if (na == nb && memcmp(ids.p + idoff[a], ids.p + idoff[b], na) == 0)
				abort();
		}
	}
}

/* Do documents a and b share one of the PREFIX smallest hashes of each? */
static int
share(size_t a, size_t b)
{
	unsigned i, j, na = hn[a] < PREFIX ? hn[a] : PREFIX, nb = hn[b] < PREFIX ? hn[b] : PREFIX;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (hv[hoff[a] + i] == hv[hoff[b] + j])
				return 1;
	return 0;
}

/* A reported pair: the candidates verified, in output order. */
struct pair {
	uint32_t a, b;
	double sim;
};

/* The candidates as candidates() gives them, and the pairs among them. */
struct pairs {
	struct pair *p;
	size_t n, cap, ncand;
	uint32_t lasta, lastb;
};

static void
visitpair(uint32_t a, uint32_t b, void *ctx)
{
	struct pairs *ps = ctx;
	uint32_t first = qfile ? b : a, second = qfile ? a : b;
	double sim;

	/* distinct and in output order */
	if (ps->ncand > 0 && (first < ps->lasta || (first == ps->lasta && second <= ps->lastb)))
		abort();
	ps->lasta = first;
	ps->lastb = second;
	ps->ncand++;
	if (a >= b || b >= ndocs || (qfile && b < ncoll))
		abort();
	if (!similar(a, b, &sim))
		return;
	if (!(sim >= 0 && sim <= 1))
		abort();
	egrow(&ps->p, &ps->cap, ps->n + 1, sizeof *ps->p);
	ps->p[ps->n].a = a;
	ps->p[ps->n].b = b;
	ps->p[ps->n].sim = sim;
	ps->n++;
}

static void
oracle(const struct pair *p, size_t np)
{
	size_t a, b, k = 0, i;
	double sim;

	/* in the order of the pairs: by a then b, or in query mode by b then a */
	for (i = 0; i < ndocs * ndocs; i++) {
		if (qfile) {
			b = i / ndocs;
			a = i % ndocs;
		} else {
			a = i / ndocs;
			b = i % ndocs;
		}
		if (a >= b || nsh[a] < minsize || nsh[b] < minsize)
			continue;
		if (qfile && b < ncoll)
			continue;
		if (!share(a, b) || !similar((uint32_t)a, (uint32_t)b, &sim))
			continue;
		if (k >= np || p[k].a != a || p[k].b != b || p[k].sim != sim)
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
	struct pairs ps = { NULL, 0, 0, 0, 0, 0 };
	size_t i, doc;

	fuzz_begin(&in, d, n, 2);
	gflag = in.o2 & 1;
	uflag = in.o2 >> 1 & 1;
	qfile = in.o2 & 4 ? in.path[1] : NULL;
	if (qfile)
		gflag = 0;
	minsize = in.o2 >> 3 & 7;
	thresh = in.o2 & 64 ? 0 : 0.25;
	cthresh = in.o2 & 128 ? 0.5 : -1;
	rarity = in.o1 >> 4;
	if (in.o1 & 1 && !qfile) {
		/* -i: the collection and part 1 dealt out in turn */
		char *parts[2] = { (char *)in.path[0], (char *)in.path[1] };

		seenreset();
		loadparts(parts, 2);
	} else {
		seenreset();
		load(in.path[0]);
	}
	ncoll = ndocs;
	if (qfile) {
		seenreset();
		load(qfile);
		replace();
	}
	seendone();
	if (!hv)
		hv = ecalloc(1, sizeof *hv);
	prepare();
	for (doc = 0; doc < ndocs; doc++) {
		const float *w = weights(doc);

		for (i = 0; i < hn[doc]; i++)
			if (!(w[i] > 0 && w[i] <= 1))
				abort();
	}
	candidates(visitpair, &ps);
	if (ndocs <= RUNMAX) {
		oracle(ps.p, ps.n);
		distinctids();
	}
	report();
	fflush(stdout);
	free(ps.p);
	reset();
	return 0;
}
