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
 * Hashes held by more than one sketch, with their counts: an open-addressing
 * table; every other hash is held by one sketch. A hash is placed by its
 * SipHash under a key drawn for the run (sip_runkey): sketches are input,
 * and forged ones whose hashes share their low bits would otherwise crowd
 * one run of slots.
 */
static struct { uint64_t h; uint64_t n; } *shared;
static size_t sharedmask;
static uint64_t sharedk0, sharedk1;
static int haszero;		/* the hash 0 is shared: 0 marks an empty slot */
static uint64_t zerocount;
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
		haszero = 1;
		zerocount = n;
		return;
	}
	for (i = sharedplace(h); shared[i].h; i = (i + 1) & sharedmask)
		;
	shared[i].h = h;
	shared[i].n = n;
}

static uint64_t
count(uint64_t h)
{
	size_t i;

	if (h == 0)
		return haszero ? zerocount : 1;
	if (!shared)
		return 1;
	for (i = sharedplace(h); shared[i].h; i = (i + 1) & sharedmask)
		if (shared[i].h == h)
			return shared[i].n;
	return 1;
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

static void
prepare(void)
{
	size_t d, b;

	/* calloc: the pages of documents never verified are never touched */
	wv = ecalloc(nhv ? nhv : 1, sizeof *wv);
	if (rarity == 0)
		return;
	countshared();
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

/* Can documents a < b pair: in query mode, only if b is a query. */
static int
pairable(size_t a, size_t b)
{
	(void)a;
	return !qfile || b >= ncoll;
}

/*
 * (*v)[0..n) is sorted and distinct, (*v)[n..n+m) anything: sort and make
 * distinct the m and merge them into the n, in *out (room for n + m),
 * which then trades places with *v; returns the new count.
 */
static size_t
mergedistinct(uint64_t **v, size_t *vcap, uint64_t **out, size_t *outcap, size_t n, size_t m)
{
	uint64_t *add = *v + n, *a = *v, *o, *t;
	size_t i, j, k, nadd;

	radix_sort64(add, m);
	for (i = nadd = 0; i < m; i++)
		if (nadd == 0 || add[i] != add[nadd - 1])
			add[nadd++] = add[i];
	if (n == 0 || nadd == 0)
		return n + nadd;
	egrow(out, outcap, n + nadd, sizeof **out);
	o = *out;
	for (i = j = k = 0; i < n && j < nadd; ) {
		if (a[i] < add[j])
			o[k++] = a[i++];
		else if (add[j] < a[i])
			o[k++] = add[j++];
		else {
			o[k++] = a[i++];
			j++;
		}
	}
	memcpy(o + k, a + i, (n - i) * sizeof *o);
	k += n - i;
	memcpy(o + k, add + j, (nadd - j) * sizeof *o);
	k += nadd - j;
	t = *v;
	*v = *out;
	*out = t;
	i = *vcap;
	*vcap = *outcap;
	*outcap = i;
	return k;
}

/*
 * Candidate pairs, as a << 32 | b with a < b, sorted and distinct: documents
 * that share one of the PREFIX smallest hashes of each. A hash shared by
 * more than RUNMAX documents pairs each of them with the first RUNMAX only,
 * so that a hash every page holds (a site's footer) costs linear time.
 * The hashes are taken a sixteenth at a time, by their low bits.
 */
static uint64_t *
candidates(size_t *ncand)
{
	uint64_t *post = NULL, *cand = NULL, *merged = NULL;
	size_t postcap = 0, npost, nc = 0, nnew, candcap = 0, mergedcap = 0, i, j, k, run, d;
	unsigned p;

	for (p = 0; p < PASSES; p++) {
		npost = 0;
		for (d = 0; d < ndocs; d++) {
			unsigned n = hn[d] < PREFIX ? hn[d] : PREFIX;

			if (nsh[d] < minsize)
				continue;
			/* + 2: the gather writes one record past those it takes */
			egrow(&post, &postcap, npost + 2 * (size_t)n + 2, sizeof *post);
			for (j = 0; j < n; j++) {
				uint64_t h = hv[hoff[d] + j];

				post[npost] = h;
				post[npost + 1] = d;
				npost += 2 * ((h & (PASSES - 1)) == p);
			}
		}
		/* stable: the documents of a hash stay in input order */
		radix_sort64kv(post, npost / 2);
		nnew = 0;
		for (i = 0; i < npost; i += 2 * run) {
			for (run = 1; i + 2 * run < npost && post[i + 2 * run] == post[i]; run++)
				;
			for (j = 0; j < run && j < RUNMAX; j++) {
				for (k = j + 1; k < run; k++) {
					uint64_t a = post[i + 2 * j + 1], b = post[i + 2 * k + 1];

					if (!pairable(a, b))
						continue;
					egrow(&cand, &candcap, nc + nnew + 1, sizeof *cand);
					/* in query mode in the order of the queries */
					cand[nc + nnew++] = qfile ? b << 32 | a : a << 32 | b;
				}
			}
		}
		/*
		 * This part's pairs, made distinct and merged into the others, so
		 * that two documents sharing many hashes are held once.
		 */
		if (nnew)	/* (cand is still null when no part had a pair) */
			nc = mergedistinct(&cand, &candcap, &merged, &mergedcap, nc, nnew);
	}
	free(post);
	free(merged);
	*ncand = nc;
	return cand;
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

/*
 * Verify the candidates and write what is asked: the pairs as they come
 * (candidates are in output order), or the clusters or unique documents
 * from the union of the pairs.
 */
static void
report(const uint64_t *cand, size_t ncand)
{
	struct obuf out = { 0 };
	uint32_t *parent = NULL;
	size_t i, d;
	char num[16];

	if (gflag || uflag) {
		parent = ereallocarray(NULL, ndocs ? ndocs : 1, sizeof *parent);
		uf_init(parent, ndocs);
	}
	for (i = 0; i < ncand; i++) {
		uint32_t hi = (uint32_t)(cand[i] >> 32), lo = (uint32_t)cand[i];
		uint32_t a = qfile ? lo : hi, b = qfile ? hi : lo;
		double sim;

		if (!similar(a, b, &sim))
			continue;
		if (parent) {
			uf_unite(parent, a, b);
			continue;
		}
		/* in query mode the query comes first */
		putid(&out, hi);
		obuf_addc(&out, '\t');
		putid(&out, lo);
		snprintf(num, sizeof num, "\t%.4f\n", sim);
		obuf_add(&out, num, strlen(num));
		flushout(&out);
	}
	if (parent) {
		for (d = qfile ? ncoll : 0; d < ndocs; d++) {
			uint32_t root = uf_find(parent, (uint32_t)d);

			if (uflag && root != d)
				continue;
			putid(&out, d);
			if (gflag) {
				obuf_addc(&out, '\t');
				putid(&out, root);
			}
			obuf_addc(&out, '\n');
			flushout(&out);
		}
		free(parent);
	}
	if (out.n)
		obuf_flush(&out, stdout);
	free(out.p);
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
	uint64_t *cand;
	size_t ncand;
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
	if (argc == 0)
		ret |= load("-");
	else if (iflag)
		ret |= loadparts(argv, argc);
	for (; argc > 0 && !iflag; argc--, argv++)
		ret |= load(*argv);
	ncoll = ndocs;
	if (qfile)
		ret |= load(qfile);
	if (!hv)	/* no sketch at all: no arithmetic on a null pointer */
		hv = ecalloc(1, sizeof *hv);
	prepare();
	cand = candidates(&ncand);
	radix_free();	/* the sorts are done */
	report(cand, ncand);
	free(cand);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
