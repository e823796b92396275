/*
 * hindex.h: an exact index of fingerprints under Hamming distance.
 *
 * The fingerprints are kept once per distinct value ("unique" u, in
 * ascending order), each with the ascending list of its input positions.
 * Lookups within distance d use the pigeonhole principle (multi-index
 * hashing): the free bits are split into d + 1 blocks, and a fingerprint
 * within d of a query agrees with it on at least one block. Each block has
 * a table sorted by block value with a directory on its leading bits; a
 * candidate found through block b counts only if it agrees on no earlier
 * block, so each is reported once. A bucket (block value) holding more than
 * HIX_BIG uniques gets a table group of its own over the remaining bits,
 * so shared block values do not make lookups quadratic.
 *
 * Every array is addressed by offsets, never pointers, so that the index can
 * be written to a file and mapped back (hix_save, hix_open).
 */
#ifndef HINDEX_H
#define HINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "fp.h"

/* A table: entries (uniques) sorted by the value of the bits in mask. */
struct hixtab {
	uint64_t mask[2];	/* the block, in the words of struct fp */
	uint64_t off;		/* first entry in perm, or first unique if HIX_IDENT */
	uint64_t dir;		/* its 2^k + 1 directory entries in dir */
	uint32_t size;		/* entries */
	uint32_t flags;
	uint32_t width;		/* bits in mask */
	uint32_t k;		/* leading block bits the directory decodes */
	uint32_t child;		/* its big buckets: child[child .. child + nchild) */
	uint32_t nchild;
};

enum { HIX_IDENT = 1 };	/* entry i is unique off + i */

/* A group: d + 1 tables over a set of uniques and the free bits of the set. */
struct hixgrp {
	uint32_t tab;		/* tables tab .. tab + ntab - 1 */
	uint32_t ntab;
};

/* A big bucket: entries [start, end) of a table, indexed by group grp. */
struct hixchild {
	uint32_t start, end, grp, pad;
};

/* Where the bits of a block lie: runs inside one word, leftmost first. */
struct hixseg {
	unsigned char word, shift, len;
};

struct hix {
	unsigned m;		/* bits per fingerprint; 0 for an empty index */
	unsigned nw;		/* 64-bit words per fingerprint */
	uint32_t n;		/* fingerprints (positions) */
	uint32_t nu;		/* distinct fingerprints */
	const uint64_t *fw;	/* nu * nw words, the distinct values ascending */
	const uint32_t *ustart;	/* positions of u: upos[ustart[u] .. ustart[u + 1]) */
	const uint32_t *upos;
	const char *idtext;	/* IDs as read (escaped), by position */
	const uint64_t *idbase;	/* ID i starts at idbase[i >> 16] + idrel[i] */
	const uint32_t *idrel;	/* n + 1 entries */
	uint64_t idtextlen;

	/* Tables, valid for distances up to tdist (if hastab). */
	int hastab;
	unsigned tdist;
	uint32_t ngrp, ntab, nchild;
	const struct hixgrp *grp;
	const struct hixtab *tab;
	const struct hixchild *child;
	const uint32_t *perm;
	uint64_t nperm;
	const uint32_t *dir;
	uint64_t ndir;
	struct hixseg (*seg)[8];	/* per table, derived from its mask */
	unsigned char *nseg;

	/* Storage: built in memory (owned arrays) or mapped from a file. */
	void *map;
	size_t maplen;
	struct hixbuild *b;
};

/* Matches of one lookup: uniques and their distances, in no set order. */
struct hixhits {
	uint32_t *u;
	unsigned char *dist;
	size_t n, cap;
};

/* How lookups go. */
enum { HIX_AUTO, HIX_INDEX, HIX_SCAN };

void hix_init(struct hix *ix);
/* Add the next fingerprint (m bits, the same for all) with its ID; -1 if full. */
int hix_add(struct hix *ix, const char *id, size_t idlen, const struct fp *f, unsigned m);
/* After the last hix_add: sort and group the distinct values. */
void hix_finish(struct hix *ix);
/* Build the tables for distances up to d (replacing any); nthreads >= 1. */
void hix_tables(struct hix *ix, unsigned d, unsigned nthreads);
void hix_free(struct hix *ix);

/*
 * Should queries at distance d go through the tables (building them if
 * need be), given about nq queries? Compares the estimated costs of a
 * build plus lookups and of a scan.
 */
int hix_useindex(const struct hix *ix, unsigned d, double nq);

/* Append to h the uniques within d of q: by the tables if usetab, else by a scan. */
void hix_query(const struct hix *ix, const struct fp *q, unsigned d, int usetab,
    struct hixhits *h);

/* Start fetching what a lookup of q will read first (a hint). */
void hix_prefetch(const struct hix *ix, const struct fp *q);

/* The ID of position i (escaped, as read). */
const char *hix_id(const struct hix *ix, uint32_t i, size_t *len);

/* The unique of every position (n entries, malloc'd). */
uint32_t *hix_posunique(const struct hix *ix);

/*
 * Index files. hix_isfile: 1 if path is a regular file starting with the
 * magic number. hix_save and hix_open print "path: what" and return -1 on
 * failure; hix_open checks every size and offset before use.
 */
int hix_isfile(const char *path);
/*
 * The checksum an index file of n bytes keeps of itself (its checksum field
 * taken as zero), and where its header keeps its size and that checksum
 * (64-bit words). For tools that check or re-seal files (the fuzz harness).
 */
enum { HIX_HDRSIZE = 224, HIX_OFFSIZE = 24, HIX_OFFSUM = 32 };
uint64_t hix_checksum(const void *file, size_t n);
int hix_save(const struct hix *ix, const char *path);
int hix_open(struct hix *ix, const char *path);

#endif
