/* hix.c: an exact Hamming-distance index (see hix.h, hix_int.h). */
#include <sys/mman.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hix_int.h"
#include "util.h"

/*
 * Lookups are bound by cache misses on candidates: issue them together.
 * Where the compiler can, the lookup and scan code is also compiled for
 * the popcnt instruction, chosen when the program starts.
 */
/* clang 14 names the dispatcher NAME.ifunc, so other files cannot link to it */
#if defined(__has_attribute) && defined(__x86_64__) && defined(__linux__) && \
    !defined(__clang__)
#if __has_attribute(target_clones)
#define CLONES	__attribute__((target_clones("popcnt", "default")))
#endif
#endif
#ifndef CLONES
#define CLONES
#endif

/*
 * Estimated costs, in units of one popcount in a scan, measured on this
 * machine (bench/hamq.sh): a lookup in a table, a candidate checked through
 * a table, and the build per entry of a table.
 */
enum { COST_LOOKUP = 40, COST_CAND = 4, COST_BUILD = 60 };

struct hixbuild {
	uint64_t *infw;		/* input fingerprints in order, until hix_finish */
	size_t infwcap;
	char *idtext;
	size_t idtextcap;
	uint64_t *idbase;
	size_t idbasecap;
	uint32_t *idrel;
	size_t idrelcap;
	uint64_t *fw;
	uint32_t *ustart, *upos;
	unsigned char bitpos[FP_MAXBITS];
	int owned;		/* the arrays above are ours (not mapped) */

	/* Tables being built (always ours). */
	struct hixgrp *grp;
	size_t grpcap;
	struct hixtab *tab;
	size_t tabcap;
	struct hixchild *child;
	size_t childcap;
	uint32_t *perm;
	uint64_t permcap;
	uint32_t *dir;
	uint64_t dircap;
	uint64_t budget;	/* entries nested sets may still hold */
	unsigned d;
};

/* Byte tables: the stored form of a fingerprint, and back, by 16 lookups. */
struct hixperm {
	uint64_t to[FP_MAXBITS / 8][256][2];
	uint64_t from[FP_MAXBITS / 8][256][2];
};

/* The tables for ix->bitpos; none for the identity, which costs nothing. */
static void
mkperms(struct hix *ix)
{
	struct hixperm *t;
	unsigned k, v, b, j, p;

	for (j = 0; j < FP_MAXBITS && ix->bitpos[j] == j; j++)
		;
	if (j == FP_MAXBITS || ix->perms)
		return;
	t = ecalloc(1, sizeof *t);
	for (k = 0; k < FP_MAXBITS / 8; k++)
		for (v = 0; v < 256; v++)
			for (b = 0; b < 8; b++) {
				if (!(v >> (7 - b) & 1))
					continue;
				j = 8 * k + b;	/* an original bit */
				p = ix->bitpos[j];
				t->to[k][v][p >> 6] |= (uint64_t)1 << (63 - (p & 63));
			}
	for (j = 0; j < FP_MAXBITS; j++) {
		p = ix->bitpos[j];	/* stored bit p holds original bit j */
		for (v = 0; v < 256; v++)
			if (v >> (7 - (p & 7)) & 1)
				t->from[p >> 3][v][j >> 6] |= (uint64_t)1 << (63 - (j & 63));
	}
	ix->perms = t;
}

/* The stored form of the m bits at in (back to the given order if back). */
static inline void
permute(const struct hix *ix, int back, const uint64_t *in, uint64_t out[2])
{
	const struct hixperm *t = ix->perms;
	unsigned k, nb = (ix->m + 7) / 8;
	uint64_t w;

	if (!t) {
		out[0] = in[0];
		out[1] = ix->nw == 2 ? in[1] : 0;
		return;
	}
	out[0] = out[1] = 0;
	for (k = 0; k < nb; k++) {
		w = in[k >> 3] >> (56 - 8 * (k & 7)) & 255;
		out[0] |= back ? t->from[k][w][0] : t->to[k][w][0];
		out[1] |= back ? t->from[k][w][1] : t->to[k][w][1];
	}
}

int
hix_validbitpos(const unsigned char *p, unsigned m)
{
	unsigned char seen[FP_MAXBITS] = { 0 };
	unsigned j;

	for (j = 0; j < FP_MAXBITS; j++) {
		if (p[j] >= FP_MAXBITS || seen[p[j]] || (j < m) != (p[j] < m) ||
		    (j >= m && p[j] != j))
			return 0;
		seen[p[j]] = 1;
	}
	return 1;
}

/* Reverse the low 7 bits of x. */
static unsigned
rev7(unsigned x)
{
	unsigned r = 0, i;

	for (i = 0; i < 7; i++)
		r |= (x >> i & 1) << (6 - i);
	return r;
}

