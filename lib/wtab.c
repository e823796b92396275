/* wtab.c: word tables: open addressing with linear probing, one text arena. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdr.h"
#include "siphash.h"
#include "util.h"
#include "wtab.h"

/*
 * The hash keys: 128 random bits for SipHash and 64 for the fast hash,
 * the process's (sip_runkey), taken at the first table (wtab.h says why).
 */
static uint64_t sipk0, sipk1, fastk;
static int keyed;

static void
setkey(void)
{
	sipk0 = sip_runkey(0);
	sipk1 = sip_runkey(1);
	fastk = sip_runkey(2);
	keyed = 1;
}

/* The slot key of w: see struct wslot. */
static inline uint64_t
key(const char *w, size_t n)
{
	const unsigned char *p = (const unsigned char *)w;
	uint64_t k = (uint64_t)(n < 255 ? n : 255) << 56;

	if (n >= 8)
		return k | (sip_load64(p) & UINT64_C(0x00ffffffffffffff));
	return k | sip_loadtail(p, n);
}

/*
 * SipHash-1-3 of the n bytes at w (siphash.h), folded to 32 bits. Its last
 * block is the slot key k when n < 8.
 */
static inline uint32_t
siphash13(const char *w, size_t n, uint64_t k)
{
	uint64_t last = n < 8 ? k : sip_lastblock((const unsigned char *)w + (n & ~(size_t)7), n);
	uint64_t m = siphash_last(sipk0, sipk1, w, n, last, 1, 3, NULL);

	return (uint32_t)(m ^ m >> 32);
}

/*
 * The fast hash: multiply and fold, 8 bytes at a time, under the key
 * fastk. A word of up to 7 bytes is its slot key k (length and bytes), so
 * it costs two multiplications; the bytes past the first 7 go in 8 at a
 * time, the last 8 bytes of the word as the last block. The top half of
 * the last product, where every bit of the input has reached, is the hash.
 */
#define FASTM1	UINT64_C(0x9e3779b97f4a7c15)
#define FASTM2	UINT64_C(0xd6e8feb86659fd93)

static inline uint32_t
fasthash(const char *w, size_t n, uint64_t k)
{
	const unsigned char *p = (const unsigned char *)w, *end = p + n, *q;
	uint64_t h = (k ^ fastk) * FASTM1;

	if (n > 7) {
		h ^= n;
		for (q = p + 7; end - q > 8; q += 8) {
			h ^= sip_load64(q);
			h *= FASTM1;
			h ^= h >> 32;
		}
		h ^= sip_load64(end - 8);
		h *= FASTM1;
	}
	h ^= h >> 32;
	h *= FASTM2;
	return (uint32_t)(h >> 32);
}

/* The hash of w under the table's hash function. */
static inline uint32_t
hash(const struct wtab *t, const char *w, size_t n, uint64_t k)
{
	return t->sip ? siphash13(w, n, k) : fasthash(w, n, k);
}

/* Whether n bytes at a and b are equal: inline, for short words. */
static int
same(const char *a, const char *b, size_t n)
{
	for (; n >= 8; a += 8, b += 8, n -= 8)
		if (memcmp(a, b, 8))
			return 0;
	for (; n; n--)
		if (*a++ != *b++)
			return 0;
	return 1;
}

void
wtab_init(struct wtab *t)
{
	if (!keyed)
		setkey();
	memset(t, 0, sizeof *t);
	t->mask = 1023;
	t->slot = ecalloc(t->mask + 1, sizeof *t->slot);
	t->maxprobe = WTAB_MAXPROBE;
}

void
wtab_free(struct wtab *t)
{
	free(t->slot);
	free(t->text);
	free(t->off);
	memset(t, 0, sizeof *t);
}

void
wtab_setmaxprobe(struct wtab *t, size_t maxprobe)
{
	t->maxprobe = maxprobe;
}

