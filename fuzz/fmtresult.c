/*
 * Fuzz fmtresult's match reading: part 0 is match records; OPT2 is -n
 * (255: none), OPT1 -t (the blocks kept for the screen, written after).
 */
#include "fuzz.h"

#define main fmtresult_main
#include "../cmd/fmtresult.c"
#undef main

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;
	int err = 0;

	fuzz_begin(&in, d, n, 1);
	maxblocks = in.o2 == 255 ? LLONG_MAX : in.o2 % 8;
	screenblocks = in.o1 % 4;
	out = stdout;
	nblocks = 0;
	curdist = -1;
	query.n = 0;
	fmtresult(in.path[0], &err);
	enddistline();
	obuf_flush(&screen, stdout);
	fflush(stdout);
	free(query.p);
	free(qdec.p);
	free(iddec.p);
	free(screen.p);
	memset(&screen, 0, sizeof screen);
	memset(&query, 0, sizeof query);
	memset(&qdec, 0, sizeof qdec);
	memset(&iddec, 0, sizeof iddec);
	return 0;
}
