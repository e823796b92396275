/* simhash.c: simhash fingerprints and I-Match signatures (simhash.h). */
/*
 * The weights are computed with + - * / only, each rounded as written: no
 * fused multiply-add (gcc never contracts in ISO C mode, -std=c11).
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fp.h"
#include "simhash.h"
#include "siphash.h"
#include "util.h"
#include "wtab.h"

struct simhword {
	const char *w;
	size_t n;
};

struct simh {
	unsigned m;		/* fingerprint width M */
	unsigned nwords;	/* 64-bit words of a fingerprint: 1 or 2 */
	int weighting;
	uint64_t key0, key1;	/* of simh_hash */
	int hashed;		/* rows are the features' hashes */
	int open;		/* every item is a feature */

	struct wtab features;	/* feature i has id i */
	struct fp *rows;	/* row i of the table, or the hash of feature i */
	size_t rowcap;
	/* the page: by feature, its occurrences, then their weight; the features with one */
	uint64_t *weight;
	size_t featcap;
	uint32_t *touched;
	size_t ntouched, touchedcap;
	/*
	 * the rows of the touched features, in their order: copied as they
	 * are first touched, so that the row's load overlaps the weight's
	 * (both miss the cache), and the sums read them in sequence
	 */
	struct fp *pagerows;
	size_t pagerowcap;

	/* document frequencies */
	struct wtab dfwords;
	uint64_t *df;		/* by dfwords id */
	size_t dfcap;
	uint64_t ndocs;
	int havedocs;

	/* I-Match */
	unsigned bandlo, bandhi;	/* in percent */
	struct simhword *sel;	/* the words of the page's features in the band */
	size_t selcap;
	struct obuf terms;	/* their words, sorted, each ended by a LF */
};

struct simh *
simh_new(unsigned m, int weighting, uint64_t k0, uint64_t k1)
{
	struct simh *s = ecalloc(1, sizeof *s);

	s->m = m;
	s->nwords = (m + 63) / 64;
	s->weighting = weighting;
	s->key0 = k0;
	s->key1 = k1;
	s->bandlo = SIMH_IMATCH_LO;
	s->bandhi = SIMH_IMATCH_HI;
	wtab_init(&s->features);
	wtab_init(&s->dfwords);
	return s;
}

void
simh_free(struct simh *s)
{
	if (!s)
		return;
	wtab_free(&s->features);
	wtab_free(&s->dfwords);
	free(s->rows);
	free(s->weight);
	free(s->touched);
	free(s->pagerows);
	free(s->df);
	free(s->sel);
	free(s->terms.p);
	free(s);
}

void
simh_features(struct simh *s, struct wtab *t)
{
	wtab_free(&s->features);
	s->features = *t;
}

void
simh_hash(struct fp *f, unsigned m, uint64_t k0, uint64_t k1, const char *w, size_t n)
{
	uint64_t h[2] = { 0, 0 };
	unsigned j;

	if (m <= 64)
		h[0] = siphash24(k0, k1, w, n);
	else
		siphash24_128(k0, k1, w, n, h);
	memset(f, 0, sizeof *f);
	for (j = 0; j < m; j++)
		if (h[j >> 6] >> (j & 63) & 1)
			fp_setbit(f, j);
}

/* Room for the page's weights of every feature (and rows, when hashed). */
static void
growfeatures(struct simh *s)
{
	size_t old = s->featcap;

	if (s->hashed)
		egrow(&s->rows, &s->rowcap, s->features.n + 1, sizeof *s->rows);
	egrow(&s->touched, &s->touchedcap, s->features.n + 1, sizeof *s->touched);
	egrow(&s->pagerows, &s->pagerowcap, s->features.n + 1, sizeof *s->pagerows);
	egrow(&s->weight, &s->featcap, s->features.n + 1, sizeof *s->weight);
	memset(s->weight + old, 0, (s->featcap - old) * sizeof *s->weight);
}

void
simh_rows(struct simh *s, struct fp *rows, size_t n)
{
	s->rows = rows;
	s->rowcap = n;
	growfeatures(s);
}

