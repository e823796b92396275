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
static char *query;
static size_t querylen, querycap;
static long long nblocks, curdist = -1;

/* Write a field decoded; a bad escape is an error at r's line. */
static int
putfield(char *s, size_t n, const struct rdr *r)
{
	ptrdiff_t m = esc_decode(s, n);

	if (m < 0) {
		weprintf("%s:%ju: bad escape in ID", r->name, r->lineno);
		return -1;
	}
	fwrite(s, 1, (size_t)m, stdout);
	return 0;
}

static void
enddistline(void)
{
	if (curdist >= 0)
		putchar('\n');
	curdist = -1;
}

/* Start the block of query q; returns 0 when -n blocks are done. */
static int
startblock(const char *q, size_t n, const struct rdr *r, int *err)
{
	enddistline();
	if (nblocks++ == maxblocks)
		return 0;
	egrow(&query, &querycap, n + 1, 1);
	memcpy(query, q, n);
	querylen = n;
	if (putfield(query, n, r) < 0)
		*err = 1;
	memcpy(query, q, n);	/* putfield decoded it in place */
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
			done = !startblock(line, (size_t)n, &r, err);
			continue;
		}
		if (!(t2 = memchr(t1 + 1, '\t', (size_t)(line + n - t1 - 1)))) {
			weprintf("%s:%ju: match needs 3 fields", r.name, r.lineno);
			*err = 1;
			continue;
		}
		*t2 = '\0';
		d = parsenum(t1 + 1, 0, INT_MAX, &errstr);
		if (errstr) {
			weprintf("%s:%ju: distance '%s' is %s", r.name, r.lineno, t1 + 1, errstr);
			*err = 1;
			continue;
		}
		if (nblocks == 0 || (size_t)(t1 - line) != querylen ||
		    memcmp(line, query, querylen)) {
			if (!startblock(line, (size_t)(t1 - line), &r, err)) {
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
		if (putfield(t2 + 1, (size_t)(line + n - t2 - 1), &r) < 0)
			*err = 1;
		putchar(' ');
	}
	if (rdr_close(&r))
		*err = 1;
	return done;
}

static const char synopsis[] = "[-n count] [file ...]";

static void
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
	for (; !done && argc > 0; argc--, argv++)
		done = fmtresult(*argv, &err);
	enddistline();
	err |= fshut(stdout, "<stdout>");
	return err;
}
