/* sketch.c: shingle hashing and bottom-k sketches (sketch.h). */
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "pagerec.h"
#include "siphash.h"
#include "sketch.h"
#include "swar.h"
#include "util.h"

#define SK_P	0x9e3779b97f4a7c15u

/*
 * A shingle goes into the set SK_PEND shingles later, its slot asked for
 * from memory first: a large page's set is larger than the caches.
 */
#define SK_PEND	8

#define SK_WCBITS	10
#define SK_WCACHE	(1 << SK_WCBITS)

struct skbuild {
	unsigned k, size;
	uint64_t key0, key1;
	uint64_t ppow;			/* P^(k-1) */
	uint64_t win[SK_MAXK];		/* the hashes of the last k words, a ring */
	uint64_t roll;			/* the window's polynomial */
	uint64_t nwords;
	unsigned slot;			/* nwords % k: where the next word goes in win */
	struct tok tok;
	int bad;
	/*
	 * The page's distinct shingle hashes: open addressing, 0 is empty.
	 * A hash's place is secret: the hashes themselves are public (the
	 * seed is known), and words made so that their shingles share their
	 * low bits would otherwise crowd one run of slots, a page's time
	 * quadratic. It is simple tabulation (Zobrist): the XOR of one
	 * random word per byte of the hash, the words drawn from the
	 * process's key; with it linear probing takes expected constant
	 * time whatever the hashes (Patrascu and Thorup, "The power of
	 * simple tabulation hashing", 2012), at a fraction of a SipHash.
	 */
	uint64_t *set;
	size_t setcap, setn;	/* the slots a page uses (a power of 2), and its hashes */
	size_t setalloc;	/* the slots allocated: the largest page's, kept */
	uint64_t *moving;	/* the hashes, while the set doubles */
	size_t movingcap;
	uint64_t placetab[8][256];
	int haszero;
	/*
	 * The smallest size of them: the candidates, below bound once there
	 * were more than size of them; when 2 * size are there, the size
	 * smallest are kept, and bound is the largest of those (a
	 * replacement costs a constant, not a heap's log size).
	 */
	uint64_t *cand;
	unsigned ncand;
	int bounded;
	uint64_t bound;
	uint64_t rng;			/* pivots of the selection */
	/*
	 * The hashes of the words of fewer than 8 bytes seen last, by their
	 * one SipHash block (which holds the word and its length, and is
	 * never 0): most words of a text are a few common ones.
	 */
	struct { uint64_t last, h; } wcache[SK_WCACHE];
	/* shingles not yet in the set, with their places: their slots are being fetched */
	uint64_t pend[SK_PEND], pendplace[SK_PEND];
	unsigned npend, pendnext;	/* pendnext: where the next one goes, from 0 a page */
};

static uint64_t
mix(uint64_t z)
{
	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9u;
	z = (z ^ z >> 27) * 0x94d049bb133111ebu;
	return z ^ z >> 31;
}

struct skbuild *
skb_new(unsigned k, unsigned size, uint64_t seed)
{
	struct skbuild *b = ecalloc(1, sizeof *b);
	unsigned i;

	b->k = k;
	b->size = size;
	b->key0 = seed;
	b->key1 = ~seed;
	b->ppow = 1;
	for (i = 1; i < k; i++)
		b->ppow *= SK_P;
	tok_init(&b->tok, TOK_UNICODE);
	b->setcap = b->setalloc = 1024;
	b->set = ecalloc(b->setalloc, sizeof *b->set);
	for (i = 0; i < 8 * 256; i++)
		b->placetab[i / 256][i % 256] = siphash13_u64(sip_runkey(3), sip_runkey(4), i);
	b->cand = ecalloc(2 * (size_t)size, sizeof *b->cand);
	b->rng = sip_runkey(5) | 1;
	return b;
}

void
skb_free(struct skbuild *b)
{
	if (!b)
		return;
	tok_free(&b->tok);
	free(b->set);
	free(b->moving);
	free(b->cand);
	free(b);
}

