/* tok.c: the tokenizer of tok.h. */
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "tok.h"
#include "unitab.h"
#include "util.h"

/* lower[c] is the lowercase of ASCII letter c, 0 for any other byte. */
static const unsigned char lower[256] = {
#define L(c) [c] = c, [c - 'a' + 'A'] = c
	L('a'), L('b'), L('c'), L('d'), L('e'), L('f'), L('g'), L('h'), L('i'),
	L('j'), L('k'), L('l'), L('m'), L('n'), L('o'), L('p'), L('q'), L('r'),
	L('s'), L('t'), L('u'), L('v'), L('w'), L('x'), L('y'), L('z'),
#undef L
};

/* ASCII letters and digits, and what they fold to, for the UTF-8 fast path. */
static const unsigned char alnum[128] = {
#define L(c) [c] = c, [c - 'a' + 'A'] = c
	L('a'), L('b'), L('c'), L('d'), L('e'), L('f'), L('g'), L('h'), L('i'),
	L('j'), L('k'), L('l'), L('m'), L('n'), L('o'), L('p'), L('q'), L('r'),
	L('s'), L('t'), L('u'), L('v'), L('w'), L('x'), L('y'), L('z'),
#undef L
	['0'] = '0', ['1'] = '1', ['2'] = '2', ['3'] = '3', ['4'] = '4',
	['5'] = '5', ['6'] = '6', ['7'] = '7', ['8'] = '8', ['9'] = '9',
};

void
tok_init(struct tok *t, unsigned flags)
{
	memset(t, 0, sizeof *t);
	obuf_room(&t->word, 64);
	t->flags = flags;
}

void
tok_free(struct tok *t)
{
	free(t->word.p);
	memset(&t->word, 0, sizeof t->word);
}

static void
feedascii(struct tok *t, const unsigned char *p, const unsigned char *end,
    tok_fn *fn, void *ctx)
{
	unsigned char c;
	char *w;

	/* room for the longest word this chunk can add: no check per byte */
	w = obuf_room(&t->word, (size_t)(end - p));
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

/* UTF-8 of c at w; returns the byte after it. */
static char *
pututf8(char *w, uint32_t c)
{
	if (c < 0x80) {
		*w++ = (char)c;
	} else if (c < 0x800) {
		*w++ = (char)(0xc0 | c >> 6);
		*w++ = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		*w++ = (char)(0xe0 | c >> 12);
		*w++ = (char)(0x80 | (c >> 6 & 0x3f));
		*w++ = (char)(0x80 | (c & 0x3f));
	} else {
		*w++ = (char)(0xf0 | c >> 18);
		*w++ = (char)(0x80 | (c >> 12 & 0x3f));
		*w++ = (char)(0x80 | (c >> 6 & 0x3f));
		*w++ = (char)(0x80 | (c & 0x3f));
	}
	return w;
}

/* A lead byte: sets the sequence's length and first bits; 0 if it is no lead. */
static int
lead(struct tok *t, unsigned char c)
{
	if (c >= 0xc2 && c <= 0xdf) {
		t->cp = c & 0x1f;
		t->len = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		t->cp = c & 0x0f;
		t->len = 3;
	} else if (c >= 0xf0 && c <= 0xf4) {
		t->cp = c & 0x07;
		t->len = 4;
	} else {
		return 0;
	}
	t->need = t->len - 1;
	return 1;
}

/* Whether the completed sequence is a code point written in its shortest form. */
static int
valid(const struct tok *t)
{
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };

	return t->cp >= min[t->len] && t->cp <= 0x10ffff &&
	    (t->cp < 0xd800 || t->cp > 0xdfff);
}

/*
 * The UTF-8 tokenizer. w is the word's end in t->word, with room for what
 * the chunk adds (at most 4 bytes out for every byte in, plus the cut
 * sequence). The state between chunks is t->need/cp/len and t->inword.
 */
static void
feedutf8(struct tok *t, const unsigned char *p, const unsigned char *end,
    tok_fn *fn, void *ctx)
{
	unsigned char c;
	unsigned prop, cls;
	uint32_t cp;
	char *w;

	w = obuf_room(&t->word, 4 * (size_t)(end - p) + 4);
	while (p < end) {
		c = *p;
		if (t->need) {
			if ((c & 0xc0) == 0x80) {
				p++;
				t->cp = t->cp << 6 | (c & 0x3f);
				if (--t->need)
					continue;
				if (!valid(t))
					goto sep;
				cp = t->cp;
				goto decoded;
			}
			/* a cut sequence separates; c is looked at afresh */
			t->need = 0;
			goto sep;
		}
		if (c < 0x80) {
			p++;
			if (alnum[c]) {
				if (t->inword == UNI_SINGLE) {
					fn(ctx, t->word.p, (size_t)(w - t->word.p));
					w = t->word.p;
				}
				*w++ = (char)alnum[c];
				t->inword = UNI_WORD;
				continue;
			}
			if (c == '\\') {
				if (p == end)
					t->escape = 1;
				else if (esc_byte(*p++) < 0)
					t->bad = 1;
			}
			goto sep;
		}
		p++;
		if (!lead(t, c))
			goto sep;
		continue;
decoded:
		prop = unitab_prop(cp);
		cls = unitab_class[prop];
		if (cls == UNI_SEP)
			goto sep;
		if (cls == UNI_MARK) {
			if (!t->inword)
				continue;	/* a mark outside a word is dropped, a separator */
		} else if (cls == UNI_SINGLE || t->inword == UNI_SINGLE) {
			if (w > t->word.p) {
				fn(ctx, t->word.p, (size_t)(w - t->word.p));
				w = t->word.p;
			}
			t->inword = (int)cls;
		} else {
			t->inword = UNI_WORD;
		}
		w = pututf8(w, (uint32_t)((int32_t)cp + unitab_delta[prop]));
		continue;
sep:
		if (w > t->word.p) {
			fn(ctx, t->word.p, (size_t)(w - t->word.p));
			w = t->word.p;
		}
		t->inword = 0;
	}
	t->word.n = (size_t)(w - t->word.p);
}

void
tok_feed(struct tok *t, const char *buf, size_t n, tok_fn *fn, void *ctx)
{
	const unsigned char *p = (const unsigned char *)buf, *end = p + n;

	if (t->escape && p < end) {
		/* the byte after a backslash is an escape letter */
		if (esc_byte(*p++) < 0)
			t->bad = 1;
		t->escape = 0;
	}
	if (t->flags & TOK_UNICODE)
		feedutf8(t, p, end, fn, ctx);
	else
		feedascii(t, p, end, fn, ctx);
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
	t->need = 0;
	t->inword = 0;
	return bad ? -1 : 0;
}

void
tok_fold(struct obuf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n, *start;
	struct tok t = { 0 };
	unsigned prop;
	char *w;

	while (p < end) {
		start = p++;
		if (*start < 0x80 || !lead(&t, *start)) {
			obuf_addc(out, (char)(lower[*start] ? lower[*start] : *start));
			continue;
		}
		while (t.need && p < end && (*p & 0xc0) == 0x80) {
			t.cp = t.cp << 6 | (*p++ & 0x3f);
			t.need--;
		}
		if (t.need || !valid(&t)) {
			obuf_add(out, start, (size_t)(p - start));
			continue;
		}
		prop = unitab_prop(t.cp);
		w = obuf_room(out, 4);
		out->n += (size_t)(pututf8(w, (uint32_t)((int32_t)t.cp + unitab_delta[prop])) - w);
	}
}
