/*
 * Fuzz the tokenizer: the words of an escaped text, and whether it holds a
 * bad escape, must not depend on how it is cut into chunks. OPT1 and OPT2
 * give the chunk sizes.
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
};

static void
addword(void *ctx, const char *w, size_t n)
{
	struct words *ws = ctx;
	size_t i;

	if (n == 0)
		abort();
	for (i = 0; i < n; i++)
		if (w[i] < 'a' || w[i] > 'z')
			abort();
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

	tok_init(&t);
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
