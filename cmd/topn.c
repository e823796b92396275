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

static int
topn_read(const char *path)
{
	struct rdr r;
	char *line, *tab;
	const char *errstr;
	unsigned long long c;
	ptrdiff_t n;
	uint32_t i;
	size_t old;
	int ret = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((n = rdr_line(&r, &line)) >= 0) {
		if (!(tab = memchr(line, '\t', (size_t)n))) {
			weprintf("%s:%ju: no TAB between word and count", escname(r.name), r.lineno);
			ret = 1;
			continue;
		}
		c = (unsigned long long)parsenumn(tab + 1, (size_t)(line + n - tab - 1), 0,
		    LLONG_MAX, &errstr);
		if (errstr) {
			weprintf("%s:%ju: count '%s' is %s", escname(r.name), r.lineno, tab + 1, errstr);
			ret = 1;
			continue;
		}
		i = wtab_intern(&words, line, (size_t)(tab - line));
		if (i >= countcap) {
			old = countcap;
			egrow(&count, &countcap, (size_t)i + 1, sizeof *count);
			memset(count + old, 0, (countcap - old) * sizeof *count);
		}
		/* a word seen again (counts of several shards) adds up */
		if (count[i] > (unsigned long long)LLONG_MAX - c) {
			weprintf("%s:%ju: count of '%.*s' overflows", escname(r.name), r.lineno,
			    (int)(tab - line), line);
			ret = 1;
			continue;
		}
		count[i] += c;
	}
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
