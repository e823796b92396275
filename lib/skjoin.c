/*
 * skjoin.c: the sharded join (skjoin.h); the records are in simrec(5),
 * "Sharded join records". Document numbers are written as 10 digits and
 * hashes as 16 hexadecimal ones, so that sort(1) in the C locale orders
 * the records as the steps read them, and sort -m merges them.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "radix.h"
#include "siphash.h"
#include "sketch.h"
#include "skjoin.h"
#include "uf.h"
#include "util.h"

#define DOCW	10	/* digits of a document number */
#define HASHW	16	/* hexadecimal digits of a hash */
#define SPILL	(1 << 20)	/* holders of a hash kept in memory; more go to a file */
#define SAMPLE	1024	/* the hashes that are 0 modulo this are sampled for the ranges */

enum { KSKETCH = '0', KWEIGHT = '1', KPAIR = '2' };

/* An output file of a step: whole or not at all, its records built in b. */
struct out {
	struct afile a;
	struct obuf b;
	char *path;
};

static int
outopen(struct out *o, const char *dir, const char *name, unsigned q, int numbered)
{
	char *path = emalloc(strlen(dir) + strlen(name) + 24);

	if (numbered)
		sprintf(path, "%s/%s.%u", dir, name, q);
	else
		sprintf(path, "%s/%s", dir, name);
	memset(&o->b, 0, sizeof o->b);
	o->path = path;
	if (!afile_open(&o->a, path)) {
		free(path);
		return 1;
	}
	return 0;
}

static void
outflush(struct out *o, int force)
{
	if (o->b.n >= 1 << 16 || (force && o->b.n))
		obuf_flush(&o->b, o->a.fp);
}

static int
outclose(struct out *o)
{
	int ret;

	outflush(o, 1);
	free(o->b.p);
	ret = afile_close(&o->a, 0);
	free(o->path);
	return ret;
}

/* n outputs name.0 .. name.n-1 (n 0: one, name), all opened or none. */
static struct out *
outsopen(const char *dir, const char *name, unsigned n)
{
	struct out *o = ecalloc(n ? n : 1, sizeof *o);
	unsigned q;

	for (q = 0; q < (n ? n : 1); q++) {
		if (outopen(&o[q], dir, name, q, n > 0) == 0)
			continue;
		while (q-- > 0) {
			afile_close(&o[q].a, 1);
			free(o[q].path);
		}
		free(o);
		return NULL;
	}
	return o;
}

static int
outsclose(struct out *o, unsigned n)
{
	unsigned q;
	int ret = 0;

	if (!o)
		return 1;
	for (q = 0; q < (n ? n : 1); q++)
		ret |= outclose(&o[q]);
	free(o);
	return ret;
}

static void
adddoc(struct obuf *b, uint64_t d)
{
	char *p = obuf_room(b, DOCW);
	int i;

	for (i = DOCW - 1; i >= 0; i--, d /= 10)
		p[i] = (char)('0' + d % 10);
	b->n += DOCW;
}

static void
addhash(struct obuf *b, uint64_t h)
{
	static const char hex[] = "0123456789abcdef";
	char *p = obuf_room(b, HASHW);
	int i;

	for (i = HASHW - 1; i >= 0; i--, h >>= 4)
		p[i] = hex[h & 15];
	b->n += HASHW;
}

/* The fields of a record: at most max of them, split at TABs. Returns their number. */
static size_t
fields(char *line, size_t n, char **f, size_t *len, size_t max)
{
	char *end = line + n, *tab;
	size_t k = 0;

	while (k < max) {
		f[k] = line;
		if (!(tab = memchr(line, '\t', (size_t)(end - line))) || k + 1 == max) {
			len[k++] = (size_t)(end - line);
			break;
		}
		len[k++] = (size_t)(tab - line);
		line = tab + 1;
	}
	return k;
}

static int
parsedoc(const char *s, size_t n, uint64_t *d)
{
	const char *err;

	if (n != DOCW)
		return -1;
	*d = (uint64_t)parsenumn(s, n, 0, UINT32_MAX - 1, &err);
	return err ? -1 : 0;
}

static int
parsehash(const char *s, size_t n, uint64_t *h)
{
	size_t i;
	int v;

	if (n != HASHW)
		return -1;
	for (*h = 0, i = 0; i < n; i++) {
		if ((v = hexval((unsigned char)s[i])) < 0 || (s[i] >= 'A' && s[i] <= 'F'))
			return -1;
		*h = *h << 4 | (unsigned)v;
	}
	return 0;
}

static int
parsecount(const char *s, size_t n, uint64_t *v)
{
	const char *err;

	*v = (uint64_t)parsenumn(s, n, 0, INT64_MAX, &err);
	return err ? -1 : 0;
}

static int
bad(struct rdr *r, const char *what)
{
	rdr_warn(r, "%s", what);
	return 1;
}

/*
 * A key record of the map: a hash, its document, and its flags: 1 if it
 * makes candidates, 2 if the sketch is a repeat (identical to one before
 * it, and not counted for the weights).
 */
struct key {
	uint64_t h;
	uint32_t d, flags;
};

static int
cmpkey(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return (x->d > y->d) - (x->d < y->d);
}

struct keys {
	struct key *k;
	size_t n, cap;
};

/* The sketches of shard i of n, numbered as one run numbers them. */
struct shardrd {
	struct rdr *r;
	unsigned i, n;
	uint64_t k;		/* documents read */
	unsigned size;		/* of the cut sketches */
	struct sketch s;
	uint64_t h[SK_MAXSIZE];
	char *line;
	size_t len;
	int ret;
};

