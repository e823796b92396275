/*
 * skidx: make, extend and read a kept collection of sketches as an index
 * file (skidx(5)), which simjoin -x queries.
 */
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

/* Load the batch records of the files (none: stdin), checked against x's sketches. */
static int
loadbatch(struct join *b, const struct skidx *x, char **files, int n)
{
	struct rdr r;
	unsigned size, maxwhole;
	int i, ret = 0;

	skidx_size(x, &size, &maxwhole);
	join_setsize(b, size, maxwhole);
	for (i = 0; i < (n ? n : 1); i++) {
		if (rdr_open(&r, n ? files[i] : "-") < 0) {
			ret = 1;
			continue;
		}
		ret |= join_read(b, &r);
		ret |= rdr_close(&r);
	}
	join_end(b);
	return ret;
}

/*
 * -a with -c, or an index of as many segments as it may hold or of an
 * older version: the kept
 * documents and the batch b, as a new file renamed to path (a reader of
 * the old one, or a version linked to it, keeps it).
 */
static uint64_t
compact(struct skidx *x, const char *path, struct join *b)
{
	struct join *all;
	char *tmp = emalloc(strlen(path) + 5);
	uint64_t len = 0;
	int fd;

	sprintf(tmp, "%s.new", path);
	if (!(all = skidx_whole(x, b)))
		goto done;
	if ((fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC, 0666)) < 0) {
		weprintf("%s:", escname(tmp));
		goto done;
	}
	len = skidx_append(NULL, fd, tmp, all);
	if (close(fd) < 0 && len) {
		weprintf("%s:", escname(tmp));
		len = 0;
	}
	if (len && rename(tmp, path) < 0) {
		weprintf("%s:", escname(path));
		len = 0;
	}
	if (!len)
		unlink(tmp);
done:
	join_free(all);
	free(tmp);
	return len;
}

/* -a, -o: append the batch to the index at path (a new one with make). */
static int
store(const char *path, int make, char **files, int n)
{
	struct join_opt opt = { 0, -1, 0, 0 };
	struct skidx *x = NULL;
	struct join *b;
	uint64_t len;
	int fd, ret;

	if ((fd = open(path, make ? O_RDWR | O_CREAT | O_TRUNC : O_RDWR, 0666)) < 0)
		eprintf("%s:", escname(path));
	if (!make && !(x = skidx_open(fd, path, length)))
		return 1;
	b = join_new(&opt);
	ret = loadbatch(b, x, files, n);
	if (x && (cflag || skidx_nseg(x) >= SKIDX_SEGMAX - 1 || skidx_version(x) != SKIDX_VERSION))
		len = compact(x, path, b);
	else
		len = skidx_append(x, fd, path, b);
	join_free(b);
	skidx_close(x);
	if (close(fd) < 0 && len) {
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
    "[-c] [-L length] -a index [file ...] | [-L length] -d index | -o index [file ...]";

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
