/*
 * gensketch: seeded sketch records (simrec(5)) as sketch(1) writes them,
 * for benchmarks of the join and of kept states at scales where making
 * the pages and sketching them would cost more than what is measured.
 *
 *	gensketch [-c copies] [-f first] [-n size] [-p pool] [-s seed] count
 *
 * writes count records, IDs dFIRST, dFIRST+1, ... (first default 0): each
 * page has 100 to 1,000 shingles, and its sketch the size (default 128)
 * smallest of their hashes, drawn as a bottom-k sketch's are, sorted; one
 * hash in 20 comes from a pool of common shingles (boilerplate), 1,000
 * of them unless pool says.
 * One page in copies (default 10; 0: none) is an edited copy of an
 * earlier one: a tenth of its hashes redrawn. The same arguments write
 * the same records on every machine.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rng.h"
#include "sketch.h"
#include "util.h"

#define POOLMAX	1000000

static unsigned size = 128, copies = 10, npool = 1000;
static uint64_t seed = 1, first;

static int
cmpu64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Sort h[0..n) and make its values distinct (a clash redrawn below lim). */
static unsigned
settle(struct rng *g, uint64_t *h, unsigned n, uint64_t lim)
{
	unsigned i, k;

	qsort(h, n, sizeof *h, cmpu64);
	for (i = k = 0; i < n; i++)
		if (k == 0 || h[i] != h[k - 1])
			h[k++] = h[i];
	while (k < n) {
		h[k++] = rng_next(g) % lim;
		k = settle(g, h, k, lim);
	}
	return k;
}

static const char synopsis[] = "[-c copies] [-f first] [-n size] [-p pool] [-s seed] count";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	struct rng g;
	struct obuf out = { 0 };
	struct sketch s;
	uint64_t *all, *pool, count, d, lim, h[SK_MAXSIZE], *src;
	unsigned i, n, *nsh;
	char id[32];
	int c;

	argv0 = "gensketch";
	while ((c = getopt(argc, argv, "c:f:hn:p:s:")) != -1) {
		switch (c) {
		case 'c':
			copies = (unsigned)estrtonum(optarg, 0, 1000000, "copies");
			break;
		case 'f':
			first = (uint64_t)estrtonum(optarg, 0, 1000000000000LL, "first");
			break;
		case 'h':
			return help(synopsis);
		case 'n':
			size = (unsigned)estrtonum(optarg, 1, SK_MAXSIZE, "size");
			break;
		case 'p':
			npool = (unsigned)estrtonum(optarg, 1, POOLMAX, "pool");
			break;
		case 's':
			seed = (uint64_t)estrtonum(optarg, 0, INT64_MAX, "seed");
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	count = (uint64_t)estrtonum(argv[optind], 0, 100000000, "count");
	g.s = seed;
	pool = ereallocarray(NULL, npool, sizeof *pool);
	for (i = 0; i < npool; i++)
		pool[i] = rng_next(&g);
	/* the sketches written, for the copies */
	all = ereallocarray(NULL, count * size + 1, sizeof *all);
	nsh = ereallocarray(NULL, count + 1, sizeof *nsh);
	setupstdout();
	for (d = 0; d < count; d++) {
		if (copies && d > 0 && rng_next(&g) % copies == 0) {
			src = all + (rng_next(&g) % d) * size;
			nsh[d] = nsh[(src - all) / size];
			n = nsh[d] < size ? nsh[d] : size;
			memcpy(h, src, n * sizeof *h);
			lim = nsh[d] <= size ? UINT64_MAX : UINT64_MAX / nsh[d] * size * 2;
			for (i = 0; i < n; i++)
				if (rng_next(&g) % 10 == 0)
					h[i] = rng_next(&g) % lim;
		} else {
			nsh[d] = 100 + (unsigned)(rng_next(&g) % 901);
			n = nsh[d] < size ? nsh[d] : size;
			lim = nsh[d] <= size ? UINT64_MAX : UINT64_MAX / nsh[d] * size * 2;
			for (i = 0; i < n; i++)
				h[i] = rng_next(&g) % 20 == 0 ? pool[rng_next(&g) % npool] % lim :
				    rng_next(&g) % lim;
		}
		n = settle(&g, h, n, lim);
		memcpy(all + d * size, h, n * sizeof *h);
		snprintf(id, sizeof id, "d%ju", (uintmax_t)(first + d));
		s.id = id;
		s.idlen = strlen(id);
		s.nshingles = nsh[d];
		s.n = n;
		s.h = h;
		sketch_write(&out, &s);
		if (out.n >= 1 << 16)
			obuf_flush(&out, stdout);
	}
	if (out.n)
		obuf_flush(&out, stdout);
	free(out.p);
	free(all);
	free(nsh);
	free(pool);
	return fshut(stdout, "<stdout>");
}
