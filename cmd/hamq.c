/* hamq: find the fingerprints of an index within a Hamming distance of queries. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fp.h"
#include "hindex.h"
#include "rdr.h"
#include "util.h"

enum {
	BATCH = 16384,		/* queries read, then answered in parallel */
	CHUNK = 128,		/* queries a thread takes at a time */
	MAXTHREADS = 8
};

static int aflag;		/* a header record for every query */
static int sflag;		/* self-join */
static unsigned maxdist = 3;
static int mode = HIX_AUTO;
static const char *ofile;	/* -o: write the index there */

static struct hix ix;
static unsigned width;		/* of every fingerprint, index and queries */
static int usetab;		/* look up through the tables, not by a scan */
static unsigned nthreads = 1;
static uint32_t *posu;		/* self-join: the unique of each position */

/* A batch of queries: IDs (escaped, as read), fingerprints, or self-join positions. */
static struct {
	char *idtext;
	size_t idlen, idcap;
	size_t *idoff;		/* query q's ID is idtext[idoff[q] .. idoff[q + 1]) */
	size_t idoffcap;
	struct fp *fp;
	size_t fpcap;
	size_t n;
	uint32_t first;		/* self-join: queries are positions first .. first + n - 1 */
} batch;

struct buf {
	char *p;
	size_t len, cap;
};

/* What a thread answers with: hits, sorted matches, and the output of each chunk. */
struct worker {
	struct hixhits h;
	uint64_t *key;
	size_t keycap;
};

static struct buf chunkout[BATCH / CHUNK];
static struct worker workers[MAXTHREADS];
static size_t nextchunk, nchunks;
static pthread_mutex_t chunklock = PTHREAD_MUTEX_INITIALIZER;

