/*
 * skidx.c: a kept collection of sketches as an index file (skidx.h,
 * skidx(5)): mapped, checked on opening and on each read, appended by
 * segments.
 */
#include <sys/mman.h>
#include <sys/stat.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hfilter.h"
#include "radix.h"
#include "runs.h"
#include "siphash.h"
#include "skidx.h"

#define FILE_MAGIC	"\211SKIDX2\n"
#define FILE_MAGIC1	"\211SKIDX1\n"	/* version 1: read, and written anew */
#define SEG_MAGIC	"\211SKSEG2\n"
#define SEG_MAGIC1	"\211SKSEG1\n"
#define END_MAGIC	"\211SKEND1\n"
#define ORDER		UINT64_C(0x0102030405060708)
#define RUNMAX		((size_t)1 << 18)	/* records a map sorts in memory: 8 MB */
#define DIRBUF		16384	/* entries of a map's directory held in memory */
#define DIRBITSMAX	24	/* a map's directory: at most 2^24 buckets */
#define FLUSHAT		(1 << 20)
#define CNTMAX		0xff	/* a count of COUNT this large is in XCNT */
#define PREFIXBITS	5	/* a posting: its document << PREFIXBITS | the hash's place */
/*
 * A segment's bounds, so that a directory's entry and a posting take 4
 * bytes: its hashes (COUNT's records), and its documents (POST's).
 */
#define SEGHASHMAX	UINT32_MAX
#define SEGDOCMAX	(((uint64_t)1 << (32 - PREFIXBITS)) - 1)

_Static_assert(JOIN_PREFIX <= 1 << PREFIXBITS, "a posting's place of a hash fits its bits");

/*
 * Whether identical sketches count once (copies of a page): the rule of
 * join_int.h, which the counts of an index must follow.
 */
#define DISTINCT	1

/*
 * The maps: sorted records with a directory on the top bits of their
 * key. The key is in the record (8 bytes, then a 4-byte value but in the
 * reach lists); in COUNT, the key's bits below the directory's (the
 * bytes they take), then a 1-byte count; in POST, found from the record:
 * a reference (4 bytes) to the hash in HV, then the key's 8 bits below
 * the directory's, which spare a search most of the references it would
 * follow.
 */
enum { M_ID, M_DIGEST, M_POST, M_COUNT, M_RADD, M_RREM, M_XCNT, NMAP };
#define NMAP1		M_XCNT	/* the maps of a version 1 segment */
enum { K_INLINE, K_LOW, K_POST };	/* a key in the record, its low bits, a posting */

struct maphdr {
	uint64_t n, bits, rec, dir;	/* records; directory bits; offsets */
};

struct filehdr {
	char magic[8];
	uint64_t order, k0, k1;
};

struct seghdr {
	char magic[8];
	uint64_t prev, end;	/* 1 if a segment comes before it, else 0; past its end */
	uint64_t ndocs, nhv, nid, ndead, size, ncut;
	int64_t ndistinct;	/* the change to the number of distinct sketches */
	uint64_t hoff, idoff, nsh, hv, ids, dead;	/* offsets in the segment */
	uint64_t hcnt;		/* version 1's HCNT; 0 */
	struct maphdr map[NMAP];
	uint32_t whole[SK_MAXSIZE + 2];	/* its whole sketches, by number of hashes */
};

struct trailer {
	char magic[8];
	uint64_t start;
};

struct map {
	const unsigned char *rec;
	const uint32_t *dir;
	uint64_t n;
	unsigned bits, w, kind;
	/* where a reference finds its key: the segment's HV and HOFF */
	const uint64_t *hv, *hoff;
	uint64_t nhv, ndocs;
};

struct seg {
	struct seghdr hdr;	/* a copy: a version 1 header is shorter */
	const struct seghdr *h;	/* &hdr */
	uint64_t base;		/* the number of its first document */
	const uint64_t *hoff, *idoff, *nsh, *hv, *dead;
	const char *ids;
	struct map map[NMAP];
};

struct skidx {
	const unsigned char *p;
	size_t len;
	const char *name;
	uint64_t k0, k1;
	unsigned version;	/* 1: read for its documents, and written anew */
	size_t hdrsize;		/* of its segments' headers */
	struct seg seg[SKIDX_SEGMAX];
	unsigned nseg;
	uint64_t ndocs;		/* all, the replaced ones too */
	uint64_t *dead;		/* the replaced ones, sorted */
	size_t ndead;
	int64_t ndistinct;
	unsigned size, maxwhole;
	int said;		/* that it is forged: said once */
};

/* The directory of an empty map (a version 1 segment's XCNT). */
static const uint32_t zerodir[2];

/* Say once that x is forged (an offset or number out of its bounds). */
static void
forged(const struct skidx *x)
{
	struct skidx *w = (struct skidx *)x;

	if (!w->said)
		weprintf("%s: a forged or damaged index", escname(x->name));
	w->said = 1;
}

/* Record i's reference (K_POST) or, inline, its value. */
static uint32_t
mapref(const struct map *m, uint64_t i)
{
	uint32_t v;

	memcpy(&v, m->rec + i * m->w + (m->kind == K_INLINE ? 8 : 0), 4);
	return v;
}

/* The bytes of the bits of a key below a directory of bits bits. */
static unsigned
lowbytes(unsigned bits)
{
	return (64 - bits + 7) / 8;
}

/* The bits of k below a directory of bits bits. */
static uint64_t
lowbits(unsigned bits, uint64_t k)
{
	return bits ? k & (UINT64_MAX >> bits) : k;
}

/* Record i's low bits of its key (K_LOW), little-endian in its first bytes. */
static uint64_t
maplow(const struct map *m, uint64_t i)
{
	const unsigned char *p = m->rec + i * m->w;
	uint64_t v = 0;
	unsigned k;

	for (k = lowbytes(m->bits); k-- > 0;)
		v = v << 8 | p[k];
	return v;
}

/* The records of k's bucket: [*lo, *hi), clamped to the map. */
static void
mapbucket(const struct map *m, uint64_t k, uint64_t *lo, uint64_t *hi)
{
	uint64_t b = m->bits ? k >> (64 - m->bits) : 0;

	*lo = m->dir[b];
	*hi = m->dir[b + 1];
	if (*hi > m->n)
		*hi = m->n;
	if (*lo > *hi)
		*lo = *hi;
}

/*
 * Record i's key: in it, or the hash it refers to, which a forged
 * reference out of its segment makes UINT64_MAX.
 */
static uint64_t
mapkey(const struct map *m, uint64_t i)
{
	uint64_t k, r, d, h0, h1;

	switch (m->kind) {
	case K_POST:
		r = mapref(m, i);
		d = r >> PREFIXBITS;
		if (d >= m->ndocs)
			return UINT64_MAX;
		h0 = m->hoff[d];
		h1 = m->hoff[d + 1];
		r &= (1 << PREFIXBITS) - 1;
		return h0 <= h1 && h1 <= m->nhv && r < h1 - h0 ? m->hv[h0 + r] : UINT64_MAX;
	default:
		memcpy(&k, m->rec + i * m->w, 8);
		return k;
	}
}

/* The 8 bits of key k below the directory's, which a reference's record keeps. */
static unsigned
keyfp(unsigned bits, uint64_t k)
{
	return (unsigned)(k >> (56 - bits)) & 0xff;
}

/*
 * Whether record i's key is below k (cmp < 0), equals it (cmp 0). A
 * record of low bits is in k's bucket or not, by its place.
 */
