/*
 * simjoin: near-duplicate pairs from bottom-k sketches: candidates from
 * shared hashes, verified by an estimate of rarity-weighted Jaccard
 * similarity.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "join.h"
#include "rdr.h"
#include "util.h"

#define PARTSMAX	64	/* -i: files read side by side */

static struct join_opt opt = { 0.25, -1, 2, 10 };	/* -t, -c, -d, -m */
static int gflag;		/* clusters */
static int iflag;		/* the files are parts, their records interleaved */
static const char *qfile;	/* -q: queries against the collection */
static int uflag;		/* unique documents */
static struct obuf out;

static int
load(struct join *j, const char *path)
{
	struct rdr r;
	int ret;

	if (rdr_open(&r, path) < 0)
		return 1;
	ret = join_read(j, &r);
	return rdr_close(&r) | ret;
}

/*
 * -i: the n files are parts of one collection, dealt out in turn (as
 * docsplit -p deals files): a record from each in turn, until all have
 * ended.
 */
static int
loadparts(struct join *j, char **paths, int n)
{
	struct rdr r[PARTSMAX];
	char *line;
	ptrdiff_t len;
	int i, live[PARTSMAX], nlive = 0, ret = 0;

	for (i = 0; i < n; i++) {
		live[i] = rdr_open(&r[i], paths[i]) == 0;
		ret |= !live[i];
		nlive += live[i];
	}
	while (nlive > 0) {
		for (i = 0; i < n; i++) {
			if (!live[i])
				continue;
			if ((len = rdr_line(&r[i], &line)) >= 0) {
				ret |= join_add(j, &r[i], line, (size_t)len);
				continue;
			}
			ret |= rdr_close(&r[i]);
			live[i] = 0;
			nlive--;
		}
	}
	return ret;
}

static void
flushout(void)
{
	if (out.n >= 1 << 16)
		obuf_flush(&out, stdout);
}

static void
putid(const struct join *j, uint32_t d)
{
	size_t len;
	const char *id = join_id(j, d, &len);

	obuf_add(&out, id, len);
}

/* A reported pair: ID_A<TAB>ID_B<TAB>SIM. */
static void
putpair(uint32_t a, uint32_t b, double sim, void *ctx)
{
	const struct join *j = ctx;
	char num[16];

	putid(j, a);
	obuf_addc(&out, '\t');
	putid(j, b);
	snprintf(num, sizeof num, "\t%.4f\n", sim);
	obuf_add(&out, num, strlen(num));
	flushout();
}

/* A document of the output: -u its ID, -g with its cluster's. */
static void
putdoc(uint32_t d, uint32_t root, void *ctx)
{
	const struct join *j = ctx;

	putid(j, d);
	if (gflag) {
		obuf_addc(&out, '\t');
		putid(j, root);
	}
	obuf_addc(&out, '\n');
	flushout();
}

/*
 * A fraction from 0 to 1 (estrtofrac) as a double: the exact decimal
 * divided by FRAC_ONE, both exact in a double, rounds as strtod would.
 */
static double
fraction(const char *s, const char *what)
{
	return (double)estrtofrac(s, what) / (double)FRAC_ONE;
}

static const char synopsis[] =
    "[-giu] [-c containment] [-d rarity] [-m minsize] [-q queries] [-t threshold] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	struct join *j;
	int c, ret = 0;

	argv0 = "simjoin";
	while ((c = getopt(argc, argv, "c:d:ghim:q:t:u")) != -1) {
		switch (c) {
		case 'c':
			opt.cthresh = fraction(optarg, "containment");
			break;
		case 'd':
			opt.rarity = (unsigned)estrtonum(optarg, 0, 1000000, "rarity");
			break;
		case 'g':
			gflag = 1;
			break;
		case 'h':
			return help(synopsis);
		case 'i':
			iflag = 1;
			break;
		case 'm':
			opt.minsize = (unsigned)estrtonum(optarg, 0, UINT_MAX, "minimum size");
			break;
		case 'q':
			qfile = optarg;
			break;
		case 't':
			opt.thresh = fraction(optarg, "threshold");
			break;
		case 'u':
			uflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (gflag && (uflag || qfile))
		usage();
	if (qfile && argc == 0)
		usage();
	if (iflag && argc > PARTSMAX)
		enprintf(EXIT_USAGE, "at most %d files with -i", PARTSMAX);
	for (c = 0; qfile && c < argc; c++)
		if (strcmp(qfile, "-") == 0 && strcmp(argv[c], "-") == 0)
			enprintf(EXIT_USAGE, "queries and collection cannot both be standard input");

	setupstdout();
	j = join_new(&opt);
	if (argc == 0)
		ret |= load(j, "-");
	else if (iflag)
		ret |= loadparts(j, argv, argc);
	for (; argc > 0 && !iflag; argc--, argv++)
		ret |= load(j, *argv);
	if (qfile) {
		join_queries(j);
		ret |= load(j, qfile);
	}
	join_prepare(j);
	if (gflag || uflag)
		join_clusters(j, uflag, putdoc, j);
	else
		join_pairs(j, putpair, j);
	if (out.n)
		obuf_flush(&out, stdout);
	free(out.p);
	join_free(j);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
