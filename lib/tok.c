/* tok.c: the tokenizer of tok.h. */
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "swar.h"
#include "tok.h"
#include "tok_unitab.h"
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

/* Where the words go: one call each (fn), or a batch at a time (bfn). */
struct sink {
	tok_fn *fn;
	tok_batch_fn *bfn;
	void *ctx;
};

/*
 * The words of a chunk not yet given, as (offset, length) in t->word:
 * feedascii's own, on its stack, and so is the sink it copies, so that
 * the compiler keeps the count in a register (the tokenizer's stores of
 * bytes could change any field of struct tok, and would make it load
 * them again after each).
 */
struct batch {
	size_t off[TOK_BATCH], len[TOK_BATCH], n;
};

static inline void
flush(struct batch *b, struct sink k, const char *buf)
{
	if (b->n)
		k.bfn(k.ctx, buf, b->off, b->len, b->n);
	b->n = 0;
}

/* The word of len bytes at off in buf (t->word). */
static inline void
emit(struct batch *b, struct sink k, const char *buf, size_t off, size_t len)
{
	if (!k.bfn) {
		k.fn(k.ctx, buf + off, len);
		return;
	}
	b->off[b->n] = off;
	b->len[b->n] = len;
	if (++b->n == TOK_BATCH)
		flush(b, k, buf);
}

/*
 * The ASCII tokenizer looks at 8 bytes at a time (a word-at-a-time scan
 * in portable C): one 64-bit word holds them, the first in its low byte,
 * and arithmetic on all 8 at once marks the letters, with no carry from
 * one byte to the next. Each byte's mark is its high bit.
 */
#define ONES	SWAR_ONES
#define HIGHS	SWAR_HIGHS
#define load8(p)	swar_load8(p)
#define store8(p, v)	swar_store8(p, v)

/*
 * The ASCII letters of v: with bit 5 set (lowercase) and bit 7 clear, a
 * byte is a letter if it is at least 'a' (adding 0x1f reaches bit 7) and
 * below '{' (adding 0x05 does not); bytes of 0x80 and up are not.
 */
static inline uint64_t
letters(uint64_t v)
{
	uint64_t x = (v | ONES * 0x20) & ONES * 0x7f;

	return (x + ONES * 0x1f) & ~(x + ONES * 0x05) & ~v & HIGHS;
}

/* The backslashes of v (exact: no carry between bytes). */
static inline uint64_t
backslashes(uint64_t v)
{
	uint64_t y = v ^ ONES * '\\';

	return ~(((y & ONES * 0x7f) + ONES * 0x7f) | y) & HIGHS;
}

/*
 * t->word mirrors the text: the word cut by the last chunk's end (its
 * t->word.n bytes), then this chunk's bytes, the letters lowercased, from
 * which words are given as (offset, length). The escapes are found 8 bytes
 * at a time too: a backslash makes the byte after it an escape letter,
 * which is no letter. Two backslashes in a row (which of them starts an
 * escape depends on the ones before) and the last bytes of the chunk are
 * looked at one at a time.
 */
static void
feedascii(struct tok *t, const unsigned char *p, const unsigned char *end,
    const struct sink *sink)
{
	struct sink k = *sink;
	struct batch b;
	uint64_t v = 0, m, prev, bounds, bits, bs = 0, el = 0;
	/* TOK_RAW: a backslash is a byte like another, never an escape */
	uint64_t escs = t->flags & TOK_RAW ? 0 : ~(uint64_t)0;
	unsigned escbyte = t->flags & TOK_RAW ? 256 : '\\';
	size_t pos = t->word.n, ws = 0;
	int inword = pos > 0, esc = t->escape;
	unsigned char c;
	char *buf;

	obuf_room(&t->word, (size_t)(end - p));
	buf = t->word.p;
	b.n = 0;
	while (p < end) {
		if (end - p >= 8) {
			v = load8(p);
			el = esc ? 0x80 : 0;	/* escape letters */
			bs = backslashes(v) & ~el & escs;	/* escapes */
			if (!(bs & bs << 8))
				goto block;
		}
		/* one byte */
		c = *p++;
		if (!esc && lower[c]) {
			buf[pos] = (char)lower[c];
			if (!inword) {
				ws = pos;
				inword = 1;
			}
			pos++;
			continue;
		}
		buf[pos++] = (char)c;
		if (inword) {
			emit(&b, k, buf, ws, pos - 1 - ws);
			inword = 0;
		}
		/* a backslash takes its escape letter with it */
		if (esc) {
			if (esc_byte(c) < 0)
				t->bad = 1;
			esc = 0;
		} else if (c == escbyte) {
			esc = 1;
		}
		continue;
block:
		/* 8 bytes at once; an escape in the last takes the next block's first */
		el |= bs << 8;
		esc = (int)(bs >> 63);
		for (bits = el; bits; bits &= bits - 1)
			if (esc_byte((int)(v >> 8 * swar_first(bits) & 0xff)) < 0)
				t->bad = 1;
		m = letters(v) & ~el;
		store8(buf + pos, v | m >> 2);
		/*
		 * A word starts at a letter after none, ends at the byte after
		 * its last: the bounds alternate, an end first if a word was
		 * going on.
		 */
		prev = m << 8 | (inword ? 0x80 : 0);
		bounds = (m ^ prev) & HIGHS;
		if (inword && bounds) {
			emit(&b, k, buf, ws, pos + swar_first(bounds) - ws);
			bounds &= bounds - 1;
		}
		while (bounds) {
			ws = pos + swar_first(bounds);
			if (!(bounds &= bounds - 1))
				break;
			emit(&b, k, buf, ws, pos + swar_first(bounds) - ws);
			bounds &= bounds - 1;
		}
		inword = (int)(m >> 63);
		p += 8;
		pos += 8;
	}
	t->escape = esc;
	if (k.bfn)
		flush(&b, k, buf);
	/* the word may go on in the next chunk */
	if (inword) {
		memmove(buf, buf + ws, pos - ws);
		t->word.n = pos - ws;
	} else {
		t->word.n = 0;
	}
}

