/* fphash: simhash fingerprints of per-page word counts. */
/*
 * The weights are computed with + - * / only, each rounded as written: no
 * fused multiply-add (gcc never contracts in ISO C mode, -std=c11).
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counts.h"
#include "fp.h"
#include "rdr.h"
#include "siphash.h"
#include "util.h"
#include "wtab.h"

enum { RAW, LOG, BIN, TFIDF, IMATCH };

/* The default IDF band of -w imatch (-b), in percent of the largest IDF. */
enum { IMATCH_LO = 80, IMATCH_HI = 95 };

static unsigned mbits;		/* fingerprint width M */
static unsigned nwords;		/* 64-bit words of a fingerprint: 1 or 2 */
static int hflag;		/* hash the features (-H) */
static int openset;		/* -H without -f: every item is a feature */
static int wmode = RAW;		/* the weight of a count (-w) */
static uint64_t key0, key1 = ~(uint64_t)0;	/* the SipHash key of -s */
static struct wtab features;	/* feature i has id i */
static struct fp *rows;		/* row i of the hash table, or the hash of feature i, as bits */
static uint64_t *weight;	/* by feature: occurrences in this page, then their weight */
static uint32_t *touched;	/* features with a weight in this page */
static size_t ntouched, featcap, rowcap, touchedcap;
static struct wtab dfwords;	/* -D: the features with a document frequency */
static uint64_t *df;		/* by dfwords id */
static size_t dfcap;
static const char **dffile;	/* the -D operands */
static uint64_t ndocs;		/* -D: the number of documents */
static int havedocs;		/* a file gave it */
static unsigned bandlo = IMATCH_LO, bandhi = IMATCH_HI;	/* -b, in percent */
static uint32_t *sel;		/* -w imatch: the page's features in the band */
static size_t selcap;
static struct obuf terms;	/* -w imatch: their words, sorted, each ended by a LF */

/*
 * The fingerprint bits of feature w under -H: bit j (counted from 0 at the
 * left) is bit j, counted from the least significant, of its SipHash-2-4
 * (M <= 64), or of the first half of its SipHash-2-4-128 for j < 64 and
 * of the second for j >= 64 (M > 64). Bits past M are 0.
 */
static void
hashrow(struct fp *f, const char *w, size_t n)
{
	uint64_t h[2] = { 0, 0 };
	unsigned j;

	if (mbits <= 64)
		h[0] = siphash24(key0, key1, w, n);
	else
		siphash24_128(key0, key1, w, n, h);
	memset(f, 0, sizeof *f);
	for (j = 0; j < mbits; j++)
		if (h[j >> 6] >> (j & 63) & 1)
			fp_setbit(f, j);
}

/* Room for the features up to the table's size (-H without -f adds them as they come). */
static void
growfeatures(void)
{
	size_t old = featcap;

	egrow(&rows, &rowcap, features.n + 1, sizeof *rows);
	egrow(&touched, &touchedcap, features.n + 1, sizeof *touched);
	egrow(&weight, &featcap, features.n + 1, sizeof *weight);
	memset(weight + old, 0, (featcap - old) * sizeof *weight);
}

/*
 * The natural logarithm of x > 0 with + - * / only, the same on every
 * machine with IEEE 754 doubles: x = m * 2^e with m in [sqrt(1/2), sqrt(2)],
 * and ln m = 2 atanh((m - 1) / (m + 1)) by its series (|s| < 0.172: 14
 * terms are below the last bit).
 */
static double
ln(double x)
{
	double s, s2, t, sum;
	int e = 0, k;

	while (x >= 2) {
		x /= 2;
		e++;
	}
	while (x < 1) {
		x *= 2;
		e--;
	}
	if (x > 1.4142135623730951) {
		x /= 2;
		e++;
	}
	s = (x - 1) / (x + 1);
	s2 = s * s;
	t = s;
	sum = 0;
	for (k = 1; k < 30; k += 2) {
		sum += t / k;
		t *= s2;
	}
	return 2 * sum + e * 0.6931471805599453;
}

/* Weights of -w log and tfidf are fixed point, in units of 1/65536, at least 0. */
static uint64_t
fixed(double x)
{
	return x > 0 ? (uint64_t)(x * 65536 + 0.5) : 0;
}

/* The weight of feature i for count c (-w). */
static uint64_t
weigh(uint32_t i, uint64_t c)
{
	const char *w;
	size_t n;
	uint32_t d;
	uint64_t f = 0;

	switch (wmode) {
	case LOG:
		return fixed(1 + ln((double)c));
	case BIN:
		return 1;
	case TFIDF:
		w = wtab_word(&features, i, &n);
		if ((d = wtab_find(&dfwords, w, n)) != WTAB_NONE)
			f = df[d];
		return fixed((1 + ln((double)c)) *
		    (1 + ln(((double)ndocs + 1) / ((double)f + 1))));
	}
	return c;
}

