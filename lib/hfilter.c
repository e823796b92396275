/* hfilter.c: the filters of hfilter.h. */
#include <stdint.h>
#include <stdlib.h>

#include "hfilter.h"
#include "util.h"

void
hfilter_init(struct hfilter *f, size_t n, unsigned per)
{
	for (f->bits = 9; f->bits < 40 && ((uint64_t)1 << f->bits) < (uint64_t)per * n; f->bits++)
		;
	f->bit = ecalloc(((size_t)1 << f->bits) / 64, sizeof *f->bit);
}

void
hfilter_free(struct hfilter *f)
{
	free(f->bit);
	f->bit = NULL;
}
