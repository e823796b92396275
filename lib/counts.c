/* counts.c: the items of a per-page counts record, words or numbers. */
#include <limits.h>
#include <string.h>

#include "counts.h"
#include "util.h"

void
counts_init(struct counts *it, const char *s, const char *end)
{
	it->p = s;
	it->end = end;
}

int
counts_next(struct counts *it, const char **w, size_t *wn, long long *c)
{
	const char *s, *e, *colon, *errstr;

	for (s = it->p; s < it->end && *s == ' '; s++)
		;
	if (s == it->end)
		return 0;
	if (!(e = memchr(s, ' ', (size_t)(it->end - s))))
		e = it->end;
	it->p = e;
	*w = s;
	for (colon = e; colon > s && colon[-1] != ':'; colon--)
		;
	if (colon <= s + 1) {
		*wn = (size_t)(e - s);
		return -1;
	}
	*c = parsenumn(colon, (size_t)(e - colon), 0, LLONG_MAX, &errstr);
	if (errstr) {
		*wn = (size_t)(e - s);
		return -1;
	}
	*wn = (size_t)(colon - 1 - s);
	return 1;
}

/*
 * The slow path of counts_nextnum for the item at s: a number of more
 * than 18 digits (which parsenumn checks), or a malformed item.
 */
static int
nextnumslow(struct counts *it, const char *s, long long *num, long long *c,
    const char **item, size_t *itemn)
{
	const char *e, *colon, *errstr;

	if (!(e = memchr(s, ' ', (size_t)(it->end - s))))
		e = it->end;
	it->p = e;
	*item = s;
	*itemn = (size_t)(e - s);
	if (!(colon = memchr(s, ':', (size_t)(e - s))))
		return -1;
	*num = parsenumn(s, (size_t)(colon - s), 0, LLONG_MAX, &errstr);
	if (errstr)
		return -1;
	*c = parsenumn(colon + 1, (size_t)(e - colon - 1), 0, LLONG_MAX, &errstr);
	return errstr ? -1 : 1;
}

int
counts_nextnum_any(struct counts *it, long long *num, long long *c,
    const char **item, size_t *itemn)
{
	const char *p = it->p, *end = it->end, *s, *d;
	unsigned long long n = 0, v = 0;
	unsigned x;

	while (p < end && *p == ' ')
		p++;
	if (p == end)
		return 0;
	/* digits, a colon, digits, then a space or the end; in one pass */
	for (s = p; p < end && (x = (unsigned)(unsigned char)*p - '0') < 10; p++)
		n = n * 10 + x;
	if (p == s || p - s > 18 || p == end || *p != ':')
		return nextnumslow(it, s, num, c, item, itemn);
	for (d = ++p; p < end && (x = (unsigned)(unsigned char)*p - '0') < 10; p++)
		v = v * 10 + x;
	if (p == d || p - d > 18 || (p < end && *p != ' '))
		return nextnumslow(it, s, num, c, item, itemn);
	it->p = p;
	*num = (long long)n;
	*c = (long long)v;
	*item = s;
	*itemn = (size_t)(p - s);
	return 1;
}
