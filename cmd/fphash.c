/* fphash: simhash fingerprints of per-page word counts. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counts.h"
#include "fp.h"
#include "rdr.h"
#include "simhash.h"
#include "swar.h"
#include "util.h"
#include "wtab.h"

static unsigned mbits;		/* fingerprint width M */
static struct simh *sh;
/* -i: the feature id of each word number of the list, and how many */
static uint32_t *numfeat;
static size_t nnums, numcap;

/*
 * Read the document frequencies of path (WORD<TAB>DF, the document count
 * as an empty WORD), adding up repeated words and counts (shards), those
 * of earlier files too.
 * Returns -1 after a diagnostic.
 */
static int
loaddf(const char *path)
{
	struct rdr r;
	char *line, *tab;
	const char *errstr;
	ptrdiff_t n;
	uint64_t c;
	int bad = 0;

	if (rdr_open(&r, path) < 0)
		return -1;
	while (!bad && (n = rdr_line(&r, &line)) >= 0) {
		if (!(tab = memchr(line, '\t', (size_t)n))) {
			rdr_warn(&r, "no TAB between word and document count");
			bad = 1;
			break;
		}
		c = (uint64_t)parsenumn(tab + 1, (size_t)(line + n - tab - 1), 0,
		    LLONG_MAX, &errstr);
		if (errstr) {
			rdr_warn(&r, "document count '%.*s' is %s",
			    (int)(line + n - tab - 1), tab + 1, errstr);
			bad = 1;
			break;
		}
		if ((tab == line ? simh_addndocs(sh, c) :
		    simh_adddf(sh, line, (size_t)(tab - line), c)) < 0) {
			rdr_warn(&r, "document count overflows");
			bad = 1;
			break;
		}
	}
	if (rdr_close(&r) || bad)
		return -1;
	if (!simh_hasdocs(sh)) {
		/* the count may come in a later file, but the first must have one */
		weprintf("%s: no number of documents (a record with an empty word)", escname(path));
		return -1;
	}
	return 0;
}

/*
 * Read rows 1..nrows of the table: each must start with M characters 0/1.
 * Returns -1 after a diagnostic.
 */
static int
loadtable(const char *path, size_t nrows)
{
	struct rdr r;
	struct fp *rows = NULL;
	char *line;
	ptrdiff_t n;
	size_t i = 0, j, cap = 0;
	uint64_t v;
	int bad = 0;

	if (rdr_open(&r, path) < 0)
		return -1;
	/* grown with the rows read: a large -n costs nothing until rows exist */
	for (; !bad && i < nrows && (n = rdr_line(&r, &line)) >= 0; i++) {
		egrow(&rows, &cap, i + 1, sizeof *rows);
		memset(&rows[i], 0, sizeof rows[i]);
		/*
		 * 8 characters at a time while all are 0 or 1: each one's bit
		 * gathered into a byte by one multiplication, the first its
		 * top bit; the rest, or a bad character, one at a time
		 */
		for (j = 0; j + 8 <= mbits && j + 8 <= (size_t)n; j += 8) {
			v = swar_load8((const unsigned char *)line + j);
			if ((v & ~SWAR_ONES) != SWAR_ONES * '0')
				break;
			rows[i].w[j >> 6] |= ((v & SWAR_ONES) * UINT64_C(0x8040201008040201)) >>
			    56 << (56 - (j & 63));
		}
		for (; j < mbits && j < (size_t)n; j++) {
			if (line[j] != '0' && line[j] != '1')
				break;
			if (line[j] == '1')
				fp_setbit(&rows[i], (unsigned)j);
		}
		if (j == mbits)
			continue;
		if (j == (size_t)n)
			rdr_warn(&r, "row has %zu bits, %u needed", j, mbits);
		else
			rdr_warn(&r, "character %zu is not 0 or 1", j + 1);
		bad = 1;
	}
	if (rdr_close(&r))
		bad = 1;
	else if (!bad && i < nrows) {
		weprintf("%s: has %zu rows, %zu needed", escname(path), i, nrows);
		bad = 1;
	}
	if (bad) {
		free(rows);
		return -1;
	}
	simh_rows(sh, rows, i);
	return 0;
}

/* -i: the feature id of word number nnums, the list's next line. */
static int
addnum(void *ctx, const char *w, size_t n)
{
	(void)ctx;
	egrow(&numfeat, &numcap, nnums + 1, sizeof *numfeat);
	numfeat[nnums++] = simh_find(sh, w, n);
	return 0;
}