/* The next document: 1, its number in *d; 0 at the end. */
static int
nextdoc(struct shardrd *sr, uint64_t *d)
{
	ptrdiff_t len;

	while ((len = rdr_line(sr->r, &sr->line)) >= 0) {
		if (sketch_parse(sr->r, sr->line, (size_t)len, &sr->s, sr->h) < 0) {
			sr->ret = 1;
			continue;
		}
		if (sr->s.n < sr->s.nshingles) {
			if (sr->size && sr->s.n != sr->size) {
				sr->ret |= bad(sr->r, "a cut sketch of another size: skipped");
				continue;
			}
			sr->size = sr->s.n;
		}
		*d = sr->i + (uint64_t)sr->n * sr->k++;
		if (*d >= UINT32_MAX - 1)
			eprintf("%s:%ju: too many documents", escname(sr->r->name), sr->r->lineno);
		sr->len = (size_t)len;
		return 1;
	}
	return 0;
}

/* A digest of a sketch, its shingles and hashes, under the run's key. */
static void
digest(const uint64_t key[2], const struct sketch *s, uint64_t out[2])
{
	unsigned char b[8 * (SK_MAXSIZE + 1)];
	unsigned k, x;

	for (k = 0; k <= s->n; k++)
		for (x = 0; x < 8; x++)
			b[8 * k + x] = (unsigned char)((k ? s->h[k - 1] : s->nshingles) >> 8 * x);
	siphash24_128(key[0], key[1], b, 8 * ((size_t)s->n + 1), out);
}

struct digrec {
	uint64_t v[2];
	uint32_t d;
};

static int
cmpdig(const void *a, const void *b)
{
	const struct digrec *x = a, *y = b;

	if (x->v[0] != y->v[0])
		return x->v[0] < y->v[0] ? -1 : 1;
	if (x->v[1] != y->v[1])
		return x->v[1] < y->v[1] ? -1 : 1;
	return (x->d > y->d) - (x->d < y->d);
}

int
skj_digest(struct rdr *r, unsigned i, unsigned n, const uint64_t key[2], const char *dir)
{
	struct shardrd sr = { r, i, n, 0, 0, { 0 }, { 0 }, NULL, 0, 0 };
	struct out *out = outsopen(dir, "digests", n), *sample = outsopen(dir, "sample", 0), *o;
	struct digrec *v = NULL;
	uint64_t *sv = NULL, d;
	size_t nv = 0, cap = 0, ns = 0, scap = 0, m;
	unsigned k;

	if (!out || !sample)
		exit(1);
	while (nextdoc(&sr, &d)) {
		egrow(&v, &cap, nv + 1, sizeof *v);
		digest(key, &sr.s, v[nv].v);
		v[nv++].d = (uint32_t)d;
		for (k = 0; k < sr.s.n; k++) {
			if (sr.s.h[k] & (SAMPLE - 1))
				continue;
			egrow(&sv, &scap, ns + 1, sizeof *sv);
			sv[ns++] = sr.s.h[k];
		}
	}
	if (ns)
		radix_sort64(sv, ns);
	for (m = 0; m < ns; m++) {
		addhash(&sample->b, sv[m]);
		obuf_addc(&sample->b, '\n');
		outflush(sample, 0);
	}
	free(sv);
	if (nv)
		qsort(v, nv, sizeof *v, cmpdig);
	for (m = 0; m < nv; m++) {
		o = &out[v[m].v[0] % n];
		addhash(&o->b, v[m].v[0]);
		addhash(&o->b, v[m].v[1]);
		obuf_addc(&o->b, '\t');
		adddoc(&o->b, v[m].d);
		obuf_addc(&o->b, '\n');
		outflush(o, 0);
	}
	free(v);
	return sr.ret | outsclose(out, n) | outsclose(sample, 0);
}

/* Read the hashes of sorted records from r, one a line, calling f(h, ctx) for each. */
static int
readhashes(struct rdr *r, const char *what, void (*f)(uint64_t, void *), void *ctx)
{
	ptrdiff_t len;
	char *line;
	uint64_t h, prev = 0;
	int ret = 0, any = 0;

	while ((len = rdr_line(r, &line)) >= 0) {
		if (parsehash(line, (size_t)len, &h) < 0 || (any && h < prev)) {
			rdr_warn(r, "bad %s record: skipped", what);
			ret = 1;
			continue;
		}
		any = 1;
		prev = h;
		f(h, ctx);
	}
	return ret;
}

struct quantiles {
	uint64_t n, seen, *low;
	unsigned parts, next;
};

static void
countone(uint64_t h, void *ctx)
{
	(void)h;
	((struct quantiles *)ctx)->n++;
}

static void
pickone(uint64_t h, void *ctx)
{
	struct quantiles *q = ctx;

	/* range p starts at the sample of rank p * n / parts */
	while (q->next < q->parts && q->seen == q->next * q->n / q->parts)
		q->low[q->next++] = h;
	q->seen++;
}

