/*
 * Fuzz docsplit's readers: part 0 read in the mode OPT2 picks (bits 0-1:
 * page file, whole file -f, JSON Lines -j); with bit 2 of OPT2, parts 0
 * and 1 are named in a list (-l) read instead; with bit 3, that list
 * ends its paths with NUL (-0); with bit 4, the files are listed (-n),
 * not read; with bit 5, binary files are read (-a), with bit 6 what is
 * skipped is named (-v). The cap on a gzip file or WARC record (-m) is
 * 2^(16 + (OPT1 >> 4 & 7)) bytes, its least and up, so that bombs and
 * caps are met quickly.
 */
#include "fuzz.h"

#define main docsplit_main
#include "../cmd/docsplit.c"
#undef main

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static const enum mode modes[4] = { PAGES, FILES, JSONL, JSONL };
	struct fuzzin in;
	char list[256];
	FILE *fp;

	fuzz_begin(&in, d, n, 3);
	mode = modes[in.o2 & 3];
	doc.all = (in.o2 & 32) != 0;
	doc.verbose = (in.o2 & 64) != 0;
	doc.max = (uint64_t)65536 << (in.o1 >> 4 & 7);
	listonly = (in.o2 & 16) != 0;
	if (in.o2 & 4) {
		listdelim = in.o2 & 8 ? '\0' : '\n';
		/* part 2 is not needed as a file: it becomes the list */
		snprintf(list, sizeof list, "%s.list", in.path[2]);
		if (!(fp = fopen(list, "w")))
			abort();
		fprintf(fp, "%s%c%s%c", in.path[0], listdelim, in.path[1], listdelim);
		if (fclose(fp) == EOF)
			abort();
		readlist(list);
		remove(list);
	} else {
		listdelim = -1;
		dopath(in.path[0], in.path[0]);
	}
	fflush(stdout);
	return 0;
}
