/*
 * tok.h: the tokenizer. A word is a maximal run of ASCII letters, lowercased;
 * every other byte separates words. Input is the escaped text field of a
 * page record (simrec(5)), fed in chunks of any size: an escape such as \n
 * stands for one separator byte, and a word may span chunks.
 */
#ifndef TOK_H
#define TOK_H

#include <stddef.h>

#include "util.h"

typedef void tok_fn(void *ctx, const char *word, size_t len);

struct tok {
	struct obuf word;	/* lowercased word being built */
	int escape;		/* the previous chunk ended in a backslash */
	int bad;		/* a bad escape (esc.h) since tok_end */
};

void tok_init(struct tok *t);
void tok_free(struct tok *t);
/* Call fn for every word that ends in this chunk. */
void tok_feed(struct tok *t, const char *p, size_t n, tok_fn *fn, void *ctx);
/*
 * End of the text: flush the last word. Returns -1 if the text held a bad
 * escape (a backslash followed by no escape letter of esc.h, or last), else 0.
 */
int tok_end(struct tok *t, tok_fn *fn, void *ctx);

#endif
