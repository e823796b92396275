/*
 * join.c: near-duplicate pairs from bottom-k sketches: candidates from
 * shared hashes, verified by an estimate of rarity-weighted Jaccard
 * similarity (join.h).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "join_int.h"
#include "radix.h"
#include "siphash.h"
#include "sketch.h"
#include "uf.h"

#define JOIN_SCREEN	((size_t)1 << 19)	/* pairs screened at once: 8 MB */
#define JOIN_BLOCK	((size_t)1 << 20)	/* words of the file read at once: 8 MB */
#define PASSES	16	/* count in parts of 1/16 of the hashes, by their low bits */
#define REPEAT	1	/* countshared: the sketch is a repeat */
#define CAND	2	/* countshared: the hash is one of its candidates */
#define PARTBUF	4096	/* hashes dealt to a part before they are written */
#define JOIN_WAHEAD	16	/* weights made together (weighahead) */

struct join *
join_new(const struct join_opt *opt)
{
	struct join *j = ecalloc(1, sizeof *j);

	j->opt = *opt;
	wtab_init(&j->seen);
	j->dk0 = sip_runkey(8);
	j->dk1 = sip_runkey(9);
	j->memmax = JOIN_MEMMAX;
	return j;
}

void
join_inmemory(struct join *j)
{
	j->memmax = SIZE_MAX;
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
	size_t i;

	if (!j)
		return;
	seendone(j);
	free(j->ids.p);
	free(j->idoff);
	free(j->nsh);
	free(j->hoff);
	free(j->hn);
	free(j->digest);
	if (j->spill)
		fclose(j->spill);
	free(j->wbuf);
	free(j->mem);
	for (i = 0; i < sizeof j->win / sizeof j->win[0]; i++)
		if (j->win[i].map)
			munmap(j->win[i].map, j->win[i].maplen);
	free(j->slot);
	free(j->held);
	free(j->blk);
	free(j->sharedkey);
	free(j->sharedn);
	free(j->ncand);
	free(j->runend);
	free(j->sharedidx);
	hfilter_free(&j->sharedf);
	free(j->post);
	free(j->reach);
	free(j->reachidx);
	if (j->ext && j->ext->release)
		j->ext->release(j->ext);
	free(j);
}

static void spillwrite(struct join *, const uint64_t *, size_t, size_t);
static void unalias(struct join *);

/* The spill file from now on, with what memory held. */
static void
tofile(struct join *j)
{
	uint64_t *mem = j->mem;
	size_t len = j->memlen;

	j->spill = etmpfile();
	unalias(j);	/* refilled from the file */
	j->mem = NULL;
	j->memlen = j->memcap = 0;
	spillwrite(j, mem, len, 0);
	free(mem);
}

/*
 * Room for the words up to end, made before pointers into memory are held
 * (memory may move as it grows).
 */
static void
spillreserve(struct join *j, size_t end)
{
	if (j->spill)
		return;
	if (end > j->memmax)
		tofile(j);
	else if (end > j->memcap)
		egrow(&j->mem, &j->memcap, end, sizeof *j->mem);
}

/* Write n hashes at hash at of the spill file; an error ends the run. */
static void
spillwrite(struct join *j, const uint64_t *h, size_t n, size_t at)
{
	const char *p = (const char *)h;
	size_t left = n * sizeof *h;
	off_t off = (off_t)(at * sizeof *h);
	ssize_t w;

	if (!j->spill && at + n <= j->memmax) {
		spillreserve(j, at + n);
		if (at > j->memlen)
			memset(j->mem + j->memlen, 0, (at - j->memlen) * sizeof *j->mem);
		if (n)
			memcpy(j->mem + at, h, n * sizeof *h);
		if (at + n > j->memlen)
			j->memlen = at + n;
		return;
	}
	if (!j->spill)
		tofile(j);
	for (; left > 0; p += w, left -= (size_t)w, off += w)
		if ((w = pwrite(fileno(j->spill), p, left, off)) < 0 && errno != EINTR)
			eprintf("temporary file:");
		else if (w < 0)
			w = 0;
}

/* Read n hashes at hash at of the spill file. */
static void
spillread(const struct join *j, uint64_t *h, size_t n, size_t at)
{
	char *p = (char *)h;
	size_t left = n * sizeof *h;
	off_t off = (off_t)(at * sizeof *h);
	ssize_t r;

	if (!j->spill) {
		if (at + n > j->memlen)
			eprintf("temporary file: truncated");
		if (n)
			memcpy(h, j->mem + at, n * sizeof *h);
		return;
	}
	for (; left > 0; p += r, left -= (size_t)r, off += r)
		if ((r = pread(fileno(j->spill), p, left, off)) == 0)
			eprintf("temporary file: truncated");
		else if (r < 0 && errno != EINTR)
			eprintf("temporary file:");
		else if (r < 0)
			r = 0;
}

/* The hashes added are all in the file. */
static void
spillflush(struct join *j)
{
	if (j->nwbuf)
		spillwrite(j, j->wbuf, j->nwbuf, j->spilled);
	j->spilled += j->nwbuf;
	j->nwbuf = 0;
}

/*
 * Document d's hashes through window w, mapped anew from the page that
 * holds them if they are not in it: valid until w is mapped again. A
 * mapping, not a copy: the passes in order read the file as fast as
 * memory, and only the windows' pages are resident.
 */
static const uint64_t *
winget(struct join *j, struct join_win *w, size_t d)
{
	static const uint64_t none[1];
	size_t at = j->hoff[d], n = j->hn[d], page = (size_t)sysconf(_SC_PAGESIZE), off;

	if (n == 0)
		return none;
	if (!j->spill) {
		spillflush(j);
		if (!j->spill) {
			w->used = ++j->winclock;
			return j->mem + at;
		}
	}
	if (!w->map || at < w->start || at + n > w->start + w->n) {
		spillflush(j);
		if (w->map)
			munmap(w->map, w->maplen);
		off = at * sizeof *w->h / page * page;
		w->maplen = JOIN_WIN * sizeof *w->h;
		if (w->maplen > j->spilled * sizeof *w->h - off)
			w->maplen = j->spilled * sizeof *w->h - off;
		w->map = mmap(NULL, w->maplen, PROT_READ, MAP_SHARED, fileno(j->spill), (off_t)off);
		if (w->map == MAP_FAILED) {
			w->map = NULL;
			eprintf("temporary file: mmap:");
		}
		w->h = w->map;
		w->start = off / sizeof *w->h;
		w->n = w->maplen / sizeof *w->h;
	}
	w->used = ++j->winclock;
	return w->h + (at - w->start);
}

static int
inwin(const struct join *j, const struct join_win *w, size_t d)
{
	if (!j->spill)
		return 1;
	return w->map && j->hoff[d] >= w->start && j->hoff[d] + j->hn[d] <= w->start + w->n;
}

