/*
 * hix.h: an exact index of fingerprints under Hamming distance.
 *
 * An index holds fingerprint records (positions 0, 1, ... in input order,
 * each with its ID) and answers "which positions lie within distance d of
 * this fingerprint?" exactly, through tables (multi-index hashing) or by a
 * scan, whichever the plan finds cheaper; both give the same answers.
 * Equal fingerprints are kept once ("distinct values", numbered in
 * ascending order of value).
 */
#ifndef HIX_H
#define HIX_H

#include <stddef.h>
#include <stdint.h>

#include "fp.h"
#include "rdr.h"

struct hix;

/* How lookups go. */
enum { HIX_AUTO, HIX_INDEX, HIX_SCAN };

/*
 * Distinct values within the planned distance of a query, in no set order.
 * The rest is the lookups' own account, which the index reads to review
 * its plan: one struct per thread, zeroed before its first lookup.
 */
struct hixhits {
	uint32_t *u;
	unsigned char *dist;
	size_t n, cap;
	uint64_t work;		/* spent on the lookups through the tables */
	uint64_t nq;		/* lookups through the tables since the last review */
	uint64_t plan;		/* the plan usetab is of (hix_plan numbers them) */
	int usetab;		/* this caller's view of the plan */
};

/* Matches of one query: positions by distance, then position (hix_match). */
struct hixmatch {
	uint64_t *key;		/* distance << 32 | position */
	size_t n, cap;
	struct hixhits h;
};

static inline uint32_t
hix_matchpos(const struct hixmatch *m, size_t i)
{
	return (uint32_t)m->key[i];
}

static inline unsigned
hix_matchdist(const struct hixmatch *m, size_t i)
{
	return (unsigned)(m->key[i] >> 32);
}

/* An empty index; hix_read adds records, hix_finish ends the adding. */
struct hix *hix_new(void);
/*
 * Add the fingerprint records of r (simrec(5)), all of one width; -1 after
 * a diagnostic naming file and line (a bad record, a read error, or more
 * than HIX_MAXFP fingerprints).
 */
int hix_read(struct hix *ix, struct rdr *r);
#define HIX_MAXFP (UINT32_MAX - 2)
void hix_finish(struct hix *ix);
/*
 * The index of path, opened once: an index file (hixfile(5)), mapped, or a
 * file of fingerprint records, read and finished ("-" is stdin). NULL after
 * a diagnostic.
 */
struct hix *hix_load(const char *path);
void hix_free(struct hix *ix);

uint32_t hix_size(const struct hix *ix);	/* positions */
uint32_t hix_ndistinct(const struct hix *ix);
unsigned hix_width(const struct hix *ix);	/* bits; 0 if empty */
/* The ID of position i (escaped, as read). */
const char *hix_id(const struct hix *ix, uint32_t i, size_t *len);
/* The fingerprint of distinct value u, and (after hix_plan) of position i. */
void hix_ufp(const struct hix *ix, uint32_t u, struct fp *f);
void hix_fp(const struct hix *ix, uint32_t i, struct fp *f);
/* The distinct value of position i (after hix_plan). */
uint32_t hix_unique(const struct hix *ix, uint32_t i);

/*
 * Plan lookups within d for about nq queries: by tables (built here if
 * need be, on up to nthreads threads) or by a scan, as mode says; HIX_AUTO
 * compares estimated costs. Returns whether the tables are used. Not while
 * lookups run.
 *
 * The index reviews its plan as it goes: under HIX_AUTO, every
 * HIX_REVIEW lookups through the tables made with one struct hixhits, it
 * compares the work the tables have cost so far (over all callers) with
 * what a scan would have cost, and turns to the scan when the tables cost
 * more (fingerprints far from evenly spread), so that the tables never
 * cost much more than a scan. Answers are the same either way.
 */
int hix_plan(struct hix *ix, unsigned d, double nq, int mode, unsigned nthreads);
enum { HIX_REVIEW = 128 };

/*
 * Append to h the distinct values within the planned d of q. Lookups may
 * run on many threads at once, each with its own h.
 */
void hix_near(struct hix *ix, const struct fp *q, struct hixhits *h);
/*
 * The positions within the planned d of q, after position after (-1 for
 * all), by distance, then position (hix_near through m->h). Its memory is
 * at most 9 bytes per position of the index.
 */
void hix_match(struct hix *ix, const struct fp *q, int64_t after, struct hixmatch *m);
void hix_hitsfree(struct hixhits *h);
void hix_matchfree(struct hixmatch *m);

/* Start fetching what a lookup of q through h will read first (a hint). */
void hix_prefetch(const struct hix *ix, const struct fp *q, const struct hixhits *h);

/*
 * Write the index with its tables for the planned distance to path
 * (hixfile(5)): through a temporary file renamed into place; a symbolic
 * link is followed, and anything but a regular file is refused. -1 after
 * a diagnostic.
 */
int hix_save(const struct hix *ix, const char *path);

#endif
