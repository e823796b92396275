/*
 * join.c: near-duplicate pairs from bottom-k sketches: candidates from
 * shared hashes, verified by an estimate of rarity-weighted Jaccard
 * similarity (join.h).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "join_int.h"
#include "radix.h"
#include "siphash.h"
#include "sketch.h"
#include "uf.h"

#define PASSES	16	/* count in parts of 1/16 of the hashes, by their low bits */

struct join *
join_new(const struct join_opt *opt)
{
	struct join *j = ecalloc(1, sizeof *j);

	j->opt = *opt;
	wtab_init(&j->seen);
	return j;
}

/* The IDs seen in an input are forgotten at its end. */
static void
seendone(struct join *j)
{
	wtab_free(&j->seen);
	free(j->seenfile);
	free(j->seenline);
	j->seenfile = NULL;
	j->seenline = NULL;
	j->seencap = 0;
}

void
join_free(struct join *j)
{
	if (!j)
		return;
	seendone(j);
	free(j->ids.p);
	free(j->idoff);
	free(j->nsh);
	free(j->hoff);
	free(j->hn);
	free(j->hv);
	free(j->shared);
	free(j->sharedbit);
	free(j->post);
	free(j->reach);
	free(j->reachidx);
	free(j->wv);
	if (j->ext && j->ext->release)
		j->ext->release(j->ext);
	free(j);
}

/*
 * Whether the ID s[0..n) read at r's line was seen before in this input
 * (said); else it is now.
 */
static int
duplicate(struct join *j, struct rdr *r, const char *s, size_t n)
{
	size_t before = j->seen.n;
	uint32_t id = wtab_intern(&j->seen, s, n);

	if (j->seen.n == before) {
		weprintf("%s:%ju: duplicate ID (first at %s:%ju): skipped", escname(r->name), r->lineno,
		    escname(j->seenfile[id]), j->seenline[id]);
		return 1;
	}
	if (id == j->seencap) {
		size_t cap = j->seencap;

		egrow(&j->seenfile, &cap, id + 1, sizeof *j->seenfile);
		egrow(&j->seenline, &j->seencap, id + 1, sizeof *j->seenline);
	}
	j->seenfile[id] = r->name;
	j->seenline[id] = r->lineno;
	return 0;
}

/* Append document s, checked. */
static void
append(struct join *j, const struct sketch *s)
{
	size_t d = j->ndocs;

	if (d == j->doccap) {
		size_t cap = j->doccap;

		egrow(&j->idoff, &cap, d + 1, sizeof *j->idoff);
		cap = j->doccap;
		egrow(&j->nsh, &cap, d + 1, sizeof *j->nsh);
		cap = j->doccap;
		egrow(&j->hoff, &cap, d + 1, sizeof *j->hoff);
		egrow(&j->hn, &j->doccap, d + 1, sizeof *j->hn);
	}
	j->idoff[d] = j->ids.n;
	obuf_add(&j->ids, s->id, s->idlen);
	j->nsh[d] = s->nshingles;
	j->hoff[d] = j->nhv;
	j->hn[d] = s->n;
	/* + 1: hv is never null, even if every page is empty */
	egrow(&j->hv, &j->hvcap, j->nhv + s->n + 1, sizeof *j->hv);
	memcpy(j->hv + j->nhv, s->h, s->n * sizeof *j->hv);
	j->nhv += s->n;
	if (s->n < s->nshingles)
		j->size = s->n;
	else if (s->n > j->maxwhole)
		j->maxwhole = s->n;
	j->ndocs++;
}

void
join_addsketch(struct join *j, const struct sketch *s)
{
	if (j->ndocs == UINT32_MAX - 1)
		eprintf("too many documents");
	if (j->queries)	/* the IDs a query run replaces */
		wtab_intern(&j->seen, s->id, s->idlen);
	append(j, s);
}

void
join_setsize(struct join *j, unsigned size, unsigned maxwhole)
{
	j->size = size;
	j->maxwhole = maxwhole;
}

