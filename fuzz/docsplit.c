/* Fuzz docsplit's page splitting: part 0 is a page file. */
#include "fuzz.h"

#define main docsplit_main
#include "../cmd/docsplit.c"
#undef main

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;

	fuzz_begin(&in, d, n, 1);
	docsplit(in.path[0]);
	fflush(stdout);
	return 0;
}