/*
 * Read the document frequencies of path (WORD<TAB>DF, the document count
 * as an empty WORD), adding up repeated words and counts (shards), those
 * of earlier files too.
 * Returns -1 after a diagnostic.
 */
static int
loaddf(const char *path)
{
	struct rdr r;
	char *line, *tab;
	const char *errstr;
	ptrdiff_t n;
	uint64_t c, *sum;
	uint32_t i;
	int bad = 0;

	if (rdr_open(&r, path) < 0)
		return -1;
	while (!bad && (n = rdr_line(&r, &line)) >= 0) {
		if (!(tab = memchr(line, '\t', (size_t)n))) {
			weprintf("%s:%ju: no TAB between word and document count", r.name, r.lineno);
			bad = 1;
			break;
		}
		c = (uint64_t)parsenumn(tab + 1, (size_t)(line + n - tab - 1), 0,
		    LLONG_MAX, &errstr);
		if (errstr) {
			weprintf("%s:%ju: document count '%.*s' is %s", r.name, r.lineno,
			    (int)(line + n - tab - 1), tab + 1, errstr);
			bad = 1;
			break;
		}
		if (tab == line) {
			sum = &ndocs;
			havedocs = 1;
		} else {
			i = wtab_intern(&dfwords, line, (size_t)(tab - line));
			if (i >= dfcap) {
				size_t old = dfcap;

				egrow(&df, &dfcap, (size_t)i + 1, sizeof *df);
				memset(df + old, 0, (dfcap - old) * sizeof *df);
			}
			sum = &df[i];
		}
		if (*sum > (uint64_t)LLONG_MAX - c) {
			weprintf("%s:%ju: document count overflows", r.name, r.lineno);
			bad = 1;
			break;
		}
		*sum += c;
	}
	if (rdr_close(&r) || bad)
		return -1;
	if (!havedocs) {
		/* the count may come in a later file, but the first must have one */
		weprintf("%s: no number of documents (a record with an empty word)", path);
		return -1;
	}
	return 0;
}

/*
 * Read rows 1..nrows of the table: each must start with M characters 0/1.
 * Returns -1 after a diagnostic.
 */
static int
loadtable(const char *path, size_t nrows)
{
	struct rdr r;
	char *line;
	ptrdiff_t n;
	size_t i = 0, j, cap = 0;
	int bad = 0;

	nwords = (mbits + 63) / 64;
	if (rdr_open(&r, path) < 0)
		return -1;
	/* grown with the rows read: a large -n costs nothing until rows exist */
	rows = NULL;
	for (; !bad && i < nrows && (n = rdr_line(&r, &line)) >= 0; i++) {
		egrow(&rows, &cap, i + 1, sizeof *rows);
		memset(&rows[i], 0, sizeof rows[i]);
		for (j = 0; j < mbits && j < (size_t)n; j++) {
			if (line[j] != '0' && line[j] != '1')
				break;
			if (line[j] == '1')
				fp_setbit(&rows[i], (unsigned)j);
		}
		if (j == mbits)
			continue;
		if (j == (size_t)n)
			weprintf("%s:%ju: row has %zu bits, %u needed", r.name, r.lineno, j, mbits);
		else
			weprintf("%s:%ju: character %zu is not 0 or 1", r.name, r.lineno, j + 1);
		bad = 1;
	}
	if (rdr_close(&r) || bad)
		return -1;
	if (i < nrows) {
		weprintf("%s: has %zu rows, %zu needed", path, i, nrows);
		return -1;
	}
	return 0;
}

/* Add the "word:count ..." items of text to the page's weights. */
static int
addcounts(const char *text, const char *end, const struct rdr *r)
{
	struct counts it;
	const char *s;
	size_t n;
	long long c;
	uint32_t i;
	int got;

	counts_init(&it, text, end);
	while ((got = counts_next(&it, &s, &n, &c))) {
		if (got < 0) {
			weprintf("%s:%ju: bad count item '%.*s'", r->name, r->lineno,
			    (int)n, s);
			return -1;
		}
		/* a zero count weighs nothing (and must not be listed twice in touched) */
		if (c == 0)
			continue;
		if (openset) {
			size_t before = features.n;

			i = wtab_intern(&features, s, n);
			if (features.n > before) {
				if (features.n >= featcap)
					growfeatures();
				hashrow(&rows[i], s, n);
			}
		} else if ((i = wtab_find(&features, s, n)) == WTAB_NONE)
			continue;
		if (!weight[i])
			touched[ntouched++] = i;
		weight[i] += (uint64_t)c;
		if (weight[i] > INT64_MAX / 4) {
			weprintf("%s:%ju: count of '%.*s' is too large", r->name,
			    r->lineno, (int)n, s);
			return -1;
		}
	}
	return 0;
}

