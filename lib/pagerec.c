/* pagerec.c: streamed page records (pagerec.h). */
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "pagerec.h"

void
pagerec_free(struct pagerec *pr)
{
	free(pr->id.p);
	memset(pr, 0, sizeof *pr);
}

void
pagerec_next(struct pagerec *pr)
{
	pr->id.n = 0;
	pr->intext = 0;
	pr->bad = 0;
}

int
pagerec_chunk(struct pagerec *pr, struct rdr *r, const char **p, ptrdiff_t *n, int eol)
{
	const char *tab;

	if (pr->intext)
		return 1;
	/* the ID whole, however long, before the text streams */
	tab = memchr(*p, '\t', (size_t)*n);
	obuf_add(&pr->id, *p, (size_t)(tab ? tab - *p : *n));
	if (!tab) {
		if (!eol)
			return 0;
		rdr_warn(r, "no TAB after the page ID");
		pagerec_next(pr);
		return -1;
	}
	if (esc_check(pr->id.p, pr->id.n) < 0) {
		rdr_warn(r, "bad escape in the page ID");
		pr->bad = 1;
	}
	pr->intext = 1;
	*n -= tab + 1 - *p;
	*p = tab + 1;
	return 1;
}

ptrdiff_t
pagerec_split(struct rdr *r, char *line, size_t n, size_t *idlen, char **text)
{
	char *tab;
	ptrdiff_t tn;

	if (!(tab = memchr(line, '\t', n))) {
		rdr_warn(r, "no TAB after the page ID");
		return -1;
	}
	*idlen = (size_t)(tab - line);
	*text = tab + 1;
	if ((tn = esc_decode(*text, n - *idlen - 1)) < 0)
		rdr_warn(r, "bad escape in the page text");
	return tn;
}
