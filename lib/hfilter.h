/*
 * hfilter.h: a filter of 64-bit hashes, a bit each by the top bits of a
 * multiply, so that the hashes a set does not hold (most of those asked
 * about) cost no search of it. A bit can be set by another hash: a hit is
 * "maybe", a miss is "no". Hashes are placed by their own bits, with no
 * key: crafted hashes only make hits, which cost the caller's search.
 */
#ifndef HFILTER_H
#define HFILTER_H

#include <stddef.h>
#include <stdint.h>

struct hfilter {
	uint64_t *bit;
	unsigned bits;		/* 2^bits bits */
};

/* An empty filter for about n hashes, per bits each (at least 2^9 bits in all). */
void hfilter_init(struct hfilter *f, size_t n, unsigned per);
void hfilter_free(struct hfilter *f);

static inline size_t
hfilter_place(const struct hfilter *f, uint64_t h)
{
	return (size_t)(h * UINT64_C(0x9e3779b97f4a7c15) >> (64 - f->bits));
}

static inline void
hfilter_add(struct hfilter *f, uint64_t h)
{
	size_t i = hfilter_place(f, h);

	f->bit[i / 64] |= (uint64_t)1 << (i % 64);
}

/* Whether f may hold h. */
static inline int
hfilter_has(const struct hfilter *f, uint64_t h)
{
	size_t i = hfilter_place(f, h);

	return f->bit[i / 64] >> (i % 64) & 1;
}

#endif
