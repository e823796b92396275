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

/* The limit most counted words, in rank order (wtab_top). */
static void
topn_write(long long limit)
{
	uint32_t *ids;
	size_t i, n = wtab_size(&words);

	ids = ereallocarray(NULL, n ? n : 1, sizeof *ids);
	for (i = 0; i < n; i++)
		ids[i] = (uint32_t)i;
	wtab_top(&words, count, ids, n, (unsigned long long)limit, stdout);
	free(ids);
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
