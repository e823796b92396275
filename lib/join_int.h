/*
 * join_int.h: the inside of struct join (join.h), for join.c and for the
 * fuzz harness that checks it against a scan. Nobody else may use it.
 */
#ifndef JOIN_INT_H
#define JOIN_INT_H

#include <sys/types.h>

#include <stdio.h>

#include "hfilter.h"
#include "join.h"
#include "util.h"
#include "wtab.h"

/*
 * The counts behind the weights (join_count), over the documents loaded
 * after join_end (in a query run, the collection and the queries, after
 * the replacement). Two sketches are identical if they have the same
 * number of shingles and the same hashes; a set of identical sketches
 * (exact copies of a page) counts once, so that no weight, and no SIM,
 * depends on how many copies of a page exist:
 *	ndistinct	the number of distinct sketches;
 *	df of a hash	the number of distinct sketches holding it
 *			(sharedn; 1 if it is not among the shared);
 *	reach		the largest hash each distinct sketch could hold:
 *			its last hash if it is cut, else UINT64_MAX (a
 *			whole sketch holds every hash of its page).
 * A hash h weighs min(1, rarity / (df * ndistinct / c)), c the number of
 * distinct sketches whose reach is at least h; 1 with rarity 0.
 * A join split over processes must count the same way to give the same
 * weights.
 */

/*
 * The sketches' hashes are spilled to a temporary file as they are added
 * (at hoff[d], counted in 8-byte words), so that memory holds none of
 * them, each followed by room for its weights (4 bytes each, 0 until
 * made): they are read back in document order through windows of the
 * file, and the sketches of a pair to verify into slots, with their
 * weights, a slot chosen by the document number; the weights a slot made
 * go back to the file when it is refilled.
 */
#define JOIN_WIN	32768	/* hashes a window maps: 256 kB */
/*
 * Up to JOIN_MEMMAX words the "file" is memory (no system calls); past
 * it, what memory held goes to the file. join_inmemory lifts the limit.
 */
#define JOIN_MEMMAX	((size_t)1 << 20)	/* 8 MB */
#define JOIN_SLOTS	512	/* sketches read back for verification */
#define JOIN_CHUNKS	128	/* verifypar's chunks at most: a byte each in a pipe */
#define JOIN_DOCCOST	8	/* a document's cost to verifypar's chunks, in pairs */
#define JOIN_WEIGHALL	32	/* pairs a document foretold that make verifypar weigh all first */
#define JOIN_PARMIN	64	/* documents that verifypar verifies at least */
#define JOIN_ONEMAX	16	/* counts whose weight of 1 a bound of the hash tells */

struct join_win {
	void *map;		/* the file's bytes mapped, maplen of them */
	size_t maplen;
	const uint64_t *h;
	size_t start, n;	/* the file's hashes start .. start + n */
	unsigned long used;	/* when last read: the older of two is refilled */
};

struct join_slot {
	size_t d;		/* SIZE_MAX: empty */
	const uint64_t *h;	/* its hashes: hbuf, or memory's words */
	float *w;		/* its weights: wbuf, or memory's words */
	uint64_t hbuf[SK_MAXSIZE + SK_MAXSIZE / 2];	/* and the weights as read */
	float wbuf[SK_MAXSIZE];
	int dirty;		/* weights in wbuf made since it was read */
};

/*
 * A sketch's hashes placed by a keyed multiply in a table twice its
 * largest size, and marked in a filter of 16 bits a hash, so that a
 * pair's shared hashes are counted by lookups that do not wait on each
 * other, and most of them end at a bit (hopeless).
 */
#define JOIN_HELDBITS	9
#define JOIN_FILTERBITS	12
struct join_held {
	size_t d;		/* whose hashes; SIZE_MAX: none */
	uint64_t key;		/* odd */
	uint64_t filter[(1 << JOIN_FILTERBITS) / 64];
	uint16_t at[1 << JOIN_HELDBITS];	/* k + 1 of its hash h[k]; 0: none */
};

