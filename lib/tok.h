/*
 * tok.h: the tokenizer. Input is the escaped text field of a page record
 * (simrec(5)), fed in chunks of any size: an escape such as \n stands for
 * one separator byte, and a word (and a UTF-8 sequence) may span chunks.
 *
 * By default a word is a maximal run of ASCII letters, lowercased; every
 * other byte separates words. With TOK_UNICODE the text is UTF-8: a word is
 * a maximal run of letters and digits (general categories L and N) with the
 * combining marks (Mn, Mc) inside or after it, lowercased by the simple
 * mapping of lib/tok_unitab.h; a letter or digit of a script written without
 * spaces (Han, Kana, Thai, Lao, Khmer, Myanmar) is a word of its own, with
 * the marks after it; everything else, invalid UTF-8 included, separates
 * words. Neither mode ever puts an underscore, space, colon, TAB, LF, CR,
 * NUL or backslash in a word.
 */
#ifndef TOK_H
#define TOK_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

/*
 * TOK_RAW: the input is raw text, not an escaped field: a backslash is a
 * separator byte like any other (its words are those of the text escaped).
 */
enum { TOK_UNICODE = 1, TOK_RAW = 2 };

typedef void tok_fn(void *ctx, const char *word, size_t len);
/*
 * Words a batch at a time: word i of the n is the len[i] bytes at
 * buf + off[i]. A caller that looks words up in a large table can ask for
 * all their slots before it reads any (wtab_prepare).
 */
typedef void tok_batch_fn(void *ctx, const char *buf, const size_t *off,
    const size_t *len, size_t n);

enum { TOK_BATCH = 48 };

struct tok {
	struct obuf word;	/* lowercased word being built */
	unsigned flags;
	int escape;		/* the previous chunk ended in a backslash */
	int bad;		/* a bad escape (esc.h) since tok_end */
	/* TOK_UNICODE: a UTF-8 sequence cut by the chunk's end, and the word kind */
	uint32_t cp;		/* its bits so far */
	int need;		/* continuation bytes still to come, 0 if none */
	int len;		/* its length */
	int inword;		/* 0, UNI_WORD or UNI_SINGLE: what the word is */
};

void tok_init(struct tok *t, unsigned flags);
void tok_free(struct tok *t);
/* Call fn for every word that ends in this chunk. */
void tok_feed(struct tok *t, const char *p, size_t n, tok_fn *fn, void *ctx);
/*
 * End of the text: flush the last word. Returns -1 if the text held a bad
 * escape (a backslash followed by no escape letter of esc.h, or last), else 0.
 */
int tok_end(struct tok *t, tok_fn *fn, void *ctx);

/*
 * The same, the words given in batches of up to TOK_BATCH, in text order:
 * every word that ends in the chunk is delivered before tok_feed_batch
 * returns. A text is fed through one of the two interfaces, not both.
 */
void tok_feed_batch(struct tok *t, const char *p, size_t n, tok_batch_fn *fn, void *ctx);
int tok_end_batch(struct tok *t, tok_batch_fn *fn, void *ctx);

/*
 * Append to out the n bytes at s lowercased as TOK_UNICODE does (bytes that
 * are not UTF-8 are copied as they are): for word lists.
 */
void tok_fold(struct obuf *out, const char *s, size_t n);

#endif