int
skj_plan(const char *path, unsigned n, FILE *fp)
{
	struct quantiles q = { 0, 0, NULL, n, 1 };
	struct rdr r;
	unsigned p;
	int ret;

	if (rdr_open(&r, path) < 0)
		return 1;
	ret = readhashes(&r, "sample", countone, &q) | rdr_close(&r);
	q.low = ecalloc(n, sizeof *q.low);
	for (p = 1; p < n; p++)
		q.low[p] = UINT64_MAX;	/* without samples: empty */
	if (rdr_open(&r, path) < 0)
		return 1;
	ret |= readhashes(&r, "sample", pickone, &q) | rdr_close(&r);
	for (p = 0; p < n; p++) {
		char b[HASHW];
		uint64_t h = p ? q.low[p] : 0;
		int x;

		for (x = HASHW - 1; x >= 0; x--, h >>= 4)
			b[x] = "0123456789abcdef"[h & 15];
		fwrite(b, 1, HASHW, fp);
		putc('\n', fp);
	}
	free(q.low);
	return ret;
}

struct ranges {
	uint64_t *low;
	unsigned n;
};

static void
addlow(uint64_t h, void *ctx)
{
	struct ranges *rg = ctx;

	if (rg->n < SKJ_MAXSHARDS)
		rg->low[rg->n] = h;
	rg->n++;
}

int
skj_loadranges(const char *path, unsigned n, uint64_t **low)
{
	struct ranges rg = { NULL, 0 };
	struct rdr r;
	int ret;

	if (rdr_open(&r, path) < 0)
		return 1;
	rg.low = ecalloc(SKJ_MAXSHARDS, sizeof *rg.low);
	ret = readhashes(&r, "range", addlow, &rg) | rdr_close(&r);
	if (!ret && (rg.n != n || rg.low[0] != 0)) {
		weprintf("%s: not the ranges of %u partitions", escname(path), n);
		ret = 1;
	}
	*low = rg.low;
	return ret;
}

/* The partition of hash h: the last range whose low end is at most h. */
static unsigned
rangeof(const uint64_t *low, unsigned n, uint64_t h)
{
	size_t k = radix_lowerbound64(low, n, h);

	return (unsigned)(k < n && low[k] == h ? k : k - 1);
}

int
skj_dedup(struct rdr *in, unsigned n, const char *dir)
{
	struct out *out = outsopen(dir, "repeats", n), *o;
	char *line, last[2 * HASHW];
	uint64_t d, prev = 0;
	ptrdiff_t len;
	int ret = 0, any = 0;

	if (!out)
		exit(1);
	while ((len = rdr_line(in, &line)) >= 0) {
		uint64_t x;

		if (len != 2 * HASHW + 1 + DOCW || line[2 * HASHW] != '\t' ||
		    parsehash(line, HASHW, &x) < 0 || parsehash(line + HASHW, HASHW, &x) < 0 ||
		    parsedoc(line + 2 * HASHW + 1, DOCW, &d) < 0) {
			ret |= bad(in, "bad digest record: skipped");
			continue;
		}
		if (any && memcmp(line, last, 2 * HASHW) == 0) {
			if (d <= prev) {
				ret |= bad(in, "digest records out of order: skipped");
				continue;
			}
			/* a sketch identical to one before it: counted once */
			o = &out[d % n];
			adddoc(&o->b, d);
			obuf_addc(&o->b, '\n');
			outflush(o, 0);
		} else if (any && memcmp(line, last, 2 * HASHW) < 0) {
			ret |= bad(in, "digest records out of order: skipped");
			continue;
		}
		memcpy(last, line, 2 * HASHW);
		prev = d;
		any = 1;
	}
	return ret | outsclose(out, n);
}

/* Whether document d is in the ascending list of repeats of r (read on from *next). */
static int
isrepeat(struct rdr *r, uint64_t d, uint64_t *next, int *have, int *ret)
{
	ptrdiff_t len;
	char *line;

	for (;;) {
		if (!*have) {
			if (!r || (len = rdr_line(r, &line)) < 0)
				return 0;
			if (parsedoc(line, (size_t)len, next) < 0) {
				*ret |= bad(r, "bad repeat record: skipped");
				continue;
			}
			*have = 1;
		}
		if (*next > d)
			return 0;
		*have = 0;
		if (*next == d)
			return 1;
	}
}

