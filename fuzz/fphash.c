/*
 * Fuzz fphash: feature list loading (part 0), hash table loading (part 1)
 * and per-page count records (part 2). M is 1 + OPT2 % 128; the table must
 * have up to 3 rows more than there are features (OPT1 bits 4-5, like -n).
 */
#include "fuzz.h"

#define main fphash_main
#include "../cmd/fphash.c"
#undef main

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;

	fuzz_begin(&in, d, n, 3);
	mbits = 1 + in.o2 % FP_MAXBITS;
	wtab_init(&features);
	if (wtab_load_lines(&features, in.path[0], 1) < 0)
		goto out;
	if (loadtable(in.path[1], features.n + (in.o1 >> 4 & 3)) < 0)
		goto out;
	weight = ecalloc(features.n, sizeof *weight);
	touched = ereallocarray(NULL, features.n, sizeof *touched);
	fphash(in.path[2]);
	fflush(stdout);
out:
	wtab_free(&features);
	free(rows);
	free(weight);
	free(touched);
	rows = NULL;
	weight = NULL;
	touched = NULL;
	ntouched = 0;
	return 0;
}
