/*
 * Fuzz the tokenizer: the words of an escaped text, and whether it holds a
 * bad escape, must not depend on how it is cut into chunks (not even inside
 * a UTF-8 sequence). OPT1's low 7 bits and OPT2 give the chunk sizes, its
 * top bit the mode: TOK_UNICODE, whose words must be valid UTF-8 holding no
 * ASCII byte but lowercase letters and digits. The batch interface
 * (tok_feed_batch) must give the same words; in ASCII mode, the 8-byte scan
 * must give the words and verdict of a plain one, byte by byte (ref).
 * With TOK_RAW the input is read as raw text: its words, in chunks of any
 * size, must be those of its escape (esc_encode) read escaped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "fuzz.h"
#include "tok.h"
#include "util.h"

struct words {
	char *s;
	size_t len, cap;
	unsigned flags;
};

/* Whether the n bytes at w are UTF-8 whose ASCII bytes are [a-z0-9]. */
static int
goodutf8(const unsigned char *w, size_t n)
{
	size_t i = 0, k, len;
	uint32_t c;

	while (i < n) {
		if (w[i] < 0x80) {
			if (!((w[i] >= 'a' && w[i] <= 'z') || (w[i] >= '0' && w[i] <= '9')))
				return 0;
			i++;
			continue;
		}
		len = w[i] >= 0xf0 ? 4 : w[i] >= 0xe0 ? 3 : w[i] >= 0xc0 ? 2 : 0;
		if (len == 0 || w[i] > 0xf4 || i + len > n)
			return 0;
		c = w[i] & (0x7f >> len);
		for (k = 1; k < len; k++) {
			if ((w[i + k] & 0xc0) != 0x80)
				return 0;
			c = c << 6 | (w[i + k] & 0x3f);
		}
		if (c < (len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000) || c > 0x10ffff ||
		    (c >= 0xd800 && c <= 0xdfff))
			return 0;
		i += len;
	}
	return 1;
}

static void
addword(void *ctx, const char *w, size_t n)
{
	struct words *ws = ctx;
	size_t i;

	if (n == 0)
		abort();
	if (ws->flags & TOK_UNICODE) {
		if (!goodutf8((const unsigned char *)w, n))
			abort();
	} else {
		for (i = 0; i < n; i++)
			if (w[i] < 'a' || w[i] > 'z')
				abort();
	}
	egrow(&ws->s, &ws->cap, ws->len + n + 1, 1);
	memcpy(ws->s + ws->len, w, n);
	ws->s[ws->len + n] = ' ';
	ws->len += n + 1;
}

static void
addbatch(void *ctx, const char *buf, const size_t *off, const size_t *len, size_t n)
{
	size_t i;

	if (n == 0 || n > TOK_BATCH)
		abort();
	for (i = 0; i < n; i++)
		addword(ctx, buf + off[i], len[i]);
}

/* The ASCII tokenizer as tok.h states it, a byte at a time, whole text. */
static int
ref(const char *p, size_t n, struct words *ws)
{
	struct obuf w = { 0 };
	size_t i;
	int bad = 0;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)p[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
			obuf_addc(&w, (char)(c | 0x20));
			continue;
		}
		if (w.n)
			addword(ws, w.p, w.n);
		w.n = 0;
		if (c == '\\') {
			c = ++i < n ? (unsigned char)p[i] : 0;
			if (c != '\\' && c != 't' && c != 'n' && c != 'r' && c != '0')
				bad = 1;
		}
	}
	if (w.n)
		addword(ws, w.p, w.n);
	free(w.p);
	return bad ? -1 : 0;
}

/* Returns tok_end's verdict on the escapes. */
static int
tokenize(const char *p, size_t n, size_t step1, size_t step2, int batch, struct words *ws)
{
	struct tok t;
	size_t k, i = 0;
	int st;

	tok_init(&t, ws->flags);
	for (k = 0; i < n; k++) {
		size_t c = k % 2 ? step2 : step1;

		if (c > n - i)
			c = n - i;
		if (batch) {
			/* and an empty chunk after each: it changes nothing */
			tok_feed_batch(&t, p + i, c, addbatch, ws);
			tok_feed_batch(&t, p + i + c, 0, addbatch, ws);
		} else
			tok_feed(&t, p + i, c, addword, ws);
		i += c;
	}
	st = batch ? tok_end_batch(&t, addbatch, ws) : tok_end(&t, addword, ws);
	tok_free(&t);
	return st;
}

static int
same(const struct words *a, const struct words *b)
{
	return a->len == b->len && (a->len == 0 || memcmp(a->s, b->s, a->len) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct words whole = { 0 }, cut = { 0 };
	size_t o1 = n > 0 ? d[0] : 0, o2 = n > 1 ? d[1] : 0;
	int st;

	whole.flags = cut.flags = o1 & 128 ? TOK_UNICODE : 0;
	o1 &= 127;
	d += n < 2 ? n : 2;
	n -= n < 2 ? n : 2;
	st = tokenize((const char *)d, n, n ? n : 1, 1, 0, &whole);
	if (tokenize((const char *)d, n, o1 % 17 + 1, o2 % 5 + 1, 0, &cut) != st)
		abort();
	if (!same(&whole, &cut))
		abort();
	cut.len = 0;
	if (tokenize((const char *)d, n, o2 % 23 + 1, o1 % 13 + 1, 1, &cut) != st)
		abort();
	if (!same(&whole, &cut))
		abort();
	if (!(whole.flags & TOK_UNICODE)) {
		cut.len = 0;
		if (ref((const char *)d, n, &cut) != st || !same(&whole, &cut))
			abort();
	}
	/* the same bytes as raw text: the words of their escape */
	{
		struct words raw = { 0 }, escd = { 0 };
		char *e = emalloc(2 * n + 1);
		size_t en = esc_encode(e, (const char *)d, n);

		raw.flags = whole.flags | TOK_RAW;
		escd.flags = whole.flags;
		if (tokenize((const char *)d, n, o1 % 11 + 1, o2 % 7 + 1, (int)(o2 & 1), &raw) != 0 ||
		    tokenize(e, en, en ? en : 1, 1, 0, &escd) != 0 || !same(&raw, &escd))
			abort();
		free(e);
		free(raw.s);
		free(escd.s);
	}
	free(whole.s);
	free(cut.s);
	return 0;
}