/*
 * Double the table in place: the slots grow by realloc (the system keeps
 * the pages of a large block and adds to them, where a new table and a
 * copy would take fresh pages for both), then every word is placed anew.
 * A placed word never moves again, and the slots between its hash's and
 * its own hold placed words, so it stays where its lookup finds it: a
 * word's probe stops at an empty slot, its own, or one whose word is
 * still to be placed (todo), which it takes, the word there then placed
 * in turn.
 */
static void
grow(struct wtab *t)
{
	size_t oldn = t->mask + 1, i, j;
	unsigned char *todo;
	struct wslot tmp;

	t->slot = ereallocarray(t->slot, 2 * oldn, sizeof *t->slot);
	memset(t->slot + oldn, 0, oldn * sizeof *t->slot);
	t->mask = 2 * oldn - 1;
	todo = ecalloc(oldn / 8 + 1, 1);
#define TODO(i)	((i) < oldn && todo[(i) / 8] & 1 << (i) % 8)
	for (i = 0; i < oldn; i++)
		if (t->slot[i].id1)
			todo[i / 8] |= (unsigned char)(1 << i % 8);
	for (i = 0; i < oldn; i++) {
		while (TODO(i)) {
			for (j = t->slot[i].hash & t->mask; j != i; j = (j + 1) & t->mask)
				if (!t->slot[j].id1 || TODO(j))
					break;
			if (j == i) {
				todo[i / 8] &= (unsigned char)~(1 << i % 8);
			} else if (!t->slot[j].id1) {
				t->slot[j] = t->slot[i];
				memset(&t->slot[i], 0, sizeof t->slot[i]);
				todo[i / 8] &= (unsigned char)~(1 << i % 8);
			} else {
				tmp = t->slot[j];
				t->slot[j] = t->slot[i];
				t->slot[i] = tmp;
				todo[j / 8] &= (unsigned char)~(1 << j % 8);
			}
		}
	}
#undef TODO
	free(todo);
}

/*
 * Leave the fast hash for SipHash, for good: every word hashed again and
 * put in a fresh table of the same size.
 */
static void
tosip(struct wtab *t)
{
	struct wslot *s = ecalloc(t->mask + 1, sizeof *s);
	const char *w;
	size_t id, i, n;
	uint64_t k;
	uint32_t h;

	t->sip = 1;
	for (id = 0; id < t->n; id++) {
		w = wtab_word(t, (uint32_t)id, &n);
		k = key(w, n);
		h = siphash13(w, n, k);
		for (i = h & t->mask; s[i].id1; i = (i + 1) & t->mask)
			;
		s[i].key = k;
		s[i].hash = h;
		s[i].id1 = (uint32_t)(id + 1);
	}
	free(t->slot);
	t->slot = s;
}

/* The length of word id (wtab_word's, without its text). */
static inline size_t
wordlen(const struct wtab *t, uint32_t id)
{
	return (id + 1 < t->n ? t->off[id + 1] : t->textlen) - t->off[id] - 1;
}

/*
 * The slot holding w, or the empty slot where it belongs. Linear probing:
 * intern keeps the table at most half full, so an empty slot always ends
 * the search, even if every word had the same hash. Inline: it is most of
 * the work of counting words. A search that looks at more than maxprobe
 * slots under the fast hash is the caller's to see (toolong).
 */
static inline size_t
lookup(const struct wtab *t, const char *w, size_t n, uint32_t h, uint64_t k)
{
	const struct wslot *s;
	size_t i;
	uint32_t id;

	for (i = h & t->mask; (s = &t->slot[i])->id1; i = (i + 1) & t->mask) {
		if (s->hash != h || s->key != k)
			continue;
		if (n <= 7)
			break;	/* the key is the whole word */
		id = s->id1 - 1;
		if (wordlen(t, id) == n && same(t->text + t->off[id] + 7, w + 7, n - 7))
			break;
	}
	return i;
}

