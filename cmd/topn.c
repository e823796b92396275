/* topn: the N most frequent words of "WORD<TAB>COUNT" records, in rank order. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdr.h"
#include "util.h"
#include "wtab.h"

static struct wtab words;
static unsigned long long *count;	/* by word id */
static size_t countcap;

/*
 * Records wait in a batch to be counted, so that their words are interned
 * together (wtab_batch: in a large table every slot is asked for first,
 * then the words looked up while the slots arrive). A word is copied, as
 * rdr_line's buffer moves on the next read.
 */
enum { BATCH = 256 };
static struct {
	struct obuf text;		/* the words, back to back */
	size_t off[BATCH], len[BATCH];
	unsigned long long c[BATCH];
	uintmax_t lineno[BATCH];
	size_t n;
} batch;

/*
 * Count the records of the batch in line order, so that ids, sums and
 * diagnostics are those of counting each as it was read.
 */
static int
topn_flush(struct rdr *r)
{
	uint32_t id[BATCH];
	size_t i, old;
	int ret = 0;

	if (batch.n == 0)
		return 0;
	wtab_batch(&words, 0, batch.text.p, batch.off, batch.len, batch.n, id);
	if (wtab_size(&words) > countcap) {
		old = countcap;
		egrow(&count, &countcap, wtab_size(&words), sizeof *count);
		memset(count + old, 0, (countcap - old) * sizeof *count);
	}
	for (i = 0; i < batch.n; i++) {
		/* a word seen again (counts of several shards) adds up */
		if (count[id[i]] > (unsigned long long)LLONG_MAX - batch.c[i]) {
			rdr_warnat(r, batch.lineno[i], "count of '%.*s' overflows",
			    (int)batch.len[i], batch.text.p + batch.off[i]);
			ret = 1;
			continue;
		}
		count[id[i]] += batch.c[i];
	}
	batch.n = 0;
	batch.text.n = 0;
	return ret;
}

static int
topn_read(const char *path)
{
	struct rdr r;
	char *line, *tab;
	const char *errstr, *p;
	unsigned long long c;
	uintmax_t lim = 0;
	ptrdiff_t n;
	size_t k;
	int ret = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	for (;;) {
		/*
		 * A read error is reported as it happens: the records before
		 * it are counted first, should the next line need a read (its
		 * LF not buffered yet). lim is the offset past the last LF
		 * seen buffered; rdr_peek with want 0 does not read.
		 */
		if (batch.n > 0 && rdr_tell(&r) >= lim) {
			for (k = rdr_peek(&r, 0, &p); k > 0 && p[k - 1] != '\n'; k--)
				;
			if (k > 0)
				lim = rdr_tell(&r) + k;
			else
				ret |= topn_flush(&r);
		}
		if ((n = rdr_line(&r, &line)) < 0)
			break;
		if (!(tab = memchr(line, '\t', (size_t)n))) {
			ret |= topn_flush(&r);
			rdr_warn(&r, "no TAB between word and count");
			ret = 1;
			continue;
		}
		c = (unsigned long long)parsenumn(tab + 1, (size_t)(line + n - tab - 1), 0,
		    LLONG_MAX, &errstr);
		if (errstr) {
			ret |= topn_flush(&r);
			rdr_warn(&r, "count '%s' is %s", tab + 1, errstr);
			ret = 1;
			continue;
		}
		batch.off[batch.n] = batch.text.n;
		batch.len[batch.n] = (size_t)(tab - line);
		batch.c[batch.n] = c;
		batch.lineno[batch.n] = r.lineno;
		obuf_add(&batch.text, line, (size_t)(tab - line));
		if (++batch.n == BATCH)
			ret |= topn_flush(&r);
	}
	ret |= topn_flush(&r);
	return rdr_close(&r) | ret;
}

/* Rank order: count descending, then the word's bytes ascending. */
static int
byrank(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	size_t nx, ny;
	const char *wx, *wy;
	int d;

	if (count[x] != count[y])
		return count[x] > count[y] ? -1 : 1;
	wx = wtab_word(&words, x, &nx);
	wy = wtab_word(&words, y, &ny);
	if ((d = memcmp(wx, wy, nx < ny ? nx : ny)))
		return d;
	return (nx > ny) - (nx < ny);
}

/* The k-th largest of the n values of v (1 <= k <= n); v is reordered. */
static unsigned long long
kthlargest(unsigned long long *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1, i, j;
	unsigned long long pivot, t;

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
			t = v[i];
			v[i++] = v[j];
			v[j--] = t;
		}
		if (k <= j)
			hi = j;
		else
			lo = j + 1;
	}
	return v[k];
}

static void
topn_write(long long limit)
{
	unsigned long long *v, min = 0;
	uint32_t *rank;
	const char *w;
	size_t i, n, nrank = 0;
	struct obuf out = { 0 };

	/* only words counted at least as often as the limit-th need sorting */
	if (limit < (long long)wtab_size(&words) && limit > 0) {
		v = ereallocarray(NULL, wtab_size(&words), sizeof *v);
		memcpy(v, count, wtab_size(&words) * sizeof *v);
		min = kthlargest(v, wtab_size(&words), (size_t)limit);
		free(v);
	}
	rank = ereallocarray(NULL, wtab_size(&words), sizeof *rank);
	for (i = 0; i < wtab_size(&words); i++)
		if (count[i] >= min)
			rank[nrank++] = (uint32_t)i;
	qsort(rank, nrank, sizeof *rank, byrank);
	for (i = 0; i < nrank && (long long)i < limit; i++) {
		w = wtab_word(&words, rank[i], &n);
		obuf_add(&out, w, n);
		obuf_addc(&out, '\t');
		obuf_addu(&out, count[rank[i]]);
		obuf_addc(&out, '\n');
	}
	obuf_flush(&out, stdout);
	free(out.p);
	free(rank);
}

static const char synopsis[] = "count [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	long long limit;
	int c, ret = 0;

	argv0 = "topn";
	while ((c = getopt(argc, argv, "h")) != -1) {
		switch (c) {
		case 'h':
			return help(synopsis);
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	limit = estrtonum(argv[0], 1, LLONG_MAX, "count");
	argc--;
	argv++;

	wtab_init(&words);
	setupstdout();
	if (argc == 0)
		ret |= topn_read("-");
	for (; argc > 0; argc--, argv++)
		ret |= topn_read(*argv);
	topn_write(limit);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
