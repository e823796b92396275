/* fmtresult: write match records in the simtool result format. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "esc.h"
#include "rdr.h"
#include "util.h"

static long long maxblocks = LLONG_MAX;	/* -n */

/* The block being written: its query (escaped, as read) and its current distance line. */
static struct obuf query;
static long long nblocks, curdist = -1;

/* Decoded copies of the fields of one record, checked before anything is written. */
static struct obuf qdec, iddec;

/* Decode field s into b; -1 after a diagnostic at r's line. */
static int
decode(const char *s, size_t n, struct obuf *b, const struct rdr *r)
{
	ptrdiff_t m;

	obuf_set(b, s, n);
	if ((m = esc_decode(b->p, n)) < 0) {
		weprintf("%s:%ju: bad escape in ID", r->name, r->lineno);
		return -1;
	}
	b->n = (size_t)m;
	return 0;
}

static void
enddistline(void)
{
	if (curdist >= 0)
		putchar('\n');
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
	fwrite(qdec.p, 1, qdec.n, stdout);
	putchar('\n');
	return 1;
}

/* Returns 0 to go on, 1 once -n blocks are written. */
static int
fmtresult(const char *path, int *err)
{
	struct rdr r;
	char *line, *t1, *t2;
	const char *errstr;
	long long d;
	ptrdiff_t n;
	int done = 0;

	if (rdr_open(&r, path) < 0) {
		*err = 1;
		return 0;
	}
	while (!done && (n = rdr_line(&r, &line)) >= 0) {
		if (!(t1 = memchr(line, '\t', (size_t)n))) {
			/* a query header: its block, even if no match follows */
			if (decode(line, (size_t)n, &qdec, &r) < 0)
				*err = 1;
			else
				done = !startblock(line, (size_t)n);
			continue;
		}
		if (!(t2 = memchr(t1 + 1, '\t', (size_t)(line + n - t1 - 1)))) {
			weprintf("%s:%ju: match needs 3 fields", r.name, r.lineno);
			*err = 1;
			continue;
		}
		*t2 = '\0';
		d = parsenumn(t1 + 1, (size_t)(t2 - t1 - 1), 0, INT_MAX, &errstr);
		if (errstr) {
			weprintf("%s:%ju: distance '%s' is %s", r.name, r.lineno, t1 + 1, errstr);
			*err = 1;
			continue;
		}
		if (decode(t2 + 1, (size_t)(line + n - t2 - 1), &iddec, &r) < 0) {
			*err = 1;
			continue;
		}
		if (nblocks == 0 || (size_t)(t1 - line) != query.n ||
		    memcmp(line, query.p, query.n)) {
			if (decode(line, (size_t)(t1 - line), &qdec, &r) < 0) {
				*err = 1;
				continue;
			}
			if (!startblock(line, (size_t)(t1 - line))) {
				done = 1;
				continue;
			}
		}
		if (d < curdist) {
			weprintf("%s:%ju: distance %lld after %lld: matches out of order",
			    r.name, r.lineno, d, curdist);
			*err = 1;
			continue;
		}
		if (d > curdist) {
			enddistline();
			putu((unsigned long long)d, stdout);
			putchar(':');
			curdist = d;
		}
		fwrite(iddec.p, 1, iddec.n, stdout);
		putchar(' ');
	}
	if (rdr_close(&r))
		*err = 1;
	return done;
}

static const char synopsis[] = "[-n count] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	int c, err = 0, done = 0;

	argv0 = "fmtresult";
	while ((c = getopt(argc, argv, "hn:")) != -1) {
		switch (c) {
		case 'h':
			return help(synopsis);
		case 'n':
			maxblocks = estrtonum(optarg, 0, LLONG_MAX, "count");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	setupstdout();
	if (argc == 0)
		done = fmtresult("-", &err);
	/* stop at a write error: the output is lost, and fshut still knows why */
	for (; !done && argc > 0 && !ferror(stdout); argc--, argv++)
		done = fmtresult(*argv, &err);
	enddistline();
	err |= fshut(stdout, "<stdout>");
	return err;
}
