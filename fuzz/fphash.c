/*
 * Fuzz fphash: feature list loading (part 0), hash table loading (part 1)
 * and per-page count records (part 2). M is 1 + OPT2 % 128; the table must
 * have up to 3 rows more than there are features (OPT1 bits 4-5, like -n).
 * OPT2 bit 7 is -H: the features are hashed, every item is one (part 0 and
 * the table are not read) and OPT1 bits 4-5 are the seed. OPT1 bits 6-7
 * are -w: raw, log, bin, or tfidf with part 3 as the -D file; with tfidf,
 * OPT1 bit 4 makes it imatch (with the same -D file) and OPT1 bit 5 the
 * band 0,100 instead of the default. With a table and raw, log or bin
 * weights, OPT1 bit 5 is -i with part 3 as the word list (the records'
 * items are then word numbers). The harness drives fphash's readers;
 * the fingerprinting is the library's (simhash.h), made and freed per input.
 */
#include "fuzz.h"

#define main fphash_main
#include "../cmd/fphash.c"
#undef main

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static const int weighting[] = { SIMH_RAW, SIMH_LOG, SIMH_BIN, SIMH_TFIDF };
	struct fuzzin in;
	struct wtab features;
	size_t nrows;
	int hashed, w;
	uint64_t key0;

	fuzz_begin(&in, d, n, 4);
	mbits = 1 + in.o2 % FP_MAXBITS;
	hashed = in.o2 >> 7;
	w = weighting[in.o1 >> 6 & 3];
	if (w == SIMH_TFIDF && (in.o1 >> 4 & 1))
		w = SIMH_IMATCH;
	key0 = in.o1 >> 4 & 3;
	sh = simh_new(mbits, w, key0, ~key0);
	if (in.o1 >> 5 & 1)
		simh_band(sh, 0, 100);
	wtab_init(&features);
	if (!hashed && wtab_load_lines(&features, in.path[0], 1) < 0) {
		wtab_free(&features);
		goto out;
	}
	nrows = wtab_size(&features) + (in.o1 >> 4 & 3);
	simh_features(sh, &features);
	if ((w == SIMH_TFIDF || w == SIMH_IMATCH) && loaddf(in.path[3]) < 0)
		goto out;
	if (hashed)
		simh_hashrows(sh, 1);
	else if (loadtable(in.path[1], nrows) < 0)
		goto out;
	if (!hashed && w != SIMH_TFIDF && w != SIMH_IMATCH && (in.o1 >> 5 & 1) &&
	    loadnums(in.path[3]) < 0)
		goto out;
	fphash(in.path[2]);
	fflush(stdout);
out:
	simh_free(sh);
	sh = NULL;
	free(numfeat);
	numfeat = NULL;
	nnums = 0;
	return 0;
}
