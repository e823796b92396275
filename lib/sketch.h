/*
 * sketch.h: bottom-k sketches of a page's set of word shingles (Broder,
 * "On the resemblance and containment of documents", 1997), as written by
 * sketch(1) and read by simjoin(1); the record is in simrec(5).
 *
 * A shingle is k consecutive words of the page as tok.h (TOK_UNICODE) cuts
 * them; a page of fewer than k words, but at least one, has one shingle of
 * all its words. Each word gets the SipHash-1-3 of its bytes under the key
 * (seed, ~seed); a shingle of words with hashes w1..wk gets
 *	mix(w1 * P^(k-1) + w2 * P^(k-2) + ... + wk)   (mod 2^64)
 * with P = 0x9e3779b97f4a7c15 and mix the bijective finalizer of
 * SplitMix64, so that a window slides in constant time. The sketch is the
 * `size` smallest distinct shingle hashes of the page, ascending, with the
 * number of distinct shingles.
 */
#ifndef SKETCH_H
#define SKETCH_H

#include <stddef.h>
#include <stdint.h>

#include "rdr.h"
#include "tok.h"
#include "util.h"

#define SK_MAXK		16	/* words per shingle */
#define SK_MAXSIZE	256	/* hashes per sketch: 2 KB */

struct sketch {
	const char *id;		/* escaped, as in the record */
	size_t idlen;
	uint64_t nshingles;	/* distinct shingles of the page */
	unsigned n;		/* hashes in h: min(nshingles, size) */
	uint64_t *h;		/* ascending */
};

struct skbuild;

/* A builder for shingles of k words and sketches of size hashes under seed. */
struct skbuild *skb_new(unsigned k, unsigned size, uint64_t seed);
void skb_free(struct skbuild *b);
/* Start a page. */
void skb_begin(struct skbuild *b);
/* Feed a chunk of the page's escaped text (simrec(5)), of any size. */
void skb_feed(struct skbuild *b, const char *p, size_t n);
/*
 * End the page: s gets its sketch (s->h valid until the next skb_begin).
 * Returns -1 if the text held a bad escape, else 0.
 */
int skb_end(struct skbuild *b, struct sketch *s);

/*
 * Sketch each page record of r (simrec(5)), read in chunks of any length,
 * and append its sketch record to out. A bad record (no TAB, a bad
 * escape) is reported, naming r's file and line, and not written. After
 * each record that had its TAB, written or not, done(ctx) is called if
 * done is not NULL (to flush out, count, show progress). Returns 1 if a record was bad,
 * else 0; a read error is rdr_close's to report.
 */
int skb_records(struct skbuild *b, struct rdr *r, struct obuf *out,
    void (*done)(void *), void *ctx);

/*
 * The definitions above, one at a time (the builder slides a window): the
 * hash of the word w[0..n) under seed, and of a shingle of k words whose
 * hashes are wh[0..k).
 */
uint64_t sketch_wordhash(uint64_t seed, const char *w, size_t n);
uint64_t sketch_shingle(const uint64_t *wh, unsigned k);

/* Append the record ID<TAB>NSHINGLES<TAB>HASHES of s, with its LF. */
void sketch_write(struct obuf *out, const struct sketch *s);

/*
 * Parse the sketch record line[0..n) into s, whose hashes go to h (room
 * for SK_MAXSIZE); s->id points into line. Returns 0, or -1 after a
 * diagnostic naming r's file and line.
 */
int sketch_parse(struct rdr *r, char *line, size_t n, struct sketch *s, uint64_t *h);

#endif
