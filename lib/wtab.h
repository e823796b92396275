/* wtab.h: word tables: interning of byte strings to dense ids 0, 1, 2, ... */
#ifndef WTAB_H
#define WTAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WTAB_NONE UINT32_MAX

/*
 * A slot holds the word's key: its length (up to 255) in the top byte and
 * its first 7 bytes below, so that a word of up to 7 bytes (most words of
 * text) is found with no access beyond its slot; and 32 bits of its hash.
 *
 * No input makes the table slow (hash flooding): the time to count words
 * is linear in the input whatever the words. A table starts with a fast
 * keyed hash (a multiply and fold over the word's 8-byte blocks, wtab.c)
 * under a key drawn at random once per process, and keeps it as long as
 * no lookup looks at more than WTAB_MAXPROBE slots. At most half of the
 * slots are full, and random hashes make a run of 256 full slots with a
 * probability below 10^-11 even in a table of 2^32 slots, so only words
 * made to collide get there; then the table is rebuilt once under SipHash-1-3
 * (Aumasson and Bernstein's keyed pseudorandom function, one compression
 * and three finalization rounds, under its own random key), whose
 * collisions cannot be made without the key, and stays on it. A lookup
 * therefore costs at most WTAB_MAXPROBE slots, plus one rebuild, linear in
 * the table, in the life of the table. Ids and every output follow the
 * order of addition, never the keys or the hash in use.
 */
#define WTAB_MAXPROBE 256

struct wslot {
	uint64_t key;
	uint32_t hash;
	uint32_t id1;		/* id + 1; 0 is an empty slot */
};

struct wtab {
	struct wslot *slot;
	size_t mask;
	char *text;		/* the words, NUL-terminated, back to back */
	size_t textlen, textcap;
	/*
	 * By id: where the word starts in text. Its length is where the
	 * next one starts (textlen for the last), less its NUL.
	 */
	size_t *off;
	size_t n, cap;
	size_t maxprobe;	/* WTAB_MAXPROBE, or a test's (wtab_setmaxprobe) */
	int sip;		/* the hash is SipHash-1-3, not the fast hash */
};

void wtab_init(struct wtab *t);
void wtab_free(struct wtab *t);
/* The id of word w, adding it if absent (ids count up from 0 in order of addition). */
uint32_t wtab_intern(struct wtab *t, const char *w, size_t n);
/*
 * The id of w, or WTAB_NONE. A lookup may rebuild the table (the change to
 * SipHash), so t is not const and two threads never search one table at once.
 */
uint32_t wtab_find(struct wtab *t, const char *w, size_t n);
/*
 * For tests: leave the fast hash once a lookup looks at more than maxprobe
 * slots (0: at the first lookup), so that the rebuild under SipHash can be
 * seen to keep every id (wtabstat -m, the wtab fuzz harness).
 */
void wtab_setmaxprobe(struct wtab *t, size_t maxprobe);

/*
 * Lookups with the hashing done ahead: wtab_prepare hashes w and asks the
 * memory for its slot, so that a caller holding many words (a batch) can
 * hash them all, then look them up while their slots arrive, instead of
 * waiting for every slot in turn. A reference stays valid across additions,
 * and across the change to SipHash (it is hashed again).
 */
struct wref {
	uint64_t key;
	uint32_t hash;
	int sip;		/* the hash is SipHash */
};

void wtab_prepare(const struct wtab *t, struct wref *r, const char *w, size_t n);
uint32_t wtab_intern_ref(struct wtab *t, const struct wref *r, const char *w, size_t n);
uint32_t wtab_find_ref(struct wtab *t, const struct wref *r, const char *w, size_t n);

/*
 * The ids of a batch of n words, word i the len[i] bytes at buf + off[i],
 * into ids[0 .. n): those wtab_intern would give them one after the other,
 * or with findonly set those of wtab_find. In a table larger than the
 * caches every word is hashed and its slot asked for first (wtab_prepare),
 * then looked up while the slots arrive, instead of waiting for each slot
 * in turn; a smaller table takes them one at a time.
 */
void wtab_batch(struct wtab *t, int findonly, const char *buf, const size_t *off,
    const size_t *len, size_t n, uint32_t *ids);

/* The number of words: ids are 0 to wtab_size(t) - 1. */
static inline size_t
wtab_size(const struct wtab *t)
{
	return t->n;
}

static inline const char *
wtab_word(const struct wtab *t, uint32_t id, size_t *n)
{
	*n = (id + 1 < t->n ? t->off[id + 1] : t->textlen) - t->off[id] - 1;
	return t->text + t->off[id];
}

/*
 * The limit most counted of the n words ids[0 .. n) of t, word id counted
 * count[id] times, written to fp as "WORD<TAB>COUNT" lines in rank order:
 * count descending, then the word's bytes ascending (topn(1)); the order
 * of ids does not matter. Time: linear in n, and n log limit at most for
 * the words counted as often as the limit-th; memory: 8 bytes a word,
 * then 24 bytes for each of the min(n, limit) written.
 */
void wtab_top(const struct wtab *t, const unsigned long long *count, const uint32_t *ids,
    size_t n, unsigned long long limit, FILE *fp);

/*
 * Loaders. wtab_load_words adds every whitespace-separated word of path
 * (a stopword list); wtab_load_lines adds the first TAB-separated field of
 * every line (a word list such as topn(1) output), in line order. Words are
 * lowercased and a trailing CR is ignored. With unique set, a word already
 * in t is an error. Both print a diagnostic and return -1 on failure.
 */
int wtab_load_words(struct wtab *t, const char *path);
int wtab_load_lines(struct wtab *t, const char *path, int unique);

/*
 * The words of wtab_load_lines without a table: fn gets the word of each
 * line of path in turn (lowercased, n bytes); an empty word is an error,
 * and so is fn returning -1, reported as a word listed twice. Returns -1
 * after a diagnostic.
 */
int wtab_lines(const char *path, int (*fn)(void *ctx, const char *w, size_t n), void *ctx);

#endif