/* Whether the search from h that ended at slot i looked at too many slots. */
static inline int
toolong(const struct wtab *t, uint32_t h, size_t i)
{
	return ((i - h) & t->mask) >= t->maxprobe && !t->sip;
}

/*
 * lookup, leaving the fast hash for SipHash first if the search was too
 * long; *h is then the word's new hash.
 */
static inline size_t
locate(struct wtab *t, const char *w, size_t n, uint32_t *h, uint64_t k)
{
	size_t i = lookup(t, w, n, *h, k);

	if (toolong(t, *h, i)) {
		tosip(t);
		*h = siphash13(w, n, k);
		i = lookup(t, w, n, *h, k);
	}
	return i;
}

static inline uint32_t
find(struct wtab *t, const char *w, size_t n, uint32_t h, uint64_t k)
{
	size_t i = locate(t, w, n, &h, k);

	return t->slot[i].id1 ? t->slot[i].id1 - 1 : WTAB_NONE;
}

uint32_t
wtab_find_ref(struct wtab *t, const struct wref *r, const char *w, size_t n)
{
	if (r->sip != t->sip)	/* hashed before the table left the fast hash */
		return find(t, w, n, siphash13(w, n, r->key), r->key);
	return find(t, w, n, r->hash, r->key);
}

uint32_t
wtab_find(struct wtab *t, const char *w, size_t n)
{
	uint64_t k = key(w, n);

	return find(t, w, n, hash(t, w, n, k), k);
}

static inline uint32_t
intern(struct wtab *t, const char *w, size_t n, uint32_t h, uint64_t k)
{
	size_t i = locate(t, w, n, &h, k);

	if (t->slot[i].id1)
		return t->slot[i].id1 - 1;
	if (t->n >= UINT32_MAX - 1)
		eprintf("more than %lu distinct words", (unsigned long)UINT32_MAX - 1);
	egrow(&t->off, &t->cap, t->n + 1, sizeof *t->off);
	egrow(&t->text, &t->textcap, t->textlen + n + 1, 1);
	memcpy(t->text + t->textlen, w, n);
	t->text[t->textlen + n] = '\0';
	t->off[t->n] = t->textlen;
	t->textlen += n + 1;
	t->slot[i].key = k;
	t->slot[i].hash = h;
	t->slot[i].id1 = (uint32_t)(t->n + 1);
	if (++t->n * 2 > t->mask)
		grow(t);
	return (uint32_t)(t->n - 1);
}

uint32_t
wtab_intern_ref(struct wtab *t, const struct wref *r, const char *w, size_t n)
{
	if (r->sip != t->sip)
		return intern(t, w, n, siphash13(w, n, r->key), r->key);
	return intern(t, w, n, r->hash, r->key);
}

uint32_t
wtab_intern(struct wtab *t, const char *w, size_t n)
{
	uint64_t k = key(w, n);

	return intern(t, w, n, hash(t, w, n, k), k);
}

void
wtab_prepare(const struct wtab *t, struct wref *r, const char *w, size_t n)
{
	r->key = key(w, n);
	r->sip = t->sip;
	r->hash = hash(t, w, n, r->key);
	PREFETCH(&t->slot[r->hash & t->mask]);
}

/*
 * Below this many slots (128 KB) the table is in the caches already and
 * words go one at a time; above it, looking up a batch is bound by the
 * memory accesses, and prepared lookups (all slots asked for first) pay:
 * already for the 32,768 slots (512 KB, a core's L2 on an EPYC) of
 * 10,000 features, which fphash looks up in a third less time so.
 */
#define BIGTABLE (1 << 13)
enum { BATCH = 48 };