/*
 * The fingerprint of the weights in touched; resets them. Bit j is 1 when
 * the sign sum S_j = 2 * P_j - W is above 0, W being the page's total weight
 * and P_j the weight of the features whose row has bit j set: when P_j >
 * floor(W / 2). The P_j of all bits are counted at once, bit-sliced: plane l
 * holds bit l of every P_j, so adding a row is a few word operations (a
 * ripple carry through the planes), and the comparison with floor(W / 2) is
 * one pass over the planes from the top.
 */
static int
fingerprint(struct fp *f, const struct rdr *r)
{
	uint64_t plane[64][2], carry, t, w, c, gt, eq;
	int64_t total = 0;
	size_t k;
	unsigned nplanes, i, l, h;

	/* the counts become weights (-w); raw counts are their own */
	if (wmode != RAW)
		for (k = 0; k < ntouched; k++)
			weight[touched[k]] = weigh(touched[k], weight[touched[k]]);
	for (k = 0; k < ntouched; k++) {
		if (total > INT64_MAX / 4 - (int64_t)weight[touched[k]]) {
			weprintf("%s:%ju: page weights are too large", r->name, r->lineno);
			for (k = 0; k < ntouched; k++)
				weight[touched[k]] = 0;
			ntouched = 0;
			return -1;
		}
		total += (int64_t)weight[touched[k]];
	}
	/* every P_j <= W: the planes of W's bits suffice, carries never leave them */
	for (nplanes = 1; (uint64_t)total >> nplanes; nplanes++)
		;
	memset(plane, 0, nplanes * sizeof plane[0]);
	for (k = 0; k < ntouched; k++) {
		w = weight[touched[k]];
		weight[touched[k]] = 0;
		/* the row times w: the row added at plane i for each bit i of w */
		for (i = 0; w; i++, w >>= 1) {
			if (!(w & 1))
				continue;
			for (h = 0; h < nwords; h++) {
				carry = rows[touched[k]].w[h];
				for (l = i; carry; l++) {
					t = plane[l][h] & carry;
					plane[l][h] ^= carry;
					carry = t;
				}
			}
		}
	}
	ntouched = 0;
	/* P_j > c, all j at once: the first plane from the top where they differ decides */
	c = (uint64_t)total / 2;
	memset(f, 0, sizeof *f);
	for (h = 0; h < nwords; h++) {
		gt = 0;
		eq = ~(uint64_t)0;
		for (l = nplanes; l-- > 0;) {
			if (c >> l & 1) {
				eq &= plane[l][h];
			} else {
				gt |= eq & plane[l][h];
				eq &= ~plane[l][h];
			}
		}
		f->w[h] = gt;	/* bits past M are 0: their P_j is 0 */
	}
	return 0;
}

/* Byte order of the words of two features (-w imatch). */
static int
cmpword(const void *x, const void *y)
{
	const char *a, *b;
	size_t na, nb;
	int c;

	a = wtab_word(&features, *(const uint32_t *)x, &na);
	b = wtab_word(&features, *(const uint32_t *)y, &nb);
	if ((c = memcmp(a, b, na < nb ? na : nb)))
		return c;
	return na < nb ? -1 : na > nb;
}

/*
 * The I-Match signature of the features in touched (Chowdhury, Frieder,
 * Grossman and McCabe, 2002); resets them. The features kept are those
 * whose normalized IDF, ln(N / DF) / ln(N), lies in the band [bandlo,
 * bandhi] percent: 0 for a feature of every document, 1 for one of a
 * single document. A feature without a DF, or with a DF above N, is
 * outside. The signature is the hash of -H (hashrow) of their words in
 * byte order, each followed by a LF. Returns 0 if the page has no feature
 * in the band, and then no signature.
 */
static int
imatch(struct fp *f)
{
	const char *w;
	size_t k, nsel = 0, n;
	uint32_t d;
	uint64_t c;
	double lnn, nidf;

	lnn = ndocs > 1 ? ln((double)ndocs) : 0;
	egrow(&sel, &selcap, ntouched + 1, sizeof *sel);
	for (k = 0; k < ntouched; k++) {
		weight[touched[k]] = 0;
		w = wtab_word(&features, touched[k], &n);
		if ((d = wtab_find(&dfwords, w, n)) == WTAB_NONE || !(c = df[d]) || c > ndocs)
			continue;
		nidf = lnn > 0 ? ln((double)ndocs / (double)c) / lnn : 0;
		if (nidf * 100 >= bandlo && nidf * 100 <= bandhi)
			sel[nsel++] = touched[k];
	}
	ntouched = 0;
	if (nsel == 0)
		return 0;
	qsort(sel, nsel, sizeof *sel, cmpword);
	terms.n = 0;
	for (k = 0; k < nsel; k++) {
		w = wtab_word(&features, sel[k], &n);
		obuf_add(&terms, w, n);
		obuf_addc(&terms, '\n');
	}
	hashrow(f, terms.p, terms.n);
	return 1;
}

