/* counts.c: the WORD:COUNT items of a per-page counts record. */
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