int
skj_map(struct rdr *r, struct rdr *repeats, const uint64_t *low, unsigned i, unsigned n,
    unsigned minsize, const char *dir)
{
	struct shardrd sr = { r, i, n, 0, 0, { 0 }, { 0 }, NULL, 0, 0 };
	struct out *keys, *ids, *reach, *tot, *rcount;
	struct keys *part;
	struct sketch *s = &sr.s;
	struct skj_totals t = { 0, 0, 0 };
	uint64_t *rv = NULL, d, next = 0, *nreach;
	size_t rn = 0, rcap = 0, k, m;
	unsigned npre, q, repeat;
	int have = 0, ret = 0;

	keys = outsopen(dir, "keys", n);
	ids = outsopen(dir, "ids", 0);
	reach = outsopen(dir, "reach", n);
	tot = outsopen(dir, "totals", 0);
	rcount = outsopen(dir, "rcount", 0);
	if (!keys || !ids || !reach || !tot || !rcount)
		exit(1);
	nreach = ecalloc(n, sizeof *nreach);
	part = ecalloc(n, sizeof *part);
	while (nextdoc(&sr, &d)) {
		repeat = (unsigned)isrepeat(repeats, d, &next, &have, &ret);
		t.ndocs += !repeat;
		t.limit = d + 1;
		adddoc(&ids->b, d);
		obuf_addc(&ids->b, '\t');
		obuf_add(&ids->b, s->id, s->idlen);
		obuf_addc(&ids->b, '\n');
		outflush(ids, 0);
		npre = s->nshingles < minsize ? 0 : s->n < JOIN_PREFIX ? s->n : JOIN_PREFIX;
		for (k = 0; k < s->n; k++) {
			struct keys *p = &part[rangeof(low, n, s->h[k])];

			egrow(&p->k, &p->cap, p->n + 1, sizeof *p->k);
			p->k[p->n].h = s->h[k];
			p->k[p->n].d = (uint32_t)d;
			p->k[p->n++].flags = (k < npre) | repeat << 1;
		}
		if (s->n < s->nshingles && !repeat) {
			egrow(&rv, &rcap, rn + 1, sizeof *rv);
			rv[rn++] = s->h[s->n - 1];
		}
	}
	t.size = sr.size;
	ret |= sr.ret;
	for (q = 0; q < n; q++) {
		struct keys *p = &part[q];

		if (p->n)	/* (an empty partition has no array) */
			qsort(p->k, p->n, sizeof *p->k, cmpkey);
		for (m = 0; m < p->n; m++) {
			addhash(&keys[q].b, p->k[m].h);
			obuf_addc(&keys[q].b, '\t');
			adddoc(&keys[q].b, p->k[m].d);
			obuf_addc(&keys[q].b, '\t');
			obuf_addc(&keys[q].b, (char)('0' + p->k[m].flags));
			obuf_addc(&keys[q].b, '\n');
			outflush(&keys[q], 0);
		}
		free(p->k);
	}
	free(part);
	if (rn)
		radix_sort64(rv, rn);
	for (m = 0; m < rn; m++) {
		q = rangeof(low, n, rv[m]);
		nreach[q]++;
		addhash(&reach[q].b, rv[m]);
		obuf_addc(&reach[q].b, '\n');
		outflush(&reach[q], 0);
	}
	free(rv);
	skj_puttotals(&t, tot->a.fp);
	for (q = 0; q < n; q++)
		fprintf(rcount->a.fp, "%ju\n", (uintmax_t)nreach[q]);
	free(nreach);
	ret |= outsclose(keys, n) | outsclose(ids, 0) | outsclose(rcount, 0);
	return ret | outsclose(reach, n) | outsclose(tot, 0);
}

int
skj_docs(struct rdr *r, unsigned i, unsigned n, FILE *fp)
{
	struct shardrd sr = { r, i, n, 0, 0, { 0 }, { 0 }, NULL, 0, 0 };
	struct obuf b = { 0 };
	uint64_t d;

	while (nextdoc(&sr, &d)) {
		adddoc(&b, d);
		obuf_add(&b, "\t0\t", 3);
		obuf_add(&b, sr.line, sr.len);
		obuf_addc(&b, '\n');
		if (b.n >= 1 << 16)
			obuf_flush(&b, fp);
	}
	if (b.n)
		obuf_flush(&b, fp);
	free(b.p);
	return sr.ret;
}

/* A totals record: DOCS<TAB>SIZE<TAB>LIMIT. */
static int
parsetotals(struct rdr *r, char *line, size_t n, struct skj_totals *t)
{
	char *f[3];
	size_t len[3];
	uint64_t size;

	if (fields(line, n, f, len, 3) != 3 || parsecount(f[0], len[0], &t->ndocs) < 0 ||
	    parsecount(f[1], len[1], &size) < 0 || size > SK_MAXSIZE ||
	    parsecount(f[2], len[2], &t->limit) < 0 || t->limit > UINT32_MAX)
		return bad(r, "bad totals record");
	t->size = (unsigned)size;
	return 0;
}

int
skj_sum(struct rdr *r, struct skj_totals *t)
{
	struct skj_totals one;
	ptrdiff_t n;
	char *line;
	int ret = 0;

	while ((n = rdr_line(r, &line)) >= 0) {
		if (parsetotals(r, line, (size_t)n, &one)) {
			ret = 1;
			continue;
		}
		if (one.size && t->size && one.size != t->size)
			ret |= bad(r, "cut sketches of another size");
		if (one.size)
			t->size = one.size;
		t->ndocs += one.ndocs;
		if (one.limit > t->limit)
			t->limit = one.limit;
	}
	return ret;
}

int
skj_loadtotals(const char *path, struct skj_totals *t)
{
	struct rdr r;
	ptrdiff_t n;
	char *line;
	int ret;

	if (rdr_open(&r, path) < 0)
		return 1;
	ret = (n = rdr_line(&r, &line)) < 0 ? bad(&r, "no totals record") :
	    parsetotals(&r, line, (size_t)n, t);
	return rdr_close(&r) | ret;
}

int
skj_bases(struct rdr *r, unsigned n, FILE *fp)
{
	uint64_t *sum = ecalloc(n, sizeof *sum), v, base = 0;
	ptrdiff_t len;
	char *line;
	size_t k = 0;
	unsigned p;
	int ret = 0;

	while ((len = rdr_line(r, &line)) >= 0) {
		if (parsecount(line, (size_t)len, &v) < 0 || v > UINT32_MAX) {
			ret |= bad(r, "bad reach count: skipped");
			continue;
		}
		sum[k++ % n] += v;
	}
	if (k % n)
		ret |= bad(r, "reach counts not a multiple of the partitions");
	for (p = 0; p < n; p++) {
		fprintf(fp, "%ju\n", (uintmax_t)base);
		base += sum[p];
	}
	free(sum);
	return ret;
}

void
skj_puttotals(const struct skj_totals *t, FILE *fp)
{
	fprintf(fp, "%ju\t%u\t%ju\n", (uintmax_t)t->ndocs, t->size, (uintmax_t)t->limit);
}

/*
 * The documents holding the hash of a run: in memory, the first SPILL of
 * them, the others in a temporary file, so that a hash held by millions
 * costs no memory.
 */