void
wtab_batch(struct wtab *t, int findonly, const char *buf, const size_t *off,
    const size_t *len, size_t n, uint32_t *ids)
{
	struct wref ref[BATCH];
	size_t i, j, k, m;
	uint32_t h;

	if (t->mask < BIGTABLE) {
		for (i = 0; i < n; i++)
			ids[i] = findonly ? wtab_find(t, buf + off[i], len[i]) :
			    wtab_intern(t, buf + off[i], len[i]);
		return;
	}
	for (i = 0; i < n; i += m) {
		m = n - i < BATCH ? n - i : BATCH;
		for (j = i; j < i + m; j++)
			wtab_prepare(t, &ref[j - i], buf + off[j], len[j]);
		for (j = i; j < i + m; j++) {
			/*
			 * the search inline: a word found, or one absent
			 * when only found words are asked for, with no
			 * change of hash, needs no call
			 */
			if (ref[j - i].sip == t->sip) {
				h = ref[j - i].hash;
				k = lookup(t, buf + off[j], len[j], h, ref[j - i].key);
				if (!toolong(t, h, k) && (t->slot[k].id1 || findonly)) {
					ids[j] = t->slot[k].id1 - 1;	/* WTAB_NONE for 0 */
					continue;
				}
			}
			ids[j] = findonly ?
			    wtab_find_ref(t, &ref[j - i], buf + off[j], len[j]) :
			    wtab_intern_ref(t, &ref[j - i], buf + off[j], len[j]);
		}
	}
}

