/* siphash.c: the SipHash-2-4 entry points of siphash.h. */
#include "siphash.h"

uint64_t
siphash24(uint64_t k0, uint64_t k1, const void *msg, size_t n)
{
	return siphash(k0, k1, msg, n, 2, 4, NULL);
}

void
siphash24_128(uint64_t k0, uint64_t k1, const void *msg, size_t n, uint64_t out[2])
{
	siphash(k0, k1, msg, n, 2, 4, out);
}
