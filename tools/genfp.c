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

static const char *argv0 = "genfp";
static uint64_t state = 1;

/* splitmix64: seedable with any value, the same stream everywhere. */
static uint64_t
next(void)
{
	uint64_t z = (state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (the bias of a 64-bit modulus is negligible here). */
static uint64_t
below(uint64_t n)
{
	return next() % n;
}

static long long
num(const char *s, long long min, long long max, const char *what)
{
	unsigned long long v = 0;
	const char *p, *err = NULL;

	if (!*s)
		err = "invalid";
	for (p = s; *p && !err; p++) {
		if (*p < '0' || *p > '9')
			err = "invalid";
		else if (v > (ULLONG_MAX - 9) / 10)
			v = ULLONG_MAX;
		else
			v = v * 10 + (unsigned)(*p - '0');
	}
	if (!err && v > (unsigned long long)max)
		err = "too large";
	if (!err && (long long)v < min)
		err = "too small";
	if (err) {
		fprintf(stderr, "%s: %s '%s' is %s (allowed: %lld to %lld)\n",
		    argv0, what, s, err, min, max);
		exit(2);
	}
	return (long long)v;
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-b bits] [-d maxdist] [-i prefix] [-m bits] [-n percent] "
	    "[-p percent] [-s seed] [-u percent] [-v count] [-z percent] count\n", argv0);
	exit(2);
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

	while ((c = getopt(argc, argv, "b:d:i:m:n:p:s:u:v:z:")) != -1) {
		switch (c) {
		case 'b':
			bbits = (unsigned)num(optarg, 1, 128, "block bits");
			break;
		case 'd':
			maxdist = (unsigned)num(optarg, 1, 128, "maxdist");
			break;
		case 'i':
			prefix = optarg;
			break;
		case 'm':
			m = (unsigned)num(optarg, 1, 128, "bits");
			break;
		case 'n':
			pn = num(optarg, 0, 100, "percent");
			break;
		case 'p':
			pp = num(optarg, 0, 100, "percent");
			break;
		case 's':
			seed = (uint64_t)num(optarg, 0, LLONG_MAX, "seed");
			break;
		case 'u':
			pu = num(optarg, 0, 100, "percent");
			break;
		case 'v':
			nvals = (unsigned)num(optarg, 1, 1000000, "count");
			break;
		case 'z':
			pz = num(optarg, 0, 100, "percent");
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	nrec = num(argv[optind], 0, 100000000, "count");
	if (pn + pp + pu + pz > 100) {
		fprintf(stderr, "%s: the percentages add up to more than 100\n", argv0);
		return 2;
	}
	if (bbits == 0)
		bbits = m / 4 ? m / 4 : 1;
	if (bbits > m)
		bbits = m;
	if (maxdist > m)
		maxdist = m;
	state = seed;
	if (!(all = calloc((size_t)nrec * 2 + 2, sizeof *all)) ||
	    !(vals = calloc((size_t)nvals * 2, sizeof *vals))) {
		fprintf(stderr, "%s: out of memory\n", argv0);
		return 1;
	}
	for (k = 0; k < nvals; k++)
		for (j = 0; j < bbits; j++)
			setbit(vals + 2 * k, j, (int)(next() & 1));
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
			w[0] = next();
			w[1] = next();
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
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "%s: write error\n", argv0);
		return 1;
	}
	return 0;
}
