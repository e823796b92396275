/*
 * fifoflip: for race tests of the readers, turn files into FIFOs and back
 * as fast as rename(2) goes. For the given seconds each path in turn
 * becomes a FIFO, then a regular file holding "x" again: a hard link of
 * one of two objects kept in the current directory, renamed over the
 * path, so the path never goes missing. Regular files are left at the
 * end. Prints the number of rounds.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

static const char fifo[] = ".fifoflip.fifo", reg[] = ".fifoflip.reg",
    tmp[] = ".fifoflip.tmp";

static void
put(const char *keep, const char *path)
{
	if (link(keep, tmp) < 0)
		eprintf("%s:", escname(tmp));
	if (rename(tmp, path) < 0)
		eprintf("%s:", escname(path));
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long
flip(char **paths, int n, double seconds)
{
	double end = now() + seconds;
	unsigned long rounds;
	int i;

	for (rounds = 0; now() < end; rounds++)
		for (i = 0; i < n; i++) {
			put(fifo, paths[i]);
			put(reg, paths[i]);
		}
	return rounds;
}

static const char synopsis[] = "seconds path ...";

int
main(int argc, char *argv[])
{
	unsigned long rounds;
	long long seconds;
	FILE *fp;

	argv0 = "fifoflip";
	if (argc < 3)
		eusage(synopsis);
	seconds = estrtonum(argv[1], 1, 3600, "seconds");
	if (mkfifo(fifo, 0600) < 0)
		eprintf("%s:", escname(fifo));
	if (!(fp = fopen(reg, "w")) || fputs("x", fp) == EOF || fclose(fp) == EOF)
		eprintf("%s:", escname(reg));
	rounds = flip(argv + 2, argc - 2, (double)seconds);
	unlink(fifo);
	unlink(reg);
	printf("%lu\n", rounds);
	return fshut(stdout, "<stdout>");
}
