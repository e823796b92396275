/*
 * fp.h: the fingerprint type. An M-bit fingerprint (1 <= M <= 128) is kept
 * as two 64-bit words, bit j of the text form (counted from 0 at the left)
 * in bit 63 - j % 64 of w[j / 64]; unused bits are 0. So comparing the
 * words compares the text forms, and distances are popcounts.
 */
#ifndef FP_H
#define FP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rdr.h"

#define FP_MAXBITS 128

struct fp {
	uint64_t w[2];
};

static inline unsigned
popcount64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return (unsigned)__builtin_popcountll(x);
#else
	x -= (x >> 1) & 0x5555555555555555u;
	x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return (unsigned)((x * 0x0101010101010101u) >> 56);
#endif
}

static inline unsigned
fp_dist(const struct fp *a, const struct fp *b)
{
	return popcount64(a->w[0] ^ b->w[0]) + popcount64(a->w[1] ^ b->w[1]);
}

static inline void
fp_setbit(struct fp *f, unsigned j)
{
	f->w[j >> 6] |= (uint64_t)1 << (63 - (j & 63));
}

/* Write the M characters 0/1 of f. */
void fp_write(const struct fp *f, unsigned m, FILE *out);

/*
 * A fingerprint record "ID<TAB>BITS" (simrec(5)). fprec_read reads the next
 * one from r into rec; rec->id points into r's buffer until the next read.
 * *width is the width of the file: 0 before the first record, which sets it.
 * Returns 1 for a record, 0 at end of input, -1 after a diagnostic naming
 * file and line.
 */
struct fprec {
	const char *id;
	size_t idlen;
	struct fp fp;
};

int fprec_read(struct rdr *r, struct fprec *rec, unsigned *width);

/*
 * A match record "ID<TAB>DIST<TAB>ID" or the header record "ID" of a query
 * (simrec(5)). matchrec_read reads the next one from r into m: a header
 * has dist -1 and an empty id. IDs point into r's buffer, still escaped,
 * until the next read; a TAB more is a bad record, and DIST is a decimal
 * number from 0 to FP_MAXBITS. Returns 1 for a record, 0 at end of input,
 * -1 after a diagnostic naming file and line (a read error sets r->err;
 * after a bad record the next one may be read).
 */
struct matchrec {
	const char *q, *id;
	size_t qlen, idlen;
	int dist;
};

int matchrec_read(struct rdr *r, struct matchrec *m);

#endif
