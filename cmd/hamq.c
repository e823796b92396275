/* hamq: find the fingerprints of an index within a Hamming distance of queries. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fp.h"
#include "rdr.h"
#include "util.h"

static int aflag;		/* a header record for every query */
static unsigned maxdist = 3;

/* The index: fingerprints and their IDs (escaped, as read) in input order. */
static struct fp *fps;
static char *idtext;
static size_t *idoff;		/* ID i is idtext[idoff[i] .. idoff[i + 1]) */
static size_t nfps, fpcap, idtextlen, idtextcap, idoffcap;
static unsigned width;		/* of every fingerprint, index and queries */

/* Matches of one query: index positions, and how many lie at each distance. */
static uint32_t *hit, *sorted;
static unsigned char *hitdist;
static size_t nhit, hitcap, sortedcap;

static void
loadindex(const char *path)
{
	struct rdr r;
	struct fprec rec;
	int st;

	if (rdr_open(&r, path) < 0)
		exit(EXIT_DATA);
	egrow(&idoff, &idoffcap, 1, sizeof *idoff);
	idoff[0] = 0;
	while ((st = fprec_read(&r, &rec, &width)) > 0) {
		if (nfps == UINT32_MAX)
			eprintf("%s:%ju: more than %lu fingerprints", r.name, r.lineno,
			    (unsigned long)UINT32_MAX);
		egrow(&fps, &fpcap, nfps + 1, sizeof *fps);
		egrow(&idoff, &idoffcap, nfps + 2, sizeof *idoff);
		egrow(&idtext, &idtextcap, idtextlen + rec.idlen, 1);
		fps[nfps] = rec.fp;
		memcpy(idtext + idtextlen, rec.id, rec.idlen);
		idtextlen += rec.idlen;
		idoff[++nfps] = idtextlen;
	}
	if (rdr_close(&r) || st < 0)
		exit(EXIT_DATA);
}

/* Write the matches of query q, by distance, then index order. */
static void
putmatches(const struct fprec *q)
{
	size_t start[FP_MAXBITS + 2] = { 0 }, i;
	uint32_t k;
	unsigned d;

	for (i = 0; i < nhit; i++)
		start[hitdist[i] + 1]++;
	for (d = 1; d <= maxdist + 1 && d <= FP_MAXBITS + 1; d++)
		start[d] += start[d - 1];
	egrow(&sorted, &sortedcap, nhit, sizeof *sorted);
	for (i = 0; i < nhit; i++)
		sorted[start[hitdist[i]]++] = hit[i];
	for (i = 0; i < nhit; i++) {
		k = sorted[i];
		fwrite(q->id, 1, q->idlen, stdout);
		putchar('\t');
		putu(fp_dist(&q->fp, &fps[k]), stdout);
		putchar('\t');
		fwrite(idtext + idoff[k], 1, idoff[k + 1] - idoff[k], stdout);
		putchar('\n');
	}
}

static void
scan(const struct fprec *q)
{
	size_t i;
	unsigned d;

	nhit = 0;
	for (i = 0; i < nfps; i++) {
		if ((d = fp_dist(&q->fp, &fps[i])) > maxdist)
			continue;
		if (nhit == hitcap) {
			egrow(&hit, &hitcap, nhit + 1, sizeof *hit);
			hitdist = erealloc(hitdist, hitcap);
		}
		hit[nhit] = (uint32_t)i;
		hitdist[nhit++] = (unsigned char)d;
	}
}

static int
hamq(const char *path)
{
	struct rdr r;
	struct fprec q;
	int st, ret = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((st = fprec_read(&r, &q, &width)) != 0) {
		if (st < 0) {
			ret = 1;
			if (r.err)
				break;
			continue;	/* a bad record; the next ones still count */
		}
		if (aflag) {
			fwrite(q.id, 1, q.idlen, stdout);
			putchar('\n');
		}
		scan(&q);
		putmatches(&q);
	}
	return rdr_close(&r) | ret;
}

static const char synopsis[] = "[-a] [-d distance] index [file ...]";

static void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	int c, ret = 0;

	argv0 = "hamq";
	while ((c = getopt(argc, argv, "ad:h")) != -1) {
		switch (c) {
		case 'a':
			aflag = 1;
			break;
		case 'd':
			maxdist = (unsigned)estrtonum(optarg, 0, FP_MAXBITS, "distance");
			break;
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

	loadindex(argv[0]);
	argc--;
	argv++;
	setupstdout();
	if (argc == 0)
		ret |= hamq("-");
	for (; argc > 0; argc--, argv++)
		ret |= hamq(*argv);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
