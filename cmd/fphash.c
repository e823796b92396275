/* fphash: simhash fingerprints of per-page word counts. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fp.h"
#include "rdr.h"
#include "util.h"
#include "wtab.h"

static unsigned mbits;		/* fingerprint width M */
static unsigned nwords;		/* 64-bit words of a fingerprint: 1 or 2 */
static struct wtab features;	/* feature i has id i */
static struct fp *rows;		/* row i of the hash table, as fingerprint bits */
static uint64_t *weight;	/* by feature: occurrences in this page */
static uint32_t *touched;	/* features with a weight in this page */
static size_t ntouched;

/*
 * Read rows 1..nrows of the table: each must start with M characters 0/1.
 * Returns -1 after a diagnostic.
 */
static int
loadtable(const char *path, size_t nrows)
{
	struct rdr r;
	char *line;
	ptrdiff_t n;
	size_t i = 0, j, cap = 0;
	int bad = 0;

	nwords = (mbits + 63) / 64;
	if (rdr_open(&r, path) < 0)
		return -1;
	/* grown with the rows read: a large -n costs nothing until rows exist */
	rows = NULL;
	for (; !bad && i < nrows && (n = rdr_line(&r, &line)) >= 0; i++) {
		egrow(&rows, &cap, i + 1, sizeof *rows);
		memset(&rows[i], 0, sizeof rows[i]);
		for (j = 0; j < mbits && j < (size_t)n; j++) {
			if (line[j] != '0' && line[j] != '1')
				break;
			if (line[j] == '1')
				fp_setbit(&rows[i], (unsigned)j);
		}
		if (j == mbits)
			continue;
		if (j == (size_t)n || (j + 1 == (size_t)n && line[j] == '\r'))
			weprintf("%s:%ju: row has %zu bits, %u needed", r.name, r.lineno, j, mbits);
		else
			weprintf("%s:%ju: character %zu is not 0 or 1", r.name, r.lineno, j + 1);
		bad = 1;
	}
	if (rdr_close(&r) || bad)
		return -1;
	if (i < nrows) {
		weprintf("%s: has %zu rows, %zu needed", path, i, nrows);
		return -1;
	}
	return 0;
}