struct holders {
	uint32_t *d;
	size_t n, cap;
	FILE *spill;
	size_t nspilled;
	uint64_t ndistinct;	/* the holders that count for the weights */
};

static void
holdadd(struct holders *hd, uint32_t d)
{
	if (hd->n == SPILL) {
		if (!hd->spill)
			hd->spill = etmpfile();
		if (fwrite(hd->d, sizeof *hd->d, hd->n, hd->spill) != hd->n)
			eprintf("scratch file:");
		hd->nspilled += hd->n;
		hd->n = 0;
	}
	egrow(&hd->d, &hd->cap, hd->n + 1, sizeof *hd->d);
	hd->d[hd->n++] = d;
}

static void
putweight(struct out *w, unsigned n, uint32_t d, uint64_t h, uint64_t count, uint64_t can)
{
	struct out *o = &w[d % n];

	adddoc(&o->b, d);
	obuf_add(&o->b, "\t1\t", 3);
	addhash(&o->b, h);
	obuf_addc(&o->b, '\t');
	obuf_addu(&o->b, count);
	obuf_addc(&o->b, '\t');
	obuf_addu(&o->b, can);
	obuf_addc(&o->b, '\n');
	outflush(o, 0);
}

/* The run of hash h has ended: the weight records of its holders, if it weighs less than 1. */
static void
runend(struct holders *hd, struct out *w, unsigned n, uint64_t h, uint64_t ndocs,
    uint64_t can, unsigned rarity)
{
	uint64_t count = hd->ndistinct;
	uint32_t buf[4096];
	size_t k, got;

	if (count > 0 && rarity > 0 && can > 0 && join_weight(rarity, count, ndocs, can) < 1) {
		if (hd->spill) {
			rewind(hd->spill);
			while ((got = fread(buf, sizeof *buf, 4096, hd->spill)) > 0)
				for (k = 0; k < got; k++)
					putweight(w, n, buf[k], h, count, can);
		}
		for (k = 0; k < hd->n; k++)
			putweight(w, n, hd->d[k], h, count, can);
	}
	if (hd->spill) {
		fclose(hd->spill);
		hd->spill = NULL;
	}
	hd->n = hd->nspilled = hd->ndistinct = 0;
}

/* The reaches below h, counted on from *below, read from r in ascending order. */
static int
reachbelow(struct rdr *r, uint64_t h, uint64_t *below, uint64_t *next, int *have)
{
	ptrdiff_t n;
	char *line;

	for (;;) {
		if (!*have) {
			if ((n = rdr_line(r, &line)) < 0)
				return 0;
			if (parsehash(line, (size_t)n, next) < 0)
				return bad(r, "bad reach record");
			*have = 1;
		}
		if (*next >= h)
			return 0;
		(*below)++;
		*have = 0;
	}
}

int
skj_keys(struct rdr *in, struct rdr *reach, uint64_t base, const struct skj_totals *t,
    unsigned rarity, unsigned n, const char *dir)
{
	struct out *pairs = outsopen(dir, "pairs", n), *w = outsopen(dir, "weights", n), *o;
	struct holders hd = { 0 };
	uint32_t first[JOIN_RUNMAX];
	unsigned nfirst = 0, k;
	uint64_t h, cur = 0, d, below = base, next = 0, prev = 0;
	int ret = 0, inrun = 0, have = 0, toomany = 0;
	char *line, *f[3];
	size_t len[3];
	ptrdiff_t ln;

	if (!pairs || !w)
		exit(1);
	while ((ln = rdr_line(in, &line)) >= 0) {
		if (fields(line, (size_t)ln, f, len, 3) != 3 || parsehash(f[0], len[0], &h) < 0 ||
		    parsedoc(f[1], len[1], &d) < 0 || len[2] != 1 || *f[2] < '0' || *f[2] > '3') {
			ret |= bad(in, "bad key record: skipped");
			continue;
		}
		if (inrun && (h < cur || (h == cur && d <= prev))) {
			ret |= bad(in, "key records out of order: skipped");
			continue;
		}
		if (!inrun || h != cur) {
			if (inrun)
				runend(&hd, w, n, cur, t->ndocs, t->ndocs - below, rarity);
			cur = h;
			inrun = 1;
			nfirst = 0;
			ret |= reachbelow(reach, h, &below, &next, &have);
			if (below > t->ndocs) {
				/* forged or mismatched totals: the weights are wrong, say so once */
				if (!toomany)
					weprintf("%s: more reaches than documents", escname(reach->name));
				toomany = 1;
				ret = 1;
				below = t->ndocs;
			}
		}
		prev = d;
		holdadd(&hd, (uint32_t)d);
		hd.ndistinct += ((*f[2] - '0') & 2) == 0;
		if (((*f[2] - '0') & 1) == 0)
			continue;
		/* the first JOIN_RUNMAX pair with every later one (join_candidates) */
		for (k = 0; k < nfirst; k++) {
			o = &pairs[first[k] % n];
			adddoc(&o->b, first[k]);
			obuf_add(&o->b, "\t2\t", 3);
			adddoc(&o->b, d);
			obuf_addc(&o->b, '\n');
			outflush(o, 0);
		}
		if (nfirst < JOIN_RUNMAX)
			first[nfirst++] = (uint32_t)d;
	}
	if (inrun)
		runend(&hd, w, n, cur, t->ndocs, t->ndocs - below, rarity);
	free(hd.d);
	return ret | outsclose(pairs, n) | outsclose(w, n);
}

