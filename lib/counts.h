/*
 * counts.h: the WORD:COUNT items of a per-page counts record, and the
 * NUMBER:COUNT items of a numbered one (simrec(5)).
 */
#ifndef COUNTS_H
#define COUNTS_H

#include <stddef.h>
#include <stdint.h>

#include "swar.h"

/*
 * An iterator over the items of a record's second field, s up to end:
 * items are separated by spaces (runs of them too); a word is every byte
 * before the item's last ':', so it may hold a colon itself.
 */
struct counts {
	const char *p, *end;
};

void counts_init(struct counts *it, const char *s, const char *end);

/*
 * The next item: its word at *w, *wn bytes long, and its count, decimal
 * digits only, 0 to LLONG_MAX, in *c. Returns 1, 0 past the last item, or
 * -1 for a malformed item (no word, or a count that is not such a number),
 * with *w and *wn then spanning the whole item, for the message.
 */
int counts_next(struct counts *it, const char **w, size_t *wn, long long *c);

/*
 * The next item of a numbered record, NUMBER:COUNT (wordfreq(1) -i):
 * both decimal digits only, 0 to LLONG_MAX, into *num and *c. Returns 1,
 * 0 past the last item, or -1 for a malformed item; *item and *itemn span
 * the item either way, for a message.
 */
/* (counts_nextnum_any takes any item; counts_nextnum, below, is its fast path.) */
int counts_nextnum_any(struct counts *it, long long *num, long long *c,
    const char **item, size_t *itemn);

/*
 * Inline, for the items that are short and far from the end (most): 8
 * bytes at a time, the number's digits up to its colon, then the count's
 * up to its space; the rest, and every doubt, go to counts_nextnum_any.
 */
static inline int
counts_nextnum(struct counts *it, long long *num, long long *c,
    const char **item, size_t *itemn)
{
	const unsigned char *u = (const unsigned char *)it->p;
	uint64_t v, w, nd;
	size_t i, j;

	if (it->end - it->p < 17 || *u != ' ' || u[1] == ' ')
		return counts_nextnum_any(it, num, c, item, itemn);
	/* a space, the number: 1 to 7 digits, and its colon */
	v = swar_load8(++u);
	if (!(nd = ~swar_digits(v) & SWAR_HIGHS) || !(i = swar_first(nd)) || u[i] != ':')
		return counts_nextnum_any(it, num, c, item, itemn);
	/* the count: 1 to 7 digits and a space (within the 16 bytes) */
	w = swar_load8(u + i + 1);
	if (!(nd = ~swar_digits(w) & SWAR_HIGHS) || !(j = swar_first(nd)) || u[i + 1 + j] != ' ')
		return counts_nextnum_any(it, num, c, item, itemn);
	*num = (long long)swar_number((v - SWAR_ONES * '0') << 8 * (8 - i));
	*c = j == 1 ? (long long)(w & 0xff) - '0' :
	    (long long)swar_number((w - SWAR_ONES * '0') << 8 * (8 - j));
	*item = (const char *)u;
	*itemn = i + 1 + j;
	it->p = (const char *)u + i + 1 + j;
	return 1;
}

#endif
