/*
 * simjoin: near-duplicate pairs from bottom-k sketches: candidates from
 * shared hashes, verified by an estimate of rarity-weighted Jaccard
 * similarity.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "esc.h"
#include "radix.h"
#include "rdr.h"
#include "siphash.h"
#include "sketch.h"
#include "uf.h"
#include "util.h"
#include "wtab.h"

#define PREFIX	32	/* hashes of each sketch that make candidates */
#define RUNMAX	128	/* documents sharing a hash paired with each other */
#define PARTSMAX	64	/* -i: files read side by side */

static double cthresh = -1;	/* -c: containment that also reports a pair */
static unsigned rarity = 2;	/* -d: a shingle in more documents weighs less */
static int gflag;		/* clusters */
static int iflag;		/* the files are parts, their records interleaved */
static unsigned minsize = 10;	/* -m: shingles a document needs to be paired */
static const char *qfile;	/* -q: queries against the collection */
static double thresh = 0.25;	/* -t */
static int uflag;		/* unique documents */

/* The documents, in input order: the collection, then the queries. */
static struct obuf ids;		/* their IDs, back to back */
static size_t *idoff;
static uint64_t *nsh;		/* distinct shingles */
static size_t *hoff;		/* where its hashes start in hv */
static unsigned *hn;
static uint64_t *hv;		/* the hashes of all sketches */
static size_t ndocs, doccap, nhv, hvcap, ncoll;
static unsigned size;		/* the sketches' size, from a cut one; 0 if none */
static unsigned maxwhole;	/* the most hashes of a whole sketch */

/*
 * The IDs of the input being read (the collection, or the queries): an ID
 * is a key, held once in each. By wtab id: where each was first seen.
 */
static struct wtab seen;
static const char **seenfile;
static uintmax_t *seenline;
static size_t seencap;

/* Start an input: no ID seen yet. */
static void
seenreset(void)
{
	wtab_free(&seen);
	wtab_init(&seen);
}

static void
seendone(void)
{
	wtab_free(&seen);
	free(seenfile);
	free(seenline);
	seenfile = NULL;
	seenline = NULL;
	seencap = 0;
}

/*
 * Whether the ID s[0..n) read at r's line was seen before in this input
 * (said); else it is now.
 */
static int
duplicate(struct rdr *r, const char *s, size_t n)
{
	size_t before = seen.n;
	uint32_t id = wtab_intern(&seen, s, n);

	if (seen.n == before) {
		weprintf("%s:%ju: duplicate ID (first at %s:%ju): skipped", r->name, r->lineno,
		    seenfile[id], seenline[id]);
		return 1;
	}
	if (id == seencap) {
		size_t cap = seencap;

		egrow(&seenfile, &cap, id + 1, sizeof *seenfile);
		egrow(&seenline, &seencap, id + 1, sizeof *seenline);
	}
	seenfile[id] = r->name;
	seenline[id] = r->lineno;
	return 0;
}

/* Add the sketch record line[0..n) of r to the documents; 1 if it is bad (said). */
static int
loadline(struct rdr *r, char *line, size_t n)
{
	struct sketch s;
	uint64_t h[SK_MAXSIZE];

	if (sketch_parse(r, line, n, &s, h) < 0)
		return 1;
	/*
	 * A cut sketch (fewer hashes than shingles) shows the size; a
	 * whole one must not be larger.
	 */
	if (s.n < s.nshingles ? (size && s.n != size) || s.n < maxwhole :
	    size && s.n > size) {
		weprintf("%s:%ju: a sketch of %u hashes among sketches of %u",
		    r->name, r->lineno, s.n, size ? size : maxwhole);
		return 1;
	}
	if (duplicate(r, s.id, s.idlen))
		return 1;
	if (ndocs == UINT32_MAX - 1)
		eprintf("%s:%ju: too many documents", r->name, r->lineno);
	if (ndocs == doccap) {
		size_t cap = doccap;

		egrow(&idoff, &cap, ndocs + 1, sizeof *idoff);
		cap = doccap;
		egrow(&nsh, &cap, ndocs + 1, sizeof *nsh);
		cap = doccap;
		egrow(&hoff, &cap, ndocs + 1, sizeof *hoff);
		egrow(&hn, &doccap, ndocs + 1, sizeof *hn);
	}
	idoff[ndocs] = ids.n;
	obuf_add(&ids, s.id, s.idlen);
	nsh[ndocs] = s.nshingles;
	hoff[ndocs] = nhv;
	hn[ndocs] = s.n;
	/* + 1: hv is never null, even if every page is empty */
	egrow(&hv, &hvcap, nhv + s.n + 1, sizeof *hv);
	memcpy(hv + nhv, s.h, s.n * sizeof *hv);
	nhv += s.n;
	if (s.n < s.nshingles)
		size = s.n;
	else if (s.n > maxwhole)
		maxwhole = s.n;
	ndocs++;
	return 0;
}