/*
 * The document the send step holds: its sketch, and for the hashes that
 * weigh less than 1 their count and reach (the weight records).
 */
struct senddoc {
	uint64_t d;
	int have;
	unsigned n;
	uint64_t h[SK_MAXSIZE], count[SK_MAXSIZE], can[SK_MAXSIZE];
	struct obuf sk;		/* ID<TAB>NSHINGLES<TAB>HASHES as read */
	struct obuf rec;	/* sent: sk<TAB>WEIGHTS<TAB>, made at the first pair */
	int recmade;
	uint64_t lastpair;
	unsigned *open;		/* by shard: 1 if its record of d is open */
};

/* The index of hash h in sorted v[0..n), or n. */
static unsigned
hashindex(const uint64_t *v, unsigned n, uint64_t h)
{
	size_t k = radix_lowerbound64(v, n, h);

	return k < n && v[k] == h ? (unsigned)k : n;
}

/* A weight record's HASH<TAB>COUNT<TAB>CAN: checked, *k the hash's index in h[0..n). */
static int
weightrec(char *s, size_t n, const uint64_t *h, unsigned nh, const struct skj_totals *t,
    unsigned *k, uint64_t *count, uint64_t *can)
{
	char *f[3];
	size_t len[3];
	uint64_t hash;

	if (fields(s, n, f, len, 3) != 3 || parsehash(f[0], len[0], &hash) < 0 ||
	    parsecount(f[1], len[1], count) < 0 || parsecount(f[2], len[2], can) < 0)
		return -1;
	if (*can == 0 || *can > t->ndocs || *count == 0 || *count > t->ndocs)
		return -1;
	return (*k = hashindex(h, nh, hash)) < nh ? 0 : -1;
}

/* The record sent with the pairs: the sketch as read, its weights below 1 as HASH:COUNT:CAN. */
static void
sendrecord(struct senddoc *x)
{
	unsigned k, sep = 0;

	x->recmade = 1;
	obuf_set(&x->rec, x->sk.p, x->sk.n);
	obuf_addc(&x->rec, '\t');
	for (k = 0; k < x->n; k++) {
		if (!x->count[k])
			continue;
		if (sep++)
			obuf_addc(&x->rec, ' ');
		addhash(&x->rec, x->h[k]);
		obuf_addc(&x->rec, ':');
		obuf_addu(&x->rec, x->count[k]);
		obuf_addc(&x->rec, ':');
		obuf_addu(&x->rec, x->can[k]);
	}
	obuf_addc(&x->rec, '\t');
}

/* The records of document x->d are complete: end them. */
static void
sendend(struct senddoc *x, struct out *sent, unsigned n)
{
	unsigned q;

	for (q = 0; q < n; q++) {
		if (!x->open[q])
			continue;
		obuf_addc(&sent[q].b, '\n');
		outflush(&sent[q], 0);
		x->open[q] = 0;
	}
}

int
skj_send(struct rdr *in, const struct skj_totals *t, unsigned n, const char *dir)
{
	struct out *sent = outsopen(dir, "sent", n), *o;
	struct senddoc *x = ecalloc(1, sizeof *x);
	struct sketch sk;
	uint64_t d, other, count, can;
	char *line, *f[3];
	size_t len[3];
	unsigned k, q;
	ptrdiff_t ln;
	int ret = 0;

	if (!sent)
		exit(1);
	x->open = ecalloc(n, sizeof *x->open);
	x->d = UINT64_MAX;
	while ((ln = rdr_line(in, &line)) >= 0) {
		if (fields(line, (size_t)ln, f, len, 3) < 3 || parsedoc(f[0], len[0], &d) < 0 ||
		    len[1] != 1) {
			ret |= bad(in, "bad record: skipped");
			continue;
		}
		if (d != x->d) {
			sendend(x, sent, n);
			x->d = d;
			x->have = 0;
			x->lastpair = UINT64_MAX;
		}
		switch (*f[1]) {
		case KSKETCH:
			x->have = 0;
			obuf_set(&x->sk, f[2], len[2]);
			if (sketch_parse(in, f[2], len[2], &sk, x->h) < 0) {
				ret = 1;
				continue;
			}
			x->have = 1;
			x->n = sk.n;
			memset(x->count, 0, sizeof x->count);
			x->recmade = 0;
			continue;
		case KWEIGHT:
			if (!x->have || weightrec(f[2], len[2], x->h, x->n, t, &k, &count, &can) < 0)
				break;
			x->count[k] = count;
			x->can[k] = can;
			continue;
		case KPAIR:
			if (!x->have || parsedoc(f[2], len[2], &other) < 0 || other <= d)
				break;
			if (other == x->lastpair)
				continue;	/* the pair came from another shared hash too */
			x->lastpair = other;
			if (!x->recmade)
				sendrecord(x);
			q = (unsigned)(other % n);
			o = &sent[q];
			if (!x->open[q]) {
				adddoc(&o->b, d);
				obuf_addc(&o->b, '\t');
				obuf_add(&o->b, x->rec.p, x->rec.n);
				x->open[q] = 1;
			} else {
				obuf_addc(&o->b, ' ');
			}
			adddoc(&o->b, other);
			outflush(o, 0);
			continue;
		}
		ret |= bad(in, "bad record: skipped");
	}
	sendend(x, sent, n);
	free(x->sk.p);
	free(x->rec.p);
	free(x->open);
	free(x);
	return ret | outsclose(sent, n);
}

