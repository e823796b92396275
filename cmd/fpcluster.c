/* fpcluster: group pages into clusters of near-duplicate fingerprints. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fp.h"
#include "hix.h"
#include "rdr.h"
#include "uf.h"
#include "util.h"
#include "wtab.h"

static unsigned maxdist = 3;
static int dflag;		/* -d given */
static uint64_t tnum = FRAC_ONE / 2;	/* -t, in units of 1 / FRAC_ONE */
static size_t wsize;		/* -w: window mode with this many slots */

static uint32_t *parent;	/* union-find (uf.h) over the pages */

/*
 * Run readone over every input, the first already opened (as r0) to tell
 * its kind; 1 if any could not be read or held a bad record.
 */
static int
eachinput(char **files, int nfiles, struct rdr *r0,
    int (*readone)(struct rdr *, void *), void *ctx)
{
	struct rdr r;
	int f, ret = 0;

	for (f = 0; f < nfiles; f++) {
		if (f == 0)
			r = *r0;
		else if (rdr_open(&r, files[f]) < 0) {
			ret = 1;
			continue;
		}
		ret |= readone(&r, ctx) < 0;
		ret |= rdr_close(&r);
	}
	return ret;
}

static int
fpread(struct rdr *r, void *ctx)
{
	return hix_read(ctx, r);
}

/* Components of fingerprints: the self-join of hamq(1), through the index. */
static int
fpcomponents(char **files, int nfiles, struct rdr *r0)
{
	struct hix *ix = hix_new();
	struct hixhits h = { 0 };
	struct fp q;
	uint32_t *label, u, i, nu, root, n;
	const char *id;
	size_t k, idlen, cidlen;

	if (eachinput(files, nfiles, r0, fpread, ix))
		exit(EXIT_DATA);	/* clusters of part of the input would mislead */
	hix_finish(ix);
	nu = hix_ndistinct(ix);
	n = hix_size(ix);
	hix_plan(ix, maxdist, nu, HIX_AUTO, nprocs(8));
	parent = ereallocarray(NULL, (size_t)nu + 1, sizeof *parent);
	for (u = 0; u < nu; u++)
		parent[u] = u;
	for (u = 0; u < nu; u++) {
		hix_ufp(ix, u, &q);
		h.n = 0;
		hix_near(ix, &q, &h);
		for (k = 0; k < h.n; k++)
			uf_unite(parent, u, h.u[k]);
	}
	/* Name each component after its first page in input order. */
	label = ereallocarray(NULL, (size_t)nu + 1, sizeof *label);
	for (u = 0; u < nu; u++)
		label[u] = UINT32_MAX;
	for (i = 0; i < n; i++) {
		root = uf_find(parent, hix_unique(ix, i));
		if (label[root] == UINT32_MAX)
			label[root] = i;
		id = hix_id(ix, i, &idlen);
		fwrite(id, 1, idlen, stdout);
		putchar('\t');
		id = hix_id(ix, label[root], &cidlen);
		fwrite(id, 1, cidlen, stdout);
		putchar('\n');
	}
	free(label);
	free(parent);
	hix_hitsfree(&h);
	hix_free(ix);
	return 0;
}

/*
 * Components of match records "ID<TAB>DIST<TAB>ID" (hamq -s), with or
 * without header records "ID". Pages go in the order of their header
 * records, then, for pages without one, of first appearance.
 */
static size_t ncap, nheaders;
static uint64_t *rank;		/* header number, or UINT64_MAX */

static uint32_t
node(struct wtab *ids, const char *s, size_t n)
{
	size_t before = wtab_size(ids);
	uint32_t x = wtab_intern(ids, s, n);

	if (wtab_size(ids) > before) {
		egrow(&parent, &ncap, wtab_size(ids), sizeof *parent);
		rank = ereallocarray(rank, ncap, sizeof *rank);
		parent[x] = x;
		rank[x] = UINT64_MAX;
	}
	return x;
}

static int
pairread(struct rdr *r, void *ctx)
{
	struct wtab *ids = ctx;
	struct matchrec m;
	uint32_t a, b;
	int st;

	while ((st = matchrec_read(r, &m)) > 0) {
		a = node(ids, m.q, m.qlen);
		if (m.dist < 0) {
			if (rank[a] == UINT64_MAX)
				rank[a] = nheaders++;
			continue;
		}
		if (dflag && (unsigned)m.dist > maxdist)
			continue;
		/* node may move parent: call it before parent is read */
		b = node(ids, m.id, m.idlen);
		uf_unite(parent, a, b);
	}
	return st;
}

static int
rankcmp(const void *a, const void *b)
{
	uint64_t x = rank[*(const uint32_t *)a], y = rank[*(const uint32_t *)b];

	return (x > y) - (x < y);
}