/*
 * -i: the word numbers of the records are the lines of path (wordfreq(1)
 * -i), each mapped to its feature id once. Returns -1 after a diagnostic.
 */
static int
loadnums(const char *path)
{
	/* an array even for an empty list: -i is on */
	numfeat = ereallocarray(NULL, 1, sizeof *numfeat);
	numcap = 1;
	nnums = 0;
	return wtab_lines(path, addnum, NULL);
}

/* A page's count items, added a batch at a time: where they are in its text. */
enum { BATCH = 256 };
static struct {
	size_t off[BATCH], len[BATCH], n;
	uint64_t count[BATCH];
	uint32_t id[BATCH];	/* -i: their numbers, then their features */
} items;

/* Add the items gathered from text to the page. Returns -1 after a diagnostic. */
static int
additems(const char *text, struct rdr *r)
{
	size_t k = simh_addbatch(sh, text, items.off, items.len, items.count, items.n);
	int bad = k < items.n;

	if (bad)
		rdr_warn(r, "count of '%.*s' is too large",
		    (int)items.len[k], text + items.off[k]);
	items.n = 0;
	return bad ? -1 : 0;
}

/* Add the "word:count ..." items of text to the page. */
static int
addcounts(const char *text, const char *end, struct rdr *r)
{
	struct counts it;
	const char *s;
	size_t n;
	long long c;
	int got;

	counts_init(&it, text, end);
	items.n = 0;
	while ((got = counts_next(&it, &s, &n, &c))) {
		if (got < 0) {
			/* the items before it first: an error there comes first */
			if (additems(text, r) < 0)
				return -1;
			rdr_warn(r, "bad count item '%.*s'",
			    (int)n, s);
			return -1;
		}
		items.off[items.n] = (size_t)(s - text);
		items.len[items.n] = n;
		items.count[items.n] = (uint64_t)c;
		if (++items.n == BATCH && additems(text, r) < 0)
			return -1;
	}
	return additems(text, r);
}

/*
 * Add the features of the "number:count ..." items of text to the page
 * (-i). The features of a batch's numbers are asked for as the numbers
 * are read, and looked up once all are: a list of a large vocabulary is
 * far from the cache, and its entries then arrive together.
 */
static int
addnums(const char *text, const char *end, struct rdr *r)
{
	struct counts it;
	const char *s;
	size_t n, k, j;
	long long num, c;
	int got;

	counts_init(&it, text, end);
	items.n = 0;
	for (;;) {
		if ((got = counts_nextnum(&it, &num, &c, &s, &n)) > 0 &&
		    (unsigned long long)num >= nnums)
			got = -2;
		if (got > 0) {
			items.id[items.n] = (uint32_t)num;
			PREFETCH(&numfeat[num]);
			items.off[items.n] = (size_t)(s - text);
			items.len[items.n] = n;
			items.count[items.n] = (uint64_t)c;
			if (++items.n < BATCH)
				continue;
		}
		/* the items before a bad one first: an error there comes first */
		for (j = 0; j < items.n; j++)
			items.id[j] = numfeat[items.id[j]];
		k = simh_addids(sh, items.id, items.count, items.n);
		if (k < items.n) {
			rdr_warn(r, "count of '%.*s' is too large",
			    (int)items.len[k], text + items.off[k]);
			return -1;
		}
		items.n = 0;
		if (got == -1)
			rdr_warn(r, "bad count item '%.*s'",
			    (int)n, s);
		else if (got == -2)
			rdr_warn(r, "word number %lld is not in the word list", num);
		if (got <= 0)
			return got < 0 ? -1 : 0;
	}
}

static int
fphash(const char *path)
{
	struct rdr r;
	struct fp f;
	char *line, *tab;
	ptrdiff_t n;
	int st, ret = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((n = rdr_line(&r, &line)) >= 0) {
		if (!(tab = memchr(line, '\t', (size_t)n))) {
			rdr_warn(&r, "no TAB after the page ID");
			ret = 1;
			continue;
		}
		if ((numfeat ? addnums(tab + 1, line + n, &r) :
		    addcounts(tab + 1, line + n, &r)) < 0) {
			simh_drop(sh);
			ret = 1;
			continue;
		}
		if ((st = simh_finish(sh, &f)) < 0) {
			rdr_warn(&r, "page weights are too large");
			ret = 1;
			continue;
		}
		/* a page with no feature in the band has no signature, so no record */
		if (st == 0)
			continue;
		fwrite(line, 1, (size_t)(tab - line + 1), stdout);
		fp_write(&f, mbits, stdout);
		putchar('\n');
	}
	return rdr_close(&r) | ret;
}

