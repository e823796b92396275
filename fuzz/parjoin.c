/*
 * Fuzz parjoin: part 0 is the paragraph map, part 1 the match records;
 * the limit is 1 + OPT2 % 16. Every share written is checked to be at most
 * 1: a paragraph counts once in a pair, so no page is covered past its size.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>

#include "fuzz.h"

/* the tool writes shares with printf alone: they pass through the check */
static int checkedprintf(const char *, ...);
#define main parjoin_main
#define printf checkedprintf
#include "../cmd/parjoin.c"
#undef printf
#undef main

static int
checkedprintf(const char *fmt, ...)
{
	va_list ap;
	double share;
	int r;

	va_start(ap, fmt);
	share = va_arg(ap, double);
	va_end(ap);
	assert(share >= 0 && share <= 1);
	va_start(ap, fmt);
	r = vprintf(fmt, ap);
	va_end(ap);
	return r;
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;

	fuzz_begin(&in, d, n, 2);
	limit = 1 + in.o2 % 16;
	wtab_init(&map.keys);
	wtab_init(&map.pages);
	if (loadmap(in.path[0]) == 0) {
		readmatches(in.path[1]);
		pairs();
		fflush(stdout);
	}
	freeall();
	return 0;
}
