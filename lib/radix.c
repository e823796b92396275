/* radix.c: the radix sorts of radix.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "radix.h"
#include "util.h"

/*
 * The scratch array of the sorts, kept from one sort to the next: a caller
 * sorts many parts, and fresh memory for each would cost a page fault per
 * page touched.
 */
static uint64_t *scratch;
static size_t scratchcap;

/*
 * Sort n records of w words (w = 1 or 2) by their first word. The counts
 * of all 8 bytes come from one pass. Inlined into each sort, so that w
 * is a constant there: the moves are then plain stores, not copies of a
 * length known only at run time.
 */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
sortwords(uint64_t *v, size_t n, size_t w)
{
	size_t count[8][256] = { { 0 } }, i, b, sum, pos;
	uint64_t *src = v, *dst, *t;

	if (n < 2)
		return;
	if (n > SIZE_MAX / w)
		eprintf("radix sort of too many records");
	egrow(&scratch, &scratchcap, n * w, sizeof *scratch);
	for (i = 0; i < n; i++)
		for (b = 0; b < 8; b++)
			count[b][src[i * w] >> 8 * b & 0xff]++;
	dst = scratch;
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
}

void
radix_free(void)
{
	free(scratch);
	scratch = NULL;
	scratchcap = 0;
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

size_t
radix_lowerbound64(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t
radix_lowerbound32(const uint32_t *v, size_t n, uint32_t x)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
