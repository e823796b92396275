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
 * Sort n records of w words (w = 1 or 2) by their first word, by digits
 * of bits bits, least significant first; the counts of all digits come
 * from one pass. Digits of 11 bits take 6 passes over the records where
 * bytes take 8, but 6 tables of 2048 counts to clear and sum: bytes for
 * a few records. Inlined into each sort, so that w and bits are
 * constants there: the moves are then plain stores, not copies of a
 * length known only at run time.
 */
#define MAXBITS		11
#define WIDEAT		1024	/* records from which 11-bit digits pay */

#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void
sortwords(uint64_t *v, size_t n, size_t w, unsigned bits)
{
	static size_t count[64 / 8][1 << MAXBITS];
	size_t i, b, sum, pos, nd = (64 + bits - 1) / bits, nb = (size_t)1 << bits;
	uint64_t *src = v, *dst, *t, mask = nb - 1;

	if (n < 2)
		return;
	if (n > SIZE_MAX / w)
		eprintf("radix sort of too many records");
	egrow(&scratch, &scratchcap, n * w, sizeof *scratch);
	for (b = 0; b < nd; b++)
		memset(count[b], 0, nb * sizeof count[b][0]);
	for (i = 0; i < n; i++)
		for (b = 0; b < nd; b++)
			count[b][src[i * w] >> bits * b & mask]++;
	dst = scratch;
	for (b = 0; b < nd; b++) {
		if (count[b][src[0] >> bits * b & mask] == n)
			continue;	/* the same digit everywhere */
		for (i = sum = 0; i < nb; i++) {
			pos = count[b][i];
			count[b][i] = sum;
			sum += pos;
		}
		for (i = 0; i < n; i++) {
			pos = count[b][src[i * w] >> bits * b & mask]++;
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
	if (n < WIDEAT)
		sortwords(v, n, 1, 8);
	else
		sortwords(v, n, 1, MAXBITS);
}

void
radix_sort64kv(uint64_t *v, size_t n)
{
	if (n < WIDEAT)
		sortwords(v, n, 2, 8);
	else
		sortwords(v, n, 2, MAXBITS);
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
