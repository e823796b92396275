/* wtab.h: word tables: interning of byte strings to dense ids 0, 1, 2, ... */
#ifndef WTAB_H
#define WTAB_H

#include <stddef.h>
#include <stdint.h>

#define WTAB_NONE UINT32_MAX

/*
 * A slot holds the word's key: its length (up to 255) in the top byte and
 * its first 7 bytes below, so that a word of up to 7 bytes (most words of
 * text) is found with no access beyond its slot.
 */
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
	struct { size_t off, len; } *ent;	/* by id */
	size_t n, cap;
};

void wtab_init(struct wtab *t);
void wtab_free(struct wtab *t);
/* The id of word w, adding it if absent (ids count up from 0 in order of addition). */
uint32_t wtab_intern(struct wtab *t, const char *w, size_t n);
/* The id of w, or WTAB_NONE. */
uint32_t wtab_find(const struct wtab *t, const char *w, size_t n);

/*
 * The hash of a word is built a byte at a time from 0, h = WTAB_STEP(h, c),
 * so that a tokenizer can build it while it copies the word; the h forms
 * take it instead of hashing again.
 */
#define WTAB_STEP(h, c)	((h) * 33 + (unsigned char)(c))
uint32_t wtab_internh(struct wtab *t, const char *w, size_t n, uint64_t h);
uint32_t wtab_findh(const struct wtab *t, const char *w, size_t n, uint64_t h);

/* The hash proper: WTAB_STEP's sum mixed with the length, spread by a bijection. */
static inline uint32_t
wtab_mix(uint64_t h, size_t n)
{
	h ^= (uint64_t)n << 59 | n;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdu;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53u;
	h ^= h >> 33;
	return (uint32_t)h;
}

static inline const char *
wtab_word(const struct wtab *t, uint32_t id, size_t *n)
{
	*n = t->ent[id].len;
	return t->text + t->ent[id].off;
}

/*
 * Loaders. wtab_load_words adds every whitespace-separated word of path
 * (a stopword list); wtab_load_lines adds the first TAB-separated field of
 * every line (a word list such as topn(1) output), in line order. Words are
 * lowercased and a trailing CR is ignored. With unique set, a word already
 * in t is an error. Both print a diagnostic and return -1 on failure.
 */
int wtab_load_words(struct wtab *t, const char *path);
int wtab_load_lines(struct wtab *t, const char *path, int unique);

#endif
