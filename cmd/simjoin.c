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
#include "rdr.h"
#include "sketch.h"
#include "uf.h"
#include "util.h"

#define PREFIX	32	/* hashes of each sketch that make candidates */
#define RUNMAX	128	/* documents sharing a hash paired with each other */

static double cthresh = -1;	/* -c: containment that also reports a pair */
static unsigned rarity = 2;	/* -d: a shingle in more documents weighs less */
static int gflag;		/* clusters */
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
static float *wv;		/* the weight of each, parallel to hv */
static size_t ndocs, doccap, nhv, hvcap, ncoll;
static unsigned size;		/* the sketches' size, from a cut one; 0 if none */
static unsigned maxwhole;	/* the most hashes of a whole sketch */

struct pair {
	uint32_t a, b;
	float sim;
};

static int
load(const char *path)
{
	struct rdr r;
	struct sketch s;
	uint64_t h[SK_MAXSIZE];
	char *line;
	ptrdiff_t n;
	int ret = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((n = rdr_line(&r, &line)) >= 0) {
		if (sketch_parse(&r, line, (size_t)n, &s, h) < 0) {
			ret = 1;
			continue;
		}
		/*
		 * A cut sketch (fewer hashes than shingles) shows the size; a
		 * whole one must not be larger.
		 */
		if (s.n < s.nshingles ? (size && s.n != size) || s.n < maxwhole :
		    size && s.n > size) {
			weprintf("%s:%ju: a sketch of %u hashes among sketches of %u",
			    r.name, r.lineno, s.n, size ? size : maxwhole);
			ret = 1;
			continue;
		}
		if (ndocs == UINT32_MAX - 1)
			eprintf("%s:%ju: too many documents", r.name, r.lineno);
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
		if (s.n) {
			egrow(&hv, &hvcap, nhv + s.n, sizeof *hv);
			memcpy(hv + nhv, s.h, s.n * sizeof *hv);
		}
		nhv += s.n;
		if (s.n < s.nshingles)
			size = s.n;
		else if (s.n > maxwhole)
			maxwhole = s.n;
		ndocs++;
	}
	return rdr_close(&r) | ret;
}

static int
cmpu64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
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
 * The weight of every hash: min(1, rarity / df), where df estimates the
 * number of documents holding its shingle. A document can show a hash in its
 * sketch only if the hash is at most its largest one (every hash of a
 * document with fewer shingles than the size), so df is the number of
 * sketches holding the hash, scaled up by the share of sketches that could.
 */
static void
weigh(void)
{
	uint64_t *all, *reach;
	size_t i, d, j, lo, c, nreach = 0;

	wv = ereallocarray(NULL, nhv ? nhv : 1, sizeof *wv);
	if (rarity == 0) {
		for (i = 0; i < nhv; i++)
			wv[i] = 1;
		return;
	}
	all = ereallocarray(NULL, nhv ? nhv : 1, sizeof *all);
	if (nhv)	/* hv is NULL when every page is empty */
		memcpy(all, hv, nhv * sizeof *all);
	qsort(all, nhv, sizeof *all, cmpu64);
	reach = ereallocarray(NULL, ndocs ? ndocs : 1, sizeof *reach);
	for (d = 0; d < ndocs; d++)
		reach[nreach++] = hn[d] < nsh[d] ? hv[hoff[d] + hn[d] - 1] : UINT64_MAX;
	qsort(reach, nreach, sizeof *reach, cmpu64);
	for (d = 0; d < ndocs; d++) {
		for (j = 0; j < hn[d]; j++) {
			uint64_t h = hv[hoff[d] + j];
			double df, can;

			/* by bisection both ends: a hash in every sketch costs no scan */
			lo = lowerbound(all, nhv, h);
			c = h == UINT64_MAX ? nhv - lo : lowerbound(all, nhv, h + 1) - lo;
			can = (double)(nreach - lowerbound(reach, nreach, h));
			df = (double)c * (double)ndocs / can;
			wv[hoff[d] + j] = df <= rarity ? 1.0f : (float)(rarity / df);
		}
	}
	free(all);
	free(reach);
}

