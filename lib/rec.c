/* rec.c: the fields of a record line. */
#include <string.h>

#include "rec.h"

int
rec_cut(const char *line, size_t n, const char **f, size_t *len, int max)
{
	const char *p = line, *end = line + n, *t;
	int i;

	for (i = 0; i < max; i++) {
		f[i] = p;
		t = memchr(p, '\t', (size_t)(end - p));
		len[i] = (size_t)((t ? t : end) - p);
		if (!t)
			return i + 1;
		p = t + 1;
	}
	return max;
}