/* The ASCII letters and digits of v (digits: 0x30 to 0x39, below 0x80). */
static inline uint64_t
alnums(uint64_t v)
{
	return letters(v) | swar_digits(v);
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
 * The UTF-8 tokenizer. The word being built is ws[0..w - ws), in t->word,
 * with room for what the chunk adds (at most 4 bytes out for every byte
 * in, plus the cut sequence). The state between chunks is
 * t->need/cp/len and t->inword, and the word, moved to t->word.p.
 */
static void
feedutf8(struct tok *t, const unsigned char *p, const unsigned char *end,
    tok_fn *fn, void *ctx)
{
	unsigned char c;
	unsigned prop, cls;
	uint32_t cp;
	uint64_t v, m, bounds;
	size_t s, e;
	char *w, *ws;

	w = obuf_room(&t->word, 4 * (size_t)(end - p) + 4);
	ws = t->word.p;
	while (p < end) {
		/*
		 * 8 bytes of ASCII with no backslash, as feedascii takes
		 * them: their letters and digits lowercased at w at once, the
		 * words cut by the bounds of the mask
		 */
		if (!t->need && t->inword != UNI_SINGLE && end - p >= 8 &&
		    !((v = load8(p)) & HIGHS) && !backslashes(v)) {
			m = alnums(v);
			store8(w, v | ONES * 0x20);
			bounds = (m ^ (m << 8 | (t->inword ? 0x80 : 0))) & HIGHS;
			if (t->inword && bounds) {
				e = swar_first(bounds);
				fn(ctx, ws, (size_t)(w + e - ws));
				bounds &= bounds - 1;
			}
			while (bounds) {
				s = swar_first(bounds);
				if (!(bounds &= bounds - 1)) {
					ws = w + s;	/* it goes on after the block */
					break;
				}
				e = swar_first(bounds);
				bounds &= bounds - 1;
				fn(ctx, w + s, e - s);
			}
			p += 8;
			if (m >> 63) {
				t->inword = UNI_WORD;
				w += 8;
			} else {
				t->inword = 0;
				w = ws = t->word.p;
			}
			continue;
		}
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
					fn(ctx, ws, (size_t)(w - ws));
					w = ws = t->word.p;
				}
				*w++ = (char)alnum[c];
				t->inword = UNI_WORD;
				continue;
			}
			if (c == '\\' && !(t->flags & TOK_RAW)) {
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
			if (w > ws) {
				fn(ctx, ws, (size_t)(w - ws));
				w = ws = t->word.p;
			}
			t->inword = (int)cls;
		} else {
			t->inword = UNI_WORD;
		}
		w = pututf8(w, (uint32_t)((int32_t)cp + unitab_delta[prop]));
		continue;
sep:
		if (w > ws)
			fn(ctx, ws, (size_t)(w - ws));
		w = ws = t->word.p;
		t->inword = 0;
	}
	/* the word may go on in the next chunk */
	t->word.n = (size_t)(w - ws);
	if (ws != t->word.p)
		memmove(t->word.p, ws, t->word.n);
}

/* A word of the UTF-8 tokenizer, for tok_feed_batch: a batch of one. */
static void
single(void *ctx, const char *w, size_t n)
{
	const struct sink *k = ctx;
	size_t off = 0;

	k->bfn(k->ctx, w, &off, &n, 1);
}

static void
feed(struct tok *t, const char *buf, size_t n, const struct sink *k)
{
	const unsigned char *p = (const unsigned char *)buf, *end = p + n;

	if (t->escape && p < end) {
		/* the byte after a backslash is an escape letter */
		if (esc_byte(*p++) < 0)
			t->bad = 1;
		t->escape = 0;
	}
	if (!(t->flags & TOK_UNICODE))
		feedascii(t, p, end, k);
	else if (k->bfn)
		feedutf8(t, p, end, single, (void *)k);
	else
		feedutf8(t, p, end, k->fn, k->ctx);
}

void
tok_feed(struct tok *t, const char *buf, size_t n, tok_fn *fn, void *ctx)
{
	struct sink k = { fn, NULL, ctx };

	feed(t, buf, n, &k);
}

void
tok_feed_batch(struct tok *t, const char *buf, size_t n, tok_batch_fn *fn, void *ctx)
{
	struct sink k = { NULL, fn, ctx };

	feed(t, buf, n, &k);
}

static int
end(struct tok *t, const struct sink *k)
{
	int bad = t->bad || t->escape;
	size_t off = 0;

	if (t->word.n) {
		if (k->bfn)
			k->bfn(k->ctx, t->word.p, &off, &t->word.n, 1);
		else
			k->fn(k->ctx, t->word.p, t->word.n);
	}
	t->word.n = 0;
	t->escape = 0;
	t->bad = 0;
	t->need = 0;
	t->inword = 0;
	return bad ? -1 : 0;
}

int
tok_end(struct tok *t, tok_fn *fn, void *ctx)
{
	struct sink k = { fn, NULL, ctx };

	return end(t, &k);
}

int
tok_end_batch(struct tok *t, tok_batch_fn *fn, void *ctx)
{
	struct sink k = { NULL, fn, ctx };

	return end(t, &k);
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