static void
put(struct buf *b, const char *s, size_t n)
{
	if (n == 0)
		return;	/* an empty ID: no memcpy to a null buffer */
	egrow(&b->p, &b->cap, b->len + n, 1);
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void
putc1(struct buf *b, char c)
{
	if (b->len == b->cap)
		egrow(&b->p, &b->cap, b->len + 1, 1);
	b->p[b->len++] = c;
}

static void
putnum(struct buf *b, unsigned v)
{
	char s[16];
	size_t i = sizeof s;

	do
		s[--i] = (char)('0' + v % 10);
	while (v /= 10);
	put(b, s + i, sizeof s - i);
}

static void
loadindex(const char *path)
{
	struct rdr r;
	struct fprec rec;
	int st;

	if (hix_isfile(path)) {
		if (hix_open(&ix, path) < 0)
			exit(EXIT_DATA);
		width = ix.m;
		return;
	}
	hix_init(&ix);
	if (rdr_open(&r, path) < 0)
		exit(EXIT_DATA);
	while ((st = fprec_read(&r, &rec, &width)) > 0)
		if (hix_add(&ix, rec.id, rec.idlen, &rec.fp, width) < 0)
			eprintf("%s:%ju: more than %lu fingerprints, or IDs too long",
			    r.name, r.lineno, (unsigned long)UINT32_MAX - 2);
	if (rdr_close(&r) || st < 0)
		exit(EXIT_DATA);
	hix_finish(&ix);
}

static int
keycmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Write the matches of query q (ID qid) by distance, then index order; in
 * a self-join (self >= 0) only positions after self.
 */
static void
answer(struct worker *w, struct buf *o, const char *qid, size_t qidlen,
    const struct fp *q, int64_t self)
{
	const uint32_t *pos;
	const char *id;
	size_t i, nk = 0, idlen;
	uint32_t j, lo, hi, mid, np;
	uint64_t k;

	if (aflag) {
		put(o, qid, qidlen);
		putc1(o, '\n');
	}
	w->h.n = 0;
	hix_query(&ix, q, maxdist, usetab, &w->h);
	for (i = 0; i < w->h.n; i++) {
		pos = ix.upos + ix.ustart[w->h.u[i]];
		np = ix.ustart[w->h.u[i] + 1] - ix.ustart[w->h.u[i]];
		lo = 0;
		if (self >= 0)
			for (hi = np; lo < hi;) {
				mid = lo + (hi - lo) / 2;
				if (pos[mid] <= self)
					lo = mid + 1;
				else
					hi = mid;
			}
		egrow(&w->key, &w->keycap, nk + np - lo, sizeof *w->key);
		for (j = lo; j < np; j++)
			w->key[nk++] = (uint64_t)w->h.dist[i] << 32 | pos[j];
	}
	if (nk > 1) {
		if (nk <= 16) {
			for (i = 1; i < nk; i++) {
				k = w->key[i];
				for (j = (uint32_t)i; j > 0 && w->key[j - 1] > k; j--)
					w->key[j] = w->key[j - 1];
				w->key[j] = k;
			}
		} else
			qsort(w->key, nk, sizeof *w->key, keycmp);
	}
	for (i = 0; i < nk; i++) {
		put(o, qid, qidlen);
		putc1(o, '\t');
		putnum(o, (unsigned)(w->key[i] >> 32));
		putc1(o, '\t');
		id = hix_id(&ix, (uint32_t)w->key[i], &idlen);
		put(o, id, idlen);
		putc1(o, '\n');
	}
}

static void
answerchunk(struct worker *w, size_t c)
{
	struct buf *o = &chunkout[c];
	size_t q, end = (c + 1) * CHUNK < batch.n ? (c + 1) * CHUNK : batch.n;
	struct fp f;
	const char *id;
	size_t idlen;
	uint32_t i, u;

	o->len = 0;
	for (q = c * CHUNK; q < end; q++) {
		if (usetab && q + 2 < end) {
			if (!sflag)
				hix_prefetch(&ix, &batch.fp[q + 2]);
			else {
				memset(&f, 0, sizeof f);
				u = posu[batch.first + (uint32_t)q + 2];
				memcpy(f.w, ix.fw + (size_t)u * ix.nw, ix.nw * sizeof *f.w);
				hix_prefetch(&ix, &f);
			}
		}
		if (!sflag) {
			answer(w, o, batch.idtext + batch.idoff[q], batch.idoff[q + 1] -
			    batch.idoff[q], &batch.fp[q], -1);
			continue;
		}
		i = batch.first + (uint32_t)q;
		u = posu[i];
		memset(&f, 0, sizeof f);
		memcpy(f.w, ix.fw + (size_t)u * ix.nw, ix.nw * sizeof *f.w);
		id = hix_id(&ix, i, &idlen);
		answer(w, o, id, idlen, &f, i);
	}
}

static void *
work(void *arg)
{
	struct worker *w = arg;
	size_t c;

	for (;;) {
		pthread_mutex_lock(&chunklock);
		c = nextchunk++;
		pthread_mutex_unlock(&chunklock);
		if (c >= nchunks)
			return NULL;
		answerchunk(w, c);
	}
}

/* Answer the batch, the chunks shared among the threads, and write it in order. */
static void
flushbatch(void)
{
	pthread_t th[MAXTHREADS];
	unsigned t, nt = 0;
	size_t c;

	if (batch.n == 0)
		return;
	nchunks = (batch.n + CHUNK - 1) / CHUNK;
	nextchunk = 0;
	for (t = 1; t < nthreads && t < nchunks; t++) {
		if (pthread_create(&th[t], NULL, work, &workers[t]) != 0)
			break;
		nt = t;
	}
	work(&workers[0]);
	for (t = 1; t <= nt; t++)
		pthread_join(th[t], NULL);
	for (c = 0; c < nchunks; c++)
		fwrite(chunkout[c].p, 1, chunkout[c].len, stdout);
	batch.n = 0;
	batch.idlen = 0;
}

/* Decide between tables and scan for about nq queries; build the tables if need be. */
static void
decide(double nq)
{
	if (mode == HIX_SCAN)
		usetab = 0;
	else if (mode == HIX_INDEX)
		usetab = 1;
	else
		usetab = hix_useindex(&ix, maxdist, nq);
	if (usetab && maxdist > 0 && (!ix.hastab || ix.tdist < maxdist))
		hix_tables(&ix, maxdist, nthreads);
}

/*
 * Read queries from path into batches; the first batch decides how lookups
 * go. A bad record is reported and skipped; a read error ends the file.
 */
static int
hamq(const char *path, int last, int *decided)
{
	struct rdr r;
	struct fprec q;
	int st, ret = 0;
	size_t n;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((st = fprec_read(&r, &q, &width)) != 0) {
		if (st < 0) {
			ret = 1;
			if (r.err)
				break;
			continue;
		}
		n = batch.n;
		egrow(&batch.fp, &batch.fpcap, n + 1, sizeof *batch.fp);
		egrow(&batch.idoff, &batch.idoffcap, n + 2, sizeof *batch.idoff);
		/* +1: never memcpy to a null idtext */
		egrow(&batch.idtext, &batch.idcap, batch.idlen + q.idlen + 1, 1);
		batch.fp[n] = q.fp;
		batch.idoff[n] = batch.idlen;
		memcpy(batch.idtext + batch.idlen, q.id, q.idlen);
		batch.idlen += q.idlen;
		batch.idoff[n + 1] = batch.idlen;
		batch.n = n + 1;
		if (batch.n < BATCH)
			continue;
		if (!*decided) {
			decide(1e12);	/* many queries */
			*decided = 1;
		}
		flushbatch();
	}
	if (!*decided && last) {
		decide((double)batch.n);
		*decided = 1;
	}
	if (*decided)
		flushbatch();
	return rdr_close(&r) | ret;
}

static void
selfjoin(void)
{
	uint32_t i;

	decide((double)ix.n);
	posu = hix_posunique(&ix);
	for (i = 0; i < ix.n;) {
		batch.first = i;
		batch.n = ix.n - i < BATCH ? ix.n - i : BATCH;
		i += (uint32_t)batch.n;
		flushbatch();
	}
	free(posu);
}

static const char synopsis[] =
    "[-as] [-d distance] [-m auto | index | scan] [-o file] index [file ...]";

static void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	int c, ret = 0, decided = 0;
	long ncpu;

	argv0 = "hamq";
	while ((c = getopt(argc, argv, "ad:hm:o:s")) != -1) {
		switch (c) {
		case 'a':
			aflag = 1;
			break;
		case 'd':
			maxdist = (unsigned)estrtonum(optarg, 0, FP_MAXBITS, "distance");
			break;
		case 'h':
			return help(synopsis);
		case 'm':
			if (!strcmp(optarg, "auto"))
				mode = HIX_AUTO;
			else if (!strcmp(optarg, "index"))
				mode = HIX_INDEX;
			else if (!strcmp(optarg, "scan"))
				mode = HIX_SCAN;
			else
				enprintf(EXIT_USAGE, "mode '%s' is invalid (allowed: auto, index, scan)",
				    optarg);
			break;
		case 'o':
			ofile = optarg;
			break;
		case 's':
			sflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || (sflag && argc > 1))
		usage();
	if ((ncpu = sysconf(_SC_NPROCESSORS_ONLN)) > 1)
		nthreads = ncpu > MAXTHREADS ? MAXTHREADS : (unsigned)ncpu;

	loadindex(argv[0]);
	argc--;
	argv++;
	if (ofile) {
		if (!ix.hastab || ix.tdist != maxdist)
			hix_tables(&ix, maxdist, nthreads);
		if (hix_save(&ix, ofile) < 0)
			return EXIT_DATA;
		if (!sflag && argc == 0)
			return 0;
	}
	setupstdout();
	if (sflag)
		selfjoin();
	else if (argc == 0)
		ret |= hamq("-", 1, &decided);
	for (; argc > 0; argc--, argv++)
		ret |= hamq(*argv, argc == 1, &decided);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