static int
cmpbyrank(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/*
 * Choose the stored order of the bits of the n fingerprints at fw. When
 * every bit splits them reasonably evenly (1 in 8 or better either way,
 * as simhash bits do), blocks of adjacent bits serve and the order stays.
 * Else rank the bits by how evenly they split the fingerprints and give
 * the i-th best the i-th position in bit-reversed order (0, 64, 32, 96,
 * ...), so that any run of positions, the block of a table, holds good
 * bits in proportion to its width.
 */
static void
choosebits(struct hix *ix, const uint64_t *fw, uint32_t n)
{
	unsigned nb = (ix->m + 7) / 8, k, v, b, j, i;
	uint64_t key[FP_MAXBITS], ones[FP_MAXBITS] = { 0 }, skew, worst = 0;
	uint32_t (*cnt)[256] = ecalloc(FP_MAXBITS / 8, sizeof *cnt);
	unsigned char *bitpos = ix->b->bitpos;
	uint32_t r, step = n / 65536 + 1;

	for (j = 0; j < FP_MAXBITS; j++)
		bitpos[j] = (unsigned char)j;
	ix->bitpos = bitpos;
	/* a sample of 65536 at most tells the balance of the bits well enough */
	for (r = 0; r < n; r += step)
		for (k = 0; k < nb; k++)
			cnt[k][fw[(size_t)r * ix->nw + (k >> 3)] >> (56 - 8 * (k & 7)) & 255]++;
	for (k = 0; k < nb; k++)
		for (v = 0; v < 256; v++)
			for (b = 0; b < 8; b++)
				if (v >> (7 - b) & 1)
					ones[8 * k + b] += cnt[k][v];
	free(cnt);
	n = (n + step - 1) / step;	/* sampled */
	for (j = 0; j < ix->m; j++) {
		skew = 2 * ones[j] > n ? 2 * ones[j] - n : n - 2 * ones[j];
		key[j] = skew << 8 | j;
		if (skew > worst)
			worst = skew;
	}
	if (worst <= (uint64_t)n * 3 / 4)
		return;		/* every bit has at least n / 8 ones and zeros */
	qsort(key, ix->m, sizeof *key, cmpbyrank);
	/* positions by bit-reversed value: the order in which ranks are dealt */
	for (j = 0, i = 0; j < FP_MAXBITS && i < ix->m; j++)
		if (rev7(j) < ix->m)
			bitpos[key[i++] & 255] = (unsigned char)rev7(j);
	mkperms(ix);
}

struct hix *
hix_alloc(int owned)
{
	struct hix *ix = ecalloc(1, sizeof *ix);

	ix->b = ecalloc(1, sizeof *ix->b);
	ix->b->owned = owned;
	if (pthread_mutex_init(&ix->lock, NULL) != 0)
		eprintf("pthread_mutex_init:");
	return ix;
}

struct hix *
hix_new(void)
{
	return hix_alloc(1);
}

/* Add the next fingerprint (m bits, the same for all) with its ID; -1 if full. */
static int
add(struct hix *ix, const char *id, size_t idlen, const struct fp *f, unsigned m)
{
	struct hixbuild *b = ix->b;
	uint32_t i = ix->n;
	uint64_t rel;

	if (i >= HIX_MAXFP)
		return -1;
	if (i == 0) {
		ix->m = m;
		ix->nw = (m + 63) / 64;
	}
	egrow(&b->infw, &b->infwcap, ((size_t)i + 1) * ix->nw, sizeof *b->infw);
	memcpy(b->infw + (size_t)i * ix->nw, f->w, ix->nw * sizeof *f->w);
	egrow(&b->idrel, &b->idrelcap, (size_t)i + 2, sizeof *b->idrel);
	if (i % (1u << HIX_IDGROUP) == 0) {
		egrow(&b->idbase, &b->idbasecap, (i >> HIX_IDGROUP) + 1, sizeof *b->idbase);
		b->idbase[i >> HIX_IDGROUP] = ix->idtextlen;
	}
	rel = ix->idtextlen - b->idbase[i >> HIX_IDGROUP];
	if (rel + idlen > UINT32_MAX)
		return -1;
	b->idrel[i] = (uint32_t)rel;
	egrow(&b->idtext, &b->idtextcap, ix->idtextlen + idlen + 1, 1);
	memcpy(b->idtext + ix->idtextlen, id, idlen);
	ix->idtextlen += idlen;
	ix->n = i + 1;
	return 0;
}

int
hix_read(struct hix *ix, struct rdr *r)
{
	struct fprec rec;
	unsigned width = ix->m;
	int st;

	while ((st = fprec_read(r, &rec, &width)) > 0)
		if (add(ix, rec.id, rec.idlen, &rec.fp, width) < 0) {
			rdr_warn(r, "more than %lu fingerprints, or IDs too long", (unsigned long)HIX_MAXFP);
			return -1;
		}
	return st;
}

/* Digit p (11 bits, from the least significant) of the fingerprint at w. */
static inline unsigned
digit(const uint64_t *w, unsigned nw, unsigned p)
{
	uint64_t hi = nw == 2 ? w[0] : 0, lo = nw == 2 ? w[1] : w[0];
	unsigned s = 11 * p;
	uint64_t v;

	if (s < 64) {
		v = lo >> s;
		if (s > 53)
			v |= hi << (64 - s);
	} else
		v = hi >> (s - 64);
	return (unsigned)(v & 2047);
}

/*
 * Sort the positions by fingerprint (ties by position) with an LSD radix
 * sort on indices, skipping digits that are the same everywhere, then
 * group equal values.
 */
void
hix_finish(struct hix *ix)
{
	struct hixbuild *b = ix->b;
	unsigned nw = ix->nw, npass = nw * 64 / 11 + 1, p, dg;
	uint32_t *cnt, *order, *tmp, *t, n = ix->n, i, u, nu;
	uint64_t *fw;

	/* The end of the last ID. */
	egrow(&b->idrel, &b->idrelcap, (size_t)n + 1, sizeof *b->idrel);
	if (n % (1u << HIX_IDGROUP) == 0) {
		egrow(&b->idbase, &b->idbasecap, (n >> HIX_IDGROUP) + 1, sizeof *b->idbase);
		b->idbase[n >> HIX_IDGROUP] = ix->idtextlen;
	}
	b->idrel[n] = (uint32_t)(ix->idtextlen - b->idbase[n >> HIX_IDGROUP]);
	if (!b->idtext)
		b->idtext = emalloc(1);

	choosebits(ix, b->infw, n);
	for (i = 0; ix->perms && i < n; i++) {
		uint64_t *w = b->infw + (size_t)i * nw, x[2];

		permute(ix, 0, w, x);
		memcpy(w, x, nw * sizeof *w);
	}
	order = ereallocarray(NULL, (size_t)n + 1, sizeof *order);
	tmp = ereallocarray(NULL, (size_t)n + 1, sizeof *tmp);
	cnt = ecalloc((size_t)npass * 2048, sizeof *cnt);
	for (i = 0; i < n; i++)
		for (p = 0; p < npass; p++)
			cnt[p * 2048 + digit(b->infw + (size_t)i * nw, nw, p)]++;
	for (i = 0; i < n; i++)
		order[i] = i;
	for (p = 0; p < npass; p++) {
		uint32_t *c = cnt + p * 2048, sum = 0, x;

		for (dg = 0; dg < 2048; dg++)
			if (c[dg] == n)
				break;
		if (dg < 2048)
			continue;	/* one value everywhere: order stays */
		for (dg = 0; dg < 2048; dg++) {
			x = c[dg];
			c[dg] = sum;
			sum += x;
		}
		for (i = 0; i < n; i++)
			tmp[c[digit(b->infw + (size_t)order[i] * nw, nw, p)]++] = order[i];
		t = order;
		order = tmp;
		tmp = t;
	}
	free(cnt);
	free(tmp);

	nu = 0;
	for (i = 0; i < n; i++)
		if (i == 0 || memcmp(b->infw + (size_t)order[i] * nw,
		    b->infw + (size_t)order[i - 1] * nw, nw * sizeof *fw))
			nu++;
	fw = ereallocarray(NULL, (size_t)nu * nw + 1, sizeof *fw);
	b->ustart = ereallocarray(NULL, (size_t)nu + 1, sizeof *b->ustart);
	for (i = 0, u = 0; i < n; i++)
		if (i == 0 || memcmp(b->infw + (size_t)order[i] * nw,
		    b->infw + (size_t)order[i - 1] * nw, nw * sizeof *fw)) {
			memcpy(fw + (size_t)u * nw, b->infw + (size_t)order[i] * nw,
			    nw * sizeof *fw);
			b->ustart[u++] = i;
		}
	b->ustart[nu] = n;
	free(b->infw);
	b->infw = NULL;
	b->fw = fw;
	b->upos = order;
	ix->nu = nu;
	ix->fw = fw;
	ix->ustart = b->ustart;
	ix->upos = order;
	ix->idtext = b->idtext;
	ix->idbase = b->idbase;
	ix->idrel = b->idrel;
	hix_derive(ix);
}

/* What is derived from the distinct values, built or mapped. */
void
hix_derive(struct hix *ix)
{
	mkperms(ix);
}

/* The distinct value of each position: made after the tables, whose build is the peak. */
static void
mkposu(struct hix *ix)
{
	uint32_t u, j;

	ix->posu = ereallocarray(NULL, (size_t)ix->n + 1, sizeof *ix->posu);
	for (u = 0; u < ix->nu; u++)
		for (j = ix->ustart[u]; j < ix->ustart[u + 1]; j++)
			ix->posu[ix->upos[j]] = u;
}

const char *
hix_id(const struct hix *ix, uint32_t i, size_t *len)
{
	uint64_t s = ix->idbase[i >> HIX_IDGROUP] + ix->idrel[i];
	uint64_t e = ix->idbase[(i + 1) >> HIX_IDGROUP] + ix->idrel[i + 1];

	*len = (size_t)(e - s);
	return ix->idtext + s;
}

uint32_t
hix_size(const struct hix *ix)
{
	return ix->n;
}

uint32_t
hix_ndistinct(const struct hix *ix)
{
	return ix->nu;
}

unsigned
hix_width(const struct hix *ix)
{
	return ix->m;
}

uint32_t
hix_unique(const struct hix *ix, uint32_t i)
{
	return ix->posu[i];
}

void
hix_ufp(const struct hix *ix, uint32_t u, struct fp *f)
{
	memset(f, 0, sizeof *f);
	if (ix->nu > 0)
		permute(ix, 1, ix->fw + (size_t)u * ix->nw, f->w);
}

void
hix_fp(const struct hix *ix, uint32_t i, struct fp *f)
{
	hix_ufp(ix, ix->posu[i], f);
}

/* Segments of a mask; returns their number, or -1 if more than HIX_MAXSEG. */
static int
mkseg(const uint64_t mask[2], struct hixseg *s)
{
	int ns = 0;
	unsigned w, j, e;

	for (w = 0; w < 2; w++) {
		for (j = 0; j < 64; j = e) {
			if (!(mask[w] >> (63 - j) & 1)) {
				e = j + 1;
				continue;
			}
			for (e = j; e < 64 && mask[w] >> (63 - e) & 1; e++)
				;
			if (ns == HIX_MAXSEG)
				return -1;
			s[ns].word = (unsigned char)w;
			s[ns].shift = (unsigned char)(64 - e);
			s[ns].len = (unsigned char)(e - j);
			ns++;
		}
	}
	return ns;
}

/* The bits of w under the segments, concatenated (at most 64 of them). */
static inline uint64_t
segkey(const struct hixseg *s, unsigned ns, const uint64_t *w)
{
	uint64_t k = 0;
	unsigned i;

	for (i = 0; i < ns; i++) {
		if (s[i].len == 64)
			return w[s[i].word];
		k = k << s[i].len | (w[s[i].word] >> s[i].shift &
		    (((uint64_t)1 << s[i].len) - 1));
	}
	return k;
}

static inline uint64_t
prefix(const struct hixtab *t, uint64_t key)
{
	return t->k == 0 ? 0 : key >> (t->width - t->k);
}

static inline uint32_t
entry(const struct hix *ix, const struct hixtab *t, uint64_t i)
{
	return t->flags & HIX_IDENT ? (uint32_t)(t->off + i) : ix->perm[t->off + i];
}

static inline const uint64_t *
fpw(const struct hix *ix, uint32_t u)
{
	return ix->fw + (size_t)u * ix->nw;
}

static unsigned
floorlog2(uint64_t x)
{
	unsigned l = 0;

	while (x >>= 1)
		l++;
	return l;
}

/* Directory bits for a table of size entries and width bits: slots hold 2 to 4 on average. */
static unsigned
dirbits(uint32_t size, unsigned width)
{
	unsigned k = size >= 4 ? floorlog2(size) - 1 : 0;

	if (k > width)
		k = width;
	return k > HIX_MAXK ? HIX_MAXK : k;
}

struct kv {
	uint64_t key;
	uint32_t u;
};

static int
kvcmp(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->u > y->u) - (x->u < y->u);
}

