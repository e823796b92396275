/* tok.c: the tokenizer of tok.h. */
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "tok.h"
#include "util.h"

/* lower[c] is the lowercase of ASCII letter c, 0 for any other byte. */
static const unsigned char lower[256] = {
#define L(c) [c] = c, [c - 'a' + 'A'] = c
	L('a'), L('b'), L('c'), L('d'), L('e'), L('f'), L('g'), L('h'), L('i'),
	L('j'), L('k'), L('l'), L('m'), L('n'), L('o'), L('p'), L('q'), L('r'),
	L('s'), L('t'), L('u'), L('v'), L('w'), L('x'), L('y'), L('z'),
#undef L
};

void
tok_init(struct tok *t)
{
	memset(&t->word, 0, sizeof t->word);
	obuf_room(&t->word, 64);
	t->escape = 0;
	t->bad = 0;
}

void
tok_free(struct tok *t)
{
	free(t->word.p);
	memset(&t->word, 0, sizeof t->word);
}

void
tok_feed(struct tok *t, const char *buf, size_t n, tok_fn *fn, void *ctx)
{
	const unsigned char *p = (const unsigned char *)buf, *end = p + n;
	unsigned char c;
	char *w;

	if (t->escape && p < end) {
		/* the byte after a backslash is an escape letter */
		if (esc_byte(*p++) < 0)
			t->bad = 1;
		t->escape = 0;
	}
	/* room for the longest word this chunk can add: no check per byte */
	w = obuf_room(&t->word, n);
	while (p < end) {
		if ((c = lower[*p++])) {
			*w++ = (char)c;
			continue;
		}
		if (w > t->word.p) {
			fn(ctx, t->word.p, (size_t)(w - t->word.p));
			w = t->word.p;
		}
		/* a backslash takes its escape letter with it */
		if (p[-1] == '\\') {
			if (p == end) {
				t->escape = 1;
				break;
			}
			if (esc_byte(*p++) < 0)
				t->bad = 1;
		}
	}
	t->word.n = (size_t)(w - t->word.p);	/* the word may go on in the next chunk */
}

int
tok_end(struct tok *t, tok_fn *fn, void *ctx)
{
	int bad = t->bad || t->escape;

	if (t->word.n)
		fn(ctx, t->word.p, t->word.n);
	t->word.n = 0;
	t->escape = 0;
	t->bad = 0;
	return bad ? -1 : 0;
}
