/*
 * skflood: a page record made to flood a table of shingle hashes placed
 * by their low bits (as sketch(1) placed them before its tables were
 * keyed), for the tests of sketch(1) and as a fuzz seed.
 *
 *	skflood [-k words] [-r repeats] [-s seed] [-t tablebits] count
 *
 * writes one record, ID "flood": count distinct words (a, b, ..., aa, ...
 * skipping those that do not fit), chosen one after the other so that the
 * shingle of k words (default 5) each of them ends has its low tablebits
 * bits (default 17) in the first 64th of their range: in a table of
 * 2^tablebits slots indexed by those bits, every such shingle starts in
 * the first 64th and they make one run of count slots, each lookup of one
 * walking half of it. The words are written repeats times (default 1), so
 * that each shingle is looked up again; seed is sketch(1)'s -s. About 64
 * tries a word.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sketch.h"
#include "util.h"

static unsigned kwords = 5;
static unsigned tablebits = 17;
static uint64_t seed;

static const char synopsis[] = "[-k words] [-r repeats] [-s seed] [-t tablebits] count";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

/* Word number i: i + 1 in bijective base 26, the letters a to z. */
static size_t
name(uint64_t i, char *w)
{
	char tmp[16];
	size_t n = 0, j;

	for (i++; i > 0; i = (i - 1) / 26)
		tmp[n++] = (char)('a' + (i - 1) % 26);
	for (j = 0; j < n; j++)
		w[j] = tmp[n - 1 - j];
	return n;
}

int
main(int argc, char *argv[])
{
	struct obuf words = { 0 };
	uint64_t wh[SK_MAXK], mask, next = 0;
	unsigned long long repeats = 1, count, i, r;
	char w[16];
	size_t n;
	int c;

	argv0 = "skflood";
	while ((c = getopt(argc, argv, "hk:r:s:t:")) != -1) {
		switch (c) {
		case 'h':
			return help(synopsis);
		case 'k':
			kwords = (unsigned)estrtonum(optarg, 1, SK_MAXK, "shingle size");
			break;
		case 'r':
			repeats = (unsigned long long)estrtonum(optarg, 1, 1000000, "repeats");
			break;
		case 's':
			seed = (uint64_t)estrtonum(optarg, 0, LLONG_MAX, "seed");
			break;
		case 't':
			tablebits = (unsigned)estrtonum(optarg, 7, 40, "table bits");
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	count = (unsigned long long)estrtonum(argv[optind], 1, 100000000, "count");
	mask = ((uint64_t)1 << tablebits) - 1;

	setupstdout();
	for (i = 0; i < count; i++) {
		/* wh[0..k-1): the hashes of the last k - 1 words; wh[k - 1] the one tried */
		do {
			n = name(next++, w);
			wh[kwords - 1] = sketch_wordhash(seed, w, n);
		} while (i + 1 >= kwords && (sketch_shingle(wh, kwords) & mask) >= (mask + 1) / 64);
		memmove(wh, wh + 1, (kwords - 1) * sizeof *wh);
		if (words.n)
			obuf_addc(&words, ' ');
		obuf_add(&words, w, n);
	}
	fputs("flood\t", stdout);
	for (r = 0; r < repeats; r++) {
		if (r)
			putchar(' ');
		fwrite(words.p, 1, words.n, stdout);
	}
	putchar('\n');
	free(words.p);
	return fshut(stdout, "<stdout>");
}
