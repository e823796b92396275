/*
 * wtabstat: how hard a word table works. Each line of the input (its bytes
 * as they are) is added to one table (lib/wtab.h); then the table's probe
 * counts are printed: "words N probes P longest L", where P is the number
 * of slots that finding every word once looks at and L the most for one
 * word. The tests use it to show that words chosen to collide cost no more
 * than any others (P stays near N).
 */
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
	printf("words %zu probes %zu longest %zu\n", words.n, probes, longest);
}

static _Noreturn void
usage(void)
{
	fprintf(stderr, "usage: %s [file ...]\n", argv0);
	exit(2);
}

int
main(int argc, char *argv[])
{
	int ret = 0;

	argv0 = "wtabstat";
	opterr = 0;	/* one line on a usage error: ours */
	if (getopt(argc, argv, "") != -1)
		usage();
	argc -= optind;
	argv += optind;

	wtab_init(&words);
	if (argc == 0)
		ret |= addlines("-");
	for (; argc > 0; argc--, argv++)
		ret |= addlines(*argv);
	putstat();
	wtab_free(&words);
	return ret | fshut(stdout, "<stdout>");
}