/* Parse the decimal count s..e; -1 if it is not one, or too large. */
static long long
parsecount(const char *s, const char *e)
{
	long long v = 0;

	if (s == e)
		return -1;
	for (; s < e; s++) {
		if (*s < '0' || *s > '9' || v > (LLONG_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/* Add the "word:count ..." items of text to the page's weights. */
static int
addcounts(const char *text, const char *end, const struct rdr *r)
{
	const char *s, *e, *colon;
	long long c;
	uint32_t i;

	for (s = text; s < end; s = e + 1) {
		if (!(e = memchr(s, ' ', (size_t)(end - s))))
			e = end;
		if (e == s)
			continue;
		for (colon = e; colon > s && colon[-1] != ':'; colon--)
			;
		if (colon <= s + 1 || (c = parsecount(colon, e)) < 0) {
			weprintf("%s:%ju: bad count item '%.*s'", r->name, r->lineno,
			    (int)(e - s), s);
			return -1;
		}
		/* a zero count weighs nothing (and must not be listed twice in touched) */
		if (c == 0 || (i = wtab_find(&features, s, (size_t)(colon - 1 - s))) == WTAB_NONE)
			continue;
		if (!weight[i])
			touched[ntouched++] = i;
		weight[i] += (uint64_t)c;
		if (weight[i] > INT64_MAX / 4) {
			weprintf("%s:%ju: count of '%.*s' is too large", r->name,
			    r->lineno, (int)(colon - 1 - s), s);
			return -1;
		}
	}
	return 0;
}

/*
 * The fingerprint of the weights in touched; resets them. Bit j is 1 when
 * the sign sum S_j = 2 * P_j - W is above 0, W being the page's total weight
 * and P_j the weight of the features whose row has bit j set: when P_j >
 * floor(W / 2). The P_j of all bits are counted at once, bit-sliced: plane l
 * holds bit l of every P_j, so adding a row is a few word operations (a
 * ripple carry through the planes), and the comparison with floor(W / 2) is
 * one pass over the planes from the top.
 */
static int
fingerprint(struct fp *f, const struct rdr *r)
{
	uint64_t plane[64][2], carry, t, w, c, gt, eq;
	int64_t total = 0;
	size_t k;
	unsigned nplanes, i, l, h;

	for (k = 0; k < ntouched; k++) {
		if (total > INT64_MAX / 4 - (int64_t)weight[touched[k]]) {
			weprintf("%s:%ju: page weights are too large", r->name, r->lineno);
			for (k = 0; k < ntouched; k++)
				weight[touched[k]] = 0;
			ntouched = 0;
			return -1;
		}
		total += (int64_t)weight[touched[k]];
	}
	/* every P_j <= W: the planes of W's bits suffice, carries never leave them */
	for (nplanes = 1; (uint64_t)total >> nplanes; nplanes++)
		;
	memset(plane, 0, nplanes * sizeof plane[0]);
	for (k = 0; k < ntouched; k++) {
		w = weight[touched[k]];
		weight[touched[k]] = 0;
		/* the row times w: the row added at plane i for each bit i of w */
		for (i = 0; w; i++, w >>= 1) {
			if (!(w & 1))
				continue;
			for (h = 0; h < nwords; h++) {
				carry = rows[touched[k]].w[h];
				for (l = i; carry; l++) {
					t = plane[l][h] & carry;
					plane[l][h] ^= carry;
					carry = t;
				}
			}
		}
	}
	ntouched = 0;
	/* P_j > c, all j at once: the first plane from the top where they differ decides */
	c = (uint64_t)total / 2;
	memset(f, 0, sizeof *f);
	for (h = 0; h < nwords; h++) {
		gt = 0;
		eq = ~(uint64_t)0;
		for (l = nplanes; l-- > 0;) {
			if (c >> l & 1) {
				eq &= plane[l][h];
			} else {
				gt |= eq & plane[l][h];
				eq &= ~plane[l][h];
			}
		}
		f->w[h] = gt;	/* bits past M are 0: their P_j is 0 */
	}
	return 0;
}

static int
fphash(const char *path)
{
	struct rdr r;
	struct fp f;
	char *line, *tab;
	ptrdiff_t n;
	int ret = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((n = rdr_line(&r, &line)) >= 0) {
		if (!(tab = memchr(line, '\t', (size_t)n))) {
			weprintf("%s:%ju: no TAB after the page ID", r.name, r.lineno);
			ret = 1;
			continue;
		}
		if (addcounts(tab + 1, line + n, &r) < 0 || fingerprint(&f, &r) < 0) {
			for (; ntouched; ntouched--)
				weight[touched[ntouched - 1]] = 0;
			ret = 1;
			continue;
		}
		fwrite(line, 1, (size_t)(tab - line + 1), stdout);
		fp_write(&f, mbits, stdout);
		putchar('\n');
	}
	return rdr_close(&r) | ret;
}

static const char synopsis[] = "-f features -m bits [-n rows] -t table [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	const char *featfile = NULL, *tablefile = NULL;
	size_t nrows = 0;
	int c, ret = 0;

	argv0 = "fphash";
	while ((c = getopt(argc, argv, "f:hm:n:t:")) != -1) {
		switch (c) {
		case 'f':
			featfile = optarg;
			break;
		case 'h':
			return help(synopsis);
		case 'm':
			mbits = (unsigned)estrtonum(optarg, 1, FP_MAXBITS, "bits");
			break;
		case 'n':
			nrows = (size_t)estrtonum(optarg, 1, UINT32_MAX - 1, "rows");
			break;
		case 't':
			tablefile = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!featfile || !mbits || !tablefile)
		usage();

	wtab_init(&features);
	if (wtab_load_lines(&features, featfile, 1) < 0)
		return EXIT_DATA;
	if (nrows < features.n)
		nrows = features.n;
	if (loadtable(tablefile, nrows) < 0)
		return EXIT_DATA;
	weight = ecalloc(features.n, sizeof *weight);
	touched = ereallocarray(NULL, features.n, sizeof *touched);

	setupstdout();
	if (argc == 0)
		ret |= fphash("-");
	/* stop at a write error: the output is lost, and fshut still knows why */
	for (; argc > 0 && !ferror(stdout); argc--, argv++)
		ret |= fphash(*argv);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
