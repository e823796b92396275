/*
 * skidx.h: a kept collection of sketches as an index file (skidx(5)), so
 * that a query batch reads only what it needs and an addition appends a
 * segment: the sketches by offset, their IDs, the candidate postings of
 * their JOIN_PREFIX smallest hashes, and the counts behind the weights
 * (join_int.h), each segment holding those of the hashes it changes.
 *
 * A batch (a struct join of its records, loaded as a collection with
 * join_setsize from skidx_size) replaces the kept documents of its IDs,
 * as simjoin -q does: skidx_query answers it as simjoin over the kept
 * documents and the batch would; skidx_append appends it as a segment.
 */
#ifndef SKIDX_H
#define SKIDX_H

#include <stdint.h>

#include "join.h"
#include "sketch.h"
#include "util.h"

#define SKIDX_SEGMAX	32	/* segments in one index: more are refused */
#define SKIDX_VERSION	2	/* of the files written; version 1 is read */

struct skidx;

/*
 * Map the first len bytes of the index file fd (named name; len 0: all
 * of it) and check its structure. NULL after a one-line diagnostic.
 */
struct skidx *skidx_open(int fd, const char *name, uint64_t len);
void skidx_close(struct skidx *x);

/*
 * The file's version. Of an older one, skidx_query joins all the kept
 * documents, and skidx_append refuses to add to it: skidx_whole makes
 * it anew.
 */
unsigned skidx_version(const struct skidx *x);

/* The segments; the kept documents' size and most hashes of a whole sketch (join_setsize). */
unsigned skidx_nseg(const struct skidx *x);
void skidx_size(const struct skidx *x, unsigned *size, unsigned *maxwhole);

/* Append the sketch record of each kept document, in order, to out (flushed to fp). 0 or -1. */
int skidx_dump(struct skidx *x, struct obuf *out, FILE *fp);

/*
 * The join of the batch b against x (NULL: an empty index), as simjoin
 * -q would make it over the kept documents and b: the kept documents it
 * needs, then b's, with the counts of them all. Use it as join_prepare
 * left it (join_pairs, join_clusters); NULL if the index is forged.
 */
struct join *skidx_query(struct skidx *x, struct join *b, const struct join_opt *opt);

/*
 * Append the batch b to the index file fd (named name) as a segment after
 * x's bytes (x NULL: a new file, written from its start); b replaces the
 * kept documents of its IDs. Returns the new length of the index, made
 * durable, or 0 after a diagnostic.
 */
uint64_t skidx_append(struct skidx *x, int fd, const char *name, struct join *b);

/*
 * The kept documents of x that b does not replace, then b's, as one
 * batch for a new index (the compaction of x with b); NULL if forged.
 */
struct join *skidx_whole(struct skidx *x, struct join *b);

#endif
