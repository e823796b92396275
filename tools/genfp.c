/*
 * genfp: seeded fingerprint records "ID<TAB>BITS" for testing and
 * benchmarking hamq and fpcluster. Record i (from 1) is named PREFIXi and is,
 * by one draw of the generator, an exact copy of a random earlier record
 * (-u percent), the all-zero fingerprint (-z), a planted neighbour of a
 * random earlier record at a distance of 1 to maxdist (-n), a fingerprint
 * whose first -b bits hold one of -v popular values (-p), or else uniformly
 * random. The same arguments give the same output on every machine.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rng.h"
#include "util.h"

static struct rng rng = { 1 };

/* Uniform in [0, n), n > 0 (the bias of a 64-bit modulus is negligible here). */
static uint64_t
below(uint64_t n)
{
	return rng_next(&rng) % n;
}

static const char synopsis[] = "[-b bits] [-d maxdist] [-i prefix] [-m bits] [-n percent] "
    "[-p percent] [-s seed] [-u percent] [-v count] [-z percent] count";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

static void
setbit(uint64_t *w, unsigned j, int v)
{
	uint64_t b = (uint64_t)1 << (63 - (j & 63));

	if (v)
		w[j >> 6] |= b;
	else
		w[j >> 6] &= ~b;
}

static int
getbit(const uint64_t *w, unsigned j)
{
	return (int)(w[j >> 6] >> (63 - (j & 63)) & 1);
}

int
main(int argc, char *argv[])
{
	unsigned m = 64, bbits = 0, maxdist = 3, nvals = 1, j, k, flip[128], nf, f;
	long long nrec, pn = 10, pp = 0, pu = 0, pz = 0, i, r;
	const char *prefix = "f";
	uint64_t *all, *w, *vals, seed = 1;
	char line[160];
	int c;

	argv0 = "genfp";

	while ((c = getopt(argc, argv, "b:d:i:m:n:p:s:u:v:z:")) != -1) {
		switch (c) {
		case 'b':
			bbits = (unsigned)estrtonum(optarg, 1, 128, "block bits");
			break;
		case 'd':
			maxdist = (unsigned)estrtonum(optarg, 1, 128, "maxdist");
			break;
		case 'i':
			prefix = optarg;
			break;
		case 'm':
			m = (unsigned)estrtonum(optarg, 1, 128, "bits");
			break;
		case 'n':
			pn = estrtonum(optarg, 0, 100, "percent");
			break;
		case 'p':
			pp = estrtonum(optarg, 0, 100, "percent");
			break;
		case 's':
			seed = (uint64_t)estrtonum(optarg, 0, LLONG_MAX, "seed");
			break;
		case 'u':
			pu = estrtonum(optarg, 0, 100, "percent");
			break;
		case 'v':
			nvals = (unsigned)estrtonum(optarg, 1, 1000000, "count");
			break;
		case 'z':
			pz = estrtonum(optarg, 0, 100, "percent");
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	nrec = estrtonum(argv[optind], 0, 100000000, "count");
	if (pn + pp + pu + pz > 100)
		enprintf(EXIT_USAGE, "the percentages add up to more than 100");
	if (bbits == 0)
		bbits = m / 4 ? m / 4 : 1;
	if (bbits > m)
		bbits = m;
	if (maxdist > m)
		maxdist = m;
	rng.s = seed;
	all = ecalloc((size_t)nrec * 2 + 2, sizeof *all);
	vals = ecalloc((size_t)nvals * 2, sizeof *vals);
	for (k = 0; k < nvals; k++)
		for (j = 0; j < bbits; j++)
			setbit(vals + 2 * k, j, (int)(rng_next(&rng) & 1));
	for (i = 0; i < nrec; i++) {
		w = all + 2 * i;
		r = (long long)below(100);
		if (i > 0 && r < pu)
			memcpy(w, all + 2 * below((uint64_t)i), 2 * sizeof *w);
		else if (r < pu + pz)
			;	/* all zero */
		else if (i > 0 && r < pu + pz + pn) {
			memcpy(w, all + 2 * below((uint64_t)i), 2 * sizeof *w);
			nf = 1 + (unsigned)below(maxdist);
			for (k = 0; k < nf; k++) {
				do {
					f = (unsigned)below(m);
					for (j = 0; j < k && flip[j] != f; j++)
						;
				} while (j < k);
				flip[k] = f;
				setbit(w, f, !getbit(w, f));
			}
		} else {
			w[0] = rng_next(&rng);
			w[1] = rng_next(&rng);
			if (r < pu + pz + pn + pp) {
				k = (unsigned)below(nvals);
				for (j = 0; j < bbits; j++)
					setbit(w, j, getbit(vals + 2 * k, j));
			}
			if (m < 64)
				w[0] &= ~(~(uint64_t)0 >> m);
			if (m <= 64)
				w[1] = 0;
			else if (m < 128)
				w[1] &= ~(~(uint64_t)0 >> (m - 64));
		}
		for (j = 0; j < m; j++)
			line[j] = (char)('0' + getbit(w, j));
		line[m] = '\n';
		if (printf("%s%lld\t", prefix, i + 1) < 0 || fwrite(line, 1, m + 1, stdout) != m + 1)
			break;
	}
	free(all);
	free(vals);
	return fshut(stdout, "<stdout>");
}