static void
lowercase(char *s, size_t n)
{
	for (; n--; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s += 'a' - 'A';
}

static int
isblankbyte(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int
wtab_load_words(struct wtab *t, const char *path)
{
	struct rdr r;
	char *line, *p, *end, *s;
	ptrdiff_t n;

	if (rdr_open(&r, path) < 0)
		return -1;
	while ((n = rdr_line(&r, &line)) >= 0) {
		for (p = line, end = line + n; p < end;) {
			while (p < end && isblankbyte(*p))
				p++;
			for (s = p; p < end && !isblankbyte(*p); p++)
				;
			if (p > s) {
				lowercase(s, (size_t)(p - s));
				wtab_intern(t, s, (size_t)(p - s));
			}
		}
	}
	return rdr_close(&r) ? -1 : 0;
}

int
wtab_lines(const char *path, int (*fn)(void *ctx, const char *w, size_t n), void *ctx)
{
	struct rdr r;
	char *line, *tab;
	ptrdiff_t n;
	int ret = 0;

	if (rdr_open(&r, path) < 0)
		return -1;
	while ((n = rdr_line(&r, &line)) >= 0) {
		if ((tab = memchr(line, '\t', (size_t)n)))
			n = tab - line;
		if (n == 0) {
			rdr_warn(&r, "empty word");
			ret = -1;
			break;
		}
		lowercase(line, (size_t)n);
		if (fn(ctx, line, (size_t)n) < 0) {
			rdr_warn(&r, "duplicate word '%.*s'", (int)n, line);
			ret = -1;
			break;
		}
	}
	return rdr_close(&r) || ret ? -1 : 0;
}

struct loadlines {
	struct wtab *t;
	int unique;
};

static int
addline(void *ctx, const char *w, size_t n)
{
	struct loadlines *l = ctx;
	size_t before = l->t->n;

	wtab_intern(l->t, w, n);
	return l->unique && l->t->n == before ? -1 : 0;
}

int
wtab_load_lines(struct wtab *t, const char *path, int unique)
{
	struct loadlines l = { t, unique };

	return wtab_lines(path, addline, &l);
}

/* A word of wtab_top to be sorted: what its rank order needs, together. */
struct ranked {
	unsigned long long count;
	const char *w;
	size_t n;
};

/* Rank order: count descending, then the word's bytes ascending. */
static int
byrank(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	int d;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if ((d = memcmp(x->w, y->w, x->n < y->n ? x->n : y->n)))
		return d;
	return (x->n > y->n) - (x->n < y->n);
}

/* The k-th largest of the n values of v (1 <= k <= n); v is reordered. */
static unsigned long long
kthlargest(unsigned long long *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1, i, j;
	unsigned long long pivot, x;

	k--;	/* its index in descending order */
	while (lo < hi) {
		pivot = v[lo + (hi - lo) / 2];
		/* Hoare partition, descending: v[lo..j] >= pivot >= v[j+1..hi] */
		i = lo;
		j = hi;
		for (;;) {
			while (v[i] > pivot)
				i++;
			while (v[j] < pivot)
				j--;
			if (i >= j)
				break;
			x = v[i];
			v[i++] = v[j];
			v[j--] = x;
		}
		if (k <= j)
			hi = j;
		else
			lo = j + 1;
	}
	return v[k];
}

/*
 * Keep in r[0 .. *nr) the need words of the ties (count c) first in byte
 * order: a heap of at most need of them, its root the last in that order,
 * so that memory is bounded by need, not by the number of ties.
 */
static void
keepfirst(struct ranked *r, size_t *nr, size_t need, const struct ranked *x)
{
	struct ranked tmp;
	size_t i, c, n = *nr;

	if (n < need) {
		/* sift up */
		for (i = n++, r[i] = *x; i > 0 && byrank(&r[(i - 1) / 2], &r[i]) < 0; i = (i - 1) / 2) {
			tmp = r[i];
			r[i] = r[(i - 1) / 2];
			r[(i - 1) / 2] = tmp;
		}
		*nr = n;
		return;
	}
	if (n == 0 || byrank(x, &r[0]) >= 0)
		return;
	/* replace the root, sift down */
	for (i = 0, r[0] = *x; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && byrank(&r[c + 1], &r[c]) > 0)
			c++;
		if (byrank(&r[c], &r[i]) <= 0)
			break;
		tmp = r[i];
		r[i] = r[c];
		r[c] = tmp;
	}
}

void
wtab_top(const struct wtab *t, const unsigned long long *count, const uint32_t *ids,
    size_t n, unsigned long long limit, FILE *fp)
{
	unsigned long long *v, min = 0;
	struct ranked *r, x;
	struct obuf out = { 0 };
	size_t i, nr = 0, nties = 0, keep = n < limit ? n : (size_t)limit;

	if (keep == 0)
		return;
	r = ereallocarray(NULL, keep, sizeof *r);
	if (keep == n) {
		/* every word is written */
		for (i = 0; i < n; i++) {
			r[i].count = count[ids[i]];
			r[i].w = wtab_word(t, ids[i], &r[i].n);
		}
		nr = n;
	} else {
		/*
		 * Only words counted at least as often as the limit-th can be
		 * in it: those counted more are, and of those counted as often
		 * (the ties, maybe most of the words) the first in byte order,
		 * kept in a heap.
		 */
		v = ereallocarray(NULL, n, sizeof *v);
		for (i = 0; i < n; i++)
			v[i] = count[ids[i]];
		min = kthlargest(v, n, keep);
		free(v);
		for (i = 0; i < n; i++)
			if (count[ids[i]] > min) {
				r[nr].count = count[ids[i]];
				r[nr].w = wtab_word(t, ids[i], &r[nr].n);
				nr++;
			}
		for (i = 0; i < n; i++)
			if (count[ids[i]] == min) {
				x.count = min;
				x.w = wtab_word(t, ids[i], &x.n);
				keepfirst(r + nr, &nties, keep - nr, &x);
			}
		nr += nties;
	}
	qsort(r, nr, sizeof *r, byrank);
	for (i = 0; i < nr; i++) {
		obuf_add(&out, r[i].w, r[i].n);
		obuf_addc(&out, '\t');
		obuf_addu(&out, r[i].count);
		obuf_addc(&out, '\n');
		if (out.n >= 1 << 16)
			obuf_flush(&out, fp);
	}
	obuf_flush(&out, fp);
	free(out.p);
	free(r);
}