/*
 * Sort entries e[0 .. n) by (key, unique), knowing they share the
 * directory prefix; small runs by insertion, larger ones through qsort.
 */
static void
sortslot(const struct hix *ix, const struct hixseg *s, unsigned ns, uint32_t *e, uint32_t n)
{
	struct kv *kv, small[HIX_SMALL];
	uint32_t i, j;

	if (n < 2)
		return;
	kv = n <= HIX_SMALL ? small : ereallocarray(NULL, n, sizeof *kv);
	for (i = 0; i < n; i++) {
		kv[i].key = segkey(s, ns, fpw(ix, e[i]));
		kv[i].u = e[i];
	}
	if (n <= HIX_SMALL) {
		for (i = 1; i < n; i++) {
			struct kv x = kv[i];

			for (j = i; j > 0 && kvcmp(&kv[j - 1], &x) > 0; j--)
				kv[j] = kv[j - 1];
			kv[j] = x;
		}
	} else
		qsort(kv, n, sizeof *kv, kvcmp);
	for (i = 0; i < n; i++)
		e[i] = kv[i].u;
	if (kv != small)
		free(kv);
}

/*
 * Fill table t (mask, width, k, flags and off set; for a table that is not
 * HIX_IDENT, perm[off ..] holds the set in unique order) : sort it by block
 * value if need be and fill its directory.
 */