/* The words after a sketch of n hashes that keep its weights in the file. */
static size_t
wwords(size_t n)
{
	return (n + 1) / 2;
}

/* Where document d's words end: its hashes and the room for their weights. */
static size_t
wordsend(const struct join *j, size_t d)
{
	return j->hoff[d] + j->hn[d] + wwords(j->hn[d]);
}

/* Whether document d's words are in memory: all of them, or its block's. */
static int
inmem(const struct join *j, size_t d)
{
	return !j->spill || (j->hoff[d] >= j->blkstart &&
	    wordsend(j, d) <= j->blkstart + j->blklen);
}

/* Slot s's weights back to the file, if it made any. */
static void
slotflush(struct join *j, struct join_slot *s)
{
	size_t d = s->d;

	if (!s->dirty || j->nowrite) {
		s->dirty = 0;	/* (made again if asked for) */
		return;
	}
	memcpy(s->hbuf, s->wbuf, j->hn[d] * sizeof *s->wbuf);
	spillwrite(j, s->hbuf, wwords(j->hn[d]), j->hoff[d] + j->hn[d]);
	s->dirty = 0;
}

/* The slots that point into memory emptied: it moves, or goes. */
static void
unalias(struct join *j)
{
	size_t i;

	for (i = 0; j->slot && i < JOIN_SLOTS; i++)
		if (j->slot[i].h != j->slot[i].hbuf)
			j->slot[i].d = SIZE_MAX;
}

/* Slot s pointed at its sketch in memory (inmem). */
static void
alias(const struct join *j, struct join_slot *s)
{
	static uint64_t none[1];
	size_t d = s->d;
	uint64_t *p;

	if (j->hn[d] == 0) {	/* memory may hold no words at all */
		s->h = none;
		s->w = (float *)none;
		return;
	}
	if (j->spill) {
		p = j->blk + (j->hoff[d] - j->blkstart);
	} else {
		if (wordsend(j, d) > j->memlen)
			eprintf("temporary file: truncated");
		p = j->mem + j->hoff[d];
	}
	s->h = p;
	s->w = (float *)(p + j->hn[d]);
}

/*
 * Document d's sketch read back into a slot, with the weights made so far
 * (0 until made), unless it is there already: its own, or the next one if
 * its own holds keep (the other document of a pair). Valid until that
 * slot is refilled; the weights it made are written back then, so that
 * each is made once. While the "file" is memory a slot points into it:
 * nothing is copied, and the weights are made in place.
 */
static struct join_slot *
slotof(struct join *j, size_t d, const struct join_slot *keep)
{
	struct join_slot *s, *t;
	size_t i;

	if (!j->slot) {
		j->slot = ereallocarray(NULL, JOIN_SLOTS, sizeof *j->slot);
		for (i = 0; i < JOIN_SLOTS; i++) {
			j->slot[i].d = SIZE_MAX;
			j->slot[i].h = j->slot[i].hbuf;
			j->slot[i].w = j->slot[i].wbuf;
			j->slot[i].dirty = 0;
		}
	}
	/* first, so that memory does not move under the slot of a pair's other */
	spillflush(j);
	s = &j->slot[d % JOIN_SLOTS];
	t = &j->slot[(d + 1) % JOIN_SLOTS];
	if (t->d == d)
		s = t;
	if (s->d == d) {
		if (s->h != s->hbuf)	/* memory may have moved */
			alias(j, s);
		return s;
	}
	if (s == keep)
		s = t;
	slotflush(j, s);
	s->d = d;
	if (inmem(j, d)) {
		alias(j, s);
		return s;
	}
	spillread(j, s->hbuf, j->hn[d] + wwords(j->hn[d]), j->hoff[d]);
	memcpy(s->wbuf, s->hbuf + j->hn[d], j->hn[d] * sizeof *s->wbuf);
	s->h = s->hbuf;
	s->w = s->wbuf;
	return s;
}

void
join_dupbyid(struct join *j)
{
	j->dupbyid = 1;
}

