/*
 * skidx: make, extend and read a kept collection of sketches as an index
 * file (skidx(5)), which simjoin -x queries.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "join.h"
#include "rdr.h"
#include "skidx.h"
#include "util.h"

static int cflag;		/* -a: write the index anew, as one segment */
static uint64_t length;		/* -L: the index's first bytes; 0: all */

/*
 * Load the batch records of the files (none: stdin), checked against x's
 * sketches: 0, 1 if a record was bad (it is skipped), -1 if a file could
 * not be opened (the batch is not whole: no index is written).
 */
static int
loadbatch(struct join *b, const struct skidx *x, char **files, int n)
{
	struct rdr r;
	unsigned size, maxwhole;
	int i, ret = 0, unread = 0;

	skidx_size(x, &size, &maxwhole);
	join_setsize(b, size, maxwhole);
	for (i = 0; i < (n ? n : 1); i++) {
		if (rdr_open(&r, n ? files[i] : "-") < 0) {
			unread = 1;
			continue;
		}
		ret |= join_read(b, &r);
		ret |= rdr_close(&r);
	}
	join_end(b);
	return unread ? -1 : ret;
}

/*
 * Write the documents of b as a new index file renamed to path once whole
 * and synced (afile_open: a link is written through, a device written to
 * as it is): a reader of the old file, or a version of a state linked to
 * it, keeps it, and a failed or killed run leaves it as it was. The new
 * length, or 0 after a diagnostic.
 */
static uint64_t
writenew(struct afile *a, const char *path, struct join *b)
{
	uint64_t len = skidx_append(NULL, fileno(a->fp), path, b);

	return afile_close(a, len == 0) ? 0 : len;
}

/*
 * -a with -c, or an index of as many segments as it may hold or of an
 * older version: the kept documents and the batch b, as a new file.
 */
static uint64_t
compact(struct skidx *x, const char *path, struct join *b)
{
	struct join *all;
	struct afile a;
	uint64_t len = 0;

	if (!(all = skidx_whole(x, b)))
		return 0;
	if (afile_open(&a, path))
		len = writenew(&a, path, all);
	join_free(all);
	return len;
}

/*
 * An index is appended to in place, past the length of the version it
 * belongs to: a writer whose run was killed (its ndstate by SIGKILL) may
 * still be doing so. The next one waits for it to end, then writes over
 * what it left. The batch is read only once the lock is held, so that a
 * killed writer's skidx that comes to the lock after the next writer's
 * finds its batch gone: ndstate(1) removed its tmp.PID before the next run.
 */
static int
lockfile(int fd)
{
	struct flock fl;

	memset(&fl, 0, sizeof fl);
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	while (fcntl(fd, F_SETLKW, &fl) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* -a, -o: append the batch to the index at path (a new one with make). */
static int
store(const char *path, int make, char **files, int n)
{
	struct join_opt opt = { 0, -1, 0, 0 };
	struct skidx *x = NULL;
	struct afile a;
	struct join *b;
	uint64_t len;
	int fd = -1, ret;

	/* the output first: a path that cannot be written fails before the work */
	if (pathfd(path) >= 0) {	/* (and -a may write it anew, as -c does) */
		weprintf("%s: names a descriptor: an index is written by offset, to a file by its name",
		    escname(path));
		return 1;
	}
	if (make) {
		if (!afile_open(&a, path))
			return 1;
	} else if ((fd = open(path, O_RDWR)) < 0 || lockfile(fd) < 0) {
		weprintf("%s:", escname(path));
		return 1;
	} else if (!(x = skidx_open(fd, path, length)))
		return 1;
	b = join_new(&opt);
	if ((ret = loadbatch(b, x, files, n)) < 0) {
		if (make)
			afile_close(&a, 1);
		len = 0;
	} else if (make)
		len = writenew(&a, path, b);
	else if (cflag || skidx_nseg(x) >= SKIDX_SEGMAX - 1 || skidx_version(x) != SKIDX_VERSION)
		len = compact(x, path, b);
	else
		len = skidx_append(x, fd, path, b);
	join_free(b);
	skidx_close(x);
	if (fd >= 0 && close(fd) < 0 && len) {
		weprintf("%s:", escname(path));
		len = 0;
	}
	if (!len)
		return 1;
	printf("%ju\n", (uintmax_t)len);
	return ret;
}

/* -d: the kept sketch records, in order. */
static int
dump(const char *path)
{
	struct obuf out = { 0 };
	struct skidx *x;
	int fd, ret;

	if (strcmp(path, "-") && (fd = open(path, O_RDONLY)) < 0)
		eprintf("%s:", escname(path));
	if (!strcmp(path, "-"))
		fd = 0;
	if (!(x = skidx_open(fd, fd ? path : "<stdin>", length)))
		return 1;
	ret = skidx_dump(x, &out, stdout) < 0;
	if (out.n)
		obuf_flush(&out, stdout);
	free(out.p);
	skidx_close(x);
	if (fd)
		close(fd);
	return ret;
}

static const char synopsis[] =
    "[-c] [-L length] -a index [file ...]\n"
    "       skidx [-L length] -d index\n"
    "       skidx -o index [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	const char *path = NULL;
	int c, mode = 0, ret;

	argv0 = "skidx";
	while ((c = getopt(argc, argv, "L:a:cd:ho:")) != -1) {
		switch (c) {
		case 'c':
			cflag = 1;
			break;
		case 'L':
			length = (uint64_t)estrtonum(optarg, 1, INT64_MAX, "length");
			break;
		case 'a':
		case 'd':
		case 'o':
			if (mode)
				usage();
			mode = c;
			path = optarg;
			break;
		case 'h':
			return help(synopsis);
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!mode || (mode == 'd' && (argc > 0 || cflag)) || (mode == 'o' && (length || cflag)))
		usage();
	setupstdout();
	if (mode == 'd')
		ret = dump(path);
	else
		ret = store(path, mode == 'o', argv, argc);
	return ret | fshut(stdout, "<stdout>");
}