static void
filltab(struct hix *ix, struct hixtab *t, int sorted)
{
	struct hixseg s[HIX_MAXSEG];
	unsigned ns = (unsigned)mkseg(t->mask, s);
	uint32_t *d = ix->b->dir + t->dir, *e, *tmp, i, nslot = (uint32_t)1 << t->k, sum, x;

	memset(d, 0, ((size_t)nslot + 1) * sizeof *d);
	for (i = 0; i < t->size; i++)
		d[prefix(t, segkey(s, ns, fpw(ix, entry(ix, t, i))))]++;
	for (sum = 0, i = 0; i <= nslot; i++) {
		x = d[i];
		d[i] = sum;
		sum += x;
	}
	if (sorted)
		return;
	/* Stable counting sort by prefix, then each slot by the whole block. */
	e = ix->b->perm + t->off;
	tmp = ereallocarray(NULL, (size_t)t->size + 1, sizeof *tmp);
	for (i = 0; i < t->size; i++)
		tmp[d[prefix(t, segkey(s, ns, fpw(ix, e[i])))]++] = e[i];
	memcpy(e, tmp, (size_t)t->size * sizeof *e);
	free(tmp);
	/* d[i] now holds the end of slot i: shift back to starts. */
	memmove(d + 1, d, (size_t)nslot * sizeof *d);
	d[0] = 0;
	if (t->width > t->k)
		for (i = 0; i < nslot; i++)
			sortslot(ix, s, ns, e + d[i], d[i + 1] - d[i]);
}

static uint32_t buildgrp(struct hix *ix, int ident, uint64_t off, uint32_t size,
    const uint64_t freemask[2], unsigned depth, unsigned nthreads);