/*
 * -q: a document of the collection whose ID is a query's is replaced by
 * the query (as neardup -a replaces it in a state): dropped before
 * anything is counted, so that a batch asked again against a collection
 * that holds it is answered as the first time. seen holds the queries' IDs.
 */
static void
replace(void)
{
	size_t d, kept = 0, idn = 0, hvn = 0, len;

	for (d = 0; d < ndocs; d++) {
		len = (d + 1 < ndocs ? idoff[d + 1] : ids.n) - idoff[d];
		if (d < ncoll && wtab_find(&seen, ids.p + idoff[d], len) != WTAB_NONE)
			continue;
		memmove(ids.p + idn, ids.p + idoff[d], len);
		idoff[kept] = idn;
		idn += len;
		memmove(hv + hvn, hv + hoff[d], hn[d] * sizeof *hv);
		hoff[kept] = hvn;
		hvn += hn[d];
		nsh[kept] = nsh[d];
		hn[kept] = hn[d];
		kept++;
	}
	ncoll -= ndocs - kept;
	ndocs = kept;
	ids.n = idn;
	nhv = hvn;
}

static int
load(const char *path)
{
	struct rdr r;
	char *line;
	ptrdiff_t n;
	int ret = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((n = rdr_line(&r, &line)) >= 0)
		ret |= loadline(&r, line, (size_t)n);
	return rdr_close(&r) | ret;
}

/*
 * -i: the n files are parts of one collection, dealt out in turn (as
 * docsplit -p deals files): a record from each in turn, until all have
 * ended.
 */
static int
loadparts(char **paths, int n)
{
	struct rdr r[PARTSMAX];
	char *line;
	ptrdiff_t len;
	int i, open = 0, ret = 0;

	for (i = 0; i < n; i++) {
		if (rdr_open(&r[i], paths[i]) < 0)
			ret = 1;	/* (and r[i].buf is null: not read) */
		else
			open++;
	}
	while (open > 0) {
		for (i = 0; i < n; i++) {
			if (!r[i].buf)
				continue;
			if ((len = rdr_line(&r[i], &line)) >= 0) {
				ret |= loadline(&r[i], line, (size_t)len);
				continue;
			}
			ret |= rdr_close(&r[i]);	/* (it sets buf to NULL) */
			open--;
		}
	}
	return ret;
}

/*
 * Hashes held by more than one sketch: an open-addressing table, 0 an
 * empty slot (the hash 0 has a slot of its own). A hash is placed by its
 * SipHash under a key drawn for the run (sip_runkey): sketches are input,
 * and forged ones whose hashes share their low bits would otherwise crowd
 * one run of slots. Each holds the number of sketches holding the hash,
 * for its weight, and where its candidate run is: the documents that hold
 * it among their PREFIX smallest and may pair, in input order,
 * post[end - ncand .. end).
 */
struct shared {
	uint64_t h;
	uint32_t n, ncand;
	size_t end;
};

static struct shared *shared, zeroslot;
static size_t sharedmask;
static uint64_t sharedk0, sharedk1;
static uint32_t *post;		/* the candidate runs */
static uint64_t *reach;		/* each sketch's largest hash it could hold, sorted */
static uint32_t *reachidx;	/* where each bucket of hashes starts in reach */
static unsigned reachbits;	/* 2^reachbits buckets, about one a sketch */
static float *wv;		/* the weights of hv, 0 until a document's are needed */

