/*
 * Fuzz sketch: page records (part 0) through skb_records, as sketch(1)
 * reads them; then each record again through the builder, the text fed
 * whole and in chunks of OPT1 >> 4 bytes (0: one byte at a time), which must
 * give the same sketch; its record from sketch_write must read back the same
 * through sketch_parse. The words per shingle are 1 + OPT2 % 16, the size
 * 1 + OPT2 / 16 * 17 (1 to 256), the seed OPT1 >> 4.
 */
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "fuzz.h"
#include "sketch.h"

static void
check(struct skbuild *b, unsigned size, char *line, size_t n, size_t step)
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
			check(b, size, line, (size_t)len, in.o1 >> 4);
		rdr_close(&r);
	}
	skb_free(b);
	return 0;
}
