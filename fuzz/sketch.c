/*
 * Fuzz sketch: page records (part 0) through skb_records, as sketch(1)
 * reads them; then each record again through the builder, the text fed
 * whole and in chunks of OPT1 >> 4 bytes (0: one byte at a time), which must
 * give the same sketch; its record from sketch_write must read back the same
 * through sketch_parse, and be the sketch by its definition, from all the
 * shingles sorted (ref). The words per shingle are 1 + OPT2 % 16, the size
 * 1 + OPT2 / 16 * 17 (1 to 256), the seed OPT1 >> 4.
 */
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "fuzz.h"
#include "sketch.h"
#include "tok.h"

/* The words' hashes of a page, for the sketch by its definition (ref). */
struct words {
	uint64_t seed;
	uint64_t *h;
	size_t n, cap;
};

static void
addword(void *ctx, const char *w, size_t n)
{
	struct words *ws = ctx;

	egrow(&ws->h, &ws->cap, ws->n + 1, sizeof *ws->h);
	ws->h[ws->n++] = sketch_wordhash(ws->seed, w, n);
}

static int
cmpu64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The sketch of text[0..len) as sketch.h defines it, one shingle at a
 * time, all of them sorted: it must be the builder's s (which keeps a
 * set, a cache of word hashes and a selection of the smallest).
 */
static void
ref(const char *text, size_t len, unsigned k, unsigned size, uint64_t seed,
    const struct sketch *s)
{
	struct words ws = { seed, NULL, 0, 0 };
	struct tok t;
	uint64_t *sh;
	size_t i, nsh, ndist;

	tok_init(&t, TOK_UNICODE);
	tok_feed(&t, text, len, addword, &ws);
	tok_end(&t, addword, &ws);
	tok_free(&t);
	nsh = ws.n == 0 ? 0 : ws.n < k ? 1 : ws.n - k + 1;
	sh = ereallocarray(NULL, nsh ? nsh : 1, sizeof *sh);
	for (i = 0; i < nsh; i++)
		sh[i] = sketch_shingle(ws.h + i, ws.n < k ? (unsigned)ws.n : k);
	qsort(sh, nsh, sizeof *sh, cmpu64);
	for (i = ndist = 0; i < nsh; i++)
		if (ndist == 0 || sh[ndist - 1] != sh[i])
			sh[ndist++] = sh[i];
	if (s->nshingles != ndist || s->n != (ndist < size ? ndist : size) ||
	    memcmp(s->h, sh, s->n * sizeof *sh) != 0)
		abort();
	free(sh);
	free(ws.h);
}

static void
check(struct skbuild *b, unsigned k, unsigned size, uint64_t seed, char *line, size_t n,
    size_t step)
{
	struct sketch whole, cut, back;
	struct obuf wrec = { 0 };
	struct rdr r = { .name = "fuzz", .lineno = 1 };
	uint64_t *h, hback[SK_MAXSIZE];
	char *tab = memchr(line, '\t', n), *text;
	size_t len, i, m;
	int bad1, bad2;

	if (!tab)
		return;
	text = tab + 1;
	len = (size_t)(line + n - text);
	skb_begin(b);
	skb_feed(b, text, len);
	bad1 = skb_end(b, &whole);
	h = ereallocarray(NULL, whole.n ? whole.n : 1, sizeof *h);
	memcpy(h, whole.h, whole.n * sizeof *h);
	whole.h = h;
	skb_begin(b);
	for (i = 0; i < len; i += m) {
		m = step && step < len - i ? step : step ? len - i : 1;
		skb_feed(b, text + i, m);
	}
	bad2 = skb_end(b, &cut);
	if (bad1 != bad2 || cut.n != whole.n || cut.nshingles != whole.nshingles ||
	    memcmp(cut.h, whole.h, whole.n * sizeof *h) != 0)
		abort();
	if (whole.n != (whole.nshingles < size ? whole.nshingles : size))
		abort();
	for (i = 1; i < whole.n; i++)
		if (whole.h[i - 1] >= whole.h[i])
			abort();
	if (bad1 == 0)
		ref(text, len, k, size, seed, &whole);
	/* the ID as sketch(1) takes it: only a valid escape is written */
	whole.id = line;
	whole.idlen = (size_t)(tab - line);
	if (bad1 == 0 && esc_check(whole.id, whole.idlen) == 0) {
		sketch_write(&wrec, &whole);
		if (wrec.n == 0 || wrec.p[wrec.n - 1] != '\n')
			abort();
		if (sketch_parse(&r, wrec.p, wrec.n - 1, &back, hback) < 0)
			abort();
		if (back.idlen != whole.idlen || memcmp(back.id, whole.id, whole.idlen) != 0 ||
		    back.nshingles != whole.nshingles || back.n != whole.n ||
		    memcmp(back.h, whole.h, whole.n * sizeof *h) != 0)
			abort();
	}
	free(h);
	free(wrec.p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;
	struct rdr r;
	struct skbuild *b;
	struct obuf out = { 0 };
	char *line;
	ptrdiff_t len;
	unsigned k, size;
	uint64_t seed;

	fuzz_begin(&in, d, n, 1);
	k = 1 + in.o2 % SK_MAXK;
	size = 1 + in.o2 / 16 * 17;
	seed = in.o1 >> 4;
	b = skb_new(k, size, seed);
	if (rdr_open(&r, in.path[0]) == 0) {
		skb_records(b, &r, &out, NULL, NULL);
		rdr_close(&r);
	}
	if (out.n > 0 && out.p[out.n - 1] != '\n')
		abort();
	free(out.p);
	if (rdr_open(&r, in.path[0]) == 0) {
		while ((len = rdr_line(&r, &line)) >= 0)
			check(b, k, size, seed, line, (size_t)len, in.o1 >> 4);
		rdr_close(&r);
	}
	skb_free(b);
	return 0;
}
