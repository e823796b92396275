/*
 * uf.h: union-find over dense node numbers 0..n-1, with path compression;
 * the root of a set is its smallest number, so that a cluster is named by
 * its first member in input order.
 */
#ifndef UF_H
#define UF_H

#include <stddef.h>
#include <stdint.h>

static inline void
uf_init(uint32_t *parent, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		parent[i] = (uint32_t)i;
}

static inline uint32_t
uf_find(uint32_t *parent, uint32_t x)
{
	uint32_t r = x, t;

	while (parent[r] != r)
		r = parent[r];
	while (parent[x] != r) {	/* compress the path */
		t = parent[x];
		parent[x] = r;
		x = t;
	}
	return r;
}

static inline void
uf_unite(uint32_t *parent, uint32_t a, uint32_t b)
{
	a = uf_find(parent, a);
	b = uf_find(parent, b);
	if (a < b)
		parent[b] = a;
	else if (b < a)
		parent[a] = b;
}

#endif