/* The documents of one shard, in memory, with their weights, in document order. */
struct shard {
	uint32_t *d;
	uint64_t *nsh, *hv;
	float *wv;
	size_t *hoff, *idoff;
	unsigned *hn;
	size_t n, cap, nhv, hvcap, wvcap;
	struct obuf ids;
};

static int
shardload(struct shard *s, struct rdr *in, const struct skj_totals *t, unsigned rarity)
{
	struct sketch sk;
	uint64_t h[SK_MAXSIZE], d, count, can;
	char *line, *f[3];
	size_t len[3], last;
	unsigned k;
	ptrdiff_t ln;
	int ret = 0;

	while ((ln = rdr_line(in, &line)) >= 0) {
		if (fields(line, (size_t)ln, f, len, 3) < 3 || parsedoc(f[0], len[0], &d) < 0 ||
		    len[1] != 1 || (*f[1] != KSKETCH && *f[1] != KWEIGHT)) {
			ret |= bad(in, "bad record: skipped");
			continue;
		}
		last = s->n - 1;
		if (*f[1] == KWEIGHT) {
			if (s->n == 0 || s->d[last] != d ||
			    weightrec(f[2], len[2], s->hv + s->hoff[last], s->hn[last], t, &k,
			    &count, &can) < 0) {
				ret |= bad(in, "bad weight record: skipped");
				continue;
			}
			s->wv[s->hoff[last] + k] = (float)join_weight(rarity, count, t->ndocs, can);
			continue;
		}
		if (s->n > 0 && d <= s->d[last]) {
			ret |= bad(in, "documents out of order: skipped");
			continue;
		}
		if (sketch_parse(in, f[2], len[2], &sk, h) < 0) {
			ret = 1;
			continue;
		}
		if (s->n == s->cap) {
			size_t cap = s->cap;

			egrow(&s->d, &cap, s->n + 1, sizeof *s->d);
			cap = s->cap;
			egrow(&s->nsh, &cap, s->n + 1, sizeof *s->nsh);
			cap = s->cap;
			egrow(&s->hoff, &cap, s->n + 1, sizeof *s->hoff);
			cap = s->cap;
			egrow(&s->idoff, &cap, s->n + 1, sizeof *s->idoff);
			egrow(&s->hn, &s->cap, s->n + 1, sizeof *s->hn);
		}
		s->d[s->n] = (uint32_t)d;
		s->nsh[s->n] = sk.nshingles;
		s->hn[s->n] = sk.n;
		s->hoff[s->n] = s->nhv;
		s->idoff[s->n] = s->ids.n;
		obuf_add(&s->ids, sk.id, sk.idlen);
		egrow(&s->hv, &s->hvcap, s->nhv + sk.n + 1, sizeof *s->hv);
		egrow(&s->wv, &s->wvcap, s->nhv + sk.n + 1, sizeof *s->wv);
		memcpy(s->hv + s->nhv, sk.h, sk.n * sizeof *s->hv);
		for (k = 0; k < sk.n; k++)
			s->wv[s->nhv + k] = 1;
		s->nhv += sk.n;
		s->n++;
	}
	return ret;
}

/* The index of document d in s, or s->n. */
static size_t
shardfind(const struct shard *s, uint64_t d)
{
	size_t k = radix_lowerbound32(s->d, s->n, (uint32_t)d);

	return k < s->n && s->d[k] == d ? k : s->n;
}

int
skj_verify(struct rdr *in, struct rdr *sent, const struct skj_totals *t,
    const struct join_opt *opt, FILE *fp)
{
	struct shard s = { 0 };
	struct obuf out = { 0 };
	struct sketch sk;
	struct join_sketch sa, sb;
	uint64_t ha[SK_MAXSIZE], a, b, count, can;
	float wa[SK_MAXSIZE];
	char *line, *p, *end, *sp, num[16];
	size_t x, idlen;
	unsigned k;
	ptrdiff_t ln;
	double sim;
	int ret;

	ret = shardload(&s, in, t, opt->rarity);
	while ((ln = rdr_line(sent, &line)) >= 0) {
		/* A<TAB>ID<TAB>NSHINGLES<TAB>HASHES<TAB>WEIGHTS<TAB>PARTNERS */
		end = line + ln;
		for (p = end; p > line && p[-1] != '\t'; p--)
			;
		for (sp = p - 1; sp > line && sp[-1] != '\t'; sp--)
			;
		/* (the sketch between A and the weights: sp past A's TAB and one more) */
		if (p - line < DOCW + 2 || sp - line < DOCW + 2 || parsedoc(line, DOCW, &a) < 0 ||
		    line[DOCW] != '\t') {
			ret |= bad(sent, "bad sent record: skipped");
			continue;
		}
		sp[-1] = '\0';
		if (sketch_parse(sent, line + DOCW + 1, (size_t)(sp - 1 - line - DOCW - 1), &sk,
		    ha) < 0) {
			ret = 1;
			continue;
		}
		idlen = sk.idlen;
		for (k = 0; k < sk.n; k++)
			wa[k] = 1;
		/* the weights, HASH:COUNT:CAN space apart */
		for (; sp < p - 1; sp++) {
			char *c = sp;

			while (c < p - 1 && *c != ' ')
				c++;
			*c = '\0';
			for (x = 0; sp + x < c; x++)
				if (sp[x] == ':')
					sp[x] = '\t';
			if (weightrec(sp, (size_t)(c - sp), ha, sk.n, t, &k, &count, &can) < 0)
				break;
			wa[k] = (float)join_weight(opt->rarity, count, t->ndocs, can);
			sp = c;
		}
		if (sp < p - 1) {
			ret |= bad(sent, "bad weights in a sent record: skipped");
			continue;
		}
		sa.h = ha;
		sa.w = wa;
		sa.n = sk.n;
		sa.nsh = sk.nshingles;
		for (; p < end; p += DOCW + 1) {
			if (end - p < DOCW || parsedoc(p, DOCW, &b) < 0 ||
			    (p + DOCW < end && p[DOCW] != ' ') || b <= a ||
			    (x = shardfind(&s, b)) == s.n) {
				ret |= bad(sent, "bad partner in a sent record: skipped");
				break;
			}
			sb.h = s.hv + s.hoff[x];
			sb.w = s.wv + s.hoff[x];
			sb.n = s.hn[x];
			sb.nsh = s.nsh[x];
			if (!join_verify(opt, t->size, &sa, &sb, &sim))
				continue;
			adddoc(&out, a);
			obuf_addc(&out, '\t');
			adddoc(&out, b);
			obuf_addc(&out, '\t');
			obuf_add(&out, sk.id, idlen);
			obuf_addc(&out, '\t');
			obuf_add(&out, s.ids.p + s.idoff[x],
			    (x + 1 < s.n ? s.idoff[x + 1] : s.ids.n) - s.idoff[x]);
			snprintf(num, sizeof num, "\t%.4f\n", sim);
			obuf_add(&out, num, strlen(num));
			if (out.n >= 1 << 16)
				obuf_flush(&out, fp);
		}
	}
	if (out.n)
		obuf_flush(&out, fp);
	free(out.p);
	free(s.d);
	free(s.nsh);
	free(s.hv);
	free(s.wv);
	free(s.hoff);
	free(s.idoff);
	free(s.hn);
	free(s.ids.p);
	return ret;
}