/* Give the big buckets of table ti groups of their own. */
static void
bigbuckets(struct hix *ix, uint32_t ti, const uint64_t freemask[2], unsigned depth)
{
	struct hixbuild *b = ix->b;
	struct hixtab t = b->tab[ti];
	struct hixseg s[HIX_MAXSEG];
	unsigned ns = (unsigned)mkseg(t.mask, s), nfree;
	uint32_t nslot = (uint32_t)1 << t.k, i, j, lo, hi, first, c, g;
	uint64_t key, fm[2];

	nfree = popcount64(freemask[0]) + popcount64(freemask[1]) - t.width;
	/* Sub-blocks of one bit hardly split a bucket. */
	if (depth >= HIX_DEPTH || nfree < 2 * (b->d + 1) || t.width == 0)
		return;
	first = ix->nchild;
	for (i = 0; i < nslot; i++) {
		lo = b->dir[t.dir + i];
		hi = b->dir[t.dir + i + 1];
		if (hi - lo <= HIX_BIG)
			continue;
		for (j = lo; j < hi; j = c) {
			key = segkey(s, ns, fpw(ix, entry(ix, &t, j)));
			for (c = j + 1; c < hi && segkey(s, ns, fpw(ix, entry(ix, &t, c))) == key; c++)
				;
			if (c - j <= HIX_BIG || b->budget < c - j)
				continue;
			b->budget -= c - j;
			egrow(&b->child, &b->childcap, (size_t)ix->nchild + 1, sizeof *b->child);
			b->child[ix->nchild].start = j;
			b->child[ix->nchild].end = c;
			b->child[ix->nchild].grp = 0;
			b->child[ix->nchild].pad = 0;
			ix->nchild++;
		}
	}
	b->tab[ti].child = first;
	b->tab[ti].nchild = ix->nchild - first;
	fm[0] = freemask[0] & ~t.mask[0];
	fm[1] = freemask[1] & ~t.mask[1];
	for (c = first; c < first + b->tab[ti].nchild; c++) {
		/*
		 * A local first: the nested build grows b->child, so an
		 * address taken before the call could dangle.
		 */
		j = b->child[c].start;
		g = buildgrp(ix, t.flags & HIX_IDENT, t.off + j, b->child[c].end - j, fm,
		    depth + 1, 1);
		b->child[c].grp = g;
	}
}

struct filljob {
	struct hix *ix;
	uint32_t t0, nt, first, step;
};

static void *
filljob(void *arg)
{
	struct filljob *j = arg;
	uint32_t i;

	for (i = j->first; i < j->nt; i += j->step)
		filltab(j->ix, &j->ix->b->tab[j->t0 + i], i == 0);
	return NULL;
}

/*
 * A group over a set (entries off .. off + size of perm, or those uniques
 * if ident) whose members agree outside freemask: split the free bits into
 * d + 1 blocks, leftmost first, and build a table for each. The first
 * table needs no sorting: a set in unique order is in order of its
 * leftmost free bits.
 */
static uint32_t
buildgrp(struct hix *ix, int ident, uint64_t off, uint32_t size, const uint64_t freemask[2],
    unsigned depth, unsigned nthreads)
{
	struct hixbuild *b = ix->b;
	unsigned nt = b->d + 1, nfree = 0, bi, w, j, pos[FP_MAXBITS];
	uint32_t g = ix->ngrp, t0 = ix->ntab, i;
	struct hixseg s[HIX_MAXSEG];
	struct filljob job[2];
	pthread_t th;
	int threaded = 0;

	for (j = 0; j < FP_MAXBITS; j++)
		if (freemask[j >> 6] >> (63 - (j & 63)) & 1)
			pos[nfree++] = j;
	egrow(&b->grp, &b->grpcap, (size_t)g + 1, sizeof *b->grp);
	b->grp[g].tab = t0;
	b->grp[g].ntab = nt;
	ix->ngrp = g + 1;
	egrow(&b->tab, &b->tabcap, (size_t)t0 + nt, sizeof *b->tab);
	ix->ntab = t0 + nt;
	for (bi = 0, j = 0; bi < nt; bi++) {
		struct hixtab *t = &b->tab[t0 + bi];

		memset(t, 0, sizeof *t);
		w = nfree / nt + (bi < nfree % nt);
		t->width = w;
		for (; w > 0; w--, j++)
			t->mask[pos[j] >> 6] |= (uint64_t)1 << (63 - (pos[j] & 63));
		if (mkseg(t->mask, s) < 0)
			eprintf("internal error: block in too many pieces");
		t->size = size;
		t->k = dirbits(size, t->width);
		t->dir = ix->ndir;
		ix->ndir += ((uint64_t)1 << t->k) + 1;
		if (ix->ndir > b->dircap)
			eprintf("internal error: directory space");
		if (bi == 0) {
			t->flags = ident ? HIX_IDENT : 0;
			t->off = off;
			continue;
		}
		t->off = ix->nperm;
		ix->nperm += size;
		if (ix->nperm > b->permcap)
			eprintf("internal error: table space");
		if (ident)
			for (i = 0; i < size; i++)
				b->perm[t->off + i] = (uint32_t)(off + i);
		else
			memcpy(b->perm + t->off, b->perm + off, (size_t)size * sizeof *b->perm);
	}
	for (i = 0; i < 2; i++) {
		job[i].ix = ix;
		job[i].t0 = t0;
		job[i].nt = nt;
		job[i].first = i;
		job[i].step = 1;
	}
	/* Tables are independent: two threads fill alternate ones. */
	if (nthreads > 1 && nt > 1 && size >= 65536) {
		job[0].step = job[1].step = 2;
		threaded = pthread_create(&th, NULL, filljob, &job[1]) == 0;
		if (!threaded)
			job[0].step = 1;
	}
	filljob(&job[0]);
	if (threaded)
		pthread_join(th, NULL);
	for (bi = 0; bi < nt; bi++)
		bigbuckets(ix, t0 + bi, freemask, depth);
	return g;
}

