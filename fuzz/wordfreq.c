/*
 * Fuzz wordfreq: record reading and tokenizing (part 0), stopword loading
 * (part 1, if OPT2 bit 1) and vocabulary loading (part 2, if OPT2 bit 2);
 * OPT2 bit 0 is -p, bit 3 -u, bits 4-5 the k-gram length - 1 (-k), bit 6
 * -d (without -p), or with -p -T (the sums, written to standard output
 * after the per-page counts).
 */
#include "fuzz.h"

#define main wordfreq_main
#include "../cmd/wordfreq.c"
#undef main

static void
reset(void)
{
	wtab_free(&words);
	free(kind);
	free(count);
	free(touched);
	pagerec_free(&rec);
	kind = NULL;
	count = NULL;
	touched = NULL;
	free(docfreq);
	docfreq = NULL;
	docfreqcap = 0;
	free(total);
	total = NULL;
	totalcap = 0;
	totalsfile = NULL;
	ndocs = 0;
	free(gram.p);
	memset(&gram, 0, sizeof gram);
	ngram = 0;
	kindcap = countcap = ntouched = touchedcap = 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;

	fuzz_begin(&in, d, n, 3);
	pflag = in.o2 & 1;
	dflag = !pflag && (in.o2 & 64);
	totalsfile = pflag && (in.o2 & 64) ? "-T" : NULL;
	vflag = 0;
	tokflags = in.o2 & 8 ? TOK_UNICODE : 0;
	kgram = 1 + (in.o2 >> 4 & 3);
	havestop = (in.o2 & 2) != 0;
	wtab_init(&words);
	growtables();
	if ((in.o2 & 2) && loadlist(in.path[1], STOP, wtab_load_words) < 0)
		goto out;
	if (in.o2 & 4) {
		vflag = 1;
		if (loadlist(in.path[2], VOCAB, loadvocab) < 0)
			goto out;
	}
	wordfreq(in.path[0]);
	if (dflag)
		putdocfreq();
	else if (!pflag)
		puttotals(count, &out, stdout);
	flushout(1);
	if (totalsfile)
		puttotals(total, &out, stdout);
	fflush(stdout);
out:
	reset();
	return 0;
}
