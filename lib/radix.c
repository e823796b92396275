/* radix.c: the radix sorts of radix.h. */
#include <stdlib.h>
#include <string.h>

#include "radix.h"
#include "util.h"

/*
 * Sort n records of w words (w = 1 or 2) by their first word. tmp has room
 * for n records. The counts of all 8 bytes come from one pass.
 */
static void
sortwords(uint64_t *v, size_t n, size_t w)
{
	size_t (*count)[256], i, b, sum, pos;
	uint64_t *src = v, *dst, *tmp, *t;

	if (n < 2)
		return;
	count = ecalloc(8, sizeof *count);
	tmp = ereallocarray(NULL, n, w * sizeof *tmp);
	for (i = 0; i < n; i++)
		for (b = 0; b < 8; b++)
			count[b][src[i * w] >> 8 * b & 0xff]++;
	dst = tmp;
	for (b = 0; b < 8; b++) {
		if (count[b][src[0] >> 8 * b & 0xff] == n)
			continue;	/* the same byte everywhere */
		for (i = sum = 0; i < 256; i++) {
			pos = count[b][i];
			count[b][i] = sum;
			sum += pos;
		}
		for (i = 0; i < n; i++) {
			pos = count[b][src[i * w] >> 8 * b & 0xff]++;
			memcpy(dst + pos * w, src + i * w, w * sizeof *src);
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * w * sizeof *v);
	free(tmp);
	free(count);
}

void
radix_sort64(uint64_t *v, size_t n)
{
	sortwords(v, n, 1);
}

void
radix_sort64kv(uint64_t *v, size_t n)
{
	sortwords(v, n, 2);
}