static int
paircomponents(char **files, int nfiles, struct rdr *r0)
{
	struct wtab ids;
	size_t n, cn;
	uint32_t i, x, *order, *first;
	const char *w, *c;

	wtab_init(&ids);
	if (eachinput(files, nfiles, r0, pairread, &ids))
		exit(EXIT_DATA);
	/* Nodes without a header follow, in order of appearance (node numbers). */
	for (i = 0; i < wtab_size(&ids); i++)
		if (rank[i] == UINT64_MAX)
			rank[i] = nheaders + i;
	order = ereallocarray(NULL, wtab_size(&ids) + 1, sizeof *order);
	first = ereallocarray(NULL, wtab_size(&ids) + 1, sizeof *first);
	for (i = 0; i < wtab_size(&ids); i++) {
		order[i] = i;
		first[i] = UINT32_MAX;
	}
	qsort(order, wtab_size(&ids), sizeof *order, rankcmp);
	for (i = 0; i < wtab_size(&ids); i++) {
		x = uf_find(parent, order[i]);
		if (first[x] == UINT32_MAX)
			first[x] = order[i];
		w = wtab_word(&ids, order[i], &n);
		c = wtab_word(&ids, first[x], &cn);
		fwrite(w, 1, n, stdout);
		putchar('\t');
		fwrite(c, 1, cn, stdout);
		putchar('\n');
	}
	free(order);
	free(first);
	free(parent);
	free(rank);
	wtab_free(&ids);
	return 0;
}

/* Is the first line a fingerprint record: exactly one TAB? */
static int
isfprec(struct rdr *r)
{
	const char *line, *t;
	ptrdiff_t n = rdr_peekline(r, &line);

	if (n < 0)
		return 1;
	t = memchr(line, '\t', (size_t)n);
	return t && !memchr(t + 1, '\t', (size_t)(line + n - t - 1));
}

static int
components(char **files, int nfiles)
{
	struct rdr r;

	if (rdr_open(&r, files[0]) < 0)
		return 1;
	return isfprec(&r) ? fpcomponents(files, nfiles, &r) :
	    paircomponents(files, nfiles, &r);
}

/* Window mode: the streaming rule, slots compared in slot order. */
static int
window(const char *path, unsigned *width)
{
	static struct fp *slot;
	static uint64_t *cluster, next;
	static size_t slotcap, clustercap;
	struct rdr r;
	struct fprec rec;
	uint64_t a, o, c;
	size_t s, used;
	int st, ret = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((st = fprec_read(&r, &rec, width)) != 0) {
		if (st < 0) {
			ret = 1;
			if (r.err)
				break;
			continue;	/* a bad record; the next ones still count */
		}
		used = next < wsize ? (size_t)next : wsize;
		for (s = 0; s < used; s++) {
			a = popcount64(rec.fp.w[0] & slot[s].w[0]) +
			    popcount64(rec.fp.w[1] & slot[s].w[1]);
			o = popcount64(rec.fp.w[0] | slot[s].w[0]) +
			    popcount64(rec.fp.w[1] | slot[s].w[1]);
			if (o == 0)
				a = o = 1;	/* two all-zero fingerprints are identical */
			if (a * FRAC_ONE > tnum * o)
				break;
		}
		if (s < used)
			c = cluster[s];
		else {
			c = next++;
			/* slots as they are first used: -w reserves nothing ahead */
			if (c < wsize) {
				egrow(&slot, &slotcap, (size_t)c + 1, sizeof *slot);
				egrow(&cluster, &clustercap, (size_t)c + 1, sizeof *cluster);
			}
			slot[c % wsize] = rec.fp;
			cluster[c % wsize] = c;
		}
		fwrite(rec.id, 1, rec.idlen, stdout);
		putchar('\t');
		putu(c, stdout);
		putchar('\n');
	}
	return rdr_close(&r) | ret;
}

static const char synopsis[] = "[-d distance] [-t threshold] [-w size] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	static char *stdinonly[] = { "-", NULL };
	unsigned width = 0;
	int c, ret = 0;

	argv0 = "fpcluster";
	while ((c = getopt(argc, argv, "d:ht:w:")) != -1) {
		switch (c) {
		case 'd':
			maxdist = (unsigned)estrtonum(optarg, 0, FP_MAXBITS, "distance");
			dflag = 1;
			break;
		case 'h':
			return help(synopsis);
		case 't':
			tnum = estrtofrac(optarg, "threshold");
			break;
		case 'w':
			wsize = (size_t)estrtonum(optarg, 1, 100000000, "window size");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		argc = 1;
		argv = stdinonly;
	}
	setupstdout();
	if (wsize)
		for (; argc > 0; argc--, argv++)
			ret |= window(*argv, &width);
	else
		ret |= components(argv, argc);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