#define PASSES	16	/* work in parts of 1/16 of the hashes, by their low bits */

/* The first slot of h. */
static size_t
sharedplace(uint64_t h)
{
	return (size_t)siphash13_u64(sharedk0, sharedk1, h) & sharedmask;
}

static void
addshared(uint64_t h, uint64_t n)
{
	size_t i;

	if (h == 0) {
		zeroslot.n = (uint32_t)n;
		return;
	}
	for (i = sharedplace(h); shared[i].h; i = (i + 1) & sharedmask)
		;
	shared[i].h = h;
	shared[i].n = (uint32_t)n;
}

/* The slot of h, or NULL if one sketch holds it. */
static struct shared *
findshared(uint64_t h)
{
	size_t i;

	if (h == 0)
		return zeroslot.n ? &zeroslot : NULL;
	if (!shared)
		return NULL;
	for (i = sharedplace(h); shared[i].h; i = (i + 1) & sharedmask)
		if (shared[i].h == h)
			return &shared[i];
	return NULL;
}

static uint64_t
count(uint64_t h)
{
	struct shared *s = findshared(h);

	return s ? s->n : 1;
}

/*
 * Count the hashes held by more than one sketch, a sixteenth of them at a
 * time (sorted, then runs), so that memory beyond the sketches stays small.
 */
static void
countshared(void)
{
	uint64_t *part, *dup = NULL;
	size_t parts[PASSES] = { 0 }, most = 0, dupcap = 0, ndup = 0, n, i, j, cap;
	unsigned p;

	for (i = 0; i < nhv; i++)
		parts[hv[i] & (PASSES - 1)]++;
	for (p = 0; p < PASSES; p++)
		if (parts[p] > most)
			most = parts[p];
	part = ereallocarray(NULL, most + 1, sizeof *part);	/* + 1: see the gather */
	for (p = 0; p < PASSES; p++) {
		/* without a branch: the part of a hash is as good as random */
		for (i = n = 0; i < nhv; i++) {
			part[n] = hv[i];
			n += (hv[i] & (PASSES - 1)) == p;
		}
		radix_sort64(part, n);
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && part[j] == part[i]; j++)
				;
			if (j - i < 2)
				continue;
			egrow(&dup, &dupcap, ndup + 2, sizeof *dup);
			dup[ndup++] = part[i];
			dup[ndup++] = j - i;
		}
	}
	free(part);
	for (cap = 16; cap < ndup; cap *= 2)	/* ndup / 2 hashes, load <= 1/2 */
		;
	if (ndup) {
		shared = ecalloc(cap, sizeof *shared);
		sharedmask = cap - 1;
		sharedk0 = sip_runkey(5);
		sharedk1 = sip_runkey(6);
		for (i = 0; i < ndup; i += 2)
			addshared(dup[i], dup[i + 1]);
	}
	free(dup);
}

/* How many of document d's hashes make candidates: none if it is too small to pair. */
static unsigned
nprefix(size_t d)
{
	if (nsh[d] < minsize)
		return 0;
	return hn[d] < PREFIX ? hn[d] : PREFIX;
}

/*
 * The candidate runs (struct shared): counted, each given its place in
 * post, then filled in input order.
 */
static void
candruns(void)
{
	struct shared *s;
	size_t d, i, total = 0;
	unsigned j, n;

	for (d = 0; d < ndocs; d++)
		for (j = 0, n = nprefix(d); j < n; j++)
			if ((s = findshared(hv[hoff[d] + j])))
				s->ncand++;
	for (i = 0; shared && i <= sharedmask; i++) {
		shared[i].end = total;	/* its start, until it is filled */
		total += shared[i].ncand;
	}
	zeroslot.end = total;
	total += zeroslot.ncand;
	post = ereallocarray(NULL, total ? total : 1, sizeof *post);
	for (d = 0; d < ndocs; d++)
		for (j = 0, n = nprefix(d); j < n; j++)
			if ((s = findshared(hv[hoff[d] + j])))
				post[s->end++] = (uint32_t)d;
}

