/* parjoin: page pairs and their shares of shared text, from paragraph matches. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fp.h"
#include "rdr.h"
#include "rec.h"
#include "util.h"
#include "wtab.h"

static uint32_t limit = 10;	/* -l: a paragraph with more matches is boilerplate */
/* The map: paragraphs and pages. */
static struct {
	struct wtab keys;	/* paragraph keys; paragraph i has id i */
	struct wtab pages;	/* page IDs (escaped); page i has id i */
	uint32_t *parpage;	/* by paragraph: its page */
	uint64_t *parsize;	/* by paragraph: its size */
	uint32_t *deg;		/* by paragraph: matches read that hold it */
	size_t parcap, sizecap;
	uint64_t *pagesize;	/* by page: the sum of its paragraphs' sizes */
	size_t pagecap;
} map;

/* The matches kept: two paragraphs each. */
static struct {
	struct { uint32_t a, b; } *m;
	size_t n, cap;
} kept;

/* A paragraph par of page lo or hi that has a near-duplicate in the other. */
struct cover {
	uint32_t lo, hi, par;
};

/* Largest SIZE of a map record: page sizes add up without overflow. */
#define MAXSIZE ((long long)1 << 40)

/*
 * Read the map: KEY<TAB>PAGEID<TAB>PARNO<TAB>SIZE. Returns -1 after a
 * diagnostic.
 */
static int
loadmap(const char *path)
{
	struct rdr r;
	const char *f[5], *errstr;
	size_t len[5];
	char *line;
	ptrdiff_t n;
	size_t before;
	uint32_t k, p;
	long long size;
	int bad = 0;

	if (rdr_open(&r, path) < 0)
		return -1;
	while (!bad && (n = rdr_line(&r, &line)) >= 0) {
		if (rec_cut(line, (size_t)n, f, len, 5) != 4) {
			rdr_warn(&r, "not KEY<TAB>PAGEID<TAB>PARNO<TAB>SIZE");
			bad = 1;
			break;
		}
		parsenumn(f[2], len[2], 1, LLONG_MAX, &errstr);
		if (errstr) {
			rdr_warn(&r, "paragraph number '%.*s' is %s",
			    (int)len[2], f[2], errstr);
			bad = 1;
			break;
		}
		size = parsenumn(f[3], len[3], 0, MAXSIZE, &errstr);
		if (errstr) {
			rdr_warn(&r, "size '%.*s' is %s",
			    (int)len[3], f[3], errstr);
			bad = 1;
			break;
		}
		if (map.keys.n >= UINT32_MAX - 1) {
			rdr_warn(&r, "too many paragraphs");
			bad = 1;
			break;
		}
		before = map.keys.n;
		k = wtab_intern(&map.keys, f[0], len[0]);
		if (map.keys.n == before) {
			rdr_warn(&r, "key '%.*s' given twice",
			    (int)len[0], f[0]);
			bad = 1;
			break;
		}
		before = map.pages.n;
		p = wtab_intern(&map.pages, f[1], len[1]);
		if (map.pages.n > before) {
			egrow(&map.pagesize, &map.pagecap, map.pages.n, sizeof *map.pagesize);
			map.pagesize[p] = 0;
		}
		egrow(&map.parpage, &map.parcap, map.keys.n, sizeof *map.parpage);
		egrow(&map.parsize, &map.sizecap, map.keys.n, sizeof *map.parsize);
		map.parpage[k] = p;
		map.parsize[k] = (uint64_t)size;
		map.pagesize[p] += (uint64_t)size;
	}
	if (rdr_close(&r) || bad)
		return -1;
	map.deg = ecalloc(map.keys.n ? map.keys.n : 1, sizeof *map.deg);
	return 0;
}

/* The paragraph whose key is s[0..n), or WTAB_NONE after a diagnostic. */
static uint32_t
findkey(const char *s, size_t n, struct rdr *r)
{
	uint32_t k;

	if ((k = wtab_find(&map.keys, s, n)) == WTAB_NONE)
		rdr_warn(r, "paragraph '%.*s' is not in the map",
		    (int)n, s);
	return k;
}

/*
 * Read match records A<TAB>DIST<TAB>B (hamq(1), with or without -s and
 * -a; header records are skipped). A match is kept while both paragraphs
 * have at most limit matches: so at most limit matches are kept per
 * paragraph, however many the input holds.
 */
