/*
 * pagerec.h: page records "ID<TAB>TEXT" (simrec(5)), whole (a line of
 * rdr_line) or as a stream, for the filters that take a page's text in
 * chunks of any length (rdr_chunk): the ID is gathered whole first, then
 * the text comes as it is read.
 */
#ifndef PAGEREC_H
#define PAGEREC_H

#include <stddef.h>

#include "rdr.h"
#include "util.h"

/* All zero (a static) is ready for the first record. */
struct pagerec {
	struct obuf id;		/* the page ID, escaped as read */
	int intext;		/* the ID is whole: the text is coming */
	int bad;		/* the record is bad (said): report, do not write it */
};

void pagerec_free(struct pagerec *pr);

/*
 * Take a chunk *p, *n of r from rdr_chunk (eol as it set it). Returns 1
 * when *p, *n now hold text of the page (0 bytes or more; the ID is then
 * whole in pr->id), 0 when the chunk was all ID, and -1 when the line
 * ended without a TAB (said; the record is gone). A bad escape in the ID
 * is said and sets pr->bad.
 */
int pagerec_chunk(struct pagerec *pr, struct rdr *r, const char **p, ptrdiff_t *n, int eol);

/* The record has ended: start the next one. */
void pagerec_next(struct pagerec *pr);

/*
 * A whole page record, line[0..n) from rdr_line: *idlen gets the length
 * of its ID (escaped, at line) and *text its text, decoded in place.
 * Returns the text's length, or -1 after a diagnostic naming r's file and
 * line.
 */
ptrdiff_t pagerec_split(struct rdr *r, char *line, size_t n, size_t *idlen, char **text);

#endif
