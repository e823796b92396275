/*
 * Fuzz fpcluster's input parsing: match records with or without header
 * records (pairread, part 0) and the union-find over them, and fingerprint
 * records in window mode (part 1). OPT2 picks the -d filter of part 0.
 */
#include "fuzz.h"

#define main fpcluster_main
#include "../cmd/fpcluster.c"
#undef main

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;
	struct wtab ids;
	struct rdr r;
	unsigned width = 0;
	uint32_t i;

	fuzz_begin(&in, d, n, 2);
	dflag = in.o2 & 1;
	maxdist = (in.o2 >> 1) % (FP_MAXBITS + 1);
	wtab_init(&ids);
	if (rdr_open(&r, in.path[0]) < 0)
		abort();
	if (pairread(&r, &ids) == 0)
		for (i = 0; i < wtab_size(&ids); i++)
			if (uf_find(parent, (uint32_t)i) > i)
				abort();	/* the root is the smallest node */
	rdr_close(&r);
	wtab_free(&ids);
	free(parent);
	free(rank);
	parent = NULL;
	rank = NULL;
	ncap = nheaders = 0;

	wsize = 5;	/* window() keeps its slots across calls */
	window(in.path[1], &width);
	fflush(stdout);
	return 0;
}