void
join_getsize(const struct join *j, unsigned *size, unsigned *maxwhole)
{
	*size = j->size;
	*maxwhole = j->maxwhole;
}

void
join_sketch(const struct join *j, uint32_t d, struct sketch *s)
{
	s->id = join_id(j, d, &s->idlen);
	s->nshingles = j->nsh[d];
	s->n = j->hn[d];
	s->h = j->hv + j->hoff[d];
}

void
join_setdf(struct join *j, const struct join_df *df)
{
	j->ext = df;
}

int
join_add(struct join *j, struct rdr *r, char *line, size_t n)
{
	struct sketch s;
	uint64_t h[SK_MAXSIZE];
	size_t d = j->ndocs;

	if (sketch_parse(r, line, n, &s, h) < 0)
		return 1;
	/*
	 * A cut sketch (fewer hashes than shingles) shows the size; a
	 * whole one must not be larger.
	 */
	if (s.n < s.nshingles ? (j->size && s.n != j->size) || s.n < j->maxwhole :
	    j->size && s.n > j->size) {
		weprintf("%s:%ju: a sketch of %u hashes among sketches of %u",
		    escname(r->name), r->lineno, s.n, j->size ? j->size : j->maxwhole);
		return 1;
	}
	if (duplicate(j, r, s.id, s.idlen))
		return 1;
	if (d == UINT32_MAX - 1)
		eprintf("%s:%ju: too many documents", escname(r->name), r->lineno);
	append(j, &s);
	return 0;
}

int
join_read(struct join *j, struct rdr *r)
{
	char *line;
	ptrdiff_t n;
	int ret = 0;

	while ((n = rdr_line(r, &line)) >= 0)
		ret |= join_add(j, r, line, (size_t)n);
	return ret;
}

void
join_queries(struct join *j)
{
	j->ncoll = j->ndocs;
	j->queries = 1;
	wtab_free(&j->seen);
	wtab_init(&j->seen);
}

/*
 * A document of the collection whose ID is a query's is replaced by the
 * query (as neardup -a replaces it in a state): dropped before anything
 * is counted, so that a batch asked again against a collection that holds
 * it is answered as the first time. seen holds the queries' IDs.
 */
static void
replace(struct join *j)
{
	size_t d, kept = 0, idn = 0, hvn = 0, len;

	for (d = 0; d < j->ndocs; d++) {
		len = (d + 1 < j->ndocs ? j->idoff[d + 1] : j->ids.n) - j->idoff[d];
		if (d < j->ncoll && wtab_find(&j->seen, j->ids.p + j->idoff[d], len) != WTAB_NONE)
			continue;
		memmove(j->ids.p + idn, j->ids.p + j->idoff[d], len);
		j->idoff[kept] = idn;
		idn += len;
		memmove(j->hv + hvn, j->hv + j->hoff[d], j->hn[d] * sizeof *j->hv);
		j->hoff[kept] = hvn;
		hvn += j->hn[d];
		j->nsh[kept] = j->nsh[d];
		j->hn[kept] = j->hn[d];
		kept++;
	}
	j->ncoll -= j->ndocs - kept;
	j->ndocs = kept;
	j->ids.n = idn;
	j->nhv = hvn;
}

void
join_end(struct join *j)
{
	if (j->queries)
		replace(j);
	else
		j->ncoll = j->ndocs;
	seendone(j);
	if (!j->hv)	/* no sketch at all: no arithmetic on a null pointer */
		j->hv = ecalloc(1, sizeof *j->hv);
}

/* The first slot of h. */
static size_t
sharedplace(const struct join *j, uint64_t h)
{
	return (size_t)siphash13_u64(j->sharedk0, j->sharedk1, h) & j->sharedmask;
}

/*
 * h's bit in sharedbit, so that a hash no other sketch holds (most) costs
 * no search of the table: a bit set by a crafted hash only costs the
 * search.
 */
