/*
 * wtabstat: how hard a word table works. Each line of the input (its bytes
 * as they are) is added to one table (lib/wtab.h); then the table's probe
 * counts are printed: "words N probes P longest L hash H", where P is the
 * number of slots that finding every word once looks at, L the most for
 * one word, and H the table's hash, fast or siphash (wtab.h). Every word
 * is then looked up again: one not found with its id is an error. The
 * tests use it to show that words chosen to collide cost no more than any
 * others (P stays near N), and, with -m maxprobe (the table's probe limit,
 * lowered), that the change to SipHash keeps every word and id.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rdr.h"
#include "util.h"
#include "wtab.h"

static struct wtab words;

static int
addlines(const char *path)
{
	struct rdr r;
	char *line;
	ptrdiff_t n;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((n = rdr_line(&r, &line)) >= 0)
		wtab_intern(&words, line, (size_t)n);
	return rdr_close(&r);
}

/* A word's probes: 1 + how far its slot lies past its hash's own. */
static void
putstat(void)
{
	size_t i, d, probes = 0, longest = 0;

	for (i = 0; i <= words.mask; i++) {
		if (!words.slot[i].id1)
			continue;
		d = ((i - words.slot[i].hash) & words.mask) + 1;
		probes += d;
		if (d > longest)
			longest = d;
	}
	printf("words %zu probes %zu longest %zu hash %s\n", words.n, probes, longest,
	    words.sip ? "siphash" : "fast");
}

/* Every word found again with its own id; returns 1 if one is not. */
static int
checkids(void)
{
	const char *w;
	size_t n;
	uint32_t i;

	for (i = 0; i < words.n; i++) {
		w = wtab_word(&words, i, &n);
		if (wtab_find(&words, w, n) != i) {
			weprintf("word %lu not found with its id", (unsigned long)i);
			return 1;
		}
	}
	return 0;
}

static _Noreturn void
usage(void)
{
	fprintf(stderr, "usage: %s [-m maxprobe] [file ...]\n", argv0);
	exit(2);
}

int
main(int argc, char *argv[])
{
	long long maxprobe = WTAB_MAXPROBE;
	int c, ret = 0;

	argv0 = "wtabstat";
	opterr = 0;	/* one line on a usage error: ours */
	while ((c = getopt(argc, argv, "m:")) != -1) {
		switch (c) {
		case 'm':
			maxprobe = estrtonum(optarg, 0, WTAB_MAXPROBE, "maxprobe");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	wtab_init(&words);
	wtab_setmaxprobe(&words, (size_t)maxprobe);
	if (argc == 0)
		ret |= addlines("-");
	for (; argc > 0; argc--, argv++)
		ret |= addlines(*argv);
	putstat();
	ret |= checkids();
	wtab_free(&words);
	return ret | fshut(stdout, "<stdout>");
}