struct join {
	struct join_opt opt;
	int queries;		/* the documents from ncoll on are queries */
	void (*tick)(size_t, size_t, void *);	/* join_progress */
	void *tickctx;
	unsigned procs;		/* processes that verify (join_procs) */
	int nowrite;		/* weights made are not written back (verifypar) */
	pid_t parent;		/* verifypar's process that forked this one, or 0 */

	/* The documents, in input order: the collection, then the queries. */
	struct obuf ids;	/* their IDs, back to back */
	size_t *idoff;
	uint64_t *nsh;		/* distinct shingles */
	size_t *hoff;		/* where its hashes start in the spill file */
	unsigned *hn;
	uint64_t *digest;	/* of its sketch, for the identical ones (join_count) */
	size_t ndocs, doccap, nhv, ncoll;	/* nhv: the hashes of all sketches */
	unsigned size;		/* the sketches' size, from a cut one; 0 if none */
	unsigned maxwhole;	/* the most hashes of a whole sketch */

	/* The hashes, in the spill file, and what is read back of them. */
	FILE *spill;
	uint64_t *mem;		/* the file's words while there is none */
	size_t memlen, memcap, memmax;
	uint64_t *wbuf;		/* the hashes not written yet, at spilled */
	size_t spilled, nwbuf;
	uint64_t dk0, dk1;	/* the digests' key */
	struct join_win win[3];	/* 0, 1: join_sketch; 2: the passes in order */
	unsigned long winclock;
	struct join_slot *slot;
	struct join_held *held;	/* one side of the pairs being verified */
	size_t lastb;		/* the second document of the last pair bounded */
	/*
	 * While a block of pairs is screened, the words of the documents
	 * they have in common, blkstart .. blkstart + blklen of the file,
	 * read at once; their slots point into it, and it goes back to the
	 * file when the block is done, with the weights made.
	 */
	uint64_t *blk;
	size_t blkstart, blklen, blkcap;
	int blkdirty;

	/*
	 * The IDs of the input being read (the collection, or the
	 * queries), and by wtab id where each was first seen.
	 */
	struct wtab seen;
	const char **seenfile;
	uintmax_t *seenline;
	size_t seencap;
	int dupbyid;		/* join_dupbyid */
	uintmax_t ndup;

	/*
	 * The hashes held by more than one sketch, sorted by their low 4
	 * bits, then the others (sharedkey: the hash rotated so), with no
	 * slot to spare: the number of distinct sketches holding each,
	 * for its weight, and where its candidate run is: the documents
	 * (copies too) that hold it among their JOIN_PREFIX smallest and
	 * may pair, in input order, post[runend - ncand .. runend). A
	 * search is in the bucket of the key's top sharedidxbits bits.
	 */
	uint64_t *sharedkey;
	uint32_t *sharedn, *ncand;
	size_t *runend, nshared;
	size_t *sharedidx;
	unsigned sharedidxbits;
	struct hfilter sharedf;	/* the shared hashes, 8 bits each: most hashes are not */
	uint32_t *post;		/* the candidate runs */
	size_t ndistinct;	/* distinct sketches, for the weights (above) */
	uint64_t *reach;	/* each distinct sketch's largest hash it could hold, sorted */
	uint32_t *reachidx;	/* where each bucket of hashes starts in reach */
	unsigned reachbits;	/* 2^reachbits buckets, about one a sketch */
	/*
	 * weighsone[c]: a hash held by c sketches (1 <= c <= JOIN_ONEMAX)
	 * weighs 1 if it is at most this, whatever the search of reach
	 * would find (reachsort)
	 */
	uint64_t weighsone[JOIN_ONEMAX + 1];
	uint32_t weighsmask;	/* bit c: weighsone[c] is one */
	const struct join_df *ext;	/* the counts, from elsewhere (join_setdf) */
};

/*
 * The weights of document d's hashes, valid until the next sketch is
 * read back for verification (join_similar, join_pairs, join_weights).
 */
const float *join_weights(struct join *j, size_t d);

#endif