static int
fphash(const char *path)
{
	struct rdr r;
	struct fp f;
	char *line, *tab;
	ptrdiff_t n;
	int ret = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((n = rdr_line(&r, &line)) >= 0) {
		if (!(tab = memchr(line, '\t', (size_t)n))) {
			weprintf("%s:%ju: no TAB after the page ID", r.name, r.lineno);
			ret = 1;
			continue;
		}
		if (addcounts(tab + 1, line + n, &r) < 0 ||
		    (wmode != IMATCH && fingerprint(&f, &r) < 0)) {
			for (; ntouched; ntouched--)
				weight[touched[ntouched - 1]] = 0;
			ret = 1;
			continue;
		}
		/* a page with no feature in the band has no signature, so no record */
		if (wmode == IMATCH && !imatch(&f))
			continue;
		fwrite(line, 1, (size_t)(tab - line + 1), stdout);
		fp_write(&f, mbits, stdout);
		putchar('\n');
	}
	return rdr_close(&r) | ret;
}

static const char synopsis[] =
    "[-H] [-b low,high] [-D dffile] [-f features] -m bits [-n rows] [-s seed] [-t table] [-w weight] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	const char *featfile = NULL, *tablefile = NULL;
	size_t nrows = 0, ndf = 0, i, n;
	const char *w;
	char *comma;
	int c, ret = 0;

	argv0 = "fphash";
	dffile = ereallocarray(NULL, (size_t)argc, sizeof *dffile);
	while ((c = getopt(argc, argv, "D:Hb:f:hm:n:s:t:w:")) != -1) {
		switch (c) {
		case 'D':
			dffile[ndf++] = optarg;
			break;
		case 'H':
			hflag = 1;
			break;
		case 'b':
			if (!(comma = strchr(optarg, ',')))
				usage();
			*comma = '\0';
			bandlo = (unsigned)estrtonum(optarg, 0, 100, "band low");
			bandhi = (unsigned)estrtonum(comma + 1, bandlo, 100, "band high");
			break;
		case 'f':
			featfile = optarg;
			break;
		case 'h':
			return help(synopsis);
		case 'm':
			mbits = (unsigned)estrtonum(optarg, 1, FP_MAXBITS, "bits");
			break;
		case 'n':
			nrows = (size_t)estrtonum(optarg, 1, UINT32_MAX - 1, "rows");
			break;
		case 's':
			key0 = (uint64_t)estrtonum(optarg, 0, LLONG_MAX, "seed");
			key1 = ~key0;
			break;
		case 't':
			tablefile = optarg;
			break;
		case 'w':
			if (!strcmp(optarg, "raw"))
				wmode = RAW;
			else if (!strcmp(optarg, "log"))
				wmode = LOG;
			else if (!strcmp(optarg, "bin"))
				wmode = BIN;
			else if (!strcmp(optarg, "tfidf"))
				wmode = TFIDF;
			else if (!strcmp(optarg, "imatch"))
				wmode = IMATCH;
			else
				usage();
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	/* -H hashes the features, the table gives them: one or the other */
	if (!mbits || (hflag ? tablefile != NULL : !featfile || !tablefile) ||
	    (wmode == TFIDF || wmode == IMATCH) != (ndf > 0))
		usage();

	wtab_init(&features);
	if (featfile && wtab_load_lines(&features, featfile, 1) < 0)
		return EXIT_DATA;
	wtab_init(&dfwords);
	for (i = 0; i < ndf; i++)
		if (loaddf(dffile[i]) < 0)
			return EXIT_DATA;
	nwords = (mbits + 63) / 64;
	if (hflag) {
		openset = !featfile;
		growfeatures();
		for (i = 0; i < features.n; i++) {
			w = wtab_word(&features, (uint32_t)i, &n);
			hashrow(&rows[i], w, n);
		}
	} else {
		if (nrows < features.n)
			nrows = features.n;
		if (loadtable(tablefile, nrows) < 0)
			return EXIT_DATA;
		weight = ecalloc(features.n, sizeof *weight);
		touched = ereallocarray(NULL, features.n, sizeof *touched);
	}

	setupstdout();
	if (argc == 0)
		ret |= fphash("-");
	/* stop at a write error: the output is lost, and fshut still knows why */
	for (; argc > 0 && !ferror(stdout); argc--, argv++)
		ret |= fphash(*argv);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