static size_t
sharedbit(const struct join *j, uint64_t h)
{
	return (size_t)(h * UINT64_C(0x9e3779b97f4a7c15) >> (64 - j->sharedbits));
}

static void
addshared(struct join *j, uint64_t h, uint64_t n)
{
	size_t i;

	if (h == 0) {
		j->zeroslot.n = (uint32_t)n;
		return;
	}
	for (i = sharedplace(j, h); j->shared[i].h; i = (i + 1) & j->sharedmask)
		;
	j->shared[i].h = h;
	j->shared[i].n = (uint32_t)n;
	i = sharedbit(j, h);
	j->sharedbit[i / 64] |= (uint64_t)1 << (i % 64);
}

/* The slot of h, or NULL if one sketch holds it. */
static struct join_shared *
findshared(struct join *j, uint64_t h)
{
	size_t i;

	if (h == 0)
		return j->zeroslot.n ? &j->zeroslot : NULL;
	if (!j->shared)
		return NULL;
	i = sharedbit(j, h);
	if (!(j->sharedbit[i / 64] >> (i % 64) & 1))
		return NULL;
	for (i = sharedplace(j, h); j->shared[i].h; i = (i + 1) & j->sharedmask)
		if (j->shared[i].h == h)
			return &j->shared[i];
	return NULL;
}

static uint64_t
count(struct join *j, size_t d, unsigned k, uint64_t h)
{
	struct join_shared *s;

	if (j->ext)
		return j->ext->df(j->ext->ctx, d, k, h);
	s = findshared(j, h);
	return s ? s->n : 1;
}

/* Whether the sketches of documents a and b are identical. */
static int
samesketch(const struct join *j, size_t a, size_t b)
{
	return j->hn[a] == j->hn[b] && j->nsh[a] == j->nsh[b] &&
	    memcmp(j->hv + j->hoff[a], j->hv + j->hoff[b], j->hn[a] * sizeof *j->hv) == 0;
}

/*
 * Mark in repeat every sketch identical to one before it (exact copies of
 * a page), so that copies count once for the weights and no pair's SIM
 * depends on how many copies of its pages exist. Each sketch is placed in
 * a table by a digest under a key drawn for the run, so that no forged
 * sketches crowd it; sketches of equal digests are compared in full, so
 * that no collision merges different ones. Returns the number of
 * distinct sketches.
 */
static size_t
distinct(struct join *j, unsigned char *repeat)
{
	uint64_t *digest, k0 = sip_runkey(8), k1 = sip_runkey(9);
	uint32_t *slot, e;
	size_t d, i, cap, mask, ndistinct = 0, ndocs = j->ndocs;

	for (cap = 16; cap < 2 * ndocs; cap *= 2)	/* load <= 1/2 */
		;
	mask = cap - 1;
	digest = ereallocarray(NULL, ndocs ? ndocs : 1, sizeof *digest);
	slot = ereallocarray(NULL, cap, sizeof *slot);
	memset(slot, 0xff, cap * sizeof *slot);	/* UINT32_MAX: empty */
	for (d = 0; d < ndocs; d++) {
		digest[d] = siphash(k0, k1 ^ j->nsh[d], j->hv + j->hoff[d],
		    j->hn[d] * sizeof *j->hv, 1, 3, NULL);
		repeat[d] = 0;
		for (i = digest[d] & mask; (e = slot[i]) != UINT32_MAX; i = (i + 1) & mask)
			if (digest[e] == digest[d] && samesketch(j, e, d)) {
				repeat[d] = 1;
				break;
			}
		if (!repeat[d]) {
			slot[i] = (uint32_t)d;
			ndistinct++;
		}
	}
	free(slot);
	free(digest);
	return ndistinct;
}

/* How many of document d's hashes make candidates: none if it is too small to pair. */
static unsigned
nprefix(const struct join *j, size_t d)
{
	if (j->nsh[d] < j->opt.minsize)
		return 0;
	return j->hn[d] < JOIN_PREFIX ? j->hn[d] : JOIN_PREFIX;
}

