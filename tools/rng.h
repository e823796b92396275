/*
 * rng.h: random numbers for the seeded generators: splitmix64, which takes
 * any seed and gives the same stream on every machine.
 */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

struct rng {
	uint64_t s;
};

/* splitmix64's finalizer: a bijection that scatters nearby inputs. */
static inline uint64_t
rng_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static inline uint64_t
rng_next(struct rng *g)
{
	return rng_mix(g->s += UINT64_C(0x9e3779b97f4a7c15));
}

#endif
