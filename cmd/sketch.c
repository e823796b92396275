/* sketch: bottom-k sketches of the word shingles of page records. */
#include <sys/stat.h>

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdr.h"
#include "sketch.h"
#include "util.h"

static unsigned kwords = 5;		/* -k: words per shingle */
static unsigned size = 128;		/* -n: hashes per sketch */
static uint64_t seed;			/* -s */
static struct skbuild *build;
static struct obuf out;

/* -v: documents done and their rate, on stderr */
static struct {
	int on;
	uintmax_t ndocs;
	double tstart, tlast;
	int tty;			/* stderr is a terminal: a line that redraws */
	int countfd;			/* -P: the count of documents done, or -1 */
	const char *countpath;
	int countfailed;
	double tcount;
} prog = { .countfd = -1 };

/* Documents done and their rate, at most once a second, and at the end. */
static void
progress(int end)
{
	double t;

	if (!end && (!prog.tty || (prog.ndocs & 1023)))
		return;
	t = monoseconds();
	if (!end && t - prog.tlast < 1)
		return;
	prog.tlast = t;
	fprintf(stderr, "%ssketch: %ju documents, %.0f/s%s", prog.tty ? "\r" : "", prog.ndocs,
	    t > prog.tstart ? (double)prog.ndocs / (t - prog.tstart) : 0.0, end ? "\n" : "");
}

/*
 * -P: the count of documents done, rewritten in place, at most 4 times a
 * second and at the end: one line of fixed width, so that a reader never
 * sees a part of two counts.
 */
static void
putcount(int end)
{
	char line[22];
	double t;
	ssize_t n;

	if (!end && (prog.ndocs & 63))
		return;
	t = monoseconds();
	if (!end && t - prog.tcount < 0.25)
		return;
	prog.tcount = t;
	snprintf(line, sizeof line, "%20ju\n", prog.ndocs);
	if ((n = pwrite(prog.countfd, line, 21, 0)) != 21) {
		if (n < 0)
			weprintf("%s: write error:", escname(prog.countpath));
		else
			weprintf("%s: write error: short write", escname(prog.countpath));
		close(prog.countfd);
		prog.countfd = -1;
		prog.countfailed = 1;
	}
}

/*
 * -P: the count file, made empty. It is rewritten in place, so it must
 * be a regular file of its own: a FIFO, a device or a descriptor's path is
 * refused before any work.
 */
static void
opencount(const char *path)
{
	struct stat st;

	prog.countpath = path;
	/* (the shell's file behind /dev/stdout would be truncated) */
	if (pathfd(path) >= 0)
		eprintf("%s: names a descriptor, not a file of its own", escname(path));
	if ((stat(path, &st) == 0 && !S_ISREG(st.st_mode)))
		eprintf("%s: not a regular file", escname(path));
	if ((prog.countfd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK, 0666)) < 0 ||
	    fstat(prog.countfd, &st) < 0)
		eprintf("%s:", escname(path));
	if (!S_ISREG(st.st_mode))
		eprintf("%s: not a regular file", escname(path));
	if (ftruncate(prog.countfd, 0) < 0)
		eprintf("%s:", escname(path));
}

/* A record is done: flush a full buffer, count it. */
static void
done(void *ctx)
{
	(void)ctx;
	if (out.n >= 1 << 16)
		obuf_flush(&out, stdout);
	prog.ndocs++;
	if (prog.on)
		progress(0);
	if (prog.countfd >= 0)
		putcount(0);
}

static int
sketchfile(const char *path)
{
	struct rdr r;
	int ret;

	if (rdr_open(&r, path) < 0)
		return 1;
	ret = skb_records(build, &r, &out, done, NULL);
	return rdr_close(&r) | ret;
}

static const char synopsis[] = "[-v] [-k words] [-n size] [-P countfile] [-s seed] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	int c, ret = 0;

	argv0 = "sketch";
	while ((c = getopt(argc, argv, "hk:n:P:s:v")) != -1) {
		switch (c) {
		case 'h':
			return help(synopsis);
		case 'k':
			kwords = (unsigned)estrtonum(optarg, 1, SK_MAXK, "shingle size");
			break;
		case 'n':
			size = (unsigned)estrtonum(optarg, 1, SK_MAXSIZE, "sketch size");
			break;
		case 'P':
			prog.countpath = optarg;
			break;
		case 's':
			seed = (uint64_t)estrtonum(optarg, 0, LLONG_MAX, "seed");
			break;
		case 'v':
			prog.on = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (prog.countpath)
		opencount(prog.countpath);
	setupstdout();
	build = skb_new(kwords, size, seed);
	prog.tstart = prog.tlast = monoseconds();
	prog.tty = isatty(2);
	if (argc == 0)
		ret |= sketchfile("-");
	for (; argc > 0 && !ferror(stdout); argc--, argv++)
		ret |= sketchfile(*argv);
	if (out.n)
		obuf_flush(&out, stdout);
	if (prog.on)
		progress(1);
	if (prog.countfd >= 0) {
		putcount(1);
		close(prog.countfd);
	}
	skb_free(build);
	free(out.p);
	ret |= fshut(stdout, "<stdout>");
	return ret | prog.countfailed;
}