void
skb_begin(struct skbuild *b)
{
	/*
	 * The slots stay allocated from page to page: fresh memory costs a
	 * page fault for each 4 kB touched, each time. After a page whose
	 * set was far smaller than its table the next starts small again,
	 * so that a huge table is not cleared for each small page: the
	 * slots past the small one are cleared when a page grows into them
	 * (setgrow).
	 */
	if (b->setcap > 1 << 16 && b->setcap > 8 * b->setn)
		b->setcap = 1024;
	if (b->setn)
		memset(b->set, 0, b->setcap * sizeof *b->set);
	b->setn = 0;
	b->haszero = 0;
	b->ncand = 0;
	b->bounded = 0;
	b->npend = b->pendnext = 0;
	b->nwords = 0;
	b->slot = 0;
	b->roll = 0;
	b->bad = 0;
}

/*
 * Partition the distinct values a[lo..hi) (hi - lo > 1) around one of
 * them drawn at random, so that no order of the values makes the
 * selection and the sort below slow: the smaller ones go before it, the
 * larger after. Returns its index.
 */
static unsigned
partition(uint64_t *a, unsigned lo, unsigned hi, uint64_t *rng)
{
	unsigned i, store;
	uint64_t pivot, t;

	*rng ^= *rng << 13;
	*rng ^= *rng >> 7;
	*rng ^= *rng << 17;
	i = lo + (unsigned)(*rng % (hi - lo));
	pivot = a[i];
	a[i] = a[hi - 1];
	a[hi - 1] = pivot;
	/* no branch on the comparison: its outcome is a coin toss */
	for (store = lo, i = lo; i < hi - 1; i++) {
		t = a[i];
		a[i] = a[store];
		a[store] = t;
		store += t < pivot;
	}
	a[hi - 1] = a[store];
	a[store] = pivot;
	return store;
}

/*
 * The k smallest of the n distinct values at a to a[0..k), the largest
 * of them at a[k - 1] (0 < k < n): quickselect.
 */
static void
selectsmall(uint64_t *a, unsigned n, unsigned k, uint64_t *rng)
{
	unsigned lo = 0, hi = n, m;

	while (hi - lo > 1) {
		if ((m = partition(a, lo, hi, rng)) == k - 1)
			return;
		if (m > k - 1)
			hi = m;
		else
			lo = m + 1;
	}
}

