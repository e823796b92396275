/* Fuzz topn's record reading and ranking: part 0 is "WORD<TAB>COUNT" records; OPT2 is the count. */
#include "fuzz.h"

#define main topn_main
#include "../cmd/topn.c"
#undef main

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;

	fuzz_begin(&in, d, n, 1);
	wtab_init(&words);
	topn_read(in.path[0]);
	topn_write(in.o2 == 255 ? LLONG_MAX : (long long)in.o2 + 1);
	fflush(stdout);
	wtab_free(&words);
	free(count);
	count = NULL;
	countcap = 0;
	return 0;
}