/* The IDs of the roots that have members, in document order, to name their clusters. */
struct roots {
	uint32_t *d;
	size_t *off, n, cap, offcap;
	struct obuf ids;
};

static const char *
rootid(const struct roots *rt, uint32_t d, size_t *len)
{
	size_t k = radix_lowerbound32(rt->d, rt->n, d);

	if (k == rt->n || rt->d[k] != d)
		return NULL;
	*len = (k + 1 < rt->n ? rt->off[k + 1] : rt->ids.n) - rt->off[k];
	return rt->ids.p + rt->off[k];
}

int
skj_clusters(struct rdr *pairs, struct rdr *in, const struct skj_totals *t, int unique,
    FILE *fp)
{
	struct roots rt = { 0 };
	struct obuf out = { 0 };
	uint32_t *parent, root;
	uint8_t *members;
	unsigned char *kept;	/* -u: the documents kept, greedy in input order */
	uint64_t a, b, d, last = 0, lasta = 0;
	char *line, *f[3];
	size_t len[3], rlen;
	const char *rid;
	ptrdiff_t n;
	int ret = 0, any = 0, anypair = 0;

	parent = ereallocarray(NULL, t->limit ? t->limit : 1, sizeof *parent);
	members = ecalloc(t->limit ? t->limit : 1, 1);
	kept = emalloc(JOIN_KEEPBYTES(t->limit));
	memset(kept, 0xff, JOIN_KEEPBYTES(t->limit));
	uf_init(parent, t->limit);
	while ((n = rdr_line(pairs, &line)) >= 0) {
		if (fields(line, (size_t)n, f, len, 3) != 3 || parsedoc(f[0], len[0], &a) < 0 ||
		    parsedoc(f[1], len[1], &b) < 0 || a >= b || b >= t->limit ||
		    (anypair && a < lasta)) {
			ret |= bad(pairs, "bad pair record: skipped");
			continue;
		}
		/* sorted by a: a's own pairs (x, a) came first (join_keep) */
		anypair = 1;
		lasta = a;
		join_keep(kept, (uint32_t)a, (uint32_t)b);
		uf_unite(parent, (uint32_t)a, (uint32_t)b);
	}
	for (d = 0; d < t->limit; d++)
		if ((root = uf_find(parent, (uint32_t)d)) != d)
			members[root] = 1;
	while ((n = rdr_line(in, &line)) >= 0) {
		if (fields(line, (size_t)n, f, len, 2) != 2 || parsedoc(f[0], len[0], &d) < 0 ||
		    d >= t->limit || (any && d <= last)) {
			ret |= bad(in, "bad ID record: skipped");
			continue;
		}
		any = 1;
		last = d;
		root = uf_find(parent, (uint32_t)d);
		if (root == d && members[d]) {
			egrow(&rt.d, &rt.cap, rt.n + 1, sizeof *rt.d);
			egrow(&rt.off, &rt.offcap, rt.n + 1, sizeof *rt.off);
			rt.d[rt.n] = (uint32_t)d;
			rt.off[rt.n++] = rt.ids.n;
			obuf_add(&rt.ids, f[1], len[1]);
		}
		if (unique && !join_kept(kept, (uint32_t)d))
			continue;
		obuf_add(&out, f[1], len[1]);
		if (!unique) {
			obuf_addc(&out, '\t');
			if (root == d)
				obuf_add(&out, f[1], len[1]);
			else if ((rid = rootid(&rt, root, &rlen)))
				obuf_add(&out, rid, rlen);
		}
		obuf_addc(&out, '\n');
		if (out.n >= 1 << 16)
			obuf_flush(&out, fp);
	}
	if (out.n)
		obuf_flush(&out, fp);
	free(out.p);
	free(rt.d);
	free(rt.off);
	free(rt.ids.p);
	free(parent);
	free(members);
	free(kept);
	return ret;
}
