/* genhash: rows of random '0'/'1' characters, for testing the hash-vector tools. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rng.h"
#include "util.h"

#define MAXROWS	10000000LL
#define MAXCOLS	4096

static struct rng rng = { 1 };

static void
genhash(long long rows, int cols)
{
	char line[MAXCOLS + 1];
	uint64_t bits = 0;
	long long r;
	int c, left = 0;

	line[cols] = '\n';
	for (r = 0; r < rows; r++) {
		for (c = 0; c < cols; c++) {
			/* one draw gives 64 columns; bits carry over between rows */
			if (left == 0) {
				bits = rng_next(&rng);
				left = 64;
			}
			line[c] = (char)('0' + (bits & 1));
			bits >>= 1;
			left--;
		}
		if (fwrite(line, 1, (size_t)cols + 1, stdout) != (size_t)cols + 1)
			break;	/* reported below */
	}
}

static _Noreturn void
usage(void)
{
	fprintf(stderr, "usage: %s [-s seed] rows cols\n", argv0);
	exit(2);
}

int
main(int argc, char *argv[])
{
	long long rows;
	int c, cols;

	argv0 = "genhash";
	opterr = 0;	/* one line on a usage error: ours */
	while ((c = getopt(argc, argv, "s:")) != -1) {
		switch (c) {
		case 's':
			rng.s = (uint64_t)estrtonum(optarg, 0, LLONG_MAX, "seed");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		usage();
	rows = estrtonum(argv[0], 1, MAXROWS, "rows");
	cols = (int)estrtonum(argv[1], 1, MAXCOLS, "cols");

	setupstdout();
	genhash(rows, cols);
	return fshut(stdout, "<stdout>");
}