static int
cmpsize(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static int
cmppost(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	if (x[0] != y[0])
		return (x[0] > y[0]) - (x[0] < y[0]);
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/*
 * Estimate from the union of the two sketches cut to the size: its hashes
 * in both stand for the shared shingles. *sim gets the weighted Jaccard
 * similarity; of the plain one, *shared / *nunion.
 */
static void
estimate(size_t a, size_t b, double *sim, unsigned *nshared, unsigned *nunion)
{
	const uint64_t *x = hv + hoff[a], *y = hv + hoff[b];
	const float *wx = wv + hoff[a], *wy = wv + hoff[b];
	unsigned i = 0, j = 0, u = 0, shared = 0, lim = size ? size : UINT_MAX;
	double num = 0, den = 0;

	while (u < lim && (i < hn[a] || j < hn[b])) {
		if (j == hn[b] || (i < hn[a] && x[i] < y[j])) {
			den += wx[i++];
		} else if (i == hn[a] || y[j] < x[i]) {
			den += wy[j++];
		} else {
			num += wx[i];
			den += wx[i];
			shared++;
			i++;
			j++;
		}
		u++;
	}
	*sim = den > 0 ? num / den : 0;
	*nshared = shared;
	*nunion = u;
}

static int
cmpquery(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->b != y->b)
		return (x->b > y->b) - (x->b < y->b);
	return (x->a > y->a) - (x->a < y->a);
}

/* Is pair (a, b) similar enough to report? sim gets its similarity. */
static int
similar(size_t a, size_t b, float *sim)
{
	double wsim;
	unsigned shared, u;
	uint64_t small;

	estimate(a, b, &wsim, &shared, &u);
	*sim = (float)wsim;
	if (wsim >= thresh)
		return 1;
	if (cthresh < 0 || shared == 0)
		return 0;
	/*
	 * |A & B| = J (|A| + |B|) / (1 + J), J = shared / u, compared with
	 * the smaller set multiplied out, without a division, so that a
	 * containment of exactly the limit is not lost to rounding.
	 */
	small = nsh[a] < nsh[b] ? nsh[a] : nsh[b];
	return (double)shared * (double)(nsh[a] + nsh[b]) >=
	    cthresh * (double)small * (double)(u + shared);
}

/*
 * The reported pairs, a < b, sorted by a then b (in query mode by b then
 * a). Candidates are the documents sharing one of the PREFIX smallest
 * hashes of each; a hash shared by more than RUNMAX documents pairs each of
 * them with the first RUNMAX only, so that a hash every page holds (a
 * site's footer) costs linear time. The candidates of each document a are
 * gathered from its hashes' runs and made distinct there, so memory holds
 * the postings and the reported pairs only, however many hashes two
 * documents share.
 */
static struct pair *
join(size_t *npairs)
{
	uint64_t *post = NULL;		/* (hash, document), sorted */
	size_t *runend, *mine, *first, *part = NULL;
	uint32_t *seen;
	struct pair *p = NULL;
	size_t npost = 0, postcap = 0, partcap = 0, np = 0, pcap = 0;
	size_t i, j, q, d, run, nmine;
	float sim;

	for (d = 0; d < ndocs; d++) {
		unsigned n = hn[d] < PREFIX ? hn[d] : PREFIX;

		if (nsh[d] < minsize)
			continue;
		egrow(&post, &postcap, npost + 2 * (size_t)n, sizeof *post);
		for (j = 0; j < n; j++) {
			post[npost++] = hv[hoff[d] + j];
			post[npost++] = d;
		}
	}
	npost /= 2;
	if (npost)
		qsort(post, npost, 2 * sizeof *post, cmppost);
	/* each posting's run end, if it is among the first RUNMAX of its run, else 0 */
	runend = ecalloc(npost ? npost : 1, sizeof *runend);
	for (i = 0; i < npost; i += run) {
		for (run = 1; i + run < npost && post[2 * (i + run)] == post[2 * i]; run++)
			;
		for (j = 0; j < run && j < RUNMAX; j++)
			runend[i + j] = i + run;
	}
	/* the postings of each document, by a counting sort */
	first = ecalloc(ndocs + 1, sizeof *first);
	mine = ereallocarray(NULL, npost ? npost : 1, sizeof *mine);
	for (i = 0; i < npost; i++)
		first[post[2 * i + 1] + 1]++;
	for (d = 0; d < ndocs; d++)
		first[d + 1] += first[d];
	for (i = 0; i < npost; i++)
		mine[first[post[2 * i + 1]]++] = i;
	for (d = ndocs; d > 0; d--)
		first[d] = first[d - 1];
	first[0] = 0;
	seen = ecalloc(ndocs ? ndocs : 1, sizeof *seen);
	for (d = 0; d < ndocs; d++) {
		nmine = 0;
		for (i = first[d]; i < first[d + 1]; i++) {
			q = mine[i];
			for (j = q + 1; j < runend[q]; j++) {
				size_t b = post[2 * j + 1];

				/* later documents only: a run is sorted by document */
				if (seen[b] == d + 1 || (qfile && b < ncoll))
					continue;
				seen[b] = (uint32_t)(d + 1);
				egrow(&part, &partcap, nmine + 1, sizeof *part);
				part[nmine++] = b;
			}
		}
		if (nmine > 1)
			qsort(part, nmine, sizeof *part, cmpsize);
		for (i = 0; i < nmine; i++) {
			if (!similar(d, part[i], &sim))
				continue;
			egrow(&p, &pcap, np + 1, sizeof *p);
			p[np].a = (uint32_t)d;
			p[np].b = (uint32_t)part[i];
			p[np].sim = sim;
			np++;
		}
	}
	free(post);
	free(runend);
	free(first);
	free(mine);
	free(seen);
	free(part);
	if (qfile && np)
		qsort(p, np, sizeof *p, cmpquery);
	*npairs = np;
	return p;
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

static void
report(const struct pair *p, size_t np)
{
	struct obuf out = { 0 };
	uint32_t *parent;
	size_t i, d;
	char num[16];

	if (!gflag && !uflag) {
		for (i = 0; i < np; i++) {
			/* in query mode the query comes first */
			putid(&out, qfile ? p[i].b : p[i].a);
			obuf_addc(&out, '\t');
			putid(&out, qfile ? p[i].a : p[i].b);
			snprintf(num, sizeof num, "\t%.4f\n", p[i].sim);
			obuf_add(&out, num, strlen(num));
			flushout(&out);
		}
	} else {
		parent = ereallocarray(NULL, ndocs ? ndocs : 1, sizeof *parent);
		uf_init(parent, ndocs);
		for (i = 0; i < np; i++)
			uf_unite(parent, p[i].a, p[i].b);
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
    "[-gu] [-c containment] [-d rarity] [-m minsize] [-q queries] [-t threshold] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	struct pair *pairs;
	size_t npairs;
	int c, ret = 0;

	argv0 = "simjoin";
	while ((c = getopt(argc, argv, "c:d:ghm:q:t:u")) != -1) {
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
	for (c = 0; qfile && c < argc; c++)
		if (strcmp(qfile, "-") == 0 && strcmp(argv[c], "-") == 0)
			enprintf(EXIT_USAGE, "queries and collection cannot both be standard input");

	setupstdout();
	if (argc == 0)
		ret |= load("-");
	for (; argc > 0; argc--, argv++)
		ret |= load(*argv);
	ncoll = ndocs;
	if (qfile)
		ret |= load(qfile);
	weigh();
	pairs = join(&npairs);
	report(pairs, npairs);
	free(pairs);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
