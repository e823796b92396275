/*
 * simjoin: near-duplicate pairs from bottom-k sketches: candidates from
 * shared hashes, verified by an estimate of rarity-weighted Jaccard
 * similarity.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "esc.h"
#include "join.h"
#include "rdr.h"
#include "skidx.h"
#include "util.h"

#define PARTSMAX	64	/* -i: files read side by side */
#define PROCSMAX	64	/* -j: processes that verify */

static struct join_opt opt = { 0.25, -1, 2, 10 };	/* -t, -c, -d, -m */
static int gflag;		/* clusters */
static int iflag;		/* the files are parts, their records interleaved */
static unsigned procs = 1;	/* -j: processes that verify */
static uint64_t length;		/* -L: the first bytes of the index; 0: all */
static const char *qfile;	/* -q: queries against the collection */
static int uflag;		/* unique documents */
static const char *xfile;	/* -x: the collection is an index (skidx(5)) */
static const char *stdinname = "<stdin>";	/* -N: -x -'s name in messages */
static int nflag;
static int zflag;		/* fields ended by NUL, IDs decoded */
static struct obuf out;
static struct obuf idbuf;	/* -z: an ID decoded */
/* -v: the phase and the share of the pairing done, on stderr */
static struct {
	int on;
	int tty;		/* stderr is a terminal: one line that redraws */
	int widest;		/* the longest line drawn */
	double tlast;
} prog;
static unsigned char *nulids;	/* -z: the documents whose ID holds a NUL (a bitmap) */

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

	join_dupbyid(j);
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
	saidcount(join_ndup(j), NULL, "duplicate IDs");
	return ret;
}

static void
flushout(void)
{
	if (out.n >= 1 << 16)
		obuf_flush(&out, stdout);
}

/*
 * -v: a line of progress; on a terminal redrawn in place, padded to the
 * widest drawn before (no terminal control sequence needed).
 */
static void
say(int end, const char *fmt, ...)
{
	char msg[160];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (prog.tty)
		fprintf(stderr, "\rsimjoin: %-*s%s", prog.widest, msg, end ? "\n" : "");
	else
		fprintf(stderr, "simjoin: %s\n", msg);
	if (n > prog.widest)
		prog.widest = n;
}

/* -v on a terminal: the phase. */
static void
phase(const char *what, size_t ndocs)
{
	if (prog.on && prog.tty)
		say(0, ndocs > 0 ? "%s %zu documents" : "%s", what, ndocs);
}

/*
 * -v: the pairing's progress, on a terminal at most 4 times a second;
 * at its end one line, on a terminal or not.
 */
static void
tick(size_t done, size_t total, void *ctx)
{
	double t;

	(void)ctx;
	if (done == total) {
		say(1, "paired %zu documents", total);
		return;
	}
	if (!prog.tty || (t = monoseconds()) - prog.tlast < 0.25)
		return;
	prog.tlast = t;
	say(0, "pairing %zu of %zu documents, %.0f%%", done, total,
	    100.0 * (double)done / (double)total);
}

/* The end of a field: c (TAB or LF), or with -z NUL. */
static void
putend(char c)
{
	obuf_addc(&out, zflag ? '\0' : c);
}

static void
putid(const struct join *j, uint32_t d)
{
	size_t len;
	const char *id = join_id(j, d, &len);

	if (!zflag) {
		obuf_add(&out, id, len);
		return;
	}
	/* IDs were checked when read: the decoding cannot fail */
	obuf_set(&idbuf, id, len);
	obuf_add(&out, idbuf.p, (size_t)esc_decode(idbuf.p, len));
}

/*
 * -z: find the documents whose ID holds a NUL, which would end the field
 * early, and report each once: their records are not written. Returns 1
 * if there is one, else 0.
 */
static int
findnulids(const struct join *j)
{
	size_t d, len, n = join_ndocs(j);
	const char *id;
	uintmax_t nbad = 0;

	nulids = ecalloc(n / 8 + 1, 1);
	for (d = 0; d < n; d++) {
		id = join_id(j, (uint32_t)d, &len);
		obuf_set(&idbuf, id, len);
		if (memchr(idbuf.p, '\0', (size_t)esc_decode(idbuf.p, len))) {
			if (said(&nbad))
				weprintf("ID '%.*s' holds a NUL: not written with -z", (int)len, id);
			nulids[d / 8] |= (unsigned char)(1u << (d % 8));
		}
	}
	saidcount(nbad, NULL, "IDs hold a NUL");
	return nbad > 0;
}

static int
nulid(uint32_t d)
{
	return zflag && nulids[d / 8] >> (d % 8) & 1;
}

/* A reported pair: ID_A<TAB>ID_B<TAB>SIM. */
static void
putpair(uint32_t a, uint32_t b, double sim, void *ctx)
{
	const struct join *j = ctx;
	char num[16];

	if (nulid(a) || nulid(b))
		return;
	putid(j, a);
	putend('\t');
	putid(j, b);
	putend('\t');
	snprintf(num, sizeof num, "%.4f", sim);
	obuf_add(&out, num, strlen(num));
	putend('\n');
	flushout();
}