/*
 * How many of document d's hashes are counted: all, for the weights;
 * with the counts held elsewhere (join_setdf), those that make
 * candidates only.
 */
static unsigned
counted(const struct join *j, size_t d)
{
	return j->ext ? nprefix(j, d) : j->hn[d];
}

/*
 * Count the hashes held by more than one sketch, a sixteenth of them at a
 * time (sorted, then runs), so that memory beyond the sketches stays
 * small: for the candidates, every sketch holding it; for the weights,
 * the distinct ones (repeat[d] 0). Within a sixteenth the low bits of the
 * hashes are all the same: they carry whether the sketch is a repeat, so
 * that a run of one hash has its distinct sketches first. When half
 * of the hashes at most are counted (the candidates' only), they are
 * dealt to their parts in one pass instead of gathered in sixteen.
 */
static void
countshared(struct join *j, const unsigned char *repeat)
{
	const uint64_t *hv = j->hv;
	uint64_t *part, *dup = NULL, *v, h;
	size_t parts[PASSES] = { 0 }, at[PASSES], most = 0, total = 0, dupcap = 0, ndup = 0;
	size_t n, i, k, m, cap, d;
	unsigned p;
	int dealt;

	for (d = 0; d < j->ndocs; d++)
		for (i = j->hoff[d]; i < j->hoff[d] + counted(j, d); i++)
			parts[hv[i] & (PASSES - 1)]++;
	for (p = 0; p < PASSES; total += parts[p++])
		if (parts[p] > most)
			most = parts[p];
	dealt = total <= j->nhv / 2;
	/* + 1: see the gather */
	part = ereallocarray(NULL, (dealt ? total : most) + 1, sizeof *part);
	for (p = 0, n = 0; dealt && p < PASSES; n += parts[p++])
		at[p] = n;
	for (d = 0; dealt && d < j->ndocs; d++)
		for (i = j->hoff[d]; i < j->hoff[d] + counted(j, d); i++)
			part[at[hv[i] & (PASSES - 1)]++] = (hv[i] & ~(uint64_t)(PASSES - 1)) | repeat[d];
	for (p = 0, v = part; p < PASSES; v += dealt ? parts[p] : 0, p++) {
		n = dealt ? parts[p] : 0;
		/* without a branch: the part of a hash is as good as random */
		for (d = 0; !dealt && d < j->ndocs; d++)
			for (i = j->hoff[d]; i < j->hoff[d] + counted(j, d); i++) {
				part[n] = (hv[i] & ~(uint64_t)(PASSES - 1)) | repeat[d];
				n += (hv[i] & (PASSES - 1)) == p;
			}
		radix_sort64(v, n);
		for (i = 0; i < n; i = k) {
			h = v[i] & ~(uint64_t)(PASSES - 1);
			for (m = i; m < n && v[m] == h; m++)
				;
			for (k = m; k < n && (v[k] & ~(uint64_t)(PASSES - 1)) == h; k++)
				;
			if (k - i < 2)
				continue;
			egrow(&dup, &dupcap, ndup + 2, sizeof *dup);
			dup[ndup++] = h | p;
			dup[ndup++] = m - i;	/* the distinct sketches holding it */
		}
	}
	free(part);
	for (cap = 16; cap < ndup; cap *= 2)	/* ndup / 2 hashes, load <= 1/2 */
		;
	if (ndup) {
		j->shared = ecalloc(cap, sizeof *j->shared);
		j->sharedmask = cap - 1;
		j->sharedk0 = sip_runkey(5);
		j->sharedk1 = sip_runkey(6);
		for (j->sharedbits = 9; j->sharedbits < 40 && ((uint64_t)1 << j->sharedbits) < 4 * (uint64_t)ndup;
		    j->sharedbits++)
			;
		j->sharedbit = ecalloc(((size_t)1 << j->sharedbits) / 64, sizeof *j->sharedbit);
		for (i = 0; i < ndup; i += 2)
			addshared(j, dup[i], dup[i + 1]);
	}
	free(dup);
}

