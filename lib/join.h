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
#include "sketch.h"

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

/*
 * The inputs are parts of one, their records interleaved (simjoin -i): a
 * place in a part means nothing to a reader, so a duplicate ID is said by
 * the ID ("ID: a duplicate ID: the first is kept"), the first SAID_MAX
 * of them; join_ndup counts them all.
 */
void join_dupbyid(struct join *j);
uintmax_t join_ndup(const struct join *j);

/* join_add each record line of r; returns 1 if one was bad, else 0. */
int join_read(struct join *j, struct rdr *r);

/* The collection is complete: the documents added from now on are queries. */
void join_queries(struct join *j);
/* Keep the sketches in memory whatever their number (a query's join). */
void join_inmemory(struct join *j);

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
 * Verify with procs processes (join_pairs, join_clusters): this one and
 * procs - 1 forked when the verification starts, each taking chunks of
 * the documents in turn; the output is the same as one process's. 0 or
 * 1: this process alone (the default).
 */
void join_procs(struct join *j, unsigned procs);

/*
 * Have join_candidates (and so join_pairs and join_clusters) call
 * tick(done, total, ctx) every 1024 documents it has paired, and at its
 * end, total the documents it pairs (in a query run, the queries).
 */
void join_progress(struct join *j, void (*tick)(size_t, size_t, void *), void *ctx);

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
 * The clusters of the reported pairs (connected components): call
 * doc(d, root, ctx) for each document (in a query run, each query) in
 * input order, root the first document of its cluster. With unique, the
 * documents to keep instead (join_keep), root = d: a chain A~B~C whose A
 * and C are not near-duplicates keeps A and C, though it is one cluster.
 */
void join_clusters(struct join *j, int unique, void (*doc)(uint32_t, uint32_t, void *),
    void *ctx);

/*
 * Which documents to keep, greedy in input order: a document is dropped
 * only if it is a reported near-duplicate of an earlier document that is
 * kept; the collection of a query run is kept. kept is a bitmap of
 * JOIN_KEEPBYTES(join_ndocs) bytes, bit d of byte d / 8 for document d,
 * all set at first. join_keep takes each reported pair a < b, those of
 * each b after those of each a < b; join_candidates' order, whether by a
 * or (a query run) by b, is such an order, and so is any merge of its
 * parts that keeps it. Time is constant per pair; memory one bit a
 * document.
 */
#define JOIN_KEEPBYTES(n)	((n) / 8 + 1)
void join_keep(unsigned char *kept, uint32_t a, uint32_t b);

static inline int
join_kept(const unsigned char *kept, uint32_t d)
{
	return kept[d / 8] >> (d % 8) & 1;
}

/*
 * For a collection held elsewhere (an index, skidx.h): the counts behind
 * the weights come from df: ndistinct, the sketches counted, df(d, k, h)
 * the number of them holding h, the k-th hash of document d (which may
 * say where it is counted), below(h) the number whose reach (their
 * largest hash, UINT64_MAX if whole) is below h. Set before join_count,
 * which then counts the candidate hashes only, for the runs; join_free
 * calls release(df), unless it is NULL.
 */
struct join_df {
	size_t ndistinct;
	uint64_t (*df)(void *ctx, size_t d, unsigned k, uint64_t h);
	size_t (*below)(void *ctx, uint64_t h);
	size_t (*bound)(void *ctx, uint64_t h);	/* at least below(h), cheaper; or NULL */
	void *ctx;
	void (*release)(const struct join_df *df);
};
void join_setdf(struct join *j, const struct join_df *df);

/*
 * Add a document already checked (its sketch s, ID escaped), as join_add
 * does but without its checks: the selection of an index.
 */
void join_addsketch(struct join *j, const struct sketch *s);

/*
 * The sketches' size (of a cut one; 0 if none) and the most hashes of a
 * whole one, which join_add checks each record against: set them from a
 * collection held elsewhere, and get them after loading.
 */
void join_setsize(struct join *j, unsigned size, unsigned maxwhole);
void join_getsize(const struct join *j, unsigned *size, unsigned *maxwhole);

/*
 * Document d's sketch (its ID and hashes point into j): its hashes are
 * read back from where j spilled them, and stay valid until join_sketch
 * has given two others.
 */
void join_sketch(struct join *j, uint32_t d, struct sketch *s);

/* The documents loaded; the ID of document d (escaped, as in its record), *len its length. */
size_t join_ndocs(const struct join *j);
const char *join_id(const struct join *j, uint32_t d, size_t *len);

#endif