/* A document of the output: -u its ID, -g with its cluster's. */
static void
putdoc(uint32_t d, uint32_t root, void *ctx)
{
	const struct join *j = ctx;

	if (nulid(d) || (gflag && nulid(root)))
		return;
	putid(j, d);
	if (gflag) {
		putend('\t');
		putid(j, root);
	}
	putend('\n');
	flushout();
}

/*
 * -x: the queries against the kept collection of an index ("-": standard
 * input): only the kept documents they may pair with are read.
 */
static struct join *
queryindex(struct skidx **xp, int *ret)
{
	struct skidx *x;
	struct join *b, *j;
	unsigned size, maxwhole;
	int fd = 0;

	if (strcmp(xfile, "-") && (fd = open(xfile, O_RDONLY | O_CLOEXEC)) < 0)
		eprintf("%s:", escname(xfile));
	if (!(x = *xp = skidx_open(fd, strcmp(xfile, "-") ? xfile : stdinname, length)))
		exit(1);
	b = join_new(&opt);
	join_inmemory(b);	/* the query join holds the batch in memory too */
	skidx_size(x, &size, &maxwhole);
	join_setsize(b, size, maxwhole);
	*ret |= load(b, qfile);
	join_end(b);
	if (!(j = skidx_query(x, b, &opt)))
		exit(1);
	join_free(b);
	/* the index stays mapped while j is used: closed after it */
	return j;
}

static const char synopsis[] =
    "[-giuvz] [-c containment] [-d rarity] [-j procs] [-L length] [-m minsize] [-N name] "
    "[-q queries] [-t threshold] [-x index] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	struct join *j;
	struct skidx *index = NULL;	/* -x */
	int c, ret = 0;

	argv0 = "simjoin";
	while ((c = getopt(argc, argv, "L:N:c:d:ghij:m:q:t:uvx:z")) != -1) {
		switch (c) {
		case 'L':
			length = (uint64_t)estrtonum(optarg, 1, INT64_MAX, "length");
			break;
		case 'N':
			stdinname = optarg;
			nflag = 1;
			break;
		case 'c':
			opt.cthresh = estrtofracd(optarg, "containment");
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
		case 'j':
			procs = (unsigned)estrtonum(optarg, 1, PROCSMAX, "processes");
			break;
		case 'm':
			opt.minsize = (unsigned)estrtonum(optarg, 0, UINT_MAX, "minimum size");
			break;
		case 'q':
			qfile = optarg;
			break;
		case 't':
			opt.thresh = estrtofracd(optarg, "threshold");
			break;
		case 'u':
			uflag = 1;
			break;
		case 'v':
			prog.on = 1;
			break;
		case 'x':
			xfile = optarg;
			break;
		case 'z':
			zflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (gflag && uflag)
		eusagewhy(synopsis, "-g cannot go with -u");
	if (gflag && qfile)
		eusagewhy(synopsis, "-g cannot go with -q");
	if (xfile) {
		if (!qfile)
			eusagewhy(synopsis, "-x needs -q");
		if (argc > 0)
			eusagewhy(synopsis, "-x takes no file operand");
		if (iflag)
			eusagewhy(synopsis, "-x cannot go with -i");
		if (!strcmp(xfile, "-") && !strcmp(qfile, "-"))
			enprintf(EXIT_USAGE, "queries and index cannot both be standard input");
		if (nflag && strcmp(xfile, "-"))
			eusagewhy(synopsis, "-N needs -x -");
	} else {
		if (qfile && argc == 0)
			eusagewhy(synopsis, "-q needs a collection: no file operand");
		if (length)
			eusagewhy(synopsis, "-L needs -x");
		if (nflag)
			eusagewhy(synopsis, "-N needs -x -");
	}
	if (iflag && argc > PARTSMAX)
		enprintf(EXIT_USAGE, "at most %d files with -i", PARTSMAX);
	for (c = 0; qfile && c < argc; c++)
		if (strcmp(qfile, "-") == 0 && strcmp(argv[c], "-") == 0)
			enprintf(EXIT_USAGE, "queries and collection cannot both be standard input");

	setupstdout();
	prog.tty = isatty(2);
	if (xfile) {
		j = queryindex(&index, &ret);
		goto output;
	}
	j = join_new(&opt);
	phase("reading", 0);
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
	phase("counting the hashes of", join_ndocs(j));
	join_prepare(j);
output:
	if (prog.on)	/* with -x too */
		join_progress(j, tick, NULL);
	join_procs(j, procs);
	if (zflag)
		ret |= findnulids(j);
	if (gflag || uflag)
		join_clusters(j, uflag, putdoc, j);
	else
		join_pairs(j, putpair, j);
	if (out.n)
		obuf_flush(&out, stdout);
	free(out.p);
	free(idbuf.p);
	free(nulids);
	join_free(j);
	if (index)
		skidx_close(index);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