/* The distinct sketches' largest hashes, sorted, for the weights. */
static void
reachsort(struct join *j, const unsigned char *repeat)
{
	size_t d, b, n = 0;

	j->reach = ereallocarray(NULL, j->ndistinct ? j->ndistinct : 1, sizeof *j->reach);
	for (d = 0; d < j->ndocs; d++)
		if (!repeat[d])
			j->reach[n++] = j->hn[d] < j->nsh[d] ?
			    j->hv[j->hoff[d] + j->hn[d] - 1] : UINT64_MAX;
	radix_sort64(j->reach, n);
	for (j->reachbits = 8; j->reachbits < 24 && (size_t)1 << j->reachbits < n;
	    j->reachbits++)
		;
	j->reachidx = ereallocarray(NULL, ((size_t)1 << j->reachbits) + 1, sizeof *j->reachidx);
	for (b = d = 0; b <= (size_t)1 << j->reachbits; b++) {
		/* the first hash of bucket b; the last entry is past them all */
		while (d < n && (b == (size_t)1 << j->reachbits ||
		    j->reach[d] >> (64 - j->reachbits) < b))
			d++;
		j->reachidx[b] = (uint32_t)d;
	}
}

void
join_count(struct join *j)
{
	/* calloc: every sketch counts when no weight depends on the counts */
	unsigned char *repeat = ecalloc(j->ndocs ? j->ndocs : 1, 1);

	/* calloc: the pages of documents never verified are never touched */
	j->wv = ecalloc(j->nhv ? j->nhv : 1, sizeof *j->wv);
	if (j->ext)	/* the counts are the collection's, held elsewhere */
		j->ndistinct = j->ext->ndistinct;
	else
		j->ndistinct = j->opt.rarity > 0 ? distinct(j, repeat) : j->ndocs;
	countshared(j, repeat);
	if (j->opt.rarity > 0 && !j->ext)
		reachsort(j, repeat);
	free(repeat);
	radix_free();	/* the sorts are done: their scratch goes before the runs */
}

/*
 * The candidate runs (struct join_shared): counted, each given its place
 * in post, then filled in input order.
 */
void
join_runs(struct join *j)
{
	struct join_shared *s;
	size_t d, i, total = 0;
	unsigned k, n;

	for (d = 0; d < j->ndocs; d++)
		for (k = 0, n = nprefix(j, d); k < n; k++)
			if ((s = findshared(j, j->hv[j->hoff[d] + k])))
				s->ncand++;
	for (i = 0; j->shared && i <= j->sharedmask; i++) {
		j->shared[i].end = total;	/* its start, until it is filled */
		total += j->shared[i].ncand;
	}
	j->zeroslot.end = total;
	total += j->zeroslot.ncand;
	j->post = ereallocarray(NULL, total ? total : 1, sizeof *j->post);
	for (d = 0; d < j->ndocs; d++)
		for (k = 0, n = nprefix(j, d); k < n; k++)
			if ((s = findshared(j, j->hv[j->hoff[d] + k])))
				j->post[s->end++] = (uint32_t)d;
}

void
join_prepare(struct join *j)
{
	join_end(j);
	join_count(j);
	join_runs(j);
}

/*
 * The number of sketches whose largest hash is below h: reach is sorted,
 * and reachidx[b] is the number of them below the first hash of bucket b
 * (the top reachbits bits of a hash), so that a search is in one bucket.
 */
static size_t
reachbelow(const struct join *j, uint64_t h)
{
	size_t b = (size_t)(h >> (64 - j->reachbits)), lo = j->reachidx[b];

	return lo + radix_lowerbound64(j->reach + lo, j->reachidx[b + 1] - lo, h);
}

/*
 * A sketch can hold h only if h is at most its largest hash (any sketch of
 * a page with fewer shingles than the size can), so df is the number of
 * sketches holding h, scaled up by the share of sketches that could;
 * simjoin counts distinct sketches (join_int.h).
 */