/* The distinct values a[lo..hi) in ascending order: quicksort, the smaller side first. */
static void
sortsmall(uint64_t *a, unsigned lo, unsigned hi, uint64_t *rng)
{
	unsigned i, j, m;
	uint64_t v;

	while (hi - lo > 16) {
		m = partition(a, lo, hi, rng);
		if (m - lo < hi - m) {
			sortsmall(a, lo, m, rng);
			lo = m + 1;
		} else {
			sortsmall(a, m + 1, hi, rng);
			hi = m;
		}
	}
	for (i = lo + 1; i < hi; i++) {
		v = a[i];
		for (j = i; j > lo && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

/* Keep the size smallest candidates. */
static void
cut(struct skbuild *b)
{
	selectsmall(b->cand, b->ncand, b->size, &b->rng);
	b->ncand = b->size;
	b->bound = b->cand[b->size - 1];
	b->bounded = 1;
}

/* Where v goes in the set (its first slot: the place & the mask). */
static uint64_t
place(const struct skbuild *b, uint64_t v)
{
	const uint64_t (*t)[256] = b->placetab;

	return t[0][v & 255] ^ t[1][v >> 8 & 255] ^ t[2][v >> 16 & 255] ^
	    t[3][v >> 24 & 255] ^ t[4][v >> 32 & 255] ^ t[5][v >> 40 & 255] ^
	    t[6][v >> 48 & 255] ^ t[7][v >> 56];
}

/*
 * Double the set: its hashes are gathered in order (a buffer kept as the
 * set's slots are), its slots cleared, as many as it takes now, and the
 * hashes placed again. The slots are allocated anew only past the
 * largest page's.
 */
static void
setgrow(struct skbuild *b)
{
	size_t n = 2 * b->setcap, i, j, k, mask = n - 1;

	egrow(&b->moving, &b->movingcap, b->setn, sizeof *b->moving);
	for (i = k = 0; i < b->setcap; i++)
		if (b->set[i])
			b->moving[k++] = b->set[i];
	if (n > b->setalloc) {
		b->set = ereallocarray(b->set, n, sizeof *b->set);
		b->setalloc = n;
	}
	memset(b->set, 0, n * sizeof *b->set);
	b->setcap = n;
	for (i = 0; i < k; i++) {
		for (j = place(b, b->moving[i]) & mask; b->set[j]; j = (j + 1) & mask)
			;
		b->set[j] = b->moving[i];
	}
}

/* Add v, whose place is pl, to the set; 1 if it was not there. */
static int
setadd(struct skbuild *b, uint64_t v, uint64_t pl)
{
	size_t i, mask;

	if (v == 0) {
		if (b->haszero)
			return 0;
		return b->haszero = 1;
	}
	if (2 * (b->setn + 1) > b->setcap)
		setgrow(b);
	mask = b->setcap - 1;
	for (i = pl & mask; b->set[i]; i = (i + 1) & mask)
		if (b->set[i] == v)
			return 0;
	b->set[i] = v;
	b->setn++;
	return 1;
}

static void
addshingle(struct skbuild *b, uint64_t v, uint64_t pl)
{
	if (!setadd(b, v, pl))
		return;
	if (b->bounded && v >= b->bound)
		return;
	b->cand[b->ncand++] = v;
	if (b->ncand == 2 * b->size)
		cut(b);
}

/* Shingle v: into the set later; the oldest waiting one now. */
static void
pendshingle(struct skbuild *b, uint64_t v)
{
	unsigned i = b->pendnext++ % SK_PEND;
	uint64_t pl = place(b, v);

	PREFETCH(&b->set[pl & (b->setcap - 1)]);
	if (b->npend == SK_PEND)
		addshingle(b, b->pend[i], b->pendplace[i]);
	else
		b->npend++;
	b->pend[i] = v;
	b->pendplace[i] = pl;
}

/* The shingles waiting, into the set. */
static void
flushshingles(struct skbuild *b)
{
	unsigned i;

	/* (pend[0..npend) when fewer than SK_PEND came; the order does not matter) */
	for (i = 0; i < b->npend; i++)
		addshingle(b, b->pend[i], b->pendplace[i]);
	b->npend = b->pendnext = 0;
}

static inline uint64_t
wordhash(uint64_t key0, uint64_t key1, const char *w, size_t n)
{
	return siphash(key0, key1, w, n, 1, 3, NULL);
}

uint64_t
sketch_wordhash(uint64_t seed, const char *w, size_t n)
{
	return wordhash(seed, ~seed, w, n);
}

uint64_t
sketch_shingle(const uint64_t *wh, unsigned k)
{
	uint64_t roll = 0;
	unsigned i;

	for (i = 0; i < k; i++)
		roll = roll * SK_P + wh[i];
	return mix(roll);
}

/* wordhash, from the cache if the word is short and there */
static inline uint64_t
cachedhash(struct skbuild *b, const char *w, size_t n)
{
	uint64_t last, h;
	size_t i;

	if (n >= 8)
		return wordhash(b->key0, b->key1, w, n);
	last = sip_lastblock((const unsigned char *)w, n);
	i = (size_t)(last * SK_P >> (64 - SK_WCBITS));
	if (b->wcache[i].last == last)
		return b->wcache[i].h;
	h = siphash_last(b->key0, b->key1, w, n, last, 1, 3, NULL);
	b->wcache[i].last = last;
	b->wcache[i].h = h;
	return h;
}

static void
word(void *ctx, const char *w, size_t n)
{
	struct skbuild *b = ctx;
	uint64_t h = cachedhash(b, w, n);
	unsigned slot = b->slot;

	if (b->nwords >= b->k)
		b->roll -= b->win[slot] * b->ppow;	/* the word leaving the window */
	b->roll = b->roll * SK_P + h;
	b->win[slot] = h;
	b->slot = slot + 1 == b->k ? 0 : slot + 1;	/* not a division a word */
	if (++b->nwords >= b->k)
		pendshingle(b, mix(b->roll));
}

void
skb_feed(struct skbuild *b, const char *p, size_t n)
{
	tok_feed(&b->tok, p, n, word, b);
}

int
skb_end(struct skbuild *b, struct sketch *s)
{
	int ret = tok_end(&b->tok, word, b);

	flushshingles(b);
	if (b->nwords > 0 && b->nwords < b->k)
		addshingle(b, mix(b->roll), place(b, mix(b->roll)));	/* a short page: one shingle of all its words */
	if (b->ncand > b->size)
		cut(b);
	sortsmall(b->cand, 0, b->ncand, &b->rng);
	s->nshingles = b->setn + (uint64_t)b->haszero;
	s->n = b->ncand;
	s->h = b->cand;
	return ret;
}

void
sketch_write(struct obuf *out, const struct sketch *s)
{
	char *p;
	unsigned i;

	obuf_add(out, s->id, s->idlen);
	obuf_addc(out, '\t');
	obuf_addu(out, s->nshingles);
	obuf_addc(out, '\t');
	p = obuf_room(out, 17 * (size_t)s->n + 1);
	for (i = 0; i < s->n; i++) {
		if (i)
			*p++ = ' ';
		/* 16 digits, by halves of 8 */
		swar_store8(p, swar_tohex8((uint32_t)(s->h[i] >> 32)));
		swar_store8(p + 8, swar_tohex8((uint32_t)s->h[i]));
		p += 16;
	}
	*p++ = '\n';
	out->n = (size_t)(p - out->p);
}

int
sketch_parse(struct rdr *r, char *line, size_t n, struct sketch *s, uint64_t *h)
{
	char *end = line + n, *tab, *p;
	const char *err;
	int64_t hi, lo;
	uint64_t v;

	if (!(tab = memchr(line, '\t', n))) {
		rdr_warn(r, "no TAB after the ID");
		return -1;
	}
	if (esc_check(line, (size_t)(tab - line)) < 0) {
		rdr_warn(r, "bad escape in the ID");
		return -1;
	}
	s->id = line;
	s->idlen = (size_t)(tab - line);
	p = tab + 1;
	if (!(tab = memchr(p, '\t', (size_t)(end - p)))) {
		rdr_warn(r, "no TAB after the shingle count");
		return -1;
	}
	s->nshingles = (uint64_t)parsenumn(p, (size_t)(tab - p), 0, INT64_MAX, &err);
	if (err) {
		rdr_warn(r, "shingle count %s", err);
		return -1;
	}
	p = tab + 1;
	s->n = 0;
	s->h = h;
	while (p < end) {
		if (s->n > 0 && *p++ != ' ')
			goto bad;
		if (end - p < 16 || s->n == SK_MAXSIZE)
			goto bad;
		/* 16 digits, by halves of 8 */
		hi = swar_hex8(swar_load8((const unsigned char *)p));
		lo = swar_hex8(swar_load8((const unsigned char *)p + 8));
		if (hi < 0 || lo < 0)
			goto bad;
		v = (uint64_t)hi << 32 | (uint64_t)lo;
		p += 16;
		if (s->n > 0 && v <= h[s->n - 1])
			goto bad;
		h[s->n++] = v;
	}
	if (s->n > s->nshingles || (s->n < s->nshingles && s->n == 0)) {
		rdr_warn(r, "%u hashes for %ju shingles",
		    s->n, (uintmax_t)s->nshingles);
		return -1;
	}
	return 0;
bad:
	rdr_warn(r, "bad hash list (at most %d ascending 16-digit lowercase hex numbers, "
	    "one space apart)", SK_MAXSIZE);
	return -1;
}

int
skb_records(struct skbuild *b, struct rdr *r, struct obuf *out,
    void (*done)(void *), void *ctx)
{
	struct pagerec rec;
	struct sketch s;
	const char *p;
	ptrdiff_t n;
	int eol, k, ret = 0;

	memset(&rec, 0, sizeof rec);
	skb_begin(b);
	while ((n = rdr_chunk(r, &p, &eol)) >= 0) {
		if ((k = pagerec_chunk(&rec, r, &p, &n, eol)) <= 0) {
			ret |= k < 0;
			continue;
		}
		skb_feed(b, p, (size_t)n);
		if (!eol)
			continue;
		if (skb_end(b, &s) < 0 && !rec.bad) {
			rdr_warn(r, "bad escape in the page text");
			rec.bad = 1;
		}
		/* a bad record is reported, not written */
		if (!rec.bad) {
			s.id = rec.id.p;
			s.idlen = rec.id.n;
			sketch_write(out, &s);
		}
		ret |= rec.bad;
		if (done)
			done(ctx);
		pagerec_next(&rec);
		skb_begin(b);
	}
	pagerec_free(&rec);
	return ret;
}