/* The sketches' largest hashes, sorted, for the weights. */
static void
reachsort(void)
{
	size_t d, b;

	reach = ereallocarray(NULL, ndocs ? ndocs : 1, sizeof *reach);
	for (d = 0; d < ndocs; d++)
		reach[d] = hn[d] < nsh[d] ? hv[hoff[d] + hn[d] - 1] : UINT64_MAX;
	radix_sort64(reach, ndocs);
	for (reachbits = 8; reachbits < 24 && (size_t)1 << reachbits < ndocs; reachbits++)
		;
	reachidx = ereallocarray(NULL, ((size_t)1 << reachbits) + 1, sizeof *reachidx);
	for (b = d = 0; b <= (size_t)1 << reachbits; b++) {
		/* the first hash of bucket b; the last entry is past them all */
		while (d < ndocs && (b == (size_t)1 << reachbits ||
		    reach[d] >> (64 - reachbits) < b))
			d++;
		reachidx[b] = (uint32_t)d;
	}
}

static void
prepare(void)
{
	/* calloc: the pages of documents never verified are never touched */
	wv = ecalloc(nhv ? nhv : 1, sizeof *wv);
	countshared();
	if (rarity > 0)
		reachsort();
	radix_free();	/* the sorts are done: their scratch goes before the runs */
	candruns();
}