double
join_weight(unsigned rarity, uint64_t count, uint64_t ndocs, uint64_t can)
{
	double df;

	if (rarity == 0)
		return 1;
	df = (double)count * (double)ndocs / (double)can;
	return df <= rarity ? 1 : rarity / df;
}

/*
 * The weight of hash h: min(1, rarity / df), where df estimates the number
 * of distinct pages holding its shingle (join_int.h).
 */
static double
weight(struct join *j, size_t d, unsigned k, uint64_t h)
{
	uint64_t n;
	size_t b;
	unsigned rarity = j->opt.rarity;

	if (rarity == 0)
		return 1;
	n = count(j, d, k, h);
	/* a bound of the sketches below h that weighs 1 already spares the search */
	if (j->ext && j->ext->bound && (b = j->ext->bound(j->ext->ctx, h)) < j->ndistinct &&
	    join_weight(rarity, n, j->ndistinct, j->ndistinct - b) == 1)
		return 1;
	return join_weight(rarity, n, j->ndistinct,
	    j->ndistinct - (j->ext ? j->ext->below(j->ext->ctx, h) : reachbelow(j, h)));
}

static int
cmpu32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The pairs are made a document at a time (its partners, from the
 * candidate runs of its hashes, made distinct by a mark and sorted), so
 * that memory holds one document's partners, never all the pairs.
 */
