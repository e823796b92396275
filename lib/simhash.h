/*
 * simhash.h: simhash fingerprints of weighted features (Charikar, 2002),
 * and I-Match signatures (Chowdhury, Frieder, Grossman and McCabe, 2002),
 * as fphash(1) computes them.
 *
 * A fingerprinter knows its features (ids 0, 1, ... of a word table), the
 * M-bit row of each (a given table, or the SipHash-2-4 of the feature's
 * word), how counts become weights, and for -w tfidf and imatch the
 * document frequencies. A page's counts are added feature by feature;
 * simh_finish then gives its fingerprint and starts the next page.
 */
#ifndef SIMHASH_H
#define SIMHASH_H

#include <stddef.h>
#include <stdint.h>

#include "fp.h"
#include "wtab.h"

struct simh;

/* How a count c becomes a weight (fphash(1) -w). */
enum {
	SIMH_RAW,		/* c */
	SIMH_LOG,		/* 1 + ln c */
	SIMH_BIN,		/* 1 */
	SIMH_TFIDF,		/* (1 + ln c) (1 + ln ((N + 1) / (DF + 1))) */
	SIMH_IMATCH		/* no weight: the I-Match signature instead */
};

/* The default IDF band of SIMH_IMATCH, in percent of the largest IDF. */
enum { SIMH_IMATCH_LO = 80, SIMH_IMATCH_HI = 95 };

/*
 * A fingerprinter of m bits (1 to FP_MAXBITS), with no feature yet; (k0,
 * k1) is the key of simh_hash for hashed rows and I-Match signatures.
 */
struct simh *simh_new(unsigned m, int weighting, uint64_t k0, uint64_t k1);
void simh_free(struct simh *s);

/*
 * The features: s takes the table t (t must be initialized again before
 * any other use). Without a call, s has no feature.
 */
void simh_features(struct simh *s, struct wtab *t);

/*
 * The rows: s takes rows[0 .. n), n at least the number of features, bits
 * past M 0; or with simh_hashrows, the row of a feature is the hash of
 * its word (simh_hash under the key), and with open set every item added is a feature,
 * added as it first comes. One of the two, after simh_features, before
 * the first page.
 */
void simh_rows(struct simh *s, struct fp *rows, size_t n);
void simh_hashrows(struct simh *s, int open);

/*
 * The M-bit hash of the n bytes at w under key (k0, k1) (fphash(1) -H):
 * bit j (from 0 at the left) is bit j, counted from the least significant,
 * of their SipHash-2-4 (M <= 64), or of the first half of their
 * SipHash-2-4-128 for j < 64 and of the second for j >= 64 (M > 64).
 */
void simh_hash(struct fp *f, unsigned m, uint64_t k0, uint64_t k1, const char *w, size_t n);

/*
 * Document frequencies (SIMH_TFIDF, SIMH_IMATCH): add c documents to word
 * w's, or to the number of documents N. Returns -1, adding nothing, if the
 * sum would pass LLONG_MAX. simh_hasdocs: whether N was given.
 */
int simh_adddf(struct simh *s, const char *w, size_t n, uint64_t c);
int simh_addndocs(struct simh *s, uint64_t c);
int simh_hasdocs(const struct simh *s);

/*
 * The IDF band of SIMH_IMATCH, in percent (0 <= lo <= hi <= 100): the
 * features kept are those whose normalized IDF, ln(N / DF) / ln(N), lies
 * in [lo, hi] percent.
 */
void simh_band(struct simh *s, unsigned lo, unsigned hi);

/*
 * Add c occurrences of the n bytes at w to the page (nothing if w is no
 * feature). Returns -1 if the feature's count passes INT64_MAX / 4; the
 * page must then be dropped (simh_drop).
 */
int simh_add(struct simh *s, const char *w, size_t n, uint64_t c);

/*
 * simh_add of n items at once, item i being the len[i] bytes at buf +
 * off[i] with count c[i]: their features are looked up together
 * (wtab_batch), which a table larger than the caches pays for. Returns n,
 * or the index of the item whose count passed INT64_MAX / 4 (the items
 * after it are not added; the page must be dropped).
 */
size_t simh_addbatch(struct simh *s, const char *buf, const size_t *off, const size_t *len,
    const uint64_t *c, size_t n);

/*
 * The id of feature w (WTAB_NONE if w is no feature), for simh_addids;
 * with open features (simh_hashrows), the ids of the words added so far.
 */
uint32_t simh_find(struct simh *s, const char *w, size_t n);

/*
 * simh_add of n features given by id (from simh_find; WTAB_NONE is no
 * feature), feature ids[i] with count c[i]. Returns n, or the index of
 * the item whose count passed INT64_MAX / 4 (as simh_addbatch).
 */
size_t simh_addids(struct simh *s, const uint32_t *ids, const uint64_t *c, size_t n);

/*
 * The page's fingerprint, or under SIMH_IMATCH its signature (the hash
 * of the words kept, in byte order, each followed by a LF), into f; the
 * next page starts empty. Returns 1; 0 under SIMH_IMATCH if no feature of
 * the page lies in the band (no signature); -1 if the page's total weight
 * passes INT64_MAX / 4.
 */
int simh_finish(struct simh *s, struct fp *f);

/* Forget the page's counts (after simh_add failed). */
void simh_drop(struct simh *s);

#endif
