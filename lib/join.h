/*
 * join.h: the near-duplicate join of simjoin(1): bottom-k sketches
 * (sketch.h) loaded as documents, candidate pairs from shared hashes,
 * verified by an estimate of rarity-weighted Jaccard similarity (and
 * optionally of containment).
 *
 * Documents are numbered from 0 in input order: the collection, then the
 * queries. An ID is a key: a duplicate within one input is reported and
 * skipped; a query replaces the collection's document of its ID.
 *
 * Use: join_new; join_add each record of the collection; for a query
 * run, join_queries, then join_add each query; then join_prepare (or its
 * steps: join_end, join_count, join_runs); then join_pairs or
 * join_clusters (or join_candidates and join_similar). The steps are
 * separate so that a join spread over processes can run them apart.
 */
#ifndef JOIN_H
#define JOIN_H

#include <stddef.h>
#include <stdint.h>

#include "rdr.h"

#define JOIN_PREFIX	32	/* hashes of each sketch that make candidates */
#define JOIN_RUNMAX	128	/* documents sharing a hash paired with each other */

struct join_opt {
	double thresh;		/* weighted Jaccard similarity that reports a pair */
	double cthresh;		/* containment that also reports one; < 0: none */
	unsigned rarity;	/* a shingle in more documents weighs less; 0: all weigh 1 */
	unsigned minsize;	/* shingles a document needs to be paired */
};

struct join;

struct join *join_new(const struct join_opt *opt);
void join_free(struct join *j);

/*
 * Add the sketch record line[0..n), read at r's current line. Returns 0,
 * or 1 if the record is bad or its ID already seen in this input (said,
 * naming r's file and line; the record is skipped). r->name must stay
 * valid until join_end.
 */
int join_add(struct join *j, struct rdr *r, char *line, size_t n);

/* join_add each record line of r; returns 1 if one was bad, else 0. */
int join_read(struct join *j, struct rdr *r);

/* The collection is complete: the documents added from now on are queries. */
void join_queries(struct join *j);

/* Loading is over: the queries replace the collection's documents of their IDs. */
void join_end(struct join *j);

/*
 * Document frequencies: count the hashes held by more than one sketch,
 * and the sketches' reach (the largest hash each could hold), for the
 * weights, over distinct sketches: identical sketches (exact copies of a
 * page) count once, so that a pair's SIM does not depend on how many
 * copies of its pages exist (join_int.h says exactly what is counted).
 * Memory beyond the sketches stays small: the hashes are counted a
 * sixteenth at a time, by their low 4 bits.
 */
void join_count(struct join *j);

/* Candidate runs: for each shared hash, the documents holding it among their JOIN_PREFIX smallest. */
void join_runs(struct join *j);

/* join_end, join_count, join_runs. */
void join_prepare(struct join *j);

/*
 * Call visit(a, b, ctx) for each candidate pair of documents a < b, each
 * once, in output order (by a then b; in a query run only pairs whose b
 * is a query, by b then a): those that share one of the JOIN_PREFIX
 * smallest hashes of each. A hash shared by more than JOIN_RUNMAX
 * documents pairs each of them with the first JOIN_RUNMAX only, in
 * document order. Time is linear in the number of pairs made; memory
 * holds one document's partners.
 */
void join_candidates(struct join *j, void (*visit)(uint32_t, uint32_t, void *), void *ctx);

/*
 * Verify the pair of documents a < b: 1 if it is to be reported (*sim
 * gets its weighted similarity, from 0 to 1), else 0.
 */
int join_similar(struct join *j, uint32_t a, uint32_t b, double *sim);

/*
 * The weight of a hash held by count of ndocs sketches, can of them able
 * to hold it (their largest hash is at least it): min(1, rarity / df), df
 * = count * ndocs / can, the documents estimated to hold its shingle. The
 * sketches are the distinct ones (join_int.h).
 */
double join_weight(unsigned rarity, uint64_t count, uint64_t ndocs, uint64_t can);

/* A sketch as the verification sees it: n hashes h, ascending, their weights w. */
struct join_sketch {
	const uint64_t *h;
	const float *w;
	unsigned n;
	uint64_t nsh;		/* distinct shingles */
};

/*
 * join_similar of two sketches given whole, size the size of the cut
 * sketches (0 if none is): the one verification, for simjoin and the
 * sharded join (skjoin.h) alike.
 */
int join_verify(const struct join_opt *opt, unsigned size, const struct join_sketch *a,
    const struct join_sketch *b, double *sim);

/*
 * Call pair(first, second, sim, ctx) for each reported pair, in output
 * order; in a query run first is the query.
 */
void join_pairs(struct join *j, void (*pair)(uint32_t, uint32_t, double, void *), void *ctx);

/*
 * The clusters of the reported pairs: call doc(d, root, ctx) for each
 * document (in a query run, each query) in input order, root the first
 * document of its cluster; with unique, for the roots only (the documents
 * to keep).
 */
void join_clusters(struct join *j, int unique, void (*doc)(uint32_t, uint32_t, void *),
    void *ctx);

/* The documents loaded; the ID of document d (escaped, as in its record), *len its length. */
size_t join_ndocs(const struct join *j);
const char *join_id(const struct join *j, uint32_t d, size_t *len);

#endif
