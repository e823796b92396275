/*
 * Fuzz the index over large structured inputs: the input's bytes choose
 * the shape of thousands of fingerprints (width, distance, clusters whose
 * members agree on all but a few bits, or on a prefix, exact duplicates,
 * planted neighbours, all zero ones) and seed their generation; the index built over them must
 * answer every sampled lookup, through its tables, exactly like a scan,
 * and hix_match must give positions by distance, then position. Small
 * inputs never reach nested tables; these do.
 *
 * Bytes: M, d, n (2 bytes), clusters, the bits members of a cluster may
 * differ in (the rest are the cluster's; with the top bit of the cluster
 * byte, the free bits are the last ones, so members share a prefix),
 * cluster share, duplicate share, neighbour share, then the seed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "fp.h"
#include "hix_int.h"
#include "util.h"
#include "../tools/rng.h"

static struct rng rng;

static uint64_t
below(uint64_t n)
{
	return rng_next(&rng) % n;
}

static void
flip(struct fp *f, unsigned m, unsigned k)
{
	unsigned j;

	while (k-- > 0) {
		j = (unsigned)below(m);
		f->w[j >> 6] ^= (uint64_t)1 << (63 - (j & 63));
	}
}

static void
checkq(struct hix *ix, const struct fp *q, int sorted)
{
	static struct hixhits scan, tab;
	static struct hixmatch m;
	static unsigned char *seen;
	static size_t seencap;
	struct fp u;
	size_t i;

	scan.n = tab.n = 0;
	hix_lookup(ix, q, 0, &scan);
	hix_lookup(ix, q, 1, &tab);
	if (scan.n != tab.n)
		abort();
	egrow(&seen, &seencap, ix->nu + 1, 1);
	for (i = 0; i < scan.n; i++)
		seen[scan.u[i]] = scan.dist[i] + 1;
	for (i = 0; i < tab.n; i++) {
		if (seen[tab.u[i]] != tab.dist[i] + 1)
			abort();	/* missing, reported twice, or a wrong distance */
		seen[tab.u[i]] = 0;
		hix_ufp(ix, tab.u[i], &u);
		if (fp_dist(&u, q) != tab.dist[i] || tab.dist[i] > ix->d)
			abort();
	}
	if (!sorted)
		return;
	hix_match(ix, q, -1, &m);
	for (i = 1; i < m.n; i++)
		if (m.key[i - 1] >= m.key[i])
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static const unsigned widths[8] = { 8, 16, 32, 48, 64, 65, 96, 128 };
	uint8_t b[9] = { 0 };
	unsigned char isfree[FP_MAXBITS];
	struct fp *v, f;
	unsigned m, d, k, nfree, ncl, i, j;
	uint64_t seed = 0;
	size_t nrec, r, c;
	FILE *out;
	char path[] = "/dev/shm/hixbuild.XXXXXX";
	struct hix *ix;
	int fd;

	memcpy(b, data, n < 9 ? n : 9);
	for (i = 9; i < n && i < 17; i++)
		seed = seed << 8 | data[i];
	rng.s = seed;
	m = b[0] < 128 ? widths[b[0] & 7] : 1u + b[0] % FP_MAXBITS;
	/* d up to M / 3: beyond, most of the index matches (hamq's target has that) */
	d = b[1] % (m / 3 < 12 ? m / 3 + 1 : 13);
	nrec = 500 + (size_t)(b[2] << 8 | b[3]) % 20000;
	ncl = 1 + (b[4] & 127) % 100;
	nfree = b[5] % (m + 1);
	memset(isfree, 0, sizeof isfree);
	for (j = 0; j < nfree; j++)
		isfree[b[4] & 128 ? m - 1 - j : (unsigned)below(m)] = 1;
	v = ereallocarray(NULL, nrec, sizeof *v);
	for (r = 0; r < nrec; r++) {
		memset(&f, 0, sizeof f);
		f.w[0] = rng_next(&rng);
		f.w[1] = m > 64 ? rng_next(&rng) : 0;
		if (m < 64)
			f.w[0] &= ~(~(uint64_t)0 >> m);
		else if (m > 64 && m < 128)
			f.w[1] &= ~(~(uint64_t)0 >> (m - 64));
		if (r > 0 && below(256) < b[7])
			f = v[below(r)];	/* a duplicate */
		else if (r > 0 && below(256) < b[8]) {
			f = v[below(r)];	/* a neighbour */
			flip(&f, m, 1 + (unsigned)below(d + 2));
		} else if (below(256) < b[6]) {
			/* a cluster member: the cluster's bits but the free ones */
			c = below(ncl);
			for (j = 0; j < m; j++) {
				if (isfree[j])
					continue;
				k = (unsigned)(rng_mix(c * 131 + j) & 1);
				f.w[j >> 6] &= ~((uint64_t)1 << (63 - (j & 63)));
				f.w[j >> 6] |= (uint64_t)k << (63 - (j & 63));
			}
		} else if (below(64) == 0)
			memset(&f, 0, sizeof f);
		v[r] = f;
	}
	if ((fd = mkstemp(path)) < 0 || !(out = fdopen(fd, "w")))
		abort();
	for (r = 0; r < nrec; r++) {
		fprintf(out, "%zu\t", r);
		fp_write(&v[r], m, out);
		putc('\n', out);
	}
	if (fclose(out) == EOF)
		abort();
	if (!(ix = hix_load(path)))
		abort();
	unlink(path);
	hix_plan(ix, d, 0, HIX_INDEX, 1 + (b[1] & 1));
	for (i = 0; i < 200; i++) {
		f = v[below(nrec)];
		if (i & 1)
			flip(&f, m, (unsigned)below(d + 2));
		checkq(ix, &f, i % 8 == 0);	/* few: matches may be thousands */
	}
	hix_free(ix);
	free(v);
	return 0;
}
