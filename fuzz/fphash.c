/*
 * Fuzz fphash: feature list loading (part 0), hash table loading (part 1)
 * and per-page count records (part 2). M is 1 + OPT2 % 128; the table must
 * have up to 3 rows more than there are features (OPT1 bits 4-5, like -n).
 * OPT2 bit 7 is -H: the features are hashed, every item is one (part 0 and
 * the table are not read) and OPT1 bits 4-5 are the seed. OPT1 bits 6-7
 * are -w: raw, log, bin, or tfidf with part 3 as the -D file; with tfidf,
 * OPT1 bit 4 makes it imatch (with the same -D file) and OPT1 bit 5 the
 * band 0,100 instead of the default.
 */
#include "fuzz.h"

#define main fphash_main
#include "../cmd/fphash.c"
#undef main

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;

	fuzz_begin(&in, d, n, 4);
	mbits = 1 + in.o2 % FP_MAXBITS;
	nwords = (mbits + 63) / 64;
	hflag = openset = in.o2 >> 7;
	wmode = (int)(in.o1 >> 6 & 3);
	key0 = in.o1 >> 4 & 3;
	key1 = ~key0;
	if (wmode == TFIDF && (in.o1 >> 4 & 1))
		wmode = IMATCH;
	bandlo = in.o1 >> 5 & 1 ? 0 : IMATCH_LO;
	bandhi = in.o1 >> 5 & 1 ? 100 : IMATCH_HI;
	wtab_init(&features);
	wtab_init(&dfwords);
	if ((wmode == TFIDF || wmode == IMATCH) && loaddf(in.path[3]) < 0)
		goto out;
	if (hflag) {
		growfeatures();
	} else {
		if (wtab_load_lines(&features, in.path[0], 1) < 0)
			goto out;
		if (loadtable(in.path[1], features.n + (in.o1 >> 4 & 3)) < 0)
			goto out;
		weight = ecalloc(features.n, sizeof *weight);
		touched = ereallocarray(NULL, features.n, sizeof *touched);
	}
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
	ntouched = featcap = rowcap = touchedcap = 0;
	wtab_free(&dfwords);
	free(df);
	df = NULL;
	dfcap = 0;
	ndocs = 0;
	havedocs = 0;
	return 0;
}
