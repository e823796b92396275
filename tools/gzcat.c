/*
 * gzcat: write the decompressed bytes of gzip files (lib/inflate.h), as
 * gzip -dc does, to test and time the inflater. With -m maxbytes, a file
 * that would give more stops after its first maxbytes bytes, with an error.
 * A bad file is reported ("gzcat: FILE: gzip: what at byte N", the offset
 * in the compressed file) after the output decoded before the fault, and
 * the other files still come out; trailing garbage after a member is
 * reported and ignored (the output is whole), zero padding ignored. Exit
 * status 1 if anything was reported. With -c chunk the inflater is fed
 * the input in pieces of that many bytes, to show that any chunking
 * gives the same bytes and messages.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "inflate.h"
#include "rdr.h"
#include "util.h"

static size_t chunk;
static uint64_t maxbytes = UINT64_MAX;
static struct inflate z;

static int
gzcat(const char *path)
{
	struct rdr r;
	const unsigned char *out;
	const char *p;
	char msg[80];
	ptrdiff_t n, m = 0;
	size_t len;
	int ret;

	if (rdr_open(&r, path) < 0)
		return 1;
	inf_init(&z, INF_GZIP, maxbytes);
	while (m >= 0 && (n = rdr_block(&r, &p)) >= 0) {
		for (; n > 0 && m >= 0; p += len, n -= (ptrdiff_t)len) {
			len = chunk && chunk < (size_t)n ? chunk : (size_t)n;
			inf_input(&z, p, len);
			while ((m = inf_read(&z, &out)) > 0)
				fwrite(out, 1, (size_t)m, stdout);
		}
	}
	ret = rdr_close(&r);
	if (ret)
		return ret;	/* reported */
	if (inf_finish(&z)) {
		weprintf("%s: gzip: %s", escname(r.name), inf_strerror(&z, msg, sizeof msg));
		return 1;
	}
	if (z.garbage) {
		weprintf("%s: gzip: trailing garbage ignored at byte %llu", escname(r.name),
		    (unsigned long long)(z.garbage - 1));
		return 1;
	}
	return 0;
}

static _Noreturn void
usage(void)
{
	fprintf(stderr, "usage: %s [-c chunk] [-m maxbytes] [file ...]\n", argv0);
	exit(2);
}

int
main(int argc, char *argv[])
{
	int c, ret = 0;

	argv0 = "gzcat";
	opterr = 0;	/* one line on a usage error: ours */
	while ((c = getopt(argc, argv, "c:m:")) != -1) {
		switch (c) {
		case 'c':
			chunk = (size_t)estrtonum(optarg, 1, 1 << 30, "chunk");
			break;
		case 'm':
			maxbytes = (uint64_t)estrtonum(optarg, 0, INT64_MAX, "maxbytes");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	setupstdout();
	if (argc == 0)
		ret |= gzcat("-");
	for (; argc > 0; argc--, argv++)
		ret |= gzcat(*argv);
	return ret | fshut(stdout, "<stdout>");
}
