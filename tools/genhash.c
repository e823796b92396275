/* genhash: rows of random '0'/'1' characters, for testing the hash-vector tools. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXROWS	10000000LL
#define MAXCOLS	4096

static const char *argv0 = "genhash";
static uint64_t state = 1;

/* splitmix64: tiny, seedable with any value, same stream on every machine. */
static uint64_t
next(void)
{
	uint64_t z = (state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Like OpenBSD strtonum(3): digits only, so "-1", " 5" and "0x10" are refused. */
static long long
parsenum(const char *s, long long min, long long max, const char *what)
{
	unsigned long long v = 0;
	const char *p, *err = NULL;

	if (!*s)
		err = "invalid";
	for (p = s; *p && !err; p++) {
		if (*p < '0' || *p > '9')
			err = "invalid";
		else if (v > (ULLONG_MAX - 9) / 10)
			v = ULLONG_MAX;	/* saturate: reported as too large */
		else
			v = v * 10 + (unsigned)(*p - '0');
	}
	if (!err && v > (unsigned long long)max)
		err = "too large";
	if (!err && (long long)v < min)
		err = "too small";
	if (err) {
		fprintf(stderr, "%s: %s '%s' is %s (allowed: %lld to %lld)\n",
		    argv0, what, s, err, min, max);
		exit(2);
	}
	return (long long)v;
}

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
				bits = next();
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

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-s seed] rows cols\n", argv0);
	exit(2);
}

int
main(int argc, char *argv[])
{
	static char buf[1 << 16];
	long long rows;
	int c, cols;

	opterr = 0;	/* one line on a usage error: ours */
	while ((c = getopt(argc, argv, "s:")) != -1) {
		switch (c) {
		case 's':
			state = (uint64_t)parsenum(optarg, 0, LLONG_MAX, "seed");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		usage();
	rows = parsenum(argv[0], 1, MAXROWS, "rows");
	cols = (int)parsenum(argv[1], 1, MAXCOLS, "cols");

	setvbuf(stdout, buf, _IOFBF, sizeof buf);
	genhash(rows, cols);
	if (fflush(stdout) == EOF || ferror(stdout) || fclose(stdout) == EOF) {
		fprintf(stderr, "%s: <stdout>: write error: %s\n", argv0,
		    strerror(errno));
		return 1;
	}
	return 0;
}