static int
mapcmp(const struct map *m, uint64_t i, uint64_t k)
{
	uint64_t r, lo, hi;
	unsigned f, g;

	if (m->kind == K_LOW) {
		mapbucket(m, k, &lo, &hi);
		if (i < lo || i >= hi)
			return i < lo ? -1 : 1;
		r = maplow(m, i);
		k = lowbits(m->bits, k);
		return (r > k) - (r < k);
	}
	if (m->kind == K_POST) {
		f = m->rec[(i + 1) * m->w - 1];
		g = keyfp(m->bits, k);
		if (f != g)
			return f < g ? -1 : 1;
	}
	r = mapkey(m, i);
	return (r > k) - (r < k);
}

/* Record i's value: a document (ID, DIGEST, POST), a count (COUNT, XCNT). */
static uint64_t
mapval(const struct map *m, uint64_t i)
{
	if (m->kind == K_LOW)
		return m->rec[(i + 1) * m->w - 1];
	return m->kind == K_POST ? mapref(m, i) >> PREFIXBITS : mapref(m, i);
}

/*
 * The first record of m whose key is >= k, searched in k's bucket only:
 * its bounds are clamped, so that a forged directory costs no more than
 * a search.
 */
static uint64_t
maplower(const struct map *m, uint64_t k)
{
	uint64_t lo, hi, mid, low = lowbits(m->bits, k);

	mapbucket(m, k, &lo, &hi);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		/* within the bucket, low bits order the records */
		if (m->kind == K_LOW ? maplow(m, mid) < low : mapcmp(m, mid, k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint64_t
idkey(const struct skidx *x, const char *id, size_t n)
{
	return siphash(x->k0, x->k1, id, n, 1, 3, NULL);
}

static uint64_t
digest(uint64_t k0, uint64_t k1, const struct sketch *s)
{
	return siphash(k0 ^ 1, k1 ^ s->nshingles, s->h, s->n * sizeof *s->h, 1, 3, NULL);
}

static int
samesketch(const struct sketch *a, const struct sketch *b)
{
	return a->n == b->n && a->nshingles == b->nshingles &&
	    memcmp(a->h, b->h, a->n * sizeof *a->h) == 0;
}

/* The largest hash sketch s could hold. */
static uint64_t
reach(const struct sketch *s)
{
	return s->n < s->nshingles ? s->h[s->n - 1] : UINT64_MAX;
}

/* Where document g is: its segment, and its number in it. */
static const struct seg *
segof(const struct skidx *x, uint64_t g, uint64_t *i)
{
	unsigned lo = 0, hi = x->nseg, mid;

	while (hi - lo > 1) {
		mid = (lo + hi) / 2;
		if (x->seg[mid].base <= g)
			lo = mid;
		else
			hi = mid;
	}
	*i = g - x->seg[lo].base;
	return &x->seg[lo];
}

/* Document g's sketch, checked; -1 after a diagnostic if it is forged. */
static int
getdoc(const struct skidx *x, uint64_t g, struct sketch *s)
{
	uint64_t i, h0, h1, i0, i1;
	const struct seg *sg = segof(x, g, &i);

	h0 = sg->hoff[i];
	h1 = sg->hoff[i + 1];
	i0 = sg->idoff[i];
	i1 = sg->idoff[i + 1];
	s->nshingles = sg->nsh[i];
	if (h0 > h1 || h1 > sg->h->nhv || h1 - h0 > SK_MAXSIZE || h1 - h0 > s->nshingles ||
	    (h1 - h0 == 0 && s->nshingles) || i0 > i1 || i1 > sg->h->nid) {
		forged(x);
		return -1;
	}
	s->n = (unsigned)(h1 - h0);
	s->h = (uint64_t *)(sg->hv + h0);
	s->id = sg->ids + i0;
	s->idlen = (size_t)(i1 - i0);
	return 0;
}

static int
isdead(const struct skidx *x, uint64_t g)
{
	size_t k = radix_lowerbound64(x->dead, x->ndead, g);

	return k < x->ndead && x->dead[k] == g;
}

/*
 * A section of n records of w bytes at off in segment [start, end) of x,
 * past its header: its place, or 0.
 */
static int
section(const struct skidx *x, uint64_t start, uint64_t end, uint64_t off, uint64_t n, uint64_t w)
{
	uint64_t lim = end - start - sizeof(struct trailer);

	return off >= x->hdrsize && off % 8 == 0 && off <= lim && (w == 0 || n <= (lim - off) / w);
}

/* Check segment s at [start, end) and find its sections (s->h is set by the caller). */
static int
openseg(struct skidx *x, struct seg *s, uint64_t start, uint64_t end)
{
	const unsigned char *b = x->p + start;
	struct seghdr *h = &s->hdr;
	unsigned m, nmap = x->version == 1 ? NMAP1 : NMAP, kind, w;

	memset(h, 0, sizeof *h);
	if (x->version == 1) {
		memcpy(h, b, offsetof(struct seghdr, map[NMAP1]));
		memcpy(h->whole, b + offsetof(struct seghdr, map[NMAP1]), sizeof h->whole);
	} else {
		memcpy(h, b, sizeof *h);
	}
	if (memcmp(h->magic, x->version == 1 ? SEG_MAGIC1 : SEG_MAGIC, 8) || h->end != end ||
	    h->ndocs >= UINT32_MAX || h->size > SK_MAXSIZE || h->ncut > h->ndocs ||
	    (x->version > 1 && (h->ndocs > SEGDOCMAX || h->nhv > SEGHASHMAX)) ||
	    !section(x, start, end, h->hoff, h->ndocs + 1, 8) ||
	    !section(x, start, end, h->idoff, h->ndocs + 1, 8) ||
	    !section(x, start, end, h->nsh, h->ndocs, 8) ||
	    !section(x, start, end, h->hv, h->nhv, 8) ||
	    !section(x, start, end, h->ids, h->nid, 1) ||
	    !section(x, start, end, h->dead, h->ndead, 8) ||
	    (x->version == 1 && !section(x, start, end, h->hcnt, h->nhv, 2)))
		return -1;
	s->hoff = (const uint64_t *)(b + h->hoff);
	s->idoff = (const uint64_t *)(b + h->idoff);
	s->nsh = (const uint64_t *)(b + h->nsh);
	s->hv = (const uint64_t *)(b + h->hv);
	s->ids = (const char *)(b + h->ids);
	s->dead = (const uint64_t *)(b + h->dead);
	for (m = 0; m < NMAP; m++) {
		const struct maphdr *mh = &h->map[m];

		if (m >= nmap) {
			/* a version 1 segment has no XCNT: an empty map */
			s->map[m] = (struct map){ b, zerodir, 0, 0, 12, K_INLINE, s->hv, s->hoff, 0, 0 };
			continue;
		}
		if (mh->bits > DIRBITSMAX)
			return -1;
		kind = K_INLINE;
		w = m == M_RADD || m == M_RREM ? 8 : 12;
		if (x->version > 1 && m == M_POST) {
			kind = K_POST;
			w = 5;
		} else if (x->version > 1 && m == M_COUNT) {
			kind = K_LOW;
			w = lowbytes((unsigned)mh->bits) + 1;
		}
		if (!section(x, start, end, mh->rec, mh->n, w) ||
		    !section(x, start, end, mh->dir, ((uint64_t)1 << mh->bits) + 1, 4))
			return -1;
		s->map[m] = (struct map){ b + mh->rec, (const uint32_t *)(b + mh->dir), mh->n,
		    (unsigned)mh->bits, w, kind, s->hv, s->hoff, h->nhv, h->ndocs };
	}
	return 0;
}

/* The kept documents' size and most hashes of a whole sketch, without the replaced ones. */
static int
livesize(struct skidx *x)
{
	uint64_t whole[SK_MAXSIZE + 1] = { 0 }, ncut = 0;
	struct sketch s;
	unsigned i, k;
	size_t d;

	for (i = 0; i < x->nseg; i++) {
		const struct seghdr *h = x->seg[i].h;
		uint64_t n = h->ncut;

		for (k = 0; k <= SK_MAXSIZE; k++) {
			whole[k] += h->whole[k];
			n += h->whole[k];
			if (h->whole[k] && h->size && k > h->size)
				return -1;
		}
		if (n != h->ndocs)
			return -1;
		ncut += h->ncut;
		if (h->size && x->size && h->size != x->size)
			return -1;
		if (h->size)
			x->size = (unsigned)h->size;
	}
	for (d = 0; d < x->ndead; d++) {
		if (getdoc(x, x->dead[d], &s) < 0)
			return -2;
		if (s.n < s.nshingles ? ncut-- == 0 : whole[s.n]-- == 0)
			return -1;
	}
	if (!ncut)
		x->size = 0;
	for (k = SK_MAXSIZE; k > 0 && !whole[k]; k--)
		;
	x->maxwhole = k;
	return 0;
}

/* The replaced documents of all segments, sorted; each replaced once, and before. */
static int
loaddead(struct skidx *x)
{
	size_t n = 0, i;
	unsigned k;

	for (k = 0; k < x->nseg; k++)
		n += x->seg[k].h->ndead;
	x->dead = ereallocarray(NULL, n + 1, sizeof *x->dead);
	for (k = 0; k < x->nseg; k++)
		for (i = 0; i < x->seg[k].h->ndead; i++) {
			if (x->seg[k].dead[i] >= x->seg[k].base)
				return -1;
			x->dead[x->ndead++] = x->seg[k].dead[i];
		}
	radix_sort64(x->dead, x->ndead);
	for (i = 1; i < x->ndead; i++)
		if (x->dead[i] == x->dead[i - 1])
			return -1;
	return 0;
}

struct skidx *
skidx_open(int fd, const char *name, uint64_t len)
{
	struct skidx *x = ecalloc(1, sizeof *x);
	const struct filehdr *fh;
	struct trailer t;
	struct seg tmp;
	struct stat st;
	uint64_t pos, base;
	unsigned i;
	void *p;
	int r;

	x->name = name;
	if (fstat(fd, &st) < 0) {
		weprintf("%s:", escname(name));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		weprintf("%s: not a regular file", escname(name));
		goto fail;
	}
	if (len == 0)
		len = (uint64_t)st.st_size;
	if ((uint64_t)st.st_size < len) {
		weprintf("%s: truncated index (%ju bytes, not %ju)", escname(name), (uintmax_t)st.st_size,
		    (uintmax_t)len);
		goto fail;
	}
	if (len < sizeof *fh || len % 8 || len > SIZE_MAX) {
		weprintf("%s: not an index", escname(name));
		goto fail;
	}
	if ((p = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		weprintf("%s:", escname(name));
		goto fail;
	}
	x->p = p;
	x->len = (size_t)len;
	/* lookups are scattered: no read-ahead around them */
	(void)posix_madvise(p, (size_t)len, POSIX_MADV_RANDOM);
	fh = (const struct filehdr *)x->p;
	if (fh->order != ORDER || (memcmp(fh->magic, FILE_MAGIC, 8) && memcmp(fh->magic, FILE_MAGIC1, 8))) {
		weprintf("%s: not an index", escname(name));
		goto fail;
	}
	x->version = memcmp(fh->magic, FILE_MAGIC, 8) ? 1 : 2;
	x->hdrsize = x->version == 1 ? offsetof(struct seghdr, map[NMAP1]) + sizeof x->seg->hdr.whole :
	    sizeof(struct seghdr);
	x->k0 = fh->k0;
	x->k1 = fh->k1;
	/* the segments, from the last, each found by its trailer */
	for (pos = len; pos > sizeof *fh; pos = t.start) {
		if (x->nseg == SKIDX_SEGMAX) {
			weprintf("%s: more than %d segments", escname(name), SKIDX_SEGMAX);
			goto fail;
		}
		if (pos - sizeof *fh < x->hdrsize + sizeof t)
			goto bad;
		memcpy(&t, x->p + pos - sizeof t, sizeof t);
		if (memcmp(t.magic, END_MAGIC, 8) || t.start % 8 || t.start < sizeof *fh ||
		    t.start > pos - x->hdrsize - sizeof t)
			goto bad;
		if (openseg(x, &x->seg[x->nseg], t.start, pos) < 0 ||
		    x->seg[x->nseg].hdr.prev != (t.start > sizeof *fh ? 1 : 0))
			goto bad;
		x->nseg++;
	}
	for (i = 0; i < x->nseg / 2; i++) {
		tmp = x->seg[i];
		x->seg[i] = x->seg[x->nseg - 1 - i];
		x->seg[x->nseg - 1 - i] = tmp;
	}
	for (i = 0, base = 0; i < x->nseg; i++) {
		x->seg[i].h = &x->seg[i].hdr;
		x->seg[i].base = base;
		base += x->seg[i].h->ndocs;
		x->ndistinct += x->seg[i].h->ndistinct;
	}
	x->ndocs = base;
	if (base >= UINT32_MAX || loaddead(x) < 0 || x->ndistinct < 0 ||
	    (uint64_t)x->ndistinct > x->ndocs - x->ndead)
		goto bad;
	if ((r = livesize(x)) == -2)
		goto fail;
	if (r < 0)
		goto bad;
	return x;
bad:
	forged(x);
fail:
	skidx_close(x);
	return NULL;
}

void
skidx_close(struct skidx *x)
{
	if (!x)
		return;
	if (x->p)
		munmap((void *)x->p, x->len);
	free(x->dead);
	free(x);
}

unsigned
skidx_nseg(const struct skidx *x)
{
	return x->nseg;
}

unsigned
skidx_version(const struct skidx *x)
{
	return x->version;
}

void
skidx_size(const struct skidx *x, unsigned *size, unsigned *maxwhole)
{
	*size = x ? x->size : 0;
	*maxwhole = x ? x->maxwhole : 0;
}

int
skidx_dump(struct skidx *x, struct obuf *out, FILE *fp)
{
	struct sketch s;
	uint64_t g;

	for (g = 0; g < x->ndocs; g++) {
		if (isdead(x, g))
			continue;
		if (getdoc(x, g, &s) < 0)
			return -1;
		sketch_write(out, &s);
		if (out->n >= FLUSHAT)
			obuf_flush(out, fp);
	}
	return 0;
}

/*
 * A batch against an index: the kept documents it replaces, and the
 * change it makes to the counts: the sketches it adds that no kept one
 * equals, and the kept sketches it takes away that no other kept one
 * equals (each document its own sketch without DISTINCT).
 */
struct plan {
	struct skidx *x;
	struct join *b;
	uint64_t *dead;		/* the kept documents replaced, sorted */
	size_t ndead;
	uint32_t *add;		/* the batch's new sketches */
	size_t nadd;
	uint64_t *lost;		/* the kept sketches gone */
	size_t nlost;
	/* the change to the counts, sorted by hash */
	uint64_t *ck;
	int64_t *cv;
	size_t nc;
	size_t *cdir;		/* by the top cbits bits of a hash: where its ck start */
	unsigned cbits;
	struct hfilter seen;	/* the hashes of ck, 8 bits each: most are not */
	uint64_t *sel;		/* a query's kept documents, as numbered in its join */
	size_t nsel;
	uint64_t *radd, *rrem;	/* the reach of the sketches added and gone, sorted */
	uint64_t *bound;	/* by the top boundbits bits of h: at least cbelow(h) */
	unsigned boundbits;
};

static int
replaced(const struct plan *pl, uint64_t g)
{
	size_t k = radix_lowerbound64(pl->dead, pl->ndead, g);

	return k < pl->ndead && pl->dead[k] == g;
}

/* Whether a kept document, not replaced, has sketch s: 1, 0, or -1 (forged). */
static int
kepthas(const struct plan *pl, const struct sketch *s)
{
	const struct skidx *x = pl->x;
	struct sketch t;
	uint64_t k = digest(x->k0, x->k1, s), i, g;
	unsigned sg;

	for (sg = 0; sg < x->nseg; sg++) {
		const struct map *m = &x->seg[sg].map[M_DIGEST];

		for (i = maplower(m, k); i < m->n && mapcmp(m, i, k) == 0; i++) {
			if (mapval(m, i) >= x->seg[sg].h->ndocs)
				return -1;
			g = x->seg[sg].base + mapval(m, i);
			if (isdead(x, g) || replaced(pl, g))
				continue;
			if (getdoc(x, g, &t) < 0)
				return -1;
			if (samesketch(s, &t))
				return 1;
		}
	}
	return 0;
}

/* The live kept document of ID id[0..n): its number, or UINT64_MAX. */
static uint64_t
findid(const struct skidx *x, const char *id, size_t n, int *forged)
{
	struct sketch t;
	uint64_t k = idkey(x, id, n), i, g;
	unsigned sg;

	for (sg = 0; sg < x->nseg; sg++) {
		const struct map *m = &x->seg[sg].map[M_ID];

		for (i = maplower(m, k); i < m->n && mapcmp(m, i, k) == 0; i++) {
			if (mapval(m, i) >= x->seg[sg].h->ndocs) {
				*forged = 1;
				return UINT64_MAX;
			}
			g = x->seg[sg].base + mapval(m, i);
			if (isdead(x, g))
				continue;
			if (getdoc(x, g, &t) < 0) {
				*forged = 1;
				return UINT64_MAX;
			}
			if (t.idlen == n && memcmp(t.id, id, n) == 0)
				return g;
		}
	}
	return UINT64_MAX;
}

/* An open-addressing set of the batch's sketches, by digest (DISTINCT). */
struct sketchset {
	uint32_t *slot;
	uint64_t *dg;
	size_t mask;
};

static void
plan_free(struct plan *pl)
{
	free(pl->dead);
	free(pl->add);
	free(pl->lost);
	free(pl->ck);
	free(pl->cv);
	free(pl->cdir);
	hfilter_free(&pl->seen);
	free(pl->sel);
	free(pl->radd);
	free(pl->rrem);
	free(pl->bound);
}

/* Sort and sum the n records (hash, +1 or -1 as 1 or 0) of v into pl's counts. */
static void
sumcounts(struct plan *pl, uint64_t *v, size_t n)
{
	size_t i, k;
	int64_t c;

	radix_sort64kv(v, n);
	pl->ck = ereallocarray(NULL, n + 1, sizeof *pl->ck);
	pl->cv = ereallocarray(NULL, n + 1, sizeof *pl->cv);
	for (i = 0; i < n; i = k) {
		for (c = 0, k = i; k < n && v[2 * k] == v[2 * i]; k++)
			c += v[2 * k + 1] ? 1 : -1;
		if (c) {
			pl->ck[pl->nc] = v[2 * i];
			pl->cv[pl->nc++] = c;
		}
	}
	/*
	 * A directory by the top bits, about a hash a bucket, so that a
	 * weight costs one short search: forged hashes crowding a bucket
	 * make it a binary search, never a longer one.
	 */
	for (pl->cbits = 4; pl->cbits < 32 && ((size_t)1 << pl->cbits) < pl->nc; pl->cbits++)
		;
	pl->cdir = ereallocarray(NULL, ((size_t)1 << pl->cbits) + 1, sizeof *pl->cdir);
	for (i = k = 0; k <= (size_t)1 << pl->cbits; k++) {
		while (i < pl->nc && pl->ck[i] >> (64 - pl->cbits) < k)
			i++;
		pl->cdir[k] = i;
	}
	/* 8 bits a hash: a filter small enough to stay in the cache */
	hfilter_init(&pl->seen, pl->nc, 8);
	for (i = 0; i < pl->nc; i++)
		hfilter_add(&pl->seen, pl->ck[i]);
}

/*
 * The plan of batch b against x (NULL: empty). With counts, the change to
 * the counts too (for a query; an append writes them a part at a time).
 * -1 if x is forged.
 */
static int
plan(struct plan *pl, struct skidx *x, struct join *b, int counts)
{
	struct sketch s, t;
	struct sketchset set = { 0 };
	uint64_t g, k0 = x ? x->k0 : 0, k1 = x ? x->k1 : 0, *v;
	size_t nb = join_ndocs(b), d, i, cap, nv = 0, n = 0;
	uint32_t e;
	int forged = 0, r;

	memset(pl, 0, sizeof *pl);
	pl->x = x;
	pl->b = b;
	pl->dead = ereallocarray(NULL, nb + 1, sizeof *pl->dead);
	pl->add = ereallocarray(NULL, nb + 1, sizeof *pl->add);
	pl->lost = ereallocarray(NULL, nb + 1, sizeof *pl->lost);
	for (d = 0; x && d < nb; d++) {
		join_sketch(b, (uint32_t)d, &s);
		if ((g = findid(x, s.id, s.idlen, &forged)) != UINT64_MAX)
			pl->dead[pl->ndead++] = g;
		if (forged)
			return -1;
	}
	radix_sort64(pl->dead, pl->ndead);
	/* the batch's sketches: new unless kept or earlier in the batch */
	for (cap = 16; cap < 2 * nb; cap *= 2)
		;
	set.mask = cap - 1;
	set.slot = ereallocarray(NULL, cap, sizeof *set.slot);
	memset(set.slot, 0xff, cap * sizeof *set.slot);
	set.dg = ereallocarray(NULL, nb + 1, sizeof *set.dg);
	for (d = 0; d < nb; d++) {
		join_sketch(b, (uint32_t)d, &s);
		if (DISTINCT) {
			set.dg[d] = digest(k0, k1, &s);
			for (i = set.dg[d] & set.mask; (e = set.slot[i]) != UINT32_MAX;
			    i = (i + 1) & set.mask) {
				if (set.dg[e] != set.dg[d])
					continue;
				join_sketch(b, e, &t);
				if (samesketch(&s, &t))
					break;
			}
			if (e != UINT32_MAX)
				continue;
			set.slot[i] = (uint32_t)d;
			if (x && (r = kepthas(pl, &s)) != 0) {
				if (r < 0)
					goto forged;
				continue;
			}
		}
		pl->add[pl->nadd++] = (uint32_t)d;
	}
	/* the kept sketches replaced: gone unless kept elsewhere (each once) */
	for (d = 0; d < pl->ndead; d++) {
		if (DISTINCT) {
			if (getdoc(x, pl->dead[d], &s) < 0 || (r = kepthas(pl, &s)) < 0)
				goto forged;
			if (r)
				continue;
			for (i = 0; i < pl->nlost; i++) {
				if (getdoc(x, pl->lost[i], &t) < 0)
					goto forged;
				if (samesketch(&s, &t))
					break;
			}
			if (i < pl->nlost)
				continue;
		}
		pl->lost[pl->nlost++] = pl->dead[d];
	}
	free(set.slot);
	free(set.dg);
	pl->radd = ereallocarray(NULL, pl->nadd + 1, sizeof *pl->radd);
	pl->rrem = ereallocarray(NULL, pl->nlost + 1, sizeof *pl->rrem);
	for (d = 0; d < pl->nadd; d++) {
		join_sketch(b, pl->add[d], &s);
		pl->radd[d] = reach(&s);
		n += s.n;
	}
	for (d = 0; d < pl->nlost; d++) {
		if (getdoc(x, pl->lost[d], &s) < 0)
			return -1;
		pl->rrem[d] = reach(&s);
		n += s.n;
	}
	radix_sort64(pl->radd, pl->nadd);
	radix_sort64(pl->rrem, pl->nlost);
	if (!counts)
		return 0;
	v = ereallocarray(NULL, 2 * n + 2, sizeof *v);
	for (d = 0; d < pl->nadd; d++) {
		join_sketch(b, pl->add[d], &s);
		for (i = 0; i < s.n; i++) {
			v[nv++] = s.h[i];
			v[nv++] = 1;
		}
	}
	for (d = 0; d < pl->nlost; d++) {
		getdoc(x, pl->lost[d], &s);
		for (i = 0; i < s.n; i++) {
			v[nv++] = s.h[i];
			v[nv++] = 0;
		}
	}
	sumcounts(pl, v, nv / 2);
	free(v);
	return 0;
forged:
	free(set.slot);
	free(set.dg);
	return -1;
}

/* The counts of an index and a batch, for join_setdf. */
struct counts {
	struct plan *pl;
	struct join_df df;
};

/*
 * Whether segment sg states the count of hash h once it is added: its
 * COUNT map holds h, with the count (CNTMAX or more: the count in
 * XCNT). 1 and the count in *c, or 0.
 */
static int
segcount(const struct seg *sg, uint64_t h, uint64_t *c)
{
	const struct map *m = &sg->map[M_COUNT], *xm = &sg->map[M_XCNT];
	uint64_t i = maplower(m, h);

	if (i >= m->n || mapcmp(m, i, h) != 0)
		return 0;
	*c = mapval(m, i);
	if (*c == CNTMAX && (i = maplower(xm, h)) < xm->n && mapcmp(xm, i, h) == 0)
		*c = mapval(xm, i);
	return 1;
}

/*
 * The count of h as the latest of the segments from first on that states
 * it says: 1 and the count in *c, or 0 if none does.
 */
static int
keptcount(const struct skidx *x, unsigned first, uint64_t h, uint64_t *c)
{
	unsigned sg;

	for (sg = x ? x->nseg : 0; sg-- > first;)
		if (segcount(&x->seg[sg], h, c))
			return 1;
	return 0;
}

static uint64_t
cdf(void *ctx, size_t d, unsigned k, uint64_t h)
{
	const struct plan *pl = ctx;
	const struct skidx *x = pl->x;
	const struct seg *sd;
	size_t i, lo, hi;
	uint64_t li, kept;
	int64_t t = 0;

	(void)k;	/* the hash is looked up by its value */
	if (hfilter_has(&pl->seen, h)) {
		lo = pl->cdir[h >> (64 - pl->cbits)];
		hi = pl->cdir[(h >> (64 - pl->cbits)) + 1];
		i = lo + radix_lowerbound64(pl->ck + lo, hi - lo, h);
		if (i < hi && pl->ck[i] == h)
			t = pl->cv[i];
	}
	if (d < pl->nsel) {
		/* a kept document's hash: its segment, or a later one, states its count */
		sd = segof(x, pl->sel[d], &li);
		if (!keptcount(x, (unsigned)(sd - x->seg), h, &kept))
			kept = 0;
	} else if (!keptcount(x, 0, h, &kept)) {
		kept = 0;
	}
	t += (int64_t)kept;
	/* a forged index cannot make a count below 1: the sketch holding h counts */
	return t > 0 ? (uint64_t)t : 1;
}

static size_t
cbelow(void *ctx, uint64_t h)
{
	const struct plan *pl = ctx;
	const struct skidx *x = pl->x;
	int64_t c = (int64_t)radix_lowerbound64(pl->radd, pl->nadd, h) -
	    (int64_t)radix_lowerbound64(pl->rrem, pl->nlost, h);
	unsigned sg;

	for (sg = 0; x && sg < x->nseg; sg++)
		c += (int64_t)maplower(&x->seg[sg].map[M_RADD], h) -
		    (int64_t)maplower(&x->seg[sg].map[M_RREM], h);
	return c > 0 ? (size_t)c : 0;
}

/*
 * The records of m whose keys are below the bucket b of 2^bits (end 0) or
 * below its end (end 1), from m's directory: exact where m's buckets are
 * as fine, else those of m's bucket holding it counted whole, so that it
 * is at most the exact count (end 0) or at least it (end 1).
 */
static uint64_t
dirbelow(const struct map *m, uint64_t b, unsigned bits, int end)
{
	uint64_t i, v;

	if (m->bits >= bits)
		i = (b + (uint64_t)end) << (m->bits - bits);
	else
		i = (b >> (bits - m->bits)) + (uint64_t)end;
	v = m->dir[i];
	return v < m->n ? v : m->n;
}

/*
 * The table of cbound: for each bucket of hashes (their top bits, about
 * 16 a document of the query's join, 2^16 at most), at least cbelow of
 * any hash in it: the reaches added below its end, less those gone below
 * its start, from the maps' directories. One look-up then spares most
 * weights the searches of cbelow.
 */
static void
boundtable(struct plan *pl, size_t ndocs)
{
	const struct skidx *x = pl->x;
	uint64_t b, nb, lo, hi;
	size_t ia = 0, ir = 0;
	unsigned bits, sg;
	int64_t c;

	for (bits = 8; bits < 16 && ((uint64_t)1 << bits) < 16 * (uint64_t)ndocs; bits++)
		;
	nb = (uint64_t)1 << bits;
	pl->boundbits = bits;
	pl->bound = ereallocarray(NULL, nb, sizeof *pl->bound);
	for (b = 0; b < nb; b++) {
		lo = b << (64 - bits);
		hi = b + 1 < nb ? (b + 1) << (64 - bits) : 0;
		while (ia < pl->nadd && (hi == 0 || pl->radd[ia] < hi))
			ia++;
		while (ir < pl->nlost && pl->rrem[ir] < lo)
			ir++;
		c = (int64_t)ia - (int64_t)ir;
		for (sg = 0; x && sg < x->nseg; sg++)
			c += (int64_t)dirbelow(&x->seg[sg].map[M_RADD], b, bits, 1) -
			    (int64_t)dirbelow(&x->seg[sg].map[M_RREM], b, bits, 0);
		pl->bound[b] = c > 0 ? (uint64_t)c : 0;
	}
}

/* At least cbelow(h): its bucket's bound. */
static size_t
cbound(void *ctx, uint64_t h)
{
	const struct plan *pl = ctx;

	return (size_t)pl->bound[h >> (64 - pl->boundbits)];
}

static unsigned
nprefix(const struct sketch *s)
{
	return s->n < JOIN_PREFIX ? s->n : JOIN_PREFIX;
}

/*
 * The kept documents a query of the batch may pair with: for each hash
 * among a batch sketch's prefix, the first JOIN_RUNMAX kept documents,
 * not replaced and not too small, holding it among theirs, in their
 * order. Returns their number in *sel (sorted, distinct), or -1.
 */
static int
candidates(const struct plan *pl, unsigned minsize, uint64_t **sel, size_t *nsel)
{
	const struct skidx *x = pl->x;
	struct sketch s;
	uint64_t *h, i, g, *out;
	size_t nb = join_ndocs(pl->b), nh = 0, n = 0, d, k, cap = 0;
	unsigned m, sg, run;

	h = ereallocarray(NULL, nb * JOIN_PREFIX + 1, sizeof *h);
	for (d = 0; d < nb; d++) {
		join_sketch(pl->b, (uint32_t)d, &s);
		if (s.nshingles < minsize)
			continue;
		for (m = 0; m < nprefix(&s); m++)
			h[nh++] = s.h[m];
	}
	radix_sort64(h, nh);
	out = NULL;
	for (k = 0; k < nh; k++) {
		if (k > 0 && h[k] == h[k - 1])
			continue;
		for (run = 0, sg = 0; x && sg < x->nseg && run < JOIN_RUNMAX; sg++) {
			const struct map *mp = &x->seg[sg].map[M_POST];

			for (i = maplower(mp, h[k]); i < mp->n && mapcmp(mp, i, h[k]) == 0 &&
			    run < JOIN_RUNMAX; i++) {
				if (mapval(mp, i) >= x->seg[sg].h->ndocs)
					goto forged;
				g = x->seg[sg].base + mapval(mp, i);
				if (isdead(x, g) || replaced(pl, g))
					continue;
				if (x->seg[sg].nsh[mapval(mp, i)] < minsize)
					continue;
				egrow(&out, &cap, n + 1, sizeof *out);
				out[n++] = g;
				run++;
			}
		}
	}
	free(h);
	if (n)
		radix_sort64(out, n);
	for (d = k = 0; d < n; d++)
		if (d == 0 || out[d] != out[d - 1])
			out[k++] = out[d];
	*sel = out;
	*nsel = k;
	return 0;
forged:
	forged(x);
	free(h);
	free(out);
	return -1;
}

/* What a query join keeps alive: its counts (df first: release gets it). */
struct qctx {
	struct join_df df;
	struct plan pl;
};

static void
release(const struct join_df *df)
{
	struct qctx *q = (struct qctx *)df;

	plan_free(&q->pl);
	free(q);
}

/*
 * A query of an index of version 1, whose counts this reader does not
 * use: the join of its kept documents that b does not replace, then b's,
 * as simjoin -q makes it over their records.
 */
static struct join *
wholequery(struct skidx *x, struct join *b, const struct join_opt *opt)
{
	struct join *j = join_new(opt);
	struct plan pl;
	struct sketch s;
	unsigned size, maxwhole;
	uint64_t g;
	size_t d;

	if (plan(&pl, x, b, 0) < 0)
		goto fail;
	for (g = 0; g < x->ndocs; g++) {
		if (isdead(x, g) || replaced(&pl, g))
			continue;
		if (getdoc(x, g, &s) < 0)
			goto fail;
		join_addsketch(j, &s);
	}
	join_getsize(b, &size, &maxwhole);
	join_setsize(j, size, maxwhole);
	join_queries(j);
	for (d = 0; d < join_ndocs(b); d++) {
		join_sketch(b, (uint32_t)d, &s);
		join_addsketch(j, &s);
	}
	plan_free(&pl);
	join_prepare(j);
	return j;
fail:
	forged(x);
	plan_free(&pl);
	join_free(j);
	return NULL;
}

struct join *
skidx_query(struct skidx *x, struct join *b, const struct join_opt *opt)
{
	struct qctx *q = ecalloc(1, sizeof *q);
	struct join *j;
	struct sketch s;
	uint64_t *sel = NULL;
	size_t nsel, d;
	unsigned size, maxwhole;

	if (x && x->version == 1) {
		free(q);
		return wholequery(x, b, opt);
	}
	if (plan(&q->pl, x, b, 1) < 0 || candidates(&q->pl, opt->minsize, &sel, &nsel) < 0) {
		plan_free(&q->pl);
		free(q);
		if (x)
			forged(x);
		return NULL;
	}
	q->pl.sel = sel;	/* the numbers of the kept documents in j, for cdf */
	q->pl.nsel = nsel;
	boundtable(&q->pl, nsel + join_ndocs(b));
	/* the batch and its candidates only: memory spares the file's calls */
	j = join_new(opt);
	join_inmemory(j);
	join_getsize(b, &size, &maxwhole);
	for (d = 0; d < nsel; d++) {
		if (getdoc(x, sel[d], &s) < 0) {
			join_free(j);
			release(&q->df);
			return NULL;
		}
		join_addsketch(j, &s);
	}
	join_setsize(j, size, maxwhole);
	join_queries(j);
	for (d = 0; d < join_ndocs(b); d++) {
		join_sketch(b, (uint32_t)d, &s);
		join_addsketch(j, &s);
	}
	q->df.ndistinct = (size_t)((x ? x->ndistinct : 0) + (int64_t)q->pl.nadd -
	    (int64_t)q->pl.nlost);
	q->df.df = cdf;
	q->df.below = cbelow;
	q->df.bound = cbound;
	q->df.ctx = &q->pl;
	q->df.release = release;
	join_setdf(j, &q->df);
	join_prepare(j);
	return j;
}

struct join *
skidx_whole(struct skidx *x, struct join *b)
{
	struct join_opt opt = { 0, -1, 0, 0 };
	struct join *j = join_new(&opt);
	struct plan pl;
	struct sketch s;
	uint64_t g;
	size_t d;

	if (plan(&pl, x, b, 0) < 0) {
		forged(x);
		plan_free(&pl);
		join_free(j);
		return NULL;
	}
	for (g = 0; g < x->ndocs; g++) {
		if (isdead(x, g) || replaced(&pl, g))
			continue;
		if (getdoc(x, g, &s) < 0) {
			plan_free(&pl);
			join_free(j);
			return NULL;
		}
		join_addsketch(j, &s);
	}
	for (d = 0; d < join_ndocs(b); d++) {
		join_sketch(b, (uint32_t)d, &s);
		join_addsketch(j, &s);
	}
	plan_free(&pl);
	return j;
}

/* Buffered writes at an offset of a file. */
struct wr {
	int fd;
	const char *name;
	uint64_t off;		/* of buf's first byte */
	struct obuf buf;
	int err;
};

static void
wflush(struct wr *w)
{
	size_t done = 0;
	ssize_t r;

	while (!w->err && done < w->buf.n) {
		r = pwrite(w->fd, w->buf.p + done, w->buf.n - done, (off_t)(w->off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			weprintf("%s:", escname(w->name));
			w->err = 1;
			break;
		}
		done += (size_t)r;
	}
	w->off += w->buf.n;
	w->buf.n = 0;
}

/* Add n bytes at p, FLUSHAT at most at a time: the buffer stays small. */
static void
wadd(struct wr *w, const void *p, size_t n)
{
	size_t k;

	for (; n > 0; p = (const char *)p + k, n -= k) {
		k = n < FLUSHAT ? n : FLUSHAT;
		obuf_add(&w->buf, p, k);
		if (w->buf.n >= FLUSHAT)
			wflush(w);
	}
}

static uint64_t
wpos(const struct wr *w)
{
	return w->off + w->buf.n;
}

static void
wpad(struct wr *w)
{
	static const char zero[8];

	if (wpos(w) % 8)
		wadd(w, zero, 8 - wpos(w) % 8);
}

/* Directory bits for about n records: about 4 a bucket. */
static unsigned
dirbits(uint64_t n)
{
	unsigned b = 0;

	while (b < DIRBITSMAX && (n >> b) > 4)
		b++;
	return b;
}

/*
 * A map being written: its records, given in order, then its directory,
 * whose entries are made as the records pass them: DIRBUF of them in
 * memory, the others in a scratch file until the records end.
 */
struct mapw {
	struct maphdr *h;
	uint64_t seg;		/* the segment's offset */
	uint64_t next;		/* the bucket whose start comes next */
	uint32_t *dir;		/* starts not written yet */
	size_t ndir;
	FILE *tmp;		/* the starts before them, or NULL */
	unsigned kind;		/* K_INLINE, K_LOW, K_POST */
	unsigned valw;		/* the bytes of a record's value (0, 1, 4) */
};

static void
mapbegin(struct mapw *mw, struct wr *w, struct maphdr *h, uint64_t seg, uint64_t nmax,
    unsigned kind, unsigned valw)
{
	mw->h = h;
	mw->seg = seg;
	mw->kind = kind;
	mw->valw = valw;
	mw->next = 0;
	mw->ndir = 0;
	mw->tmp = NULL;
	h->n = 0;
	h->bits = dirbits(nmax);
	h->rec = wpos(w) - seg;
	mw->dir = ereallocarray(NULL, DIRBUF, sizeof *mw->dir);
}

/* The start of each bucket up to b (inclusive): the records so far. */
static void
mapstarts(struct mapw *mw, uint64_t b)
{
	for (; mw->next <= b; mw->next++) {
		mw->dir[mw->ndir++] = (uint32_t)mw->h->n;
		if (mw->ndir < DIRBUF)
			continue;
		if (!mw->tmp)
			mw->tmp = etmpfile();
		if (fwrite(mw->dir, sizeof *mw->dir, DIRBUF, mw->tmp) != DIRBUF)
			eprintf("temporary file:");
		mw->ndir = 0;
	}
}

/*
 * A record of key k and value v: the key whole (K_INLINE), its bits below
 * the directory's (K_LOW), or none, a reference v placed by it, and its 8
 * bits below the directory's after v (K_POST).
 */
static void
mapadd(struct mapw *mw, struct wr *w, uint64_t k, uint64_t v)
{
	unsigned bits = (unsigned)mw->h->bits, i, n;
	unsigned char b[8];
	uint32_t v32 = (uint32_t)v;

	mapstarts(mw, bits ? k >> (64 - bits) : 0);
	if (mw->kind == K_INLINE) {
		wadd(w, &k, 8);
	} else if (mw->kind == K_LOW) {
		for (i = 0, n = lowbytes(bits); i < n; i++)
			b[i] = (unsigned char)(lowbits(bits, k) >> 8 * i);
		wadd(w, b, n);
	}
	if (mw->valw == 4) {
		wadd(w, &v32, 4);
	} else if (mw->valw == 1) {
		b[0] = (unsigned char)v;
		wadd(w, b, 1);
	}
	if (mw->kind == K_POST) {
		b[0] = (unsigned char)keyfp(bits, k);
		wadd(w, b, 1);
	}
	mw->h->n++;
}

static void
mapend(struct mapw *mw, struct wr *w)
{
	size_t n;

	/* past the last bucket: the end of the records */
	mapstarts(mw, (uint64_t)1 << mw->h->bits);
	wpad(w);
	mw->h->dir = wpos(w) - mw->seg;
	if (mw->tmp) {
		/* the last ones after the others, then all of them back */
		if (fwrite(mw->dir, sizeof *mw->dir, mw->ndir, mw->tmp) != mw->ndir ||
		    fflush(mw->tmp) == EOF)
			eprintf("temporary file:");
		rewind(mw->tmp);
		while ((n = fread(mw->dir, sizeof *mw->dir, DIRBUF, mw->tmp)) > 0)
			wadd(w, mw->dir, n * sizeof *mw->dir);
		if (ferror(mw->tmp))
			eprintf("temporary file:");
		fclose(mw->tmp);
	} else {
		wadd(w, mw->dir, mw->ndir * sizeof *mw->dir);
	}
	wpad(w);
	free(mw->dir);
}

/*
 * Write the records of r, sorted, as a map (of nmax records at most: its
 * directory's size) of the kind of keys and valw-byte values.
 */
static void
writemap(struct wr *w, struct maphdr *h, uint64_t seg, struct runs *r, uint64_t nmax,
    unsigned kind, unsigned valw)
{
	struct mapw mw;
	uint64_t k, v;

	runs_sort(r);
	mapbegin(&mw, w, h, seg, nmax, kind, valw);
	while (runs_next(r, &k, &v))
		mapadd(&mw, w, k, v);
	mapend(&mw, w);
	runs_free(r);
}

/* Write the sorted keys k[0..n) as a map of keys alone. */
static void
writekeys(struct wr *w, struct maphdr *h, uint64_t seg, const uint64_t *k, size_t n)
{
	struct mapw mw;
	size_t i;

	mapbegin(&mw, w, h, seg, n, K_INLINE, 0);
	for (i = 0; i < n; i++)
		mapadd(&mw, w, k[i], 0);
	mapend(&mw, w);
}

/*
 * The counts once the segment is added: of each hash of the batch's
 * sketches and of those gone, the index's (the latest segment stating
 * it) and the change (+1 for each sketch added, -1 for each gone), in
 * COUNT up to CNTMAX, and in XCNT from CNTMAX on.
 */
static int
writecounts(struct wr *w, struct seghdr *sh, uint64_t seg, const struct plan *pl)
{
	struct runs *r = runs_new(RUNMAX), *xr = runs_new(RUNMAX);
	struct mapw mw;
	struct sketch s;
	unsigned char *isnew;
	uint64_t nmax = 0, nx = 0, k, v, h, c;
	size_t d, i, nb = join_ndocs(pl->b);
	int64_t t;
	int more;

	isnew = ecalloc(nb + 1, 1);
	for (d = 0; d < pl->nadd; d++)
		isnew[pl->add[d]] = 1;
	/* (hash, 1) for the batch's new sketches, 0 for its others, 2 for those gone */
	for (d = 0; d < nb; d++) {
		join_sketch(pl->b, (uint32_t)d, &s);
		for (i = 0; i < s.n; i++)
			runs_add(r, s.h[i], isnew[d]);
		nmax += s.n;
	}
	free(isnew);
	nmax += (uint64_t)pl->nlost * SK_MAXSIZE;
	for (d = 0; d < pl->nlost; d++) {
		if (getdoc(pl->x, pl->lost[d], &s) < 0) {
			runs_free(r);
			runs_free(xr);
			return -1;
		}
		for (i = 0; i < s.n; i++)
			runs_add(r, s.h[i], 2);
	}
	runs_sort(r);
	mapbegin(&mw, w, &sh->map[M_COUNT], seg, nmax, K_LOW, 1);
	for (more = runs_next(r, &k, &v); more;) {
		/* a hash's records: its change */
		for (h = k, t = 0; more && k == h; more = runs_next(r, &k, &v))
			t += v == 2 ? -1 : (int64_t)v;
		if (keptcount(pl->x, 0, h, &c))
			t += (int64_t)c;
		if (t < 0)	/* a forged index */
			t = 0;
		mapadd(&mw, w, h, t >= CNTMAX ? CNTMAX : (uint64_t)t);
		if (t >= CNTMAX) {
			runs_add(xr, h, (uint64_t)t > UINT32_MAX ? UINT32_MAX : (uint64_t)t);
			nx++;
		}
	}
	runs_free(r);
	mapend(&mw, w);
	writemap(w, &sh->map[M_XCNT], seg, xr, nx, K_INLINE, 4);
	return 0;
}

/* The postings of the batch's prefix hashes: (hash, document). */
static void
writepost(struct wr *w, struct maphdr *h, uint64_t seg, struct join *b)
{
	struct runs *r = runs_new(RUNMAX);
	struct sketch s;
	uint64_t n = 0;
	size_t nb = join_ndocs(b), d;
	unsigned m;

	for (d = 0; d < nb; d++) {
		join_sketch(b, (uint32_t)d, &s);
		for (m = 0; m < nprefix(&s); m++)
			runs_add(r, s.h[m], (uint64_t)d << PREFIXBITS | m);
		n += nprefix(&s);
	}
	writemap(w, h, seg, r, n, K_POST, 4);
}

/* The file's header, for a new index: a key drawn for it (its maps' placement). */
static void
writefilehdr(struct wr *w)
{
	struct filehdr fh;

	memset(&fh, 0, sizeof fh);
	memcpy(fh.magic, FILE_MAGIC, 8);
	fh.order = ORDER;
	fh.k0 = siphash(sip_runkey(0), sip_runkey(1), "skidx.k0", 8, 2, 4, NULL);
	fh.k1 = siphash(sip_runkey(0), sip_runkey(1), "skidx.k1", 8, 2, 4, NULL);
	wadd(w, &fh, sizeof fh);
}

uint64_t
skidx_append(struct skidx *x, int fd, const char *name, struct join *b)
{
	struct plan pl;
	struct seghdr h;
	struct trailer t;
	struct wr w = { fd, name, 0, { 0 }, 0 };
	struct sketch s;
	struct stat st;
	struct runs *r;
	uint64_t start, v, k0, k1;
	size_t nb = join_ndocs(b), d;

	if (x && x->version != SKIDX_VERSION) {
		weprintf("%s: an index of version %u: to be written anew", escname(name), x->version);
		return 0;
	}
	for (d = 0, v = 0; d < nb; d++) {
		join_sketch(b, (uint32_t)d, &s);
		v += s.n;
	}
	if (nb > SEGDOCMAX || v > SEGHASHMAX) {
		weprintf("%s: a segment of %zu documents and %ju hashes: at most %ju and %ju",
		    escname(name), nb, (uintmax_t)v, (uintmax_t)SEGDOCMAX, (uintmax_t)SEGHASHMAX);
		return 0;
	}
	if (plan(&pl, x, b, 0) < 0) {
		forged(x);
		plan_free(&pl);
		return 0;
	}
	if (x) {
		w.off = x->len;
		k0 = x->k0;
		k1 = x->k1;
	} else {
		writefilehdr(&w);
		memcpy(&k0, w.buf.p + 16, 8);
		memcpy(&k1, w.buf.p + 24, 8);
	}
	/*
	 * what a killed writer left past the index is overwritten (a
	 * device, written to as it is, has no length to cut)
	 */
	if (fstat(fd, &st) < 0 || (S_ISREG(st.st_mode) && ftruncate(fd, (off_t)wpos(&w)) < 0)) {
		weprintf("%s:", escname(name));
		goto fail;
	}
	start = wpos(&w);
	memset(&h, 0, sizeof h);
	memcpy(h.magic, SEG_MAGIC, 8);
	h.prev = start > sizeof(struct filehdr);
	h.ndocs = nb;
	h.ndead = pl.ndead;
	h.ndistinct = (int64_t)pl.nadd - (int64_t)pl.nlost;
	wadd(&w, &h, sizeof h);
	/* the documents: hashes and IDs by offset, then the shingles */
	h.hoff = wpos(&w) - start;
	for (d = 0, v = 0; d <= nb; d++) {
		wadd(&w, &v, 8);
		if (d < nb) {
			join_sketch(b, (uint32_t)d, &s);
			v += s.n;
			if (s.n < s.nshingles) {
				h.size = s.n;
				h.ncut++;
			} else {
				h.whole[s.n]++;
			}
		}
	}
	h.nhv = v;
	h.idoff = wpos(&w) - start;
	for (d = 0, v = 0; d <= nb; d++) {
		wadd(&w, &v, 8);
		if (d < nb) {
			join_sketch(b, (uint32_t)d, &s);
			v += s.idlen;
		}
	}
	h.nid = v;
	h.nsh = wpos(&w) - start;
	for (d = 0; d < nb; d++) {
		join_sketch(b, (uint32_t)d, &s);
		wadd(&w, &s.nshingles, 8);
	}
	h.hv = wpos(&w) - start;
	for (d = 0; d < nb; d++) {
		join_sketch(b, (uint32_t)d, &s);
		wadd(&w, s.h, s.n * sizeof *s.h);
	}
	h.ids = wpos(&w) - start;
	for (d = 0; d < nb; d++) {
		join_sketch(b, (uint32_t)d, &s);
		wadd(&w, s.id, s.idlen);
	}
	wpad(&w);
	h.dead = wpos(&w) - start;
	wadd(&w, pl.dead, pl.ndead * sizeof *pl.dead);
	/* the maps */
	r = runs_new(RUNMAX);
	for (d = 0; d < nb; d++) {
		join_sketch(b, (uint32_t)d, &s);
		runs_add(r, siphash(k0, k1, s.id, s.idlen, 1, 3, NULL), d);
	}
	writemap(&w, &h.map[M_ID], start, r, nb, K_INLINE, 4);
	r = runs_new(RUNMAX);
	for (d = 0; d < nb; d++) {
		join_sketch(b, (uint32_t)d, &s);
		runs_add(r, digest(k0, k1, &s), d);
	}
	writemap(&w, &h.map[M_DIGEST], start, r, nb, K_INLINE, 4);
	writepost(&w, &h.map[M_POST], start, b);
	if (writecounts(&w, &h, start, &pl) < 0)
		goto fail;
	writekeys(&w, &h.map[M_RADD], start, pl.radd, pl.nadd);
	writekeys(&w, &h.map[M_RREM], start, pl.rrem, pl.nlost);
	radix_free();
	memcpy(t.magic, END_MAGIC, 8);
	t.start = start;
	wadd(&w, &t, sizeof t);
	h.end = wpos(&w);
	wflush(&w);
	if (w.err)
		goto fail;
	if (pwrite(fd, &h, sizeof h, (off_t)start) != (ssize_t)sizeof h ||
	    (fsync(fd) < 0 && (S_ISREG(st.st_mode) || errno != EINVAL))) {
		weprintf("%s:", escname(name));
		goto fail;
	}
	free(w.buf.p);
	plan_free(&pl);
	return h.end;
fail:
	free(w.buf.p);
	plan_free(&pl);
	return 0;
}
