/*
 * Fuzz the tokenizer: the words of an escaped text, and whether it holds a
 * bad escape, must not depend on how it is cut into chunks (not even inside
 * a UTF-8 sequence). OPT1's low 7 bits and OPT2 give the chunk sizes, its
 * top bit the mode: TOK_UNICODE, whose words must be valid UTF-8 holding no
 * ASCII byte but lowercase letters and digits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Returns tok_end's verdict on the escapes. */
static int
tokenize(const char *p, size_t n, size_t step1, size_t step2, struct words *ws)
{
	struct tok t;
	size_t k, i = 0;
	int st;

	tok_init(&t, ws->flags);
	for (k = 0; i < n; k++) {
		size_t c = k % 2 ? step2 : step1;

		if (c > n - i)
			c = n - i;
		tok_feed(&t, p + i, c, addword, ws);
		i += c;
	}
	st = tok_end(&t, addword, ws);
	tok_free(&t);
	return st;
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct words whole = { 0 }, cut = { 0 };
	size_t o1 = n > 0 ? d[0] : 0, o2 = n > 1 ? d[1] : 0;

	whole.flags = cut.flags = o1 & 128 ? TOK_UNICODE : 0;
	o1 &= 127;
	d += n < 2 ? n : 2;
	n -= n < 2 ? n : 2;
	if (tokenize((const char *)d, n, n ? n : 1, 1, &whole) !=
	    tokenize((const char *)d, n, o1 % 17 + 1, o2 % 5 + 1, &cut))
		abort();
	if (whole.len != cut.len || (whole.len && memcmp(whole.s, cut.s, whole.len)))
		abort();
	free(whole.s);
	free(cut.s);
	return 0;
}