static void
freetables(struct hix *ix)
{
	struct hixbuild *b = ix->b;

	free(b->grp);
	free(b->tab);
	free(b->child);
	free(b->perm);
	free(b->dir);
	b->grp = NULL;
	b->tab = NULL;
	b->child = NULL;
	b->perm = NULL;
	b->dir = NULL;
	b->grpcap = b->tabcap = b->childcap = 0;
	b->permcap = b->dircap = 0;
	free(ix->seg);
	free(ix->nseg);
	ix->seg = NULL;
	ix->nseg = NULL;
	ix->hastab = 0;
	ix->ngrp = ix->ntab = ix->nchild = 0;
	ix->nperm = ix->ndir = 0;
	ix->grp = NULL;
	ix->tab = NULL;
	ix->child = NULL;
	ix->perm = NULL;
	ix->dir = NULL;
}

/* Derive the segments of every table; -1 if a mask has too many pieces. */
int
hix_mksegs(struct hix *ix)
{
	uint32_t t;
	int ns;

	ix->seg = ereallocarray(NULL, (size_t)ix->ntab + 1, sizeof *ix->seg);
	ix->nseg = emalloc((size_t)ix->ntab + 1);
	for (t = 0; t < ix->ntab; t++) {
		if ((ns = mkseg(ix->tab[t].mask, ix->seg[t])) < 0)
			return -1;
		ix->nseg[t] = (unsigned char)ns;
	}
	return 0;
}

/* Build the tables for distances up to d (replacing any). */
static void
tables(struct hix *ix, unsigned d, unsigned nthreads)
{
	struct hixbuild *b = ix->b;
	uint64_t all[2] = { 0, 0 }, nested;
	unsigned j;

	freetables(ix);
	b->d = d;
	ix->tdist = d;
	ix->hastab = 1;
	/* Distance 0 is a binary search; an empty index needs nothing. */
	if (d == 0 || ix->nu == 0 || d >= FP_MAXBITS)
		goto done;
	for (j = 0; j < ix->m; j++)
		all[j >> 6] |= (uint64_t)1 << (63 - (j & 63));
	/*
	 * Reserve the most the tables can take: pages never touched cost
	 * nothing, and nothing moves while tables are filled in parallel.
	 */
	b->budget = ix->nu;
	nested = b->budget;
	b->permcap = (uint64_t)d * (ix->nu + nested) + 1;
	b->dircap = (uint64_t)(d + 1) * ((ix->nu + nested) / 2 + 2 * (2 + nested / HIX_BIG)) + 1;
	b->perm = ereallocarray(NULL, b->permcap, sizeof *b->perm);
	b->dir = ereallocarray(NULL, b->dircap, sizeof *b->dir);
	ix->perm = b->perm;
	ix->dir = b->dir;
	buildgrp(ix, 1, 0, ix->nu, all, 0, nthreads);
done:
	ix->grp = b->grp;
	ix->tab = b->tab;
	ix->child = b->child;
	ix->perm = b->perm;
	ix->dir = b->dir;
	if (hix_mksegs(ix) < 0)
		eprintf("internal error: segments");
}

void
hix_free(struct hix *ix)
{
	struct hixbuild *b;

	if (!ix)
		return;
	b = ix->b;
	freetables(ix);
	if (b->owned) {
		free(b->infw);
		free(b->idtext);
		free(b->idbase);
		free(b->idrel);
		free(b->fw);
		free(b->ustart);
		free(b->upos);
	}
	free(ix->posu);
	free(ix->perms);
	if (ix->map)
		munmap(ix->map, ix->maplen);
	pthread_mutex_destroy(&ix->lock);
	free(b);
	free(ix);
}

/*
 * The estimated cost of nq lookups within d through tables (building them
 * if need be) against a scan, for fingerprints spread evenly.
 */
static int
tablespay(const struct hix *ix, unsigned d, double nq)
{
	double nu = ix->nu, w, cand, idx, build;

	if (d == 0)
		return 1;	/* a binary search: no tables to build */
	if (d + 1 > ix->m || ix->nu == 0)
		return 0;
	w = ix->m / (d + 1);
	cand = nu / (w >= 63 ? 9.2e18 : (double)((uint64_t)1 << (unsigned)w));
	idx = (d + 1) * (COST_LOOKUP + COST_CAND * (cand + 1));
	build = ix->hastab && ix->tdist >= d ? 0 : (double)COST_BUILD * (d + 1) * nu;
	return nq * idx + build < nq * nu;
}

/* Plans are numbered across indexes, so that a hixhits knows its plan is current. */
static uint64_t nplans;
static pthread_mutex_t planslock = PTHREAD_MUTEX_INITIALIZER;

