/* hamq: find the fingerprints of an index within a Hamming distance of queries. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fp.h"
#include "hix.h"
#include "rdr.h"
#include "util.h"

enum {
	BATCH = 16384,		/* queries read, then answered in parallel */
	CHUNK = 128,		/* queries a thread takes at a time */
	MAXTHREADS = 8,
	RING = 2 * MAXTHREADS,	/* chunks answered ahead of the one written */
	OUTMAX = 1 << 20	/* bytes a chunk keeps before it waits for its turn */
};

static int aflag;		/* a header record for every query */
static int sflag;		/* self-join */
static unsigned maxdist = 3;
static int mode = HIX_AUTO;
static const char *ofile;	/* -o: write the index there */

static struct hix *ix;

/* A batch of queries: IDs (escaped, as read), fingerprints, or self-join positions. */
static struct {
	struct obuf id;
	size_t *idoff;		/* query q's ID is id.p[idoff[q] .. idoff[q + 1]) */
	size_t idoffcap;
	struct fp *fp;
	size_t fpcap;
	size_t n;
	uint32_t first;		/* self-join: queries are positions first .. first + n - 1 */
	unsigned width;		/* of every fingerprint, index and queries */
} batch;

/*
 * The chunks of a batch are answered in any order and written in order:
 * chunk c's output waits in out[c % RING] until the chunks before it are
 * written. A chunk whose output outgrows OUTMAX waits for its turn and
 * then writes as it goes, so memory does not grow with the output.
 */
static struct {
	unsigned nthreads;
	struct hixmatch match[MAXTHREADS];	/* thread t's lookups */
	struct obuf out[RING];
	int done[RING];
	size_t next, n, written;	/* chunks taken, in the batch, written */
	pthread_mutex_t lock;
	pthread_cond_t moved;
} chunks = { .lock = PTHREAD_MUTEX_INITIALIZER, .moved = PTHREAD_COND_INITIALIZER };

/* Write the finished chunks that are next in order (under lock). */
static void
writeready(void)
{
	while (chunks.written < chunks.n && chunks.done[chunks.written % RING]) {
		obuf_flush(&chunks.out[chunks.written % RING], stdout);
		chunks.done[chunks.written % RING] = 0;
		chunks.written++;
	}
	pthread_cond_broadcast(&chunks.moved);
}

/* Chunk c has OUTMAX bytes waiting: wait for its turn, then write them. */
static void
overflow(size_t c)
{
	pthread_mutex_lock(&chunks.lock);
	while (chunks.written != c)
		pthread_cond_wait(&chunks.moved, &chunks.lock);
	pthread_mutex_unlock(&chunks.lock);
	obuf_flush(&chunks.out[c % RING], stdout);	/* no other chunk writes now */
}

/* Write the matches of query q (ID qid); in a self-join only positions after self. */
static void
answer(struct hixmatch *m, struct obuf *o, const char *qid, size_t qidlen,
    const struct fp *q, int64_t self)
{
	const char *id;
	size_t i, idlen;

	if (aflag) {
		obuf_add(o, qid, qidlen);
		obuf_addc(o, '\n');
	}
	hix_match(ix, q, self, m);
	for (i = 0; i < m->n; i++) {
		obuf_add(o, qid, qidlen);
		obuf_addc(o, '\t');
		obuf_addu(o, hix_matchdist(m, i));
		obuf_addc(o, '\t');
		id = hix_id(ix, hix_matchpos(m, i), &idlen);
		obuf_add(o, id, idlen);
		obuf_addc(o, '\n');
	}
}

/* The fingerprint of query q of the batch. */
static void
queryfp(size_t q, struct fp *f)
{
	if (sflag)
		hix_fp(ix, batch.first + (uint32_t)q, f);
	else
		*f = batch.fp[q];
}