void
simh_hashrows(struct simh *s, int open)
{
	const char *w;
	size_t i, n;

	s->hashed = 1;
	s->open = open;
	growfeatures(s);
	for (i = 0; i < s->features.n; i++) {
		w = wtab_word(&s->features, (uint32_t)i, &n);
		simh_hash(&s->rows[i], s->m, s->key0, s->key1, w, n);
	}
}

/* Add c to *sum, unless it would pass LLONG_MAX. */
static int
adddocs(uint64_t *sum, uint64_t c)
{
	if (*sum > (uint64_t)LLONG_MAX || c > (uint64_t)LLONG_MAX - *sum)
		return -1;
	*sum += c;
	return 0;
}

int
simh_adddf(struct simh *s, const char *w, size_t n, uint64_t c)
{
	uint32_t i = wtab_intern(&s->dfwords, w, n);

	if (i >= s->dfcap) {
		size_t old = s->dfcap;

		egrow(&s->df, &s->dfcap, (size_t)i + 1, sizeof *s->df);
		memset(s->df + old, 0, (s->dfcap - old) * sizeof *s->df);
	}
	return adddocs(&s->df[i], c);
}

int
simh_addndocs(struct simh *s, uint64_t c)
{
	s->havedocs = 1;
	return adddocs(&s->ndocs, c);
}

int
simh_hasdocs(const struct simh *s)
{
	return s->havedocs;
}

void
simh_band(struct simh *s, unsigned lo, unsigned hi)
{
	s->bandlo = lo;
	s->bandhi = hi;
}

/* Add c occurrences of feature i (WTAB_NONE: no feature) to the page. */
static int
addid(struct simh *s, uint32_t i, uint64_t c)
{
	uint64_t *wt;

	/* a zero count weighs nothing (and must not be listed twice in touched) */
	if (c == 0 || i == WTAB_NONE)
		return 0;
	wt = &s->weight[i];
	if (!*wt) {
		if (s->weighting != SIMH_IMATCH)
			s->pagerows[s->ntouched] = s->rows[i];
		s->touched[s->ntouched++] = i;
	}
	*wt += c;
	return *wt > INT64_MAX / 4 ? -1 : 0;
}

int
simh_add(struct simh *s, const char *w, size_t n, uint64_t c)
{
	uint32_t i;

	if (c == 0)
		return 0;
	if (s->open) {
		size_t before = s->features.n;

		i = wtab_intern(&s->features, w, n);
		if (s->features.n > before) {
			if (s->features.n >= s->featcap)
				growfeatures(s);
			simh_hash(&s->rows[i], s->m, s->key0, s->key1, w, n);
		}
	} else {
		i = wtab_find(&s->features, w, n);
	}
	return addid(s, i, c);
}

enum { ADDBATCH = 64 };

size_t
simh_addbatch(struct simh *s, const char *buf, const size_t *off, const size_t *len,
    const uint64_t *c, size_t n)
{
	uint32_t ids[ADDBATCH];
	size_t i, j, m;

	/* an open table grows by the words: one at a time */
	if (s->open) {
		for (i = 0; i < n; i++)
			if (simh_add(s, buf + off[i], len[i], c[i]) < 0)
				return i;
		return n;
	}
	for (i = 0; i < n; i += m) {
		m = n - i < ADDBATCH ? n - i : ADDBATCH;
		wtab_batch(&s->features, 1, buf, off + i, len + i, m, ids);
		for (j = 0; j < m; j++)
			if (addid(s, ids[j], c[i + j]) < 0)
				return i + j;
	}
	return n;
}

uint32_t
simh_find(struct simh *s, const char *w, size_t n)
{
	return wtab_find(&s->features, w, n);
}

size_t
simh_addids(struct simh *s, const uint32_t *ids, const uint64_t *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (addid(s, ids[i], c[i]) < 0)
			return i;
	return n;
}