int
hix_plan(struct hix *ix, unsigned d, double nq, int mode, unsigned nthreads)
{
	pthread_mutex_lock(&planslock);
	ix->plan = ++nplans;
	pthread_mutex_unlock(&planslock);
	ix->d = d;
	ix->mode = mode;
	ix->spent = ix->nspent = 0;
	if (mode == HIX_SCAN)
		ix->usetab = 0;
	else if (mode == HIX_INDEX)
		ix->usetab = 1;
	else
		ix->usetab = tablespay(ix, d, nq);
	if (ix->usetab && d > 0 && (!ix->hastab || ix->tdist < d))
		tables(ix, d, nthreads < 1 ? 1 : nthreads);
	if (!ix->posu)
		mkposu(ix);
	return ix->usetab;
}

/*
 * Add nq lookups through the tables and their work to the plan's account;
 * returns whether the tables are still used (see hix_plan). Under ix->lock.
 */
static int
review(struct hix *ix, uint64_t nq, uint64_t work)
{
	ix->spent += work;
	ix->nspent += nq;
	if (ix->mode == HIX_AUTO && ix->usetab && ix->d > 0 && ix->nspent >= 256 &&
	    (double)ix->spent > (double)ix->nspent * ix->nu)
		ix->usetab = 0;
	return ix->usetab;
}

static inline void
addhit(struct hixhits *h, uint32_t u, unsigned d)
{
	if (h->n == h->cap) {
		egrow(&h->u, &h->cap, h->n + 1, sizeof *h->u);
		h->dist = erealloc(h->dist, h->cap);
	}
	h->u[h->n] = u;
	h->dist[h->n++] = (unsigned char)d;
}

struct qctx {
	const struct hix *ix;
	uint64_t q[2];
	unsigned d;
	struct hixhits *h;
	unsigned nexcl;
	uint64_t work;
	uint64_t excl[(FP_MAXBITS + 1) * (HIX_DEPTH + 1)][2];
};

/* Candidate u, found through a table with mask m: count it if it is within d and first found here. */
static inline void
check(struct qctx *c, uint32_t u, const uint64_t m[2])
{
	const uint64_t *w = fpw(c->ix, u);
	uint64_t x0 = w[0] ^ c->q[0], x1 = 0;
	unsigned dist, e;

	if (c->ix->nw == 2)
		x1 = w[1] ^ c->q[1];
	if ((x0 & m[0]) | (x1 & m[1]))
		return;
	if ((dist = popcount64(x0) + popcount64(x1)) > c->d)
		return;
	for (e = 0; e < c->nexcl; e++)
		if (!((x0 & c->excl[e][0]) | (x1 & c->excl[e][1])))
			return;
	addhit(c->h, u, dist);
}

/*
 * Look up q in the tables of group g: first every directory slot, then
 * every bucket, so that the cache misses of one step overlap.
 */
CLONES static void
qgrp(struct qctx *c, uint32_t g)
{
	const struct hix *ix = c->ix;
	const struct hixtab *t;
	const struct hixchild *ch;
	uint32_t ti, bi, nt = ix->grp[g].ntab, a, z, mid;
	uint32_t lo[FP_MAXBITS + 1], hi[FP_MAXBITS + 1];
	uint64_t key[FP_MAXBITS + 1];
	unsigned ns, nexcl0 = c->nexcl;
	const struct hixseg *s;

	c->work += (uint64_t)nt * COST_LOOKUP;
	for (bi = 0; bi < nt; bi++) {
		ti = ix->grp[g].tab + bi;
		key[bi] = segkey(ix->seg[ti], ix->nseg[ti], c->q);
		PREFETCH(&ix->dir[ix->tab[ti].dir + prefix(&ix->tab[ti], key[bi])]);
	}
	for (bi = 0; bi < nt; bi++) {
		t = &ix->tab[ix->grp[g].tab + bi];
		mid = (uint32_t)prefix(t, key[bi]);
		lo[bi] = ix->dir[t->dir + mid];
		hi[bi] = ix->dir[t->dir + mid + 1];
		if (hi[bi] - lo[bi] <= HIX_SMALL)
			for (a = lo[bi]; a < hi[bi]; a++)
				PREFETCH(fpw(ix, entry(ix, t, a)));
	}
	for (bi = 0; bi < nt; bi++) {
		ti = ix->grp[g].tab + bi;
		t = &ix->tab[ti];
		s = ix->seg[ti];
		ns = ix->nseg[ti];
		if (hi[bi] - lo[bi] > HIX_SMALL) {
			/* The bucket: the run of entries with this block value. */
			for (a = lo[bi], z = hi[bi]; a < z;) {
				mid = a + (z - a) / 2;
				if (segkey(s, ns, fpw(ix, entry(ix, t, mid))) < key[bi])
					a = mid + 1;
				else
					z = mid;
			}
			lo[bi] = a;
			for (z = hi[bi]; a < z;) {
				mid = a + (z - a) / 2;
				if (segkey(s, ns, fpw(ix, entry(ix, t, mid))) <= key[bi])
					a = mid + 1;
				else
					z = mid;
			}
			hi[bi] = a;
			if (hi[bi] - lo[bi] > HIX_BIG && t->nchild) {
				for (a = t->child, z = t->child + t->nchild; a < z;) {
					mid = a + (z - a) / 2;
					if (ix->child[mid].start < lo[bi])
						a = mid + 1;
					else
						z = mid;
				}
				ch = &ix->child[a];
				if (a < t->child + t->nchild && ch->start == lo[bi]) {
					qgrp(c, ch->grp);
					goto next;
				}
			}
		}
		c->work += (uint64_t)(hi[bi] - lo[bi]) * COST_CAND;
		for (a = lo[bi]; a < hi[bi]; a++)
			check(c, entry(ix, t, a), t->mask);
next:
		c->excl[c->nexcl][0] = t->mask[0];
		c->excl[c->nexcl][1] = t->mask[1];
		c->nexcl++;
	}
	c->nexcl = nexcl0;
}