static int
readmatches(const char *path)
{
	struct rdr r;
	struct matchrec m;
	uint32_t a, b;
	int st, ret = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((st = matchrec_read(&r, &m)) != 0) {
		if (st < 0) {
			ret = 1;
			if (r.err)
				break;
			continue;
		}
		if (m.dist < 0)
			continue;	/* a header record */
		if ((a = findkey(m.q, m.qlen, &r)) == WTAB_NONE ||
		    (b = findkey(m.id, m.idlen, &r)) == WTAB_NONE) {
			ret = 1;
			continue;
		}
		if (map.parpage[a] == map.parpage[b])
			continue;
		if (map.deg[a] < UINT32_MAX)
			map.deg[a]++;
		if (map.deg[b] < UINT32_MAX)
			map.deg[b]++;
		if (map.deg[a] > limit || map.deg[b] > limit)
			continue;
		egrow(&kept.m, &kept.cap, kept.n + 1, sizeof *kept.m);
		kept.m[kept.n].a = a;
		kept.m[kept.n].b = b;
		kept.n++;
	}
	return rdr_close(&r) | ret;
}

static int
cmpcover(const void *x, const void *y)
{
	const struct cover *p = x, *q = y;

	if (p->lo != q->lo)
		return p->lo < q->lo ? -1 : 1;
	if (p->hi != q->hi)
		return p->hi < q->hi ? -1 : 1;
	if (p->par != q->par)
		return p->par < q->par ? -1 : 1;
	return 0;
}

/* A share in [0, 1] with 4 decimals; an empty page has none. */
static void
putshare(uint64_t part, uint64_t whole)
{
	printf("\t%.4f", whole ? (double)part / (double)whole : 0.0);
}

static void
putid(uint32_t p)
{
	const char *s;
	size_t n;

	s = wtab_word(&map.pages, p, &n);
	fwrite(s, 1, n, stdout);
}

/*
 * The page pairs: every paragraph that has a near-duplicate in the other
 * page counts once, whatever its number of matches there.
 */
static void
pairs(void)
{
	struct cover *c;
	size_t nc = 0, i, j;
	uint64_t cov[2];
	uint32_t pa, pb;

	c = ereallocarray(NULL, 2 * kept.n + 1, sizeof *c);
	for (i = 0; i < kept.n; i++) {
		/* a paragraph that went past the limit later is boilerplate too */
		if (map.deg[kept.m[i].a] > limit || map.deg[kept.m[i].b] > limit)
			continue;
		pa = map.parpage[kept.m[i].a];
		pb = map.parpage[kept.m[i].b];
		c[nc].lo = c[nc + 1].lo = pa < pb ? pa : pb;
		c[nc].hi = c[nc + 1].hi = pa < pb ? pb : pa;
		c[nc].par = kept.m[i].a;
		c[nc + 1].par = kept.m[i].b;
		nc += 2;
	}
	qsort(c, nc, sizeof *c, cmpcover);
	for (i = 0; i < nc; i = j) {
		cov[0] = cov[1] = 0;
		for (j = i; j < nc && c[j].lo == c[i].lo && c[j].hi == c[i].hi; j++)
			if (j == i || c[j].par != c[j - 1].par)
				cov[map.parpage[c[j].par] != c[i].lo] += map.parsize[c[j].par];
		putid(c[i].lo);
		putchar('\t');
		putid(c[i].hi);
		putshare(cov[0] + cov[1], map.pagesize[c[i].lo] + map.pagesize[c[i].hi]);
		putshare(cov[0], map.pagesize[c[i].lo]);
		putshare(cov[1], map.pagesize[c[i].hi]);
		putchar('\n');
	}
	free(c);
}

/* Free the map and the kept matches, and leave them empty. */
static void
freeall(void)
{
	wtab_free(&map.keys);
	wtab_free(&map.pages);
	free(map.parpage);
	free(map.parsize);
	free(map.deg);
	free(map.pagesize);
	free(kept.m);
	memset(&map, 0, sizeof map);
	memset(&kept, 0, sizeof kept);
}

static const char synopsis[] = "[-l limit] -m map [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	const char *mapfile = NULL;
	int c, ret = 0;

	argv0 = "parjoin";
	while ((c = getopt(argc, argv, "hl:m:")) != -1) {
		switch (c) {
		case 'h':
			return help(synopsis);
		case 'l':
			limit = (uint32_t)estrtonum(optarg, 1, UINT32_MAX - 1, "limit");
			break;
		case 'm':
			mapfile = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!mapfile)
		eusagewhy(synopsis, "no map: -m is required");

	wtab_init(&map.keys);
	wtab_init(&map.pages);
	if (loadmap(mapfile) < 0)
		return EXIT_DATA;
	if (argc == 0)
		ret |= readmatches("-");
	for (; argc > 0; argc--, argv++)
		ret |= readmatches(*argv);
	setupstdout();
	pairs();
	ret |= fshut(stdout, "<stdout>");
	freeall();
	return ret;
}
