/*
 * Fuzz parsplit: part 0 is a file of page records split by the tool's own
 * worker; the minimum size is OPT2 (0 to 255). The paragraph records go to
 * stdout and the map to /dev/null.
 */
#include "fuzz.h"

#define main parsplit_main
#include "../cmd/parsplit.c"
#undef main

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;

	fuzz_begin(&in, d, n, 1);
	if (!mapf && !(mapf = fopen("/dev/null", "w")))
		return 0;
	minsize = in.o2;
	key = 0;
	parsplit(in.path[0]);
	obuf_flush(&out, stdout);
	obuf_flush(&map, mapf);
	fflush(stdout);
	return 0;
}
