/*
 * Fuzz hamq's inputs and its index: fingerprint records (fprec_read) of the
 * index (part 0) and of the queries (part 1), the index built from them, and
 * the index file written and mapped back. Every query's matches through
 * the tables must be those of a plain scan, with the right distances, in
 * memory and from the file. OPT2 % 129 is the distance.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "fp.h"
#include "hix_int.h"
#include "rdr.h"
#include "util.h"

/* The hits of h as "u dist" pairs, sorted, for comparison. */
static void
sorthits(struct hixhits *h, uint64_t **key, size_t *cap)
{
	size_t i, j;
	uint64_t t;

	egrow(key, cap, h->n + 1, sizeof **key);
	for (i = 0; i < h->n; i++)
		(*key)[i] = (uint64_t)h->u[i] << 8 | h->dist[i];
	for (i = 1; i < h->n; i++)	/* few hits: insertion sort */
		for (j = i; j > 0 && (*key)[j - 1] > (*key)[j]; j--) {
			t = (*key)[j];
			(*key)[j] = (*key)[j - 1];
			(*key)[j - 1] = t;
		}
}

/* Check the matches of q in ix by the tables against a scan. */
static void
check(const struct hix *ix, const struct fp *q)
{
	static struct hixhits scan, tab;
	static uint64_t *ks, *kt;
	static size_t ksc, ktc;
	struct fp u;
	size_t i;

	scan.n = tab.n = 0;
	hix_lookup(ix, q, 0, &scan);
	hix_lookup(ix, q, 1, &tab);
	if (scan.n != tab.n)
		abort();
	sorthits(&scan, &ks, &ksc);
	sorthits(&tab, &kt, &ktc);
	for (i = 0; i < scan.n; i++) {
		if (ks[i] != kt[i])
			abort();
		hix_ufp(ix, scan.u[i], &u);
		if (fp_dist(q, &u) != scan.dist[i] || scan.dist[i] > ix->d)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static char *ixfile;
	struct fuzzin in;
	struct hix *ix, *mapped;
	struct rdr r;
	struct fprec rec;
	struct fp *q = NULL;
	size_t nq = 0, qcap = 0, i;
	unsigned width = 0, d;
	int st;

	fuzz_begin(&in, data, n, 2);
	d = in.o2 % (FP_MAXBITS + 1);
	ix = hix_new();
	if (rdr_open(&r, in.path[0]) < 0)
		abort();
	(void)hix_read(ix, &r);
	rdr_close(&r);
	hix_finish(ix);
	hix_plan(ix, d, 0, HIX_INDEX, 1);
	width = hix_width(ix);
	if (rdr_open(&r, in.path[1]) < 0)
		abort();
	while ((st = fprec_read(&r, &rec, &width)) != 0) {
		if (st < 0)
			continue;
		egrow(&q, &qcap, nq + 1, sizeof *q);
		q[nq++] = rec.fp;
		check(ix, &rec.fp);
	}
	rdr_close(&r);

	/* the same answers from the index file */
	if (!ixfile) {
		ixfile = malloc(strlen(in.path[0]) + 4);
		sprintf(ixfile, "%s.ix", in.path[0]);
	}
	if (hix_save(ix, ixfile) < 0)
		abort();
	if (!(mapped = hix_load(ixfile)))
		abort();
	if (hix_size(mapped) != hix_size(ix) || hix_ndistinct(mapped) != hix_ndistinct(ix))
		abort();
	hix_plan(mapped, d, 0, HIX_INDEX, 1);
	for (i = 0; i < nq; i++)
		check(mapped, &q[i]);
	hix_free(mapped);
	hix_free(ix);
	unlink(ixfile);
	free(q);
	return 0;
}