uintmax_t
join_ndup(const struct join *j)
{
	return j->ndup;
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
		if (!j->dupbyid)
			rdr_warn(r, "duplicate ID (first at %s:%ju): skipped",
			    escname(j->seenfile[id]), j->seenline[id]);
		else if (said(&j->ndup))
			/* escaped as read: one line */
			weprintf("%.*s: a duplicate ID: the first is kept", (int)n, s);
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
		cap = j->doccap;
		egrow(&j->digest, &cap, d + 1, sizeof *j->digest);
		egrow(&j->hn, &j->doccap, d + 1, sizeof *j->hn);
	}
	j->idoff[d] = j->ids.n;
	obuf_add(&j->ids, s->id, s->idlen);
	j->nsh[d] = s->nshingles;
	j->hoff[d] = j->spilled + j->nwbuf;
	j->hn[d] = s->n;
	j->digest[d] = siphash(j->dk0, j->dk1 ^ s->nshingles, s->h, s->n * sizeof *s->h, 1, 3,
	    NULL);
	if (!j->wbuf)
		j->wbuf = ereallocarray(NULL, JOIN_WIN, sizeof *j->wbuf);
	if (j->nwbuf + s->n + wwords(s->n) > JOIN_WIN)
		spillflush(j);
	memcpy(j->wbuf + j->nwbuf, s->h, s->n * sizeof *j->wbuf);
	j->nwbuf += s->n;
	/* room for the weights, none made: 0 */
	memset(j->wbuf + j->nwbuf, 0, wwords(s->n) * sizeof *j->wbuf);
	j->nwbuf += wwords(s->n);
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
join_sketch(struct join *j, uint32_t d, struct sketch *s)
{
	struct join_win *w = &j->win[0];

	if (!inwin(j, w, d) && (inwin(j, &j->win[1], d) || j->win[1].used < w->used))
		w = &j->win[1];
	s->id = join_id(j, d, &s->idlen);
	s->nshingles = j->nsh[d];
	s->n = j->hn[d];
	s->h = (uint64_t *)winget(j, w, d);
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
		rdr_warn(r, "a sketch of %u hashes among sketches of %u", s.n, j->size ? j->size : j->maxwhole);
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

	/* the hashes stay where they are in the file: the others skip them */
	for (d = 0; d < j->ndocs; d++) {
		len = (d + 1 < j->ndocs ? j->idoff[d + 1] : j->ids.n) - j->idoff[d];
		if (d < j->ncoll && wtab_find(&j->seen, j->ids.p + j->idoff[d], len) != WTAB_NONE)
			continue;
		memmove(j->ids.p + idn, j->ids.p + j->idoff[d], len);
		j->idoff[kept] = idn;
		idn += len;
		j->hoff[kept] = j->hoff[d];
		j->digest[kept] = j->digest[d];
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
}

/* h rotated so that its low 4 bits (its sixteenth, countshared) come first. */
static uint64_t
rotated(uint64_t h)
{
	return h >> 4 | h << 60;
}

/* The shared hashes are all there: their filter and the buckets of their search. */
static void
sharedindex(struct join *j)
{
	size_t i, b, n = j->nshared, nb;

	/* a hash no other sketch holds (most) then costs no search */
	hfilter_init(&j->sharedf, n, 8);
	for (i = 0; i < n; i++)
		hfilter_add(&j->sharedf, j->sharedkey[i] << 4 | j->sharedkey[i] >> 60);
	/* about two hashes a bucket */
	for (j->sharedidxbits = 4; j->sharedidxbits < 40 &&
	    ((uint64_t)2 << j->sharedidxbits) < (uint64_t)n; j->sharedidxbits++)
		;
	nb = (size_t)1 << j->sharedidxbits;
	j->sharedidx = ereallocarray(NULL, nb + 1, sizeof *j->sharedidx);
	for (b = i = 0; b <= nb; b++) {
		/* the first hash of bucket b; the last entry is past them all */
		while (i < n && (b == nb || j->sharedkey[i] >> (64 - j->sharedidxbits) < b))
			i++;
		j->sharedidx[b] = i;
	}
}

/* The bucket of h's search among the shared hashes. */
static size_t
sharedbucket(const struct join *j, uint64_t h)
{
	return (size_t)(rotated(h) >> (64 - j->sharedidxbits));
}

/* The place of h in its bucket b of the shared hashes, or SIZE_MAX. */
static size_t
inbucket(const struct join *j, size_t b, uint64_t h)
{
	uint64_t r = rotated(h);
	size_t i, lo = j->sharedidx[b];

	i = lo + radix_lowerbound64(j->sharedkey + lo, j->sharedidx[b + 1] - lo, r);
	return i < j->sharedidx[b + 1] && j->sharedkey[i] == r ? i : SIZE_MAX;
}

/* The place of h among the shared hashes, or SIZE_MAX if one sketch holds it. */
static size_t
findshared(const struct join *j, uint64_t h)
{
	if (!j->nshared || !hfilter_has(&j->sharedf, h))
		return SIZE_MAX;
	return inbucket(j, sharedbucket(j, h), h);
}

/*
 * A look-up of h waits on three misses in turn: the filter's line and
 * its bucket's (asked for by askshared), then its keys' (askkeys, which
 * says whether the filter may hold h). Asked for a pass ahead, the
 * misses of a document's hashes overlap.
 */
static void
askshared(const struct join *j, uint64_t h, size_t b)
{
	PREFETCH(&j->sharedf.bit[hfilter_place(&j->sharedf, h) / 64]);
	PREFETCH(&j->sharedidx[b]);
}

static int
askkeys(const struct join *j, uint64_t h, size_t b)
{
	if (!hfilter_has(&j->sharedf, h))
		return 0;
	PREFETCH(&j->sharedkey[j->sharedidx[b]]);
	return 1;
}

/* findshared of the n (at most JOIN_PREFIX) hashes h of a document, into at. */
static void
findsharedn(const struct join *j, const uint64_t *h, unsigned n, size_t *at)
{
	size_t b[JOIN_PREFIX];
	unsigned i;

	for (i = 0; i < n; i++)
		at[i] = SIZE_MAX;
	if (!j->nshared)
		return;
	for (i = 0; i < n; i++)
		askshared(j, h[i], b[i] = sharedbucket(j, h[i]));
	for (i = 0; i < n; i++)
		if (!askkeys(j, h[i], b[i]))
			b[i] = SIZE_MAX;	/* one sketch holds it */
	for (i = 0; i < n; i++)
		if (b[i] != SIZE_MAX)
			at[i] = inbucket(j, b[i], h[i]);
}

static uint64_t
count(struct join *j, size_t d, unsigned k, uint64_t h)
{
	size_t i;

	if (j->ext)
		return j->ext->df(j->ext->ctx, d, k, h);
	i = findshared(j, h);
	return i != SIZE_MAX ? j->sharedn[i] : 1;
}

/* Whether the sketches of documents a and b are identical. */
static int
samesketch(struct join *j, size_t a, size_t b)
{
	struct join_slot *x, *y;

	if (j->hn[a] != j->hn[b] || j->nsh[a] != j->nsh[b])
		return 0;
	x = slotof(j, a, NULL);
	y = slotof(j, b, x);
	return memcmp(x->h, y->h, j->hn[a] * sizeof *x->h) == 0;
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
	const uint64_t *digest = j->digest;
	uint32_t *slot, e;
	size_t d, i, cap, mask, ndistinct = 0, ndocs = j->ndocs;

	for (cap = 16; cap < 2 * ndocs; cap *= 2)	/* load <= 1/2 */
		;
	mask = cap - 1;
	slot = ereallocarray(NULL, cap, sizeof *slot);
	memset(slot, 0xff, cap * sizeof *slot);	/* UINT32_MAX: empty */
	for (d = 0; d < ndocs; d++) {
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
 * With the counts held elsewhere and queries, a run serves only the
 * queries holding its hash: a filter of their candidate hashes (16 bits
 * each) lets countshared leave out most of the kept documents' hashes,
 * which no query holds. A hash it lets through wrongly only makes a run
 * no query reads. 0, f empty: every hash counts.
 */
static int
queryfilter(struct join *j, struct hfilter *f)
{
	const uint64_t *hv;
	size_t d, n = 0;
	unsigned i;

	if (!j->ext || !j->queries)
		return 0;
	for (d = j->ncoll; d < j->ndocs; d++)
		n += nprefix(j, d);
	hfilter_init(f, n, 16);
	for (d = j->ncoll; d < j->ndocs; d++)
		for (hv = winget(j, &j->win[2], d), i = 0; i < nprefix(j, d); i++)
			hfilter_add(f, hv[i]);
	return 1;
}

/*
 * Count the hashes held by more than one sketch, a sixteenth of them at a
 * time (sorted, then runs), so that memory beyond the sketches stays
 * small: for the weights, the distinct sketches holding it (repeat[d] 0);
 * for the candidates, those holding it among their candidate hashes
 * (nprefix), copies too. Within a sixteenth the low bits of the hashes
 * are all the same: they carry whether the sketch is a repeat (REPEAT)
 * and whether the hash is one of its candidates (CAND). The hashes are
 * dealt to their parts in one pass over the sketches: in memory when half
 * of them at most are counted (the candidates' only), else to the spill
 * file, after the sketches, a part read back at a time.
 */
static void
countshared(struct join *j, const unsigned char *repeat)
{
	struct join_win *w = &j->win[2];
	const uint64_t *hv;
	uint64_t *part, *v, h, *buf = NULL;
	size_t parts[PASSES] = { 0 }, at[PASSES], start[PASSES], nbuf[PASSES] = { 0 };
	size_t nshared[PASSES], most = 0, total = 0, base;
	size_t n, i, k, m, ns, d;
	uint32_t ndist, ncand;
	unsigned p, c;
	int dealt;
	struct hfilter qf = { NULL, 0 };
	int filtered = queryfilter(j, &qf);

	for (d = 0; d < j->ndocs; d++)
		for (hv = winget(j, w, d), i = 0; i < counted(j, d); i++)
			if (!filtered || hfilter_has(&qf, hv[i]))
				parts[hv[i] & (PASSES - 1)]++;
	for (p = 0; p < PASSES; total += parts[p++])
		if (parts[p] > most)
			most = parts[p];
	dealt = total <= j->nhv / 2;
	spillflush(j);
	base = j->spilled;
	if (!dealt)
		spillreserve(j, base + total);
	/* + 1: never empty */
	part = ereallocarray(NULL, (dealt ? total : most) + 1, sizeof *part);
	if (!dealt)
		buf = ereallocarray(NULL, PASSES * PARTBUF, sizeof *buf);
	for (p = 0, n = 0; p < PASSES; n += parts[p++])
		at[p] = start[p] = n;
	for (d = 0; d < j->ndocs; d++)
		for (hv = winget(j, w, d), i = 0, c = nprefix(j, d); i < counted(j, d); i++) {
			if (filtered && !hfilter_has(&qf, hv[i]))
				continue;
			p = hv[i] & (PASSES - 1);
			h = (hv[i] & ~(uint64_t)(PASSES - 1)) | (repeat[d] ? REPEAT : 0) |
			    (i < c ? CAND : 0);
			if (dealt) {
				part[at[p]++] = h;
				continue;
			}
			buf[p * PARTBUF + nbuf[p]++] = h;
			if (nbuf[p] == PARTBUF) {
				spillwrite(j, buf + p * PARTBUF, PARTBUF, base + at[p]);
				at[p] += PARTBUF;
				nbuf[p] = 0;
			}
		}
	for (p = 0; !dealt && p < PASSES; p++)
		spillwrite(j, buf + p * PARTBUF, nbuf[p], base + at[p]);
	free(buf);
	hfilter_free(&qf);
	/*
	 * Each part sorted, its shared hashes made two words each in its own
	 * first words (a run of at least two words gives them), kept there or
	 * written back to its place in the file: their number known, the
	 * arrays are made once, not grown by copies.
	 */
	for (p = 0, v = part; p < PASSES; v += dealt ? parts[p] : 0, p++) {
		n = parts[p];
		if (!dealt)
			spillread(j, part, n, base + start[p]);
		radix_sort64(v, n);
		for (i = 0, ns = 0; i < n; i = k) {
			h = v[i] & ~(uint64_t)(PASSES - 1);
			for (k = i; k < n && (v[k] & ~(uint64_t)(PASSES - 1)) == h; k++)
				;
			if (k - i < 2)
				continue;
			/* the distinct sketches holding it, and its candidates */
			for (m = i, ndist = ncand = 0; m < k; m++) {
				ndist += !(v[m] & REPEAT);
				ncand += !!(v[m] & CAND);
			}
			/* (2 ns + 1 < k: words of the runs already read) */
			v[2 * ns] = rotated(h | p);
			v[2 * ns + 1] = (uint64_t)ndist << 32 | ncand;
			ns++;
		}
		nshared[p] = ns;
		j->nshared += ns;
		if (!dealt)
			spillwrite(j, part, 2 * ns, base + start[p]);
	}
	/* in order: the sixteenths in turn, each sorted */
	j->sharedkey = ereallocarray(NULL, j->nshared + 1, sizeof *j->sharedkey);
	j->ncand = ereallocarray(NULL, j->nshared + 1, sizeof *j->ncand);
	j->sharedn = ereallocarray(NULL, j->nshared + 1, sizeof *j->sharedn);
	for (p = 0, k = 0; p < PASSES; p++) {
		v = part + (dealt ? start[p] : 0);
		if (!dealt)
			spillread(j, part, 2 * nshared[p], base + start[p]);
		for (i = 0; i < nshared[p]; i++, k++) {
			j->sharedkey[k] = v[2 * i];
			j->sharedn[k] = (uint32_t)(v[2 * i + 1] >> 32);
			j->ncand[k] = (uint32_t)v[2 * i + 1];
		}
	}
	free(part);
	/* the parts go: the file holds the sketches again */
	if (!dealt && j->spill && ftruncate(fileno(j->spill), (off_t)(base * sizeof *part)) < 0)
		eprintf("temporary file:");
	if (j->nshared)
		sharedindex(j);
}

/*
 * For each count c up to JOIN_ONEMAX, the hash up to which a hash of c
 * sketches weighs 1: the weight grows with the sketches that can hold it
 * (n of the reaches, n - below), so with below the most for which it is 1,
 * found by a search of join_weight itself, any hash up to reach[below]
 * has no more reaches below it and weighs 1 too.
 */
static void
weighsone(struct join *j, size_t n)
{
	size_t lo, hi, mid;
	unsigned c;

	j->weighsmask = 0;
	for (c = 1; c <= JOIN_ONEMAX; c++) {
		/* the most below in [0, n) for which it weighs 1, or none */
		for (lo = 0, hi = n; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (join_weight(j->opt.rarity, c, j->ndistinct, j->ndistinct - mid) == 1)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo > 0) {
			j->weighsone[c] = j->reach[lo - 1];
			j->weighsmask |= (uint32_t)1 << c;
		}
	}
}

/* The bucket of h among the reaches: its top reachbits bits. */
static size_t
reachbucket(const struct join *j, uint64_t h)
{
	return (size_t)(h >> (64 - j->reachbits));
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
			    winget(j, &j->win[2], d)[j->hn[d] - 1] : UINT64_MAX;
	radix_sort64(j->reach, n);
	for (j->reachbits = 8; j->reachbits < 24 && (size_t)1 << j->reachbits < n;
	    j->reachbits++)
		;
	j->reachidx = ereallocarray(NULL, ((size_t)1 << j->reachbits) + 1, sizeof *j->reachidx);
	for (b = d = 0; b <= (size_t)1 << j->reachbits; b++) {
		/* the first hash of bucket b; the last entry is past them all */
		while (d < n && (b == (size_t)1 << j->reachbits ||
		    reachbucket(j, j->reach[d]) < b))
			d++;
		j->reachidx[b] = (uint32_t)d;
	}
	weighsone(j, n);
}

void
join_count(struct join *j)
{
	/* calloc: every sketch counts when no weight depends on the counts */
	unsigned char *repeat = ecalloc(j->ndocs ? j->ndocs : 1, 1);

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
 * The candidate runs (struct join): counted, each given its place in
 * post, then filled in input order.
 */
void
join_runs(struct join *j)
{
	const uint64_t *h;
	size_t d, i, s, total = 0, at[JOIN_PREFIX];
	unsigned k, n;

	/* the runs' lengths are counted (countshared) */
	j->runend = ereallocarray(NULL, j->nshared + 1, sizeof *j->runend);
	for (i = 0; i < j->nshared; i++) {
		j->runend[i] = total;	/* its start, until it is filled */
		total += j->ncand[i];
	}
	j->post = ereallocarray(NULL, total ? total : 1, sizeof *j->post);
	for (d = 0; d < j->ndocs; d++) {
		h = winget(j, &j->win[2], d);
		findsharedn(j, h, n = nprefix(j, d), at);
		for (k = 0; k < n; k++)
			if ((s = at[k]) != SIZE_MAX)
				j->post[j->runend[s]++] = (uint32_t)d;
	}
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
 * and reachidx[b] is the number of them below the first hash of bucket b,
 * so that a search is in one bucket.
 */
static size_t
reachbelow(const struct join *j, uint64_t h)
{
	size_t b = reachbucket(j, h), lo = j->reachidx[b];

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
	if (n <= JOIN_ONEMAX && (j->weighsmask >> n & 1) && h <= j->weighsone[n])
		return 1;
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
 * Document d's partners, from the candidate runs of its hashes, made
 * distinct by a mark (mark[x] = d + 1: x is already one) and sorted, in
 * *part; returns how many.
 */
static size_t
partners(struct join *j, size_t d, uint32_t *mark, uint32_t **part, size_t *partcap)
{
	const uint64_t *h;
	uint32_t *run, other;
	size_t npart = 0, i, k, lo, hi, s, at[JOIN_PREFIX];
	unsigned m, n;

	h = winget(j, &j->win[2], d);
	findsharedn(j, h, n = nprefix(j, d), at);
	for (m = 0; m < n; m++) {
		if ((s = at[m]) == SIZE_MAX || j->ncand[s] < 2)
			continue;
		run = j->post + j->runend[s] - j->ncand[s];
		k = radix_lowerbound32(run, j->ncand[s], (uint32_t)d);
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
			hi = k < JOIN_RUNMAX ? j->ncand[s] : 0;
		}
		for (i = lo; i < hi; i++) {
			other = run[i];
			if (mark[other] == d + 1)
				continue;
			mark[other] = (uint32_t)(d + 1);
			egrow(part, partcap, npart + 1, sizeof **part);
			(*part)[npart++] = other;
		}
	}
	for (i = 1; i < npart && (*part)[i - 1] < (*part)[i]; i++)
		;
	if (i < npart)
		qsort(*part, npart, sizeof **part, cmpu32);
	return npart;
}

/* The first document paired: the first query in a query run, else the first. */
static size_t
firstpaired(const struct join *j)
{
	return j->queries ? j->ncoll : 0;
}

/* The marks partners takes, none set. */
static uint32_t *
newmark(const struct join *j)
{
	return ecalloc(j->ndocs ? j->ndocs : 1, sizeof(uint32_t));
}

/*
 * Document d's pairs are next: the progress is told every 1024, and a
 * process verifypar forked goes when the one that forked it has gone
 * (killed), after 64 documents at most: nobody takes its pairs.
 */
static void
atdoc(const struct join *j, size_t d)
{
	size_t first = firstpaired(j);

	if (j->tick && ((d - first) & 1023) == 0)
		j->tick(d - first, j->ndocs - first, j->tickctx);
	if (j->parent && (d & 63) == 0 && getppid() != j->parent)
		_exit(1);
}

/* The candidate pairs of documents from .. to - 1 (join_candidates). */
static void
candrange(struct join *j, uint32_t *mark, size_t from, size_t to,
    void (*visit)(uint32_t, uint32_t, void *), void *ctx)
{
	uint32_t *part = NULL;
	size_t partcap = 0, npart, d, i;

	for (d = from; d < to; d++) {
		atdoc(j, d);
		npart = partners(j, d, mark, &part, &partcap);
		for (i = 0; i < npart; i++) {
			if (j->queries)
				visit(part[i], (uint32_t)d, ctx);
			else
				visit((uint32_t)d, part[i], ctx);
		}
	}
	free(part);
}

/*
 * The pairs are made a document at a time, so that memory holds one
 * document's partners, never all the pairs.
 */
void
join_candidates(struct join *j, void (*visit)(uint32_t, uint32_t, void *), void *ctx)
{
	uint32_t *mark = newmark(j);
	size_t first = firstpaired(j);

	candrange(j, mark, first, j->ndocs, visit, ctx);
	if (j->tick)
		j->tick(j->ndocs - first, j->ndocs - first, j->tickctx);
	free(mark);
}

void
join_procs(struct join *j, unsigned procs)
{
	j->procs = procs;
}

void
join_progress(struct join *j, void (*tick)(size_t, size_t, void *), void *ctx)
{
	j->tick = tick;
	j->tickctx = ctx;
}

/*
 * The weights of slot s's hashes k to k + JOIN_WAHEAD not made yet, made
 * together: each waits on misses in turn (the filter and bucket of the
 * shared hashes, then their keys; the bucket of the reaches, then the
 * reaches), asked for from memory a pass ahead so that those of the
 * hashes overlap.
 */
static void
weighahead(struct join *j, struct join_slot *s, unsigned k)
{
	unsigned i, end = j->hn[s->d] - k < JOIN_WAHEAD ? j->hn[s->d] : k + JOIN_WAHEAD;
	uint64_t h;
	int local = !j->ext && j->opt.rarity > 0;

	for (i = k; local && i < end; i++)
		if (s->w[i] == 0) {
			h = s->h[i];
			if (j->nshared)
				askshared(j, h, sharedbucket(j, h));
			PREFETCH(&j->reachidx[reachbucket(j, h)]);
		}
	for (i = k; local && i < end; i++)
		if (s->w[i] == 0) {
			h = s->h[i];
			if (j->nshared)
				askkeys(j, h, sharedbucket(j, h));
			PREFETCH(&j->reach[j->reachidx[reachbucket(j, h)]]);
		}
	for (i = k; i < end; i++)
		if (s->w[i] == 0)
			s->w[i] = (float)weight(j, s->d, i, s->h[i]);
	if (s->w == s->wbuf)
		s->dirty = 1;
	else
		j->blkdirty = 1;
}

/*
 * The weight of the k-th hash of document d, in slot s: computed once
 * while it is there (a weight is never 0), with the next few.
 */
static float
weightof(struct join *j, struct join_slot *s, unsigned k)
{
	if (s->w[k] == 0)
		weighahead(j, s, k);
	return s->w[k];
}

const float *
join_weights(struct join *j, size_t d)
{
	struct join_slot *s = slotof(j, d, NULL);
	unsigned k;

	for (k = 0; k < j->hn[d]; k++)
		weightof(j, s, k);
	return s->w;
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

static size_t
heldslot(const struct join_held *t, uint64_t h)
{
	return (size_t)(h * t->key >> (64 - JOIN_HELDBITS));
}

static size_t
filterbit(const struct join_held *t, uint64_t h)
{
	return (size_t)(h * t->key >> (64 - JOIN_HELDBITS - JOIN_FILTERBITS) &
	    (((size_t)1 << JOIN_FILTERBITS) - 1));
}

/* The table of s's hashes, made unless it is the one held. */
static const struct join_held *
held(struct join *j, const struct join_slot *s)
{
	struct join_held *t = j->held;
	size_t i, mask = ((size_t)1 << JOIN_HELDBITS) - 1;
	unsigned k;

	if (!t) {
		t = j->held = emalloc(sizeof *t);
		t->d = SIZE_MAX;
		t->key = j->dk0 | 1;
	}
	if (t->d == s->d)
		return t;
	memset(t->at, 0, sizeof t->at);
	memset(t->filter, 0, sizeof t->filter);
	for (k = 0; k < j->hn[s->d]; k++) {
		i = filterbit(t, s->h[k]);
		t->filter[i / 64] |= (uint64_t)1 << i % 64;
		for (i = heldslot(t, s->h[k]); t->at[i]; i = (i + 1) & mask)
			;
		t->at[i] = (uint16_t)(k + 1);
	}
	t->d = s->d;
	return t;
}

/* How many of s's hashes the held table's sketch, t's, holds. */
static unsigned
heldcount(const struct join *j, const struct join_slot *s, const struct join_held *t,
    const uint64_t *th)
{
	size_t i, mask = ((size_t)1 << JOIN_HELDBITS) - 1;
	unsigned k, n = 0;

	for (k = 0; k < j->hn[s->d]; k++) {
		i = filterbit(t, s->h[k]);
		if (!(t->filter[i / 64] >> i % 64 & 1))
			continue;
		for (i = heldslot(t, s->h[k]); t->at[i]; i = (i + 1) & mask)
			if (th[t->at[i] - 1] == s->h[k]) {
				n++;
				break;
			}
	}
	return n;
}

/*
 * How many hashes both sketches hold, looked up in the table of the one
 * the pairs in turn have in common: the table's, else b if it is the
 * last pair's b, else a.
 */
static unsigned
sharedbound(struct join *j, const struct join_slot *sa, const struct join_slot *sb)
{
	const struct join_slot *in = sa, *of = sb;
	size_t hd = j->held ? j->held->d : SIZE_MAX;

	if (hd == sb->d || (hd != sa->d && sb->d == j->lastb)) {
		in = sb;
		of = sa;
	}
	j->lastb = sb->d;
	return heldcount(j, of, held(j, in), in->h);
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
hopeless(struct join *j, struct join_slot *sa, struct join_slot *sb)
{
	const uint64_t *x = sa->h, *y = sb->h;
	size_t a = sa->d, b = sb->d;
	unsigned i, k, u, both, lim = j->size ? j->size : UINT_MAX;
	unsigned na = j->hn[a], nb = j->hn[b];
	double num = 0, den = 0, w, t = j->opt.thresh;
	int check = 1;

	if (j->opt.cthresh < 0) {
		/*
		 * Without containment, the hashes both hold bound the shared
		 * ones of the union's first lim: counted by lookups in a
		 * table of the sketch the pairs in turn have in common
		 * (sharedbound), not by a merge whose steps wait on each
		 * other.
		 */
		both = sharedbound(j, sa, sb);
	} else {
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
	}
	for (i = k = u = 0; u < lim && (i < na || k < nb); u++) {
		if (k == nb || (i < na && x[i] < y[k])) {
			den += weightof(j, sa, i++);
		} else if (i == na || y[k] < x[i]) {
			den += weightof(j, sb, k++);
		} else {
			w = weightof(j, sa, i++);
			weightof(j, sb, k++);
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
	struct join_slot *sa, *sb;

	if (j->nsh[a] < j->opt.minsize || j->nsh[b] < j->opt.minsize)
		return 0;
	sa = slotof(j, a, NULL);
	sb = slotof(j, b, sa);
	if (hopeless(j, sa, sb))
		return 0;
	x.h = sa->h;
	x.w = sa->w;	/* the weights estimate reads: hopeless made them */
	x.n = j->hn[a];
	x.nsh = j->nsh[a];
	y.h = sb->h;
	y.w = sb->w;
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
	FILE *out;		/* the pairs go here instead (verifypar) */
};

/* A verified pair as verifypar's processes write it; a = UINT32_MAX: chunk b starts. */
struct verified {
	uint32_t a, b;
	double sim;
};

/* Pair a, b, verified, taken. */
static void
found(struct verify *v, uint32_t a, uint32_t b, double sim)
{
	struct verified r;

	if (v->out) {
		memset(&r, 0, sizeof r);	/* no padding left unset */
		r.a = a;
		r.b = b;
		r.sim = sim;
		if (fwrite(&r, sizeof r, 1, v->out) != 1)
			eprintf("temporary file:");
	} else if (v->kept)
		join_keep(v->kept, a, b);
	else if (v->parent)
		uf_unite(v->parent, a, b);
	else if (v->j->queries)	/* the query comes first */
		v->pair(b, a, sim, v->ctx);
	else
		v->pair(a, b, sim, v->ctx);
}

static void
verify(uint32_t a, uint32_t b, void *ctx)
{
	struct verify *v = ctx;
	double sim;

	if (join_similar(v->j, a, b, &sim))
		found(v, a, b, sim);
}

/*
 * The documents first .. last of the file read into memory as a block
 * (blkbegin), and back with their weights (blkend); the slots that hold
 * them are emptied first, the ones that point into the block after.
 */
static void
blkbegin(struct join *j, size_t first, size_t last)
{
	struct join_slot *s;
	size_t i;

	for (i = 0; j->slot && i < JOIN_SLOTS; i++) {
		s = &j->slot[i];
		slotflush(j, s);
		s->d = SIZE_MAX;
	}
	j->blkstart = j->hoff[first];
	j->blklen = wordsend(j, last) - j->blkstart;
	egrow(&j->blk, &j->blkcap, j->blklen, sizeof *j->blk);
	spillread(j, j->blk, j->blklen, j->blkstart);
	j->blkdirty = 0;
}

static void
blkend(struct join *j)
{
	if (j->blkdirty && !j->nowrite)
		spillwrite(j, j->blk, j->blklen, j->blkstart);
	unalias(j);
	j->blkstart = j->blklen = 0;
}

/*
 * The pending pairs, n of them (pend: 2 words a pair, the other document,
 * and the block's one << 32 | its place), of the block of documents
 * first .. last: verified in the order of their other documents, so that
 * each is read once for all its pairs, not once for each, while the
 * block stays in memory; those found taken in their places' order (sim:
 * their similarities by place).
 */
static void
screen(struct join *j, struct verify *v, uint64_t *pend, double *sim, size_t n,
    size_t first, size_t last)
{
	uint32_t a, b, other, fixed, at;
	size_t i, nin = 0;

	if (n == 0)
		return;
	blkbegin(j, first, last);
	radix_sort64kv(pend, n);	/* stable: the block's documents in order */
	for (i = 0; i < n; i++) {
		other = (uint32_t)pend[2 * i];
		fixed = (uint32_t)(pend[2 * i + 1] >> 32);
		at = (uint32_t)pend[2 * i + 1];
		a = j->queries ? other : fixed;
		b = j->queries ? fixed : other;
		if (!join_similar(j, a, b, &sim[at]))
			continue;
		pend[2 * nin] = at;
		pend[2 * nin + 1] = (uint64_t)a << 32 | b;
		nin++;
	}
	radix_sort64kv(pend, nin);
	for (i = 0; i < nin; i++)
		found(v, (uint32_t)(pend[2 * i + 1] >> 32), (uint32_t)pend[2 * i + 1],
		    sim[pend[2 * i]]);
	blkend(j);
}

/*
 * The pairs of documents from .. to - 1 verified in the order
 * join_candidates gives them (mark: as partners takes it). Past the
 * memory's hashes, a block of documents at a time (up to JOIN_SCREEN
 * pairs, and JOIN_BLOCK words of the file), with the pairs each makes
 * with its partners (a query with the kept documents before it, a
 * document with those after it), in another order (screen).
 */
static void
verifyrange(struct join *j, struct verify *v, uint32_t *mark, size_t from, size_t to)
{
	uint32_t *part = NULL;
	uint64_t *pend = NULL;
	double *sim = NULL;
	size_t partcap = 0, pendcap = 0, simcap = 0, npend = 0, npart, d, i, block;

	if (!j->spill) {
		candrange(j, mark, from, to, verify, v);
		return;
	}
	for (d = block = from; d < to; d++) {
		atdoc(j, d);
		npart = partners(j, d, mark, &part, &partcap);
		if (d > block && (npend + npart > JOIN_SCREEN ||
		    wordsend(j, d) - j->hoff[block] > JOIN_BLOCK)) {
			screen(j, v, pend, sim, npend, block, d - 1);
			npend = 0;
			block = d;
		}
		/* at once to a block's most, but for a document of a longer run */
		i = npart > JOIN_SCREEN ? npart : JOIN_SCREEN;
		egrow(&pend, &pendcap, 2 * i, sizeof *pend);
		egrow(&sim, &simcap, i, sizeof *sim);
		for (i = 0; i < npart; i++, npend++) {
			pend[2 * npend] = part[i];
			pend[2 * npend + 1] = (uint64_t)d << 32 | npend;
		}
	}
	if (d > block)
		screen(j, v, pend, sim, npend, block, d - 1);
	free(part);
	free(pend);
	free(sim);
}

/* total * t / JOIN_CHUNKS, rounded down, with no overflow. */
static uint64_t
cutat(uint64_t total, size_t t)
{
	return total / JOIN_CHUNKS * t + total % JOIN_CHUNKS * t / JOIN_CHUNKS;
}

/*
 * verifypar's chunks, of about equal work as the runs foretell it: a
 * document costs JOIN_DOCCOST, and 1 more for each partner a run gives
 * it (among the first JOIN_RUNMAX of a run of n, at place k: the n - k - 1
 * after it; a query: the kept ones before it, JOIN_RUNMAX at most),
 * counted again for a partner two runs give. Chunk c is the documents
 * start[c] .. start[c + 1] - 1; returns how many there are, at most
 * JOIN_CHUNKS, and in *work the work of them all.
 */
static size_t
chunks(const struct join *j, size_t first, size_t *start, uint64_t *allwork)
{
	uint32_t *work = ecalloc(j->ndocs ? j->ndocs : 1, sizeof *work);
	const uint32_t *run;
	uint64_t total = 0, sum = 0, add;
	size_t s, k, n, d, c = 0, t = 1;

	for (s = 0; s < j->nshared; s++) {
		if ((n = j->ncand[s]) < 2)
			continue;
		run = j->post + j->runend[s] - n;
		for (k = 0; k < n && (j->queries || k < JOIN_RUNMAX); k++) {
			if (j->queries)
				add = run[k] >= first ? (k < JOIN_RUNMAX ? k : JOIN_RUNMAX) : 0;
			else
				add = n - k - 1;
			add += work[run[k]];
			work[run[k]] = add < UINT32_MAX ? (uint32_t)add : UINT32_MAX;
		}
	}
	for (d = first; d < j->ndocs; d++)
		total += JOIN_DOCCOST + work[d];
	start[0] = first;
	for (d = first; d + 1 < j->ndocs && t < JOIN_CHUNKS; d++) {
		sum += JOIN_DOCCOST + work[d];
		if (sum < cutat(total, t))
			continue;
		/* a chunk ends here; the cuts it passed are made */
		start[++c] = d + 1;
		while (t < JOIN_CHUNKS && sum >= cutat(total, t))
			t++;
	}
	start[++c] = j->ndocs;
	free(work);
	*allwork = total;
	return c;
}

/* The chunk numbers b[0 .. n - 1] into the pipe fd, which is closed. */
static void
givechunks(int fd, const unsigned char *b, size_t n)
{
	if (write(fd, b, n) != (ssize_t)n)
		eprintf("pipe:");
	close(fd);
}

/* The next chunk number from the pipe fd (a byte), or -1 when there are none. */
static int
takechunk(int fd)
{
	unsigned char c;
	ssize_t r;

	while ((r = read(fd, &c, 1)) < 0)
		if (errno != EINTR)
			eprintf("pipe:");
	return r == 0 ? -1 : c;
}

/*
 * Every weight of the documents of the chunks of n documents it takes
 * from the pipe fd made and written to the file, a block at a time: the
 * first of verifypar's steps, past memory's hashes, so that then no
 * process makes a weight and none is written while another reads.
 */
static void
weighchunks(struct join *j, int fd, size_t n)
{
	size_t d, e, block, from, to;
	int c;

	while ((c = takechunk(fd)) >= 0) {
		from = (size_t)c * n;
		to = j->ndocs - from < n ? j->ndocs : from + n;
		for (block = from; block < to; block = d) {
			for (d = block + 1; d < to && wordsend(j, d) - j->hoff[block] <= JOIN_BLOCK; d++)
				;
			blkbegin(j, block, d - 1);
			for (e = block; e < d; e++)
				join_weights(j, e);
			blkend(j);
		}
	}
}

/*
 * One of verifypar's processes: the chunks it takes from the pipe fd (a
 * byte each) verified, their pairs written to out, each chunk's after a
 * mark of its number.
 */
static void
verifychunks(struct join *j, struct verify *v, int fd, const size_t *start, FILE *out)
{
	struct verify cv = *v;
	uint32_t *mark = newmark(j);
	int c;

	cv.out = out;
	while ((c = takechunk(fd)) >= 0) {
		found(&cv, UINT32_MAX, (uint32_t)c, 0);
		verifyrange(j, &cv, mark, start[c], start[c + 1]);
	}
	if (fflush(out) == EOF)
		eprintf("temporary file:");
	free(mark);
}

/*
 * The pairs verified by j->procs processes: this one and children forked
 * now, so that they share what it has made, each taking the next chunk
 * of documents (chunks) from a pipe and writing the pairs it verifies to
 * a scratch file of its own; then taken from the files in the chunks'
 * order, as one process verifies them. While they run no process writes
 * the weights it makes back to the file the others read: each makes its
 * own. Returns 0, having done nothing, if not two scratch files can be
 * made (one process needs none).
 */
static int
verifypar(struct join *j, struct verify *v)
{
	FILE **out;
	pid_t *pid, self = getpid();
	struct verified *next, r;
	struct sigaction dfl, chld;
	size_t first = firstpaired(j), start[JOIN_CHUNKS + 1], nchunks, c;
	size_t wn = (j->ndocs + JOIN_CHUNKS - 1) / JOIN_CHUNKS;
	unsigned i, procs = j->procs;
	unsigned char b[JOIN_CHUNKS];
	uint64_t work;
	int vfd[2], wfd[2], dfd[2], status, failed = 0, weigh;

	nchunks = chunks(j, first, start, &work);
	/*
	 * Past memory's hashes, weights a process makes are its own; with
	 * many pairs a document (copies), every weight is made first, once,
	 * by all of them (weighchunks), not again for each pair. A query's
	 * partners are a few kept ones: none to weigh them all.
	 */
	weigh = j->spill && !j->queries &&
	    work / (j->ndocs - first) >= JOIN_DOCCOST + JOIN_WEIGHALL;
	if (procs > nchunks)
		procs = (unsigned)nchunks;
	out = ereallocarray(NULL, procs, sizeof *out);
	for (i = 0; i < procs && (out[i] = scratchfile()); i++)
		;
	if ((procs = i) < 2) {
		while (i > 0)
			fclose(out[--i]);
		free(out);
		return 0;
	}
	pid = ereallocarray(NULL, procs, sizeof *pid);
	next = ereallocarray(NULL, procs, sizeof *next);
	for (c = 0; c < JOIN_CHUNKS; c++)
		b[c] = (unsigned char)c;
	/*
	 * The chunk numbers fit in a pipe at once (JOIN_CHUNKS <= PIPE_BUF):
	 * vfd's to verify, wfd's to weigh, given out first, then a byte on
	 * dfd from each child that is done with them.
	 */
	if (pipe(vfd) < 0 || (weigh && (pipe(wfd) < 0 || pipe(dfd) < 0)))
		eprintf("pipe:");
	if (weigh)
		givechunks(wfd[1], b, (j->ndocs + wn - 1) / wn);
	else
		givechunks(vfd[1], b, nchunks);
	spillflush(j);
	fflush(NULL);	/* nothing buffered is written twice */
	/* the children are ours to wait for, even if SIGCHLD came ignored */
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGCHLD, &dfl, &chld);
	j->nowrite = !weigh;
	for (i = 1; i < procs; i++) {
		/* with fewer processes than asked for (a limit), those there are take all */
		if ((pid[i] = fork()) < 0) {
			for (c = i; c < procs; c++)
				fclose(out[c]);
			procs = i;
			break;
		}
		if (pid[i] == 0) {
			j->tick = NULL;
			j->parent = self;
			if (weigh) {
				close(vfd[1]);
				close(dfd[0]);
				weighchunks(j, wfd[0], wn);
				j->nowrite = 1;
				if (write(dfd[1], b, 1) < 0)
					_exit(1);	/* (this one has gone) */
				close(dfd[1]);
			}
			verifychunks(j, v, vfd[0], start, out[i]);
			_exit(0);
		}
	}
	if (weigh) {
		close(dfd[1]);
		weighchunks(j, wfd[0], wn);
		j->nowrite = 1;
		/* the others done, or gone (waitpid says which) */
		while (takechunk(dfd[0]) >= 0)
			;
		close(dfd[0]);
		close(wfd[0]);
		givechunks(vfd[1], b, nchunks);
	}
	verifychunks(j, v, vfd[0], start, out[0]);
	close(vfd[0]);
	for (i = 1; i < procs; i++) {
		while (waitpid(pid[i], &status, 0) < 0)
			if (errno != EINTR)
				eprintf("waitpid:");
		if (WIFSIGNALED(status))
			weprintf("a verifying process: killed by signal %d", WTERMSIG(status));
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed = 1;	/* (it said why) */
	}
	sigaction(SIGCHLD, &chld, NULL);
	if (failed)
		exit(1);
	j->nowrite = 0;
	for (i = 0; i < procs; i++) {
		rewind(out[i]);
		if (fread(&next[i], sizeof next[i], 1, out[i]) != 1)
			next[i].a = 0;	/* none: it took no chunk */
	}
	for (c = 0; c < nchunks; c++) {
		for (i = 0; i < procs && !(next[i].a == UINT32_MAX && next[i].b == c); i++)
			;
		if (i == procs)
			eprintf("temporary file: chunk %zu missing", c);
		while (fread(&r, sizeof r, 1, out[i]) == 1 && r.a != UINT32_MAX)
			found(v, r.a, r.b, r.sim);
		if (ferror(out[i]))
			eprintf("temporary file:");
		next[i] = r;
		if (feof(out[i]))
			next[i].a = 0;
	}
	for (i = 0; i < procs; i++)
		fclose(out[i]);
	free(out);
	free(pid);
	free(next);
	return 1;
}

/* The pairs verified, by j->procs processes if they can be (verifypar), else by this one. */
static void
verifyall(struct join *j, struct verify *v)
{
	uint32_t *mark;
	size_t first = firstpaired(j);

	if (j->procs < 2 || j->ndocs - first < JOIN_PARMIN || !verifypar(j, v)) {
		mark = newmark(j);
		verifyrange(j, v, mark, first, j->ndocs);
		free(mark);
	}
	if (j->tick)
		j->tick(j->ndocs - first, j->ndocs - first, j->tickctx);
}

void
join_pairs(struct join *j, void (*pair)(uint32_t, uint32_t, double, void *), void *ctx)
{
	struct verify v = { j, pair, ctx, NULL, NULL, NULL };

	verifyall(j, &v);
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
	struct verify v = { j, NULL, NULL, NULL, NULL, NULL };
	size_t d;

	if (unique) {
		v.kept = emalloc(JOIN_KEEPBYTES(j->ndocs));
		memset(v.kept, 0xff, JOIN_KEEPBYTES(j->ndocs));
		verifyall(j, &v);
		for (d = firstpaired(j); d < j->ndocs; d++)
			if (join_kept(v.kept, (uint32_t)d))
				doc((uint32_t)d, (uint32_t)d, ctx);
		free(v.kept);
		return;
	}
	v.parent = ereallocarray(NULL, j->ndocs ? j->ndocs : 1, sizeof *v.parent);
	uf_init(v.parent, j->ndocs);
	verifyall(j, &v);
	for (d = firstpaired(j); d < j->ndocs; d++)
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