void
simh_drop(struct simh *s)
{
	for (; s->ntouched; s->ntouched--)
		s->weight[s->touched[s->ntouched - 1]] = 0;
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

/* Weights of SIMH_LOG and SIMH_TFIDF are fixed point, in units of 1/65536, at least 0. */
static uint64_t
fixed(double x)
{
	return x > 0 ? (uint64_t)(x * 65536 + 0.5) : 0;
}

/* The document frequency of feature i: 0 if it has none. */
static uint64_t
docfreq(struct simh *s, uint32_t i)
{
	const char *w;
	size_t n;
	uint32_t d;

	w = wtab_word(&s->features, i, &n);
	return (d = wtab_find(&s->dfwords, w, n)) != WTAB_NONE ? s->df[d] : 0;
}

/* The weight of feature i for count c. */
static uint64_t
weigh(struct simh *s, uint32_t i, uint64_t c)
{
	switch (s->weighting) {
	case SIMH_LOG:
		return fixed(1 + ln((double)c));
	case SIMH_BIN:
		return 1;
	case SIMH_TFIDF:
		return fixed((1 + ln((double)c)) *
		    (1 + ln(((double)s->ndocs + 1) / ((double)docfreq(s, i) + 1))));
	}
	return c;
}

/* Add row r to the bit-sliced sums from plane l up: a ripple carry. */
static inline void
addrow(uint64_t (*plane)[2], struct fp r, unsigned l)
{
	uint64_t t;

	/* both words at once (past M the bits are 0): one loop, so one
	 * hard-to-predict end, not two */
	for (; r.w[0] | r.w[1]; l++) {
		t = plane[l][0] & r.w[0];
		plane[l][0] ^= r.w[0];
		r.w[0] = t;
		t = plane[l][1] & r.w[1];
		plane[l][1] ^= r.w[1];
		r.w[1] = t;
	}
}

/* A carry-save adder: a + b + c, bit by bit, is 2 * *hi + *lo. */
static inline void
csa(struct fp *hi, struct fp *lo, struct fp a, struct fp b, struct fp c)
{
	unsigned h;
	uint64_t u;

	for (h = 0; h < 2; h++) {
		u = a.w[h] ^ b.w[h];
		hi->w[h] = (a.w[h] & b.w[h]) | (u & c.w[h]);
		lo->w[h] = u ^ c.w[h];
	}
}

/*
 * The rows of weight 1, 16 at a time: a tree of carry-save adders
 * (Harley and Seal's) keeps the sums of the rows so far in the bits of
 * weight 1, 2, 4 and 8 (acc[0..3]), and each 16 rows make one row of
 * weight 16, added to the planes from plane 4. A ripple carry per row
 * runs until the carry of all 128 bits has ended, some 6 planes; this
 * costs some 15 word operations a row.
 */
static struct fp
add8(struct fp *acc, const struct fp *r)
{
	struct fp twoa, twob, foura, fourb, eight;

	csa(&twoa, &acc[0], acc[0], r[0], r[1]);
	csa(&twob, &acc[0], acc[0], r[2], r[3]);
	csa(&foura, &acc[1], acc[1], twoa, twob);
	csa(&twoa, &acc[0], acc[0], r[4], r[5]);
	csa(&twob, &acc[0], acc[0], r[6], r[7]);
	csa(&fourb, &acc[1], acc[1], twoa, twob);
	csa(&eight, &acc[2], acc[2], foura, fourb);
	return eight;	/* the rows of weight 8 these 8 made */
}

static void
add16(uint64_t (*plane)[2], struct fp *acc, const struct fp *r)
{
	struct fp eighta = add8(acc, r), eightb = add8(acc, r + 8), sixteen;

	csa(&sixteen, &acc[3], acc[3], eighta, eightb);
	addrow(plane, sixteen, 4);
}

/*
 * The fingerprint of the weights in touched; resets them. Bit j is 1 when
 * the sign sum S_j = 2 * P_j - W is above 0, W being the page's total weight
 * and P_j the weight of the features whose row has bit j set: when P_j >
 * floor(W / 2). The P_j of all bits are counted at once, bit-sliced: plane l
 * holds bit l of every P_j, so adding a row is a few word operations (a
 * ripple carry through the planes, or for the rows of odd weight a
 * carry-save adder, add16), and the comparison with floor(W / 2) is
 * one pass over the planes from the top.
 */
static int
fingerprint(struct simh *s, struct fp *f)
{
	uint64_t plane[64][2], w, c, gt, eq, *weight = s->weight;
	const uint32_t *touched = s->touched;
	struct fp acc[4], last[16], *odd = s->pagerows;
	int64_t total = 0;
	size_t k, nodd = 0, ntouched = s->ntouched;
	unsigned nplanes, i, l, h;

	/* the counts become weights; raw counts are their own */
	if (s->weighting != SIMH_RAW)
		for (k = 0; k < ntouched; k++)
			weight[touched[k]] = weigh(s, touched[k], weight[touched[k]]);
	for (k = 0; k < ntouched; k++) {
		if (total > INT64_MAX / 4 - (int64_t)weight[touched[k]]) {
			simh_drop(s);
			return -1;
		}
		total += (int64_t)weight[touched[k]];
	}
	/*
	 * every P_j <= W: the planes of W's bits suffice, carries never
	 * leave them (nor do those of partial sums, each at most P_j)
	 */
	for (nplanes = 1; (uint64_t)total >> nplanes; nplanes++)
		;
	memset(plane, 0, nplanes * sizeof plane[0]);
	/*
	 * The row times w: the row added at plane i for each bit i of w
	 * from 1 up; bit 0 by the rows of odd weight, gathered (in place,
	 * odd[nodd] is at most pagerows[k]) for add16.
	 */
	for (k = 0; k < ntouched; k++) {
		w = weight[touched[k]];
		weight[touched[k]] = 0;
		if (w & 1)
			odd[nodd++] = s->pagerows[k];
		for (i = 1, w >>= 1; w; i++, w >>= 1)
			if (w & 1)
				addrow(plane, s->pagerows[k], i);
	}
	s->ntouched = 0;
	memset(acc, 0, sizeof acc);
	for (k = 0; k + 16 <= nodd; k += 16)
		add16(plane, acc, odd + k);
	if (k < nodd) {
		memset(last, 0, sizeof last);
		memcpy(last, odd + k, (nodd - k) * sizeof *last);
		add16(plane, acc, last);
	}
	for (l = 0; l < 4; l++)
		addrow(plane, acc[l], l);
	/* P_j > c, all j at once: the first plane from the top where they differ decides */
	c = (uint64_t)total / 2;
	memset(f, 0, sizeof *f);
	for (h = 0; h < s->nwords; h++) {
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
	return 1;
}

/* Byte order of two words. */
static int
cmpword(const void *x, const void *y)
{
	const struct simhword *a = x, *b = y;
	int c;

	if ((c = memcmp(a->w, b->w, a->n < b->n ? a->n : b->n)))
		return c;
	return a->n < b->n ? -1 : a->n > b->n;
}

/*
 * The I-Match signature of the features in touched; resets them. A feature
 * without a DF, or with a DF above N, is outside the band.
 */
static int
imatch(struct simh *s, struct fp *f)
{
	struct simhword *sel;
	size_t k, nsel = 0;
	uint32_t i;
	uint64_t c;
	double lnn, nidf;

	lnn = s->ndocs > 1 ? ln((double)s->ndocs) : 0;
	egrow(&s->sel, &s->selcap, s->ntouched + 1, sizeof *s->sel);
	sel = s->sel;
	for (k = 0; k < s->ntouched; k++) {
		i = s->touched[k];
		s->weight[i] = 0;
		if (!(c = docfreq(s, i)) || c > s->ndocs)
			continue;
		nidf = lnn > 0 ? ln((double)s->ndocs / (double)c) / lnn : 0;
		if (nidf * 100 >= s->bandlo && nidf * 100 <= s->bandhi) {
			sel[nsel].w = wtab_word(&s->features, i, &sel[nsel].n);
			nsel++;
		}
	}
	s->ntouched = 0;
	if (nsel == 0)
		return 0;
	qsort(sel, nsel, sizeof *sel, cmpword);
	s->terms.n = 0;
	for (k = 0; k < nsel; k++) {
		obuf_add(&s->terms, sel[k].w, sel[k].n);
		obuf_addc(&s->terms, '\n');
	}
	simh_hash(f, s->m, s->key0, s->key1, s->terms.p, s->terms.n);
	return 1;
}

int
simh_finish(struct simh *s, struct fp *f)
{
	if (s->weighting == SIMH_IMATCH)
		return imatch(s, f);
	return fingerprint(s, f);
}
