/*
 * Fuzz the word table (lib/wtab.h): the input after two option bytes is
 * words, one a line, of any bytes. They are added a batch at a time the
 * way wordfreq adds them (all prepared, then interned), against a plain
 * list searched word by word: every word gets the id of its first
 * appearance, and is then found with it; a word not added is not found.
 * OPT1 below 128 sets the probe limit to OPT1 % 8 (wtab_setmaxprobe), so
 * that the table moves to SipHash in the middle of a batch or a growth;
 * OPT2's low 4 bits are the batch size, 1 to 16.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "util.h"
#include "wtab.h"

enum { MAXWORDS = 1100 };

static struct {
	const char *w;
	size_t n;
} list[MAXWORDS];
static size_t nlist;

/* The id of the word in the list, adding it if absent. */
static uint32_t
listid(const char *w, size_t n, int add)
{
	size_t i;

	for (i = 0; i < nlist; i++)
		if (list[i].n == n && !memcmp(list[i].w, w, n))
			return (uint32_t)i;
	if (!add)
		return WTAB_NONE;
	list[nlist].w = w;
	list[nlist].n = n;
	return (uint32_t)nlist++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct wtab t;
	struct wref ref[16];
	const char *w[16], *p, *end, *nl, *tw;
	size_t len[16], nb, batch, i, tn;
	char absent[64];

	if (n < 2)
		return 0;
	wtab_init(&t);
	if (d[0] < 128)
		wtab_setmaxprobe(&t, d[0] % 8);
	batch = (d[1] & 15) + 1;
	nlist = 0;
	p = (const char *)d + 2;
	end = (const char *)d + n;
	while (p < end && nlist + batch <= MAXWORDS) {
		for (nb = 0; nb < batch && p < end; nb++) {
			nl = memchr(p, '\n', (size_t)(end - p));
			w[nb] = p;
			len[nb] = (size_t)((nl ? nl : end) - p);
			p = nl ? nl + 1 : end;
			wtab_prepare(&t, &ref[nb], w[nb], len[nb]);
		}
		for (i = 0; i < nb; i++)
			if (wtab_intern_ref(&t, &ref[i], w[i], len[i]) != listid(w[i], len[i], 1))
				abort();
	}
	if (t.n != nlist)
		abort();
	for (i = 0; i < nlist; i++) {
		tw = wtab_word(&t, (uint32_t)i, &tn);
		if (tn != list[i].n || memcmp(tw, list[i].w, tn) || tw[tn] != '\0')
			abort();
		if (wtab_find(&t, list[i].w, list[i].n) != i)
			abort();
		wtab_prepare(&t, &ref[0], list[i].w, list[i].n);
		if (wtab_find_ref(&t, &ref[0], list[i].w, list[i].n) != i)
			abort();
		/* the word and one more byte: a word of the list or none */
		if (list[i].n < sizeof absent) {
			memcpy(absent, list[i].w, list[i].n);
			absent[list[i].n] = 'x';
			if (wtab_find(&t, absent, list[i].n + 1) != listid(absent, list[i].n + 1, 0))
				abort();
		}
	}
	wtab_free(&t);
	return 0;
}