static void
answerchunk(struct hixmatch *m, size_t c)
{
	struct obuf *o = &chunks.out[c % RING];
	size_t q, end = (c + 1) * CHUNK < batch.n ? (c + 1) * CHUNK : batch.n;
	struct fp f;
	const char *id;
	size_t idlen;
	uint32_t i;

	for (q = c * CHUNK; q < end; q++) {
		if (q + 2 < end) {
			queryfp(q + 2, &f);
			hix_prefetch(ix, &f, &m->h);
		}
		queryfp(q, &f);
		if (sflag) {
			i = batch.first + (uint32_t)q;
			id = hix_id(ix, i, &idlen);
			answer(m, o, id, idlen, &f, i);
		} else
			answer(m, o, batch.id.p + batch.idoff[q],
			    batch.idoff[q + 1] - batch.idoff[q], &f, -1);
		if (o->n > OUTMAX)
			overflow(c);
	}
}

static void *
work(void *arg)
{
	struct hixmatch *m = arg;
	size_t c;

	pthread_mutex_lock(&chunks.lock);
	for (;;) {
		if (chunks.next >= chunks.n)
			break;
		if (chunks.next >= chunks.written + RING) {
			pthread_cond_wait(&chunks.moved, &chunks.lock);
			continue;
		}
		c = chunks.next++;
		pthread_mutex_unlock(&chunks.lock);
		answerchunk(m, c);
		pthread_mutex_lock(&chunks.lock);
		chunks.done[c % RING] = 1;
		writeready();
	}
	pthread_mutex_unlock(&chunks.lock);
	return NULL;
}

/* Answer the batch, its chunks shared among the threads, written in order. */
static void
flushbatch(void)
{
	pthread_t th[MAXTHREADS];
	unsigned t, nt = 0;

	if (batch.n == 0)
		return;
	chunks.n = (batch.n + CHUNK - 1) / CHUNK;
	chunks.next = chunks.written = 0;
	for (t = 1; t < chunks.nthreads && t < chunks.n; t++) {
		if (pthread_create(&th[t], NULL, work, &chunks.match[t]) != 0)
			break;
		nt = t;
	}
	work(&chunks.match[0]);
	for (t = 1; t <= nt; t++)
		pthread_join(th[t], NULL);
	batch.n = 0;
	batch.id.n = 0;
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
	while ((st = fprec_read(&r, &q, &batch.width)) != 0) {
		if (st < 0) {
			ret = 1;
			if (r.err)
				break;
			continue;
		}
		n = batch.n;
		egrow(&batch.fp, &batch.fpcap, n + 1, sizeof *batch.fp);
		egrow(&batch.idoff, &batch.idoffcap, n + 2, sizeof *batch.idoff);
		batch.fp[n] = q.fp;
		batch.idoff[n] = batch.id.n;
		obuf_add(&batch.id, q.id, q.idlen);
		batch.idoff[n + 1] = batch.id.n;
		batch.n = n + 1;
		if (batch.n < BATCH)
			continue;
		if (!*decided) {
			hix_plan(ix, maxdist, 1e12, mode, chunks.nthreads);	/* many queries */
			*decided = 1;
		}
		flushbatch();
	}
	if (!*decided && last) {
		hix_plan(ix, maxdist, (double)batch.n, mode, chunks.nthreads);
		*decided = 1;
	}
	if (*decided)
		flushbatch();
	return rdr_close(&r) | ret;
}

static void
selfjoin(void)
{
	uint32_t i, n = hix_size(ix);

	hix_plan(ix, maxdist, (double)n, mode, chunks.nthreads);
	for (i = 0; i < n;) {
		batch.first = i;
		batch.n = n - i < BATCH ? n - i : BATCH;
		i += (uint32_t)batch.n;
		flushbatch();
	}
}

static const char synopsis[] =
    "[-as] [-d distance] [-m auto | index | scan] [-o file] index [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	int c, ret = 0, decided = 0;

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
				    escname(optarg));
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
	chunks.nthreads = nprocs(MAXTHREADS);

	if (!(ix = hix_load(argv[0])))
		return EXIT_DATA;
	batch.width = hix_width(ix);
	argc--;
	argv++;
	if (ofile) {
		hix_plan(ix, maxdist, 0, HIX_INDEX, chunks.nthreads);
		if (hix_save(ix, ofile) < 0)
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
