/*
 * Fuzz wordfreq: record reading and tokenizing (part 0), stopword loading
 * (part 1, if OPT2 bit 1) and vocabulary loading (part 2, if OPT2 bit 2);
 * OPT2 bit 0 is -p, bit 3 -u, bits 4-5 the k-gram length - 1 (-k), bit 6
 * -d (without -p), or with -p -T (the sums, written to standard output
 * after the per-page counts); bit 7 -i where it is allowed (-p, and -T
 * or -v, and not -v with -u). OPT1 bit 0 is -F (part 0 a page file), bits
 * 1-2 the parts - 1 and bits 3-5 the part (modulo the parts) of -c, and
 * with -T bits 6-7 the count - 1 of -n -t (the top, written after the sums).
 */
#include "fuzz.h"

#define main wordfreq_main
#include "../cmd/wordfreq.c"
#undef main

/* wordfreq's state is in three structs (and rec, out): freed and zeroed whole. */
static void
reset(void)
{
	wtab_free(&tab.words);
	free(tab.ent);
	free(tab.docfreq);
	free(tab.touched);
	free(tab.order);
	memset(&tab, 0, sizeof tab);
	free(win.gram.p);
	memset(&win, 0, sizeof win);
	pagerec_free(&rec);
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;

	fuzz_begin(&in, d, n, 3);
	memset(&opt, 0, sizeof opt);
	opt.pflag = in.o2 & 1;
	opt.dflag = !opt.pflag && (in.o2 & 64);
	opt.totalsfile = opt.pflag && (in.o2 & 64) ? "-T" : NULL;
	opt.tokflags = in.o2 & 8 ? TOK_UNICODE : 0;
	opt.kgram = 1 + (in.o2 >> 4 & 3);
	opt.havestop = (in.o2 & 2) != 0;
	opt.iflag = (in.o2 & 128) && opt.pflag && (opt.totalsfile || (in.o2 & 4)) &&
	    !((in.o2 & 4) && opt.tokflags);
	opt.pagefiles = in.o1 & 1;
	opt.parts = opt.pagefiles ? 1 + (in.o1 >> 1 & 3) : 1;
	opt.part = (in.o1 >> 3 & 7) % opt.parts;
	wtab_init(&tab.words);
	growtables();
	if ((in.o2 & 2) && loadstop(in.path[1]) < 0)
		goto out;
	if (in.o2 & 4) {
		opt.vflag = 1;
		if (loadvocab(in.path[2]) < 0)
			goto out;
	}
	wordfreq(in.path[0]);
	if (opt.dflag)
		putdocfreq();
	else if (!opt.pflag)
		puttotals(0, &out, stdout);
	flushout(1);
	if (opt.totalsfile) {
		puttotals(1, &out, stdout);
		opt.topn = 1 + (in.o1 >> 6 & 3);
		puttop(stdout);
	}
	fflush(stdout);
out:
	reset();
	return 0;
}
