/*
 * simjoin: near-duplicate pairs from bottom-k sketches: candidates from
 * shared hashes, verified by an estimate of rarity-weighted Jaccard
 * similarity.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "join.h"
#include "rdr.h"
#include "skidx.h"
#include "util.h"

#define PARTSMAX	64	/* -i: files read side by side */

static struct join_opt opt = { 0.25, -1, 2, 10 };	/* -t, -c, -d, -m */
static int gflag;		/* clusters */
static int iflag;		/* the files are parts, their records interleaved */
static uint64_t length;		/* -L: the first bytes of the index; 0: all */
static const char *qfile;	/* -q: queries against the collection */
static int uflag;		/* unique documents */
static const char *xfile;	/* -x: the collection is an index (skidx(5)) */
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
/*
 * -x: the queries against the kept collection of an index ("-": standard
 * input): only the kept documents they may pair with are read.
 */
static struct join *
queryindex(int *ret)
{
	struct skidx *x;
	struct join *b, *j;
	unsigned size, maxwhole;
	int fd = 0;

	if (strcmp(xfile, "-") && (fd = open(xfile, O_RDONLY | O_CLOEXEC)) < 0)
		eprintf("%s:", xfile);
	if (!(x = skidx_open(fd, strcmp(xfile, "-") ? xfile : "<stdin>", length)))
		exit(1);
	b = join_new(&opt);
	skidx_size(x, &size, &maxwhole);
	join_setsize(b, size, maxwhole);
	*ret |= load(b, qfile);
	join_end(b);
	if (!(j = skidx_query(x, b, &opt)))
		exit(1);
	join_free(b);
	/* the index stays mapped while j is used: the process ends then */
	return j;
}

static double
fraction(const char *s, const char *what)
{
	return (double)estrtofrac(s, what) / (double)FRAC_ONE;
}

static const char synopsis[] =
    "[-giu] [-c containment] [-d rarity] [-L length] [-m minsize] [-q queries] [-t threshold] "
    "[-x index] [file ...]";

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
	while ((c = getopt(argc, argv, "L:c:d:ghim:q:t:ux:")) != -1) {
		switch (c) {
		case 'L':
			length = (uint64_t)estrtonum(optarg, 1, INT64_MAX, "length");
			break;
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
		case 'x':
			xfile = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (gflag && (uflag || qfile))
		usage();
	if (xfile ? !qfile || argc > 0 || iflag || gflag : (qfile && argc == 0) || length)
		usage();
	if (xfile && !strcmp(xfile, "-") && !strcmp(qfile, "-"))
		enprintf(EXIT_USAGE, "queries and index cannot both be standard input");
	if (iflag && argc > PARTSMAX)
		enprintf(EXIT_USAGE, "at most %d files with -i", PARTSMAX);
	for (c = 0; qfile && c < argc; c++)
		if (strcmp(qfile, "-") == 0 && strcmp(argv[c], "-") == 0)
			enprintf(EXIT_USAGE, "queries and collection cannot both be standard input");

	setupstdout();
	if (xfile) {
		j = queryindex(&ret);
		goto output;
	}
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
output:
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
