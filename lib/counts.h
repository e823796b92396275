/*
 * counts.h: the WORD:COUNT items of a per-page counts record, and the
 * NUMBER:COUNT items of a numbered one (simrec(5)).
 */
#ifndef COUNTS_H
#define COUNTS_H

#include <stddef.h>

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
int counts_nextnum(struct counts *it, long long *num, long long *c,
    const char **item, size_t *itemn);

#endif