void
join_candidates(struct join *j, void (*visit)(uint32_t, uint32_t, void *), void *ctx)
{
	struct join_shared *s;
	uint32_t *mark, *part = NULL, *run, other;
	size_t partcap = 0, npart, d, i, k, lo, hi, first;
	unsigned m, n;

	/* mark[x] = d + 1: x is already a partner of d */
	mark = ecalloc(j->ndocs ? j->ndocs : 1, sizeof *mark);
	first = j->queries ? j->ncoll : 0;
	for (d = first; d < j->ndocs; d++) {
		if (j->tick && ((d - first) & 1023) == 0)
			j->tick(d - first, j->ndocs - first, j->tickctx);
		npart = 0;
		for (m = 0, n = nprefix(j, d); m < n; m++) {
			if (!(s = findshared(j, j->hv[j->hoff[d] + m])) || s->ncand < 2)
				continue;
			run = j->post + s->end - s->ncand;
			k = radix_lowerbound32(run, s->ncand, (uint32_t)d);
			/*
			 * In query mode d is the later of a pair: those before it
			 * among the first RUNMAX; else the earlier: those after it
			 * if it is among the first RUNMAX.
			 */
			if (j->queries) {
				lo = 0;
				hi = k < JOIN_RUNMAX ? k : JOIN_RUNMAX;
			} else {
				lo = k + 1;
				hi = k < JOIN_RUNMAX ? s->ncand : 0;
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
			if (j->queries)
				visit(part[i], (uint32_t)d, ctx);
			else
				visit((uint32_t)d, part[i], ctx);
		}
	}
	if (j->tick)
		j->tick(j->ndocs - first, j->ndocs - first, j->tickctx);
	free(mark);
	free(part);
}

void
join_progress(struct join *j, void (*tick)(size_t, size_t, void *), void *ctx)
{
	j->tick = tick;
	j->tickctx = ctx;
}

/* The weight of document d's k-th hash, computed once (a weight is never 0). */
static float
weightof(struct join *j, size_t d, unsigned k)
{
	float *w = j->wv + j->hoff[d] + k;

	if (*w == 0)
		*w = (float)weight(j, d, k, j->hv[j->hoff[d] + k]);
	return *w;
}

const float *
join_weights(struct join *j, size_t d)
{
	unsigned k;

	for (k = 0; k < j->hn[d]; k++)
		weightof(j, d, k);
	return j->wv + j->hoff[d];
}

/*
 * Estimate from the union of the two sketches cut to the size: its hashes
 * in both stand for the shared shingles. *sim gets the weighted Jaccard
 * similarity, *nshared the hashes in both, *nunion those of the union.
 */
static void
estimate(const struct join_sketch *a, const struct join_sketch *b, unsigned size, double *sim,
    unsigned *nshared, unsigned *nunion)
{
	const uint64_t *x = a->h, *y = b->h;
	const float *wx = a->w, *wy = b->w;
	unsigned i = 0, k = 0, u = 0, both = 0, lim = size ? size : UINT_MAX;
	unsigned na = a->n, nb = b->n;
	double num = 0, den = 0;

	/*
	 * The merge, without a branch on which side is smaller (as good as
	 * random); the sums are made in the same order as one at a time.
	 */
	while (u < lim && i < na && k < nb) {
		uint64_t xv = x[i], yv = y[k];
		unsigned le = xv <= yv, ge = yv <= xv;
		double w = le ? wx[i] : wy[k];

		den += w;
		num += le & ge ? w : 0;
		both += le & ge;
		i += le;
		k += ge;
		u++;
	}
	for (; u < lim && i < na; u++)
		den += wx[i++];
	for (; u < lim && k < nb; u++)
		den += wy[k++];
	*sim = den > 0 ? num / den : 0;
	*nshared = both;
	*nunion = u;
}

/*
 * Whether the containment reports a pair of pages of nsha and nshb
 * shingles whose union of u hashes has both in both sketches.
 */
static int
contained(const struct join_opt *opt, uint64_t nsha, uint64_t nshb, unsigned both, unsigned u)
{
	uint64_t small;

	if (opt->cthresh < 0 || both == 0)
		return 0;
	/*
	 * |A & B| = J (|A| + |B|) / (1 + J), J = both / u, compared with
	 * the smaller set multiplied out, without a division, so that a
	 * containment of exactly the limit is not lost to rounding.
	 */
	small = nsha < nshb ? nsha : nshb;
	return (double)both * (double)(nsha + nshb) >=
	    opt->cthresh * (double)small * (double)(u + both);
}

int
join_verify(const struct join_opt *opt, unsigned size, const struct join_sketch *a,
    const struct join_sketch *b, double *sim)
{
	unsigned both, u;

	if (a->nsh < opt->minsize || b->nsh < opt->minsize)
		return 0;
	estimate(a, b, size, sim, &both, &u);
	if (*sim >= opt->thresh)
		return 1;
	return contained(opt, a->nsh, b->nsh, both, u);
}

/*
 * Whether the pair of documents a and b cannot be reported, found with
 * as few weights as can be: most candidates share a common hash or two
 * and nothing else, and a weight may cost a look-up in an index. The
 * union is walked as estimate walks it, the weights computed as they come
 * and the sums made in its order; num can gain at most 1 a shared hash
 * still to come, and den only grows, so that once (num + shared to come)
 * < thresh * den (with a margin for the rounding of the sums) the pair is
 * refused. A pair not refused has every weight of its union computed.
 */
static int
hopeless(struct join *j, uint32_t a, uint32_t b)
{
	const uint64_t *x = j->hv + j->hoff[a], *y = j->hv + j->hoff[b];
	unsigned i, k, u, both, lim = j->size ? j->size : UINT_MAX;
	unsigned na = j->hn[a], nb = j->hn[b];
	double num = 0, den = 0, w, t = j->opt.thresh;
	int check;

	for (i = k = u = both = 0; u < lim && i < na && k < nb; u++) {
		unsigned le = x[i] <= y[k], ge = y[k] <= x[i];

		both += le & ge;
		i += le;
		k += ge;
	}
	u += na - i < lim - u ? na - i : lim - u;
	u += nb - k < lim - u ? nb - k : lim - u;
	/* a pair the containment reports is reported with its SIM: all of it */
	check = !contained(&j->opt, j->nsh[a], j->nsh[b], both, u);
	for (i = k = u = 0; u < lim && (i < na || k < nb); u++) {
		if (k == nb || (i < na && x[i] < y[k])) {
			den += weightof(j, a, i++);
		} else if (i == na || y[k] < x[i]) {
			den += weightof(j, b, k++);
		} else {
			w = weightof(j, a, i++);
			weightof(j, b, k++);
			den += w;
			num += w;
			both--;
		}
		if (check && (num + both) * (1 + 1e-9) < t * den)
			return 1;
	}
	return 0;
}

int
join_similar(struct join *j, uint32_t a, uint32_t b, double *sim)
{
	struct join_sketch x, y;

	if (j->nsh[a] < j->opt.minsize || j->nsh[b] < j->opt.minsize || hopeless(j, a, b))
		return 0;
	x.h = j->hv + j->hoff[a];
	x.w = j->wv + j->hoff[a];	/* the weights estimate reads: hopeless made them */
	x.n = j->hn[a];
	x.nsh = j->nsh[a];
	y.h = j->hv + j->hoff[b];
	y.w = j->wv + j->hoff[b];
	y.n = j->hn[b];
	y.nsh = j->nsh[b];
	return join_verify(&j->opt, j->size, &x, &y, sim);
}

/* Where join_pairs and join_clusters take a verified pair. */
struct verify {
	struct join *j;
	void (*pair)(uint32_t, uint32_t, double, void *);
	void *ctx;
	uint32_t *parent;	/* the clusters, or NULL */
	unsigned char *kept;	/* the documents to keep, or NULL */
};

static void
verify(uint32_t a, uint32_t b, void *ctx)
{
	struct verify *v = ctx;
	double sim;

	if (!join_similar(v->j, a, b, &sim))
		return;
	if (v->kept)
		join_keep(v->kept, a, b);
	else if (v->parent)
		uf_unite(v->parent, a, b);
	else if (v->j->queries)	/* the query comes first */
		v->pair(b, a, sim, v->ctx);
	else
		v->pair(a, b, sim, v->ctx);
}

void
join_pairs(struct join *j, void (*pair)(uint32_t, uint32_t, double, void *), void *ctx)
{
	struct verify v = { j, pair, ctx, NULL, NULL };

	join_candidates(j, verify, &v);
}

/*
 * Pairs come with a before b, and each a's own pairs (x, a) before it is
 * the earlier of one: a's bit is final when it is read.
 */
void
join_keep(unsigned char *kept, uint32_t a, uint32_t b)
{
	if (join_kept(kept, a))
		kept[b / 8] &= (unsigned char)~(1u << (b % 8));
}

void
join_clusters(struct join *j, int unique, void (*doc)(uint32_t, uint32_t, void *), void *ctx)
{
	struct verify v = { j, NULL, NULL, NULL, NULL };
	size_t d;

	if (unique) {
		v.kept = emalloc(JOIN_KEEPBYTES(j->ndocs));
		memset(v.kept, 0xff, JOIN_KEEPBYTES(j->ndocs));
		join_candidates(j, verify, &v);
		for (d = j->queries ? j->ncoll : 0; d < j->ndocs; d++)
			if (join_kept(v.kept, (uint32_t)d))
				doc((uint32_t)d, (uint32_t)d, ctx);
		free(v.kept);
		return;
	}
	v.parent = ereallocarray(NULL, j->ndocs ? j->ndocs : 1, sizeof *v.parent);
	uf_init(v.parent, j->ndocs);
	join_candidates(j, verify, &v);
	for (d = j->queries ? j->ncoll : 0; d < j->ndocs; d++)
		doc((uint32_t)d, uf_find(v.parent, (uint32_t)d), ctx);
	free(v.parent);
}

size_t
join_ndocs(const struct join *j)
{
	return j->ndocs;
}

const char *
join_id(const struct join *j, uint32_t d, size_t *len)
{
	*len = (d + 1 < j->ndocs ? j->idoff[d + 1] : j->ids.n) - j->idoff[d];
	return j->ids.p + j->idoff[d];
}
