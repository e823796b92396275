/*
 * hix_int.h: the body of struct hix, for lib/hix.c, lib/hix_file.c
 * and the fuzz harnesses only; tools use hix.h.
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
 * so shared block values do not make lookups quadratic. Groups form a tree
 * (each but the first reached from exactly one bucket) at most HIX_DEPTH
 * levels below the first, so one lookup visits a group at most once.
 *
 * Every array is addressed by offsets, never pointers, so that the index
 * can be written to a file and mapped back (lib/hix_file.c, hixfile(5)).
 */
#ifndef HIX_INT_H
#define HIX_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "hix.h"

enum {
	HIX_BIG = 64,		/* a bucket bigger than this gets a group of its own */
	HIX_DEPTH = 3,		/* levels of groups below the first */
	HIX_MAXSEG = 8,		/* runs of bits in a block's mask */
	HIX_SMALL = 16,		/* slots up to this size are scanned, not searched */
	HIX_MAXK = 24,		/* directory bits: at most 64 MiB per table */
	HIX_IDGROUP = 16	/* 2^HIX_IDGROUP IDs share an idbase */
};

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
	/*
	 * The bits are kept in another order: bit j of a fingerprint is bit
	 * bitpos[j] of its stored form, the bits that split the index most
	 * evenly spread out so that every block of every table group gets
	 * some (a prefix that many fingerprints share is no block of its
	 * own). Distances do not change.
	 */
	const unsigned char *bitpos;	/* FP_MAXBITS entries */
	struct hixperm *perms;	/* derived: byte tables to and from the stored order */
	const uint64_t *fw;	/* nu * nw words, the distinct values (stored order) ascending */
	const uint32_t *ustart;	/* positions of u: upos[ustart[u] .. ustart[u + 1]) */
	const uint32_t *upos;
	uint32_t *posu;		/* the unique of each position (derived) */
	const char *idtext;	/* IDs as read (escaped), by position */
	const uint64_t *idbase;	/* ID i starts at idbase[i >> HIX_IDGROUP] + idrel[i] */
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
	struct hixseg (*seg)[HIX_MAXSEG];	/* per table, derived from its mask */
	unsigned char *nseg;

	/* The plan (hix_plan, reviewed by hix_near). */
	unsigned d;		/* the distance lookups are for */
	int mode;
	uint64_t plan;		/* its number, unique in the process */
	pthread_mutex_t lock;	/* over the review: usetab, spent, nspent */
	int usetab;		/* look up through the tables, not by a scan */
	uint64_t spent, nspent;	/* work of the lookups so far, and their number */

	/* Storage: built in memory (owned arrays) or mapped from a file. */
	void *map;
	size_t maplen;
	struct hixbuild *b;
};

/* hix.c, for hix_file.c */
struct hix *hix_alloc(int owned);
/* Is p a permutation of the first m of its FP_MAXBITS entries, the rest fixed? */
int hix_validbitpos(const unsigned char *p, unsigned m);
int hix_mksegs(struct hix *ix);
void hix_derive(struct hix *ix);
/*
 * A lookup of q as hix_near, through the tables (usetab) or by a scan as
 * asked, whatever the plan; its work goes to h->work, and the plan is not
 * reviewed (for the fuzz harnesses, which compare the two).
 */
void hix_lookup(const struct hix *ix, const struct fp *q, int usetab, struct hixhits *h);
/*
 * The checksum an index file of n bytes keeps of itself (its checksum field
 * taken as zero), and where its header keeps its size and that checksum
 * (for the fuzz harness, which re-seals files).
 */
enum { HIX_HDRSIZE = 232, HIX_OFFSIZE = 24, HIX_OFFSUM = 32 };
uint64_t hix_checksum(const void *file, size_t n);

#endif