/* The first index of sorted v[0..n) holding a value >= x. */
static size_t
lowerbound(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The number of sketches whose largest hash is below h: reach is sorted,
 * and reachidx[b] is the number of them below the first hash of bucket b
 * (the top reachbits bits of a hash), so that a search is in one bucket.
 */
static size_t
reachbelow(uint64_t h)
{
	size_t b = (size_t)(h >> (64 - reachbits)), lo = reachidx[b];

	return lo + lowerbound(reach + lo, reachidx[b + 1] - lo, h);
}

/*
 * The weight of hash h: min(1, rarity / df), where df estimates the number
 * of documents holding its shingle. A sketch can hold h only if h is at
 * most its largest hash (any sketch of a page with fewer shingles than the
 * size can), so df is the number of sketches holding h, scaled up by the
 * share of sketches that could.
 */
static double
weight(uint64_t h)
{
	double df, can;

	if (rarity == 0)
		return 1;
	can = (double)(ndocs - reachbelow(h));
	df = (double)count(h) * (double)ndocs / can;
	return df <= rarity ? 1 : rarity / df;
}

/* The first index of sorted run[0..n) holding a document >= d. */
static size_t
position(const uint32_t *run, size_t n, uint32_t d)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (run[mid] < d)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int
cmpu32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * Call visit(a, b, ctx) for each candidate pair of documents a < b, each
 * once, in output order (by a then b; in query mode by b then a): those
 * that share one of the PREFIX smallest hashes of each. A hash shared by
 * more than RUNMAX documents pairs each of them with the first RUNMAX
 * only, so that a hash every page holds (a site's footer) costs linear
 * time. The pairs are made a document at a time (its partners, from the
 * candidate runs of its hashes, made distinct by a mark and sorted), so
 * that memory holds one document's partners, never all the pairs.
 */
static void
candidates(void (*visit)(uint32_t, uint32_t, void *), void *ctx)
{
	struct shared *s;
	uint32_t *mark, *part = NULL, *run, other;
	size_t partcap = 0, npart, d, i, k, lo, hi;
	unsigned j, n;

	/* mark[x] = d + 1: x is already a partner of d */
	mark = ecalloc(ndocs ? ndocs : 1, sizeof *mark);
	for (d = qfile ? ncoll : 0; d < ndocs; d++) {
		npart = 0;
		for (j = 0, n = nprefix(d); j < n; j++) {
			if (!(s = findshared(hv[hoff[d] + j])) || s->ncand < 2)
				continue;
			run = post + s->end - s->ncand;
			k = position(run, s->ncand, (uint32_t)d);
			/*
			 * In query mode d is the later of a pair: those before it
			 * among the first RUNMAX; else the earlier: those after it
			 * if it is among the first RUNMAX.
			 */
			if (qfile) {
				lo = 0;
				hi = k < RUNMAX ? k : RUNMAX;
			} else {
				lo = k + 1;
				hi = k < RUNMAX ? s->ncand : 0;
			}
			for (i = lo; i < hi; i++) {
				other = run[i];
				if (mark[other] == d + 1)
					continue;
				mark[other] = (uint32_t)(d + 1);
				egrow(&part, &partcap, npart + 1, sizeof *part);
				part[npart++] = other;
			}
		}
		for (i = 1; i < npart && part[i - 1] < part[i]; i++)
			;
		if (i < npart)
			qsort(part, npart, sizeof *part, cmpu32);
		for (i = 0; i < npart; i++) {
			if (qfile)
				visit(part[i], (uint32_t)d, ctx);
			else
				visit((uint32_t)d, part[i], ctx);
		}
	}
	free(mark);
	free(part);
}

/* The weights of document d's hashes, computed once. */
static const float *
weights(size_t d)
{
	float *w = wv + hoff[d];
	unsigned j;

	if (hn[d] > 0 && w[0] == 0)
		for (j = 0; j < hn[d]; j++)
			w[j] = (float)weight(hv[hoff[d] + j]);
	return w;
}

/*
 * Estimate from the union of the two sketches cut to the size: its hashes
 * in both stand for the shared shingles. *sim gets the weighted Jaccard
 * similarity, *jac the plain one.
 */
static void
estimate(size_t a, size_t b, double *sim, unsigned *nshared, unsigned *nunion)
{
	const uint64_t *x = hv + hoff[a], *y = hv + hoff[b];
	const float *wx = weights(a), *wy = weights(b);
	unsigned i = 0, j = 0, u = 0, both = 0, lim = size ? size : UINT_MAX;
	double num = 0, den = 0;

	/*
	 * The merge, without a branch on which side is smaller (as good as
	 * random); the sums are made in the same order as one at a time.
	 */
	while (u < lim && i < hn[a] && j < hn[b]) {
		uint64_t xv = x[i], yv = y[j];
		unsigned le = xv <= yv, ge = yv <= xv;
		double w = le ? wx[i] : wy[j];

		den += w;
		num += le & ge ? w : 0;
		both += le & ge;
		i += le;
		j += ge;
		u++;
	}
	for (; u < lim && i < hn[a]; u++)
		den += wx[i++];
	for (; u < lim && j < hn[b]; u++)
		den += wy[j++];
	*sim = den > 0 ? num / den : 0;
	*nshared = both;
	*nunion = u;
}

/* Is the pair of documents a < b to be reported? *sim gets its similarity. */
static int
similar(uint32_t a, uint32_t b, double *sim)
{
	unsigned both, u;
	uint64_t small;

	if (nsh[a] < minsize || nsh[b] < minsize)
		return 0;
	estimate(a, b, sim, &both, &u);
	if (*sim >= thresh)
		return 1;
	if (cthresh < 0 || both == 0)
		return 0;
	/*
	 * |A & B| = J (|A| + |B|) / (1 + J), J = both / u, compared with
	 * the smaller set multiplied out, without a division, so that a
	 * containment of exactly the limit is not lost to rounding.
	 */
	small = nsh[a] < nsh[b] ? nsh[a] : nsh[b];
	return (double)both * (double)(nsh[a] + nsh[b]) >=
	    cthresh * (double)small * (double)(u + both);
}

static void
putid(struct obuf *out, size_t d)
{
	size_t end = d + 1 < ndocs ? idoff[d + 1] : ids.n;

	obuf_add(out, ids.p + idoff[d], end - idoff[d]);
}

static void
flushout(struct obuf *out)
{
	if (out->n >= 1 << 16)
		obuf_flush(out, stdout);
}

/* What report writes to, and the clusters (-g, -u). */
struct reportctx {
	struct obuf out;
	uint32_t *parent;
};

/* Verify the candidate pair a < b: write it, or unite its clusters. */
static void
reportpair(uint32_t a, uint32_t b, void *ctx)
{
	struct reportctx *rc = ctx;
	struct obuf *out = &rc->out;
	double sim;
	char num[16];

	if (!similar(a, b, &sim))
		return;
	if (rc->parent) {
		uf_unite(rc->parent, a, b);
		return;
	}
	/* in query mode the query comes first */
	putid(out, qfile ? b : a);
	obuf_addc(out, '\t');
	putid(out, qfile ? a : b);
	snprintf(num, sizeof num, "\t%.4f\n", sim);
	obuf_add(out, num, strlen(num));
	flushout(out);
}

/*
 * Verify the candidates and write what is asked: the pairs as they come
 * (candidates come in output order), or the clusters or unique documents
 * from the union of the pairs.
 */
static void
report(void)
{
	struct reportctx rc = { { 0 }, NULL };
	size_t d;

	if (gflag || uflag) {
		rc.parent = ereallocarray(NULL, ndocs ? ndocs : 1, sizeof *rc.parent);
		uf_init(rc.parent, ndocs);
	}
	candidates(reportpair, &rc);
	if (rc.parent) {
		for (d = qfile ? ncoll : 0; d < ndocs; d++) {
			uint32_t root = uf_find(rc.parent, (uint32_t)d);

			if (uflag && root != d)
				continue;
			putid(&rc.out, d);
			if (gflag) {
				obuf_addc(&rc.out, '\t');
				putid(&rc.out, root);
			}
			obuf_addc(&rc.out, '\n');
			flushout(&rc.out);
		}
		free(rc.parent);
	}
	if (rc.out.n)
		obuf_flush(&rc.out, stdout);
	free(rc.out.p);
}

static double
fraction(const char *s, const char *what)
{
	char *end;
	double v;

	v = strtod(s, &end);
	if (end == s || *end || !(v >= 0 && v <= 1))
		enprintf(EXIT_USAGE, "%s '%s' is invalid (allowed: 0 to 1)", what, s);
	return v;
}

static const char synopsis[] =
    "[-giu] [-c containment] [-d rarity] [-m minsize] [-q queries] [-t threshold] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	int c, ret = 0;

	argv0 = "simjoin";
	while ((c = getopt(argc, argv, "c:d:ghim:q:t:u")) != -1) {
		switch (c) {
		case 'c':
			cthresh = fraction(optarg, "containment");
			break;
		case 'd':
			rarity = (unsigned)estrtonum(optarg, 0, 1000000, "rarity");
			break;
		case 'g':
			gflag = 1;
			break;
		case 'h':
			return help(synopsis);
		case 'i':
			iflag = 1;
			break;
		case 'm':
			minsize = (unsigned)estrtonum(optarg, 0, UINT_MAX, "minimum size");
			break;
		case 'q':
			qfile = optarg;
			break;
		case 't':
			thresh = fraction(optarg, "threshold");
			break;
		case 'u':
			uflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (gflag && (uflag || qfile))
		usage();
	if (qfile && argc == 0)
		usage();
	if (iflag && argc > PARTSMAX)
		enprintf(EXIT_USAGE, "at most %d files with -i", PARTSMAX);
	for (c = 0; qfile && c < argc; c++)
		if (strcmp(qfile, "-") == 0 && strcmp(argv[c], "-") == 0)
			enprintf(EXIT_USAGE, "queries and collection cannot both be standard input");

	setupstdout();
	seenreset();
	if (argc == 0)
		ret |= load("-");
	else if (iflag)
		ret |= loadparts(argv, argc);
	for (; argc > 0 && !iflag; argc--, argv++)
		ret |= load(*argv);
	ncoll = ndocs;
	if (qfile) {
		seenreset();
		ret |= load(qfile);
		replace();
	}
	seendone();
	if (!hv)	/* no sketch at all: no arithmetic on a null pointer */
		hv = ecalloc(1, sizeof *hv);
	prepare();
	report();
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