void
hix_prefetch(const struct hix *ix, const struct fp *q, const struct hixhits *h)
{
	const struct hixtab *t;
	uint64_t w[2];
	uint32_t ti;

	if (!h->usetab || !ix->hastab || ix->ngrp == 0)
		return;
	permute(ix, 0, q->w, w);
	for (ti = 0; ti < ix->grp[0].ntab; ti++) {
		t = &ix->tab[ti];
		PREFETCH(&ix->dir[t->dir + prefix(t, segkey(ix->seg[ti], ix->nseg[ti], w))]);
	}
}

CLONES void
hix_lookup(const struct hix *ix, const struct fp *q, int usetab, struct hixhits *h)
{
	struct qctx c;
	const uint64_t *w;
	uint64_t q0, q1, pq[2];
	uint32_t u, a, z, mid;
	unsigned d = ix->d;
	int cmp;

	if (ix->nu == 0)
		return;
	permute(ix, 0, q->w, pq);	/* to the stored order */
	q0 = pq[0];
	q1 = pq[1];
	if (usetab && d == 0) {
		/* Binary search for the value itself. */
		for (a = 0, z = ix->nu; a < z;) {
			mid = a + (z - a) / 2;
			w = fpw(ix, mid);
			cmp = w[0] != q0 ? (w[0] < q0 ? -1 : 1) :
			    ix->nw == 2 && w[1] != q1 ? (w[1] < q1 ? -1 : 1) : 0;
			if (cmp == 0) {
				addhit(h, mid, 0);
				return;
			}
			if (cmp < 0)
				a = mid + 1;
			else
				z = mid;
		}
		return;
	}
	if (usetab && ix->hastab && ix->ngrp > 0 && d <= ix->tdist) {
		c.ix = ix;
		c.q[0] = q0;
		c.q[1] = ix->nw == 2 ? q1 : 0;
		c.d = d;
		c.h = h;
		c.nexcl = 0;
		c.work = 0;
		qgrp(&c, 0);
		h->work += c.work;
		return;
	}
	/* The scan: one popcount per distinct value. */
	w = ix->fw;
	if (ix->nw == 1) {
		for (u = 0; u < ix->nu; u++)
			if (popcount64(w[u] ^ q0) <= d)
				addhit(h, u, popcount64(w[u] ^ q0));
	} else {
		for (u = 0; u < ix->nu; u++, w += 2)
			if (popcount64(w[0] ^ q0) + popcount64(w[1] ^ q1) <= d)
				addhit(h, u, popcount64(w[0] ^ q0) + popcount64(w[1] ^ q1));
	}
}

void
hix_near(struct hix *ix, const struct fp *q, struct hixhits *h)
{
	if (h->plan != ix->plan) {
		pthread_mutex_lock(&ix->lock);
		h->usetab = ix->usetab;
		pthread_mutex_unlock(&ix->lock);
		h->plan = ix->plan;
		h->nq = h->work = 0;
	}
	hix_lookup(ix, q, h->usetab, h);
	if (h->usetab && ++h->nq == HIX_REVIEW) {
		pthread_mutex_lock(&ix->lock);
		h->usetab = review(ix, h->nq, h->work);
		pthread_mutex_unlock(&ix->lock);
		h->nq = h->work = 0;
	}
}

static int
keycmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

void
hix_match(struct hix *ix, const struct fp *q, int64_t after, struct hixmatch *m)
{
	const uint32_t *pos;
	uint32_t lo, hi, mid, np, j, u;
	size_t i, nk = 0;
	uint64_t k;

	m->h.n = 0;
	hix_near(ix, q, &m->h);
	for (i = 0; i < m->h.n; i++) {
		u = m->h.u[i];
		pos = ix->upos + ix->ustart[u];
		np = ix->ustart[u + 1] - ix->ustart[u];
		lo = 0;
		if (after >= 0)
			for (hi = np; lo < hi;) {
				mid = lo + (hi - lo) / 2;
				if (pos[mid] <= after)
					lo = mid + 1;
				else
					hi = mid;
			}
		egrow(&m->key, &m->cap, nk + np - lo + 1, sizeof *m->key);
		for (j = lo; j < np; j++)
			m->key[nk++] = (uint64_t)m->h.dist[i] << 32 | pos[j];
	}
	/* One distinct value's positions are in order already. */
	if (m->h.n > 1 && nk > 1) {
		if (nk <= 16) {
			for (i = 1; i < nk; i++) {
				k = m->key[i];
				for (j = (uint32_t)i; j > 0 && m->key[j - 1] > k; j--)
					m->key[j] = m->key[j - 1];
				m->key[j] = k;
			}
		} else
			qsort(m->key, nk, sizeof *m->key, keycmp);
	}
	m->n = nk;
}

void
hix_hitsfree(struct hixhits *h)
{
	free(h->u);
	free(h->dist);
	memset(h, 0, sizeof *h);
}

void
hix_matchfree(struct hixmatch *m)
{
	free(m->key);
	hix_hitsfree(&m->h);
	memset(m, 0, sizeof *m);
}
