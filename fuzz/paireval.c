/*
 * Fuzz paireval: label records (part 0) and reported pairs (part 1), the
 * join and the figures. OPT2: bit 0 is -s, bit 1 -t with the threshold
 * (OPT2 >> 2) / 63. Every labelled pair is counted once, as tp, fp, fn or
 * tn, and every reported pair once, as tp, fp or unlabelled.
 */
#include "fuzz.h"

#define main paireval_main
#include "../cmd/paireval.c"
#undef main

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;
	char *files[1];

	fuzz_begin(&in, d, n, 2);
	sflag = in.o2 & 1;
	tflag = (in.o2 >> 1) & 1;
	minsim = tflag ? (uint64_t)(in.o2 >> 2) * (SIMONE / 63) : 0;
	distinctlabels = distinctreports = UINT64_MAX;
	files[0] = (char *)in.path[1];
	if (paireval(in.path[0], files, 1) == 0 &&
	    (tp + fp + fn + tn != distinctlabels ||
	    tp + fp + unlabelled != distinctreports))
		abort();
	fflush(stdout);
	return 0;
}
