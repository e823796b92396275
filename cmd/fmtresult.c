/* fmtresult: write match records in the simtool result format. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "esc.h"
#include "fp.h"
#include "rdr.h"
#include "util.h"

static long long maxblocks = LLONG_MAX;	/* -n */
static const char *outpath;			/* -o */
static long long screenblocks;			/* -t */

/* The output: stdout, or -o's file; the first -t blocks also go to screen. */
static FILE *out;
static struct obuf screen;

/* The block being written: its query (escaped, as read) and its current distance line. */
static struct obuf query;
static long long nblocks, curdist = -1;

/* Decoded copies of the fields of one record, checked before anything is written. */
static struct obuf qdec, iddec;

/* Decode field s into b; -1 after a diagnostic at r's line. */
static int
decode(const char *s, size_t n, struct obuf *b, struct rdr *r)
{
	ptrdiff_t m;

	obuf_set(b, s, n);
	if ((m = esc_decode(b->p, n)) < 0) {
		rdr_warn(r, "bad escape in ID");
		return -1;
	}
	b->n = (size_t)m;
	return 0;
}

/* Write n bytes of the result, and keep them for the screen if they are its. */
static void
put(const void *p, size_t n)
{
	fwrite(p, 1, n, out);
	if (nblocks <= screenblocks)
		obuf_add(&screen, p, n);
}

static void
putbyte(char c)
{
	put(&c, 1);
}

static void
enddistline(void)
{
	if (curdist >= 0)
		putbyte('\n');
	curdist = -1;
}

/* Start the block of query q (its decoded form in qdec); 0 once -n blocks are done. */
static int
startblock(const char *q, size_t n)
{
	enddistline();
	if (nblocks++ == maxblocks)
		return 0;
	obuf_set(&query, q, n);
	put(qdec.p, qdec.n);
	putbyte('\n');
	return 1;
}

/* Returns 0 to go on, 1 once -n blocks are written. */
static int
fmtresult(const char *path, int *err)
{
	struct rdr r;
	struct matchrec m;
	int st, done = 0;

	if (rdr_open(&r, path) < 0) {
		*err = 1;
		return 0;
	}
	while (!done && (st = matchrec_read(&r, &m)) != 0) {
		if (st < 0) {
			*err = 1;
			if (r.err)
				break;
			continue;
		}
		if (m.dist < 0) {
			/* a query header: its block, even if no match follows */
			if (decode(m.q, m.qlen, &qdec, &r) < 0)
				*err = 1;
			else
				done = !startblock(m.q, m.qlen);
			continue;
		}
		if (decode(m.id, m.idlen, &iddec, &r) < 0) {
			*err = 1;
			continue;
		}
		if (nblocks == 0 || m.qlen != query.n || memcmp(m.q, query.p, query.n)) {
			if (decode(m.q, m.qlen, &qdec, &r) < 0) {
				*err = 1;
				continue;
			}
			if (!startblock(m.q, m.qlen)) {
				done = 1;
				continue;
			}
		}
		if (m.dist < curdist) {
			rdr_warn(&r, "distance %d after %lld: matches out of order", m.dist, curdist);
			*err = 1;
			continue;
		}
		if (m.dist > curdist) {
			char num[24];

			enddistline();
			put(num, utoa(num, (unsigned long long)m.dist));
			putbyte(':');
			curdist = m.dist;
		}
		put(iddec.p, iddec.n);
		putbyte(' ');
	}
	if (rdr_close(&r))
		*err = 1;
	return done;
}

static const char synopsis[] = "[-n count] [-o file] [-t count] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	struct afile result;
	int c, err = 0, done = 0;

	argv0 = "fmtresult";
	while ((c = getopt(argc, argv, "hn:o:t:")) != -1) {
		switch (c) {
		case 'h':
			return help(synopsis);
		case 'n':
			maxblocks = estrtonum(optarg, 0, LLONG_MAX, "count");
			break;
		case 'o':
			outpath = optarg;
			break;
		case 't':
			screenblocks = estrtonum(optarg, 0, LLONG_MAX, "count");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (screenblocks && !outpath)
		eusagewhy(synopsis, "-t needs -o");

	setupstdout();
	out = stdout;
	if (outpath && !(out = afile_open(&result, outpath)))
		return 1;
	if (argc == 0)
		done = fmtresult("-", &err);
	/* stop at a write error: the output is lost, and fshut still knows why */
	for (; !done && argc > 0 && !ferror(out); argc--, argv++)
		done = fmtresult(*argv, &err);
	enddistline();
	if (!outpath)
		return err | fshut(stdout, "<stdout>");
	/* the file whole, from good records only, or the old one; then the screen */
	if (afile_close(&result, err) || err)
		return 1;
	obuf_flush(&screen, stdout);
	return fshut(stdout, "<stdout>");
}