static const char synopsis[] =
    "[-H] [-b low,high] [-D dffile] [-f features] [-i words] -m bits [-n rows] [-s seed] [-t table] [-w weight] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	const char *featfile = NULL, *tablefile = NULL, *numfile = NULL, **dffile;
	struct wtab features;
	size_t nrows = 0, ndf = 0, i;
	uint64_t key0 = 0, key1 = ~(uint64_t)0;
	unsigned bandlo = SIMH_IMATCH_LO, bandhi = SIMH_IMATCH_HI;
	char *comma;
	int c, hflag = 0, weighting = SIMH_RAW, ret = 0;

	argv0 = "fphash";
	dffile = ereallocarray(NULL, (size_t)argc, sizeof *dffile);
	while ((c = getopt(argc, argv, "D:Hb:f:hi:m:n:s:t:w:")) != -1) {
		switch (c) {
		case 'D':
			dffile[ndf++] = optarg;
			break;
		case 'H':
			hflag = 1;
			break;
		case 'b':
			if (!(comma = strchr(optarg, ',')))
				usage();
			*comma = '\0';
			bandlo = (unsigned)estrtonum(optarg, 0, 100, "band low");
			bandhi = (unsigned)estrtonum(comma + 1, bandlo, 100, "band high");
			break;
		case 'f':
			featfile = optarg;
			break;
		case 'h':
			free(dffile);
			return help(synopsis);
		case 'i':
			numfile = optarg;
			break;
		case 'm':
			mbits = (unsigned)estrtonum(optarg, 1, FP_MAXBITS, "bits");
			break;
		case 'n':
			nrows = (size_t)estrtonum(optarg, 1, UINT32_MAX - 1, "rows");
			break;
		case 's':
			key0 = (uint64_t)estrtonum(optarg, 0, LLONG_MAX, "seed");
			key1 = ~key0;
			break;
		case 't':
			tablefile = optarg;
			break;
		case 'w':
			if (!strcmp(optarg, "raw"))
				weighting = SIMH_RAW;
			else if (!strcmp(optarg, "log"))
				weighting = SIMH_LOG;
			else if (!strcmp(optarg, "bin"))
				weighting = SIMH_BIN;
			else if (!strcmp(optarg, "tfidf"))
				weighting = SIMH_TFIDF;
			else if (!strcmp(optarg, "imatch"))
				weighting = SIMH_IMATCH;
			else
				usage();
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	/* -H hashes the features, the table gives them: one or the other */
	if (!mbits)
		eusagewhy(synopsis, "-m is needed");
	if (hflag && tablefile)
		eusagewhy(synopsis, "-H cannot go with -t");
	if (!hflag && (!featfile || !tablefile))
		eusagewhy(synopsis, "-f and -t are needed, or -H");
	if (numfile && !featfile)
		eusagewhy(synopsis, "-i needs -f");
	if ((weighting == SIMH_TFIDF || weighting == SIMH_IMATCH) != (ndf > 0))
		eusagewhy(synopsis, ndf ? "-D needs -w tfidf or -w imatch" :
		    "-w tfidf and -w imatch need -D");

	sh = simh_new(mbits, weighting, key0, key1);
	simh_band(sh, bandlo, bandhi);
	wtab_init(&features);
	if (featfile && wtab_load_lines(&features, featfile, 1) < 0) {
		wtab_free(&features);
		free(dffile);
		return EXIT_DATA;
	}
	if (nrows < wtab_size(&features))
		nrows = wtab_size(&features);
	simh_features(sh, &features);
	for (i = 0; i < ndf && loaddf(dffile[i]) == 0; i++)
		;
	free(dffile);
	if (i < ndf)
		return EXIT_DATA;
	if (hflag)
		simh_hashrows(sh, !featfile);
	else if (loadtable(tablefile, nrows) < 0)
		return EXIT_DATA;
	if (numfile && loadnums(numfile) < 0)
		return EXIT_DATA;

	setupstdout();
	if (argc == 0)
		ret |= fphash("-");
	/* stop at a write error: the output is lost, and fshut still knows why */
	for (; argc > 0 && !ferror(stdout); argc--, argv++)
		ret |= fphash(*argv);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
