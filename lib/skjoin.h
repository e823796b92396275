/*
 * skjoin.h: the join of simjoin(1) (join.h) split into map and reduce
 * steps over sortable records (simrec(5), "Sharded join records"), so
 * that shards on many machines give the pairs and clusters of one run.
 *
 * Documents are numbered as one run numbers them: the k-th sketch of
 * shard i of n is document i + n k (docsplit -p i/n deals the walk that
 * way). The steps, each a task whose memory depends on its shard:
 *
 *	digest	one per shard: a digest of each sketch, by digest, and a
 *		sample of its hashes.
 *	dedup	one per partition of the digests: the sketches identical
 *		to one before them (repeats), by shard. Identical
 *		sketches count once for the weights (join_int.h).
 *	plan	one: from a sample of the hashes, n ranges of hash
 *		values holding about as many hashes each (bottom-k
 *		hashes crowd the low values): the partitions.
 *	map	one per shard: its sketches' ids, and key records
 *		HASH DOC FLAGS for every hash, partitioned by range and
 *		sorted; the reaches of its distinct cut sketches, by
 *		range, sorted; its totals.
 *	totals	one: the totals of the maps summed, the reaches below
 *		each range.
 *	keys	one per partition, on the merge of its key records and
 *		of the reaches of its range: the candidate pairs of each hash's run
 *		(capped at JOIN_RUNMAX, as join_candidates caps them) and
 *		the weights below 1 of each document holding a hash,
 *		partitioned by document.
 *	send	one per document shard, on the merge of its documents,
 *		weights and pairs keyed by A: A's sketch and weights to
 *		each shard of its partners B, once, with their list.
 *	verify	one per document shard: its documents held, the sketches
 *		sent to it verified against them (join_verify).
 *	clusters	one: union-find on the verified pairs.
 *
 * Every output file of a step is written whole or not at all (afile).
 */
#ifndef SKJOIN_H
#define SKJOIN_H

#include <stdint.h>
#include <stdio.h>

#include "join.h"
#include "rdr.h"

#define SKJ_MAXSHARDS	4096	/* files a step writes at once, one a shard */

struct skj_totals {
	uint64_t ndocs;		/* distinct sketches: the documents the weights count */
	unsigned size;		/* hashes of a cut sketch; 0 if none is cut */
	uint64_t limit;		/* the largest document number + 1 */
};

/*
 * Digests of shard i of n: for each sketch of r, a digest of its shingles
 * and hashes under key (128 bits), to dir/digests.P by the digest modulo
 * n, sorted. Returns 0, or 1 after a diagnostic.
 */
int skj_digest(struct rdr *r, unsigned i, unsigned n, const uint64_t key[2], const char *dir);

/*
 * The digest step also writes dir/sample, its hashes that are 0 modulo
 * 1024, sorted. Plan: from the merged samples at path (read twice), the
 * ranges of the n partitions of the hashes, balanced: n records, the
 * lowest hash of each, to fp. Load them (n of them, the first 0) into
 * *low.
 */
int skj_plan(const char *path, unsigned n, FILE *fp);
int skj_loadranges(const char *path, unsigned n, uint64_t **low);

/*
 * Repeats of a partition of the digests (their merge read from in): each
 * sketch identical to one before it, to dir/repeats.Q, Q its shard.
 */
int skj_dedup(struct rdr *in, unsigned n, const char *dir);

/*
 * Map shard i of n: the sketch records of r, the repeats of the shard
 * (merged, ascending; NULL: none); keys and reaches partitioned by the
 * ranges low; outputs in dir (ids, keys.P, reach.P, totals), with rcount,
 * the reaches of each range.
 */
int skj_map(struct rdr *r, struct rdr *repeats, const uint64_t *low, unsigned i, unsigned n,
    unsigned minsize, const char *dir);

/*
 * The sketch records of shard i of n (r) as document records, numbered as
 * the map numbers them, to fp: what send and verify merge with the
 * weights and pairs, made again from the sketches rather than kept.
 */
int skj_docs(struct rdr *r, unsigned i, unsigned n, FILE *fp);

/* The reach counts of the maps, concatenated: for each range, the reaches below it, to fp. */
int skj_bases(struct rdr *r, unsigned n, FILE *fp);

/* Sum the totals records of r into *t. Returns 0, or 1 after a diagnostic. */
int skj_sum(struct rdr *r, struct skj_totals *t);
/* Read the totals record at path. Returns 0, or 1 after a diagnostic. */
int skj_loadtotals(const char *path, struct skj_totals *t);
void skj_puttotals(const struct skj_totals *t, FILE *fp);

/*
 * Reduce the merged key records of one partition (in), with the merged
 * reaches of its range and base, the number of reaches below it:
 * candidate pairs and weights to dir, as pairs.Q and weights.Q, Q the
 * document's shard of n.
 */
int skj_keys(struct rdr *in, struct rdr *reach, uint64_t base, const struct skj_totals *t,
    unsigned rarity, unsigned n, const char *dir);

/*
 * Send: on the merged records of a document shard (documents, weights,
 * candidate pairs keyed by A), each A's sketch and weights, once to each
 * shard of its partners B, with the list of them: dir/sent.Q.
 */
int skj_send(struct rdr *in, const struct skj_totals *t, unsigned n, const char *dir);

/*
 * Verify: the documents and weights of one shard read from in, held in
 * memory; then the sketches sent to it, merged, from sent: the pairs
 * reported, to fp, by A then B.
 */
int skj_verify(struct rdr *in, struct rdr *sent, const struct skj_totals *t,
    const struct join_opt *opt, FILE *fp);

/*
 * The clusters of the verified pairs read from pairs (sorted by their
 * first document), over the ID records of in (in document order): as
 * join_clusters gives them, to out; with unique, the documents to keep,
 * greedy in input order (join_keep).
 */
int skj_clusters(struct rdr *pairs, struct rdr *in, const struct skj_totals *t, int unique,
    FILE *out);

#endif
