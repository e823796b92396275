/*
 * siphash.h: SipHash-c-d, the keyed pseudorandom function of Aumasson and
 * Bernstein ("SipHash: a fast short-input PRF", 2012): c compression rounds
 * per 8-byte block of the message and d finalization rounds, under a
 * 128-bit key (k0, k1), the key's first 8 bytes read little-endian as k0.
 * The message is read byte by byte as little-endian words, so the value is
 * the same on every machine and byte order.
 *
 * The word table uses SipHash-1-3 (wtab.c); fphash(1) -H uses SipHash-2-4
 * and its 128-bit output form, SipHash-2-4-128.
 */
#ifndef SIPHASH_H
#define SIPHASH_H

#include <stddef.h>
#include <stdint.h>

/* 8 bytes at p as a little-endian number (compilers make this one load where they can). */
static inline uint64_t
sip_load64(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	    (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline uint32_t
sip_load32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* n (< 8) bytes at p as a little-endian number, with no loop and no read past them. */
static inline uint64_t
sip_loadtail(const unsigned char *p, size_t n)
{
	if (n >= 4) {
		/* two 4-byte loads that overlap: the shared bytes OR to themselves */
		return sip_load32(p) | (uint64_t)sip_load32(p + n - 4) << 8 * (n - 4);
	}
	if (n == 0)
		return 0;
	return (uint64_t)p[0] | (uint64_t)p[n / 2] << 8 * (n / 2) |
	    (uint64_t)p[n - 1] << 8 * (n - 1);
}

#define SIP_ROTL(x, b)	((x) << (b) | (x) >> (64 - (b)))

#define SIP_ROUND() do { \
	v0 += v1; v1 = SIP_ROTL(v1, 13); v1 ^= v0; v0 = SIP_ROTL(v0, 32); \
	v2 += v3; v3 = SIP_ROTL(v3, 16); v3 ^= v2; \
	v0 += v3; v3 = SIP_ROTL(v3, 21); v3 ^= v0; \
	v2 += v1; v1 = SIP_ROTL(v1, 17); v1 ^= v2; v2 = SIP_ROTL(v2, 32); \
} while (0)

/*
 * rounds (0 to 4) SipRounds on the state v0..v3, variables of the caller:
 * written out, so that a constant count leaves no loop behind.
 */
#define SIP_ROUNDS(rounds) do { \
	if ((rounds) > 0) SIP_ROUND(); \
	if ((rounds) > 1) SIP_ROUND(); \
	if ((rounds) > 2) SIP_ROUND(); \
	if ((rounds) > 3) SIP_ROUND(); \
} while (0)

/* The last block of a message of n bytes ending with the n % 8 bytes at tail. */
static inline uint64_t
sip_lastblock(const unsigned char *tail, size_t n)
{
	/* the length's low byte above the last n % 8 bytes */
	return (uint64_t)n << 56 | sip_loadtail(tail, n & 7);
}

/*
 * SipHash-c-d (1 <= c, d <= 4) of the n bytes at msg, whose last block (sip_lastblock) is
 * last: a caller that has it already passes it. With out128 set, the
 * 128-bit form: its two halves go to out128[0] and out128[1] (the first 8
 * bytes of the reference output are out128[0] little-endian), and the
 * return value is out128[0]. Inline, so that constant c and d unroll: it is
 * most of the work of the word table.
 */
static inline uint64_t
siphash_last(uint64_t k0, uint64_t k1, const void *msg, size_t n, uint64_t last,
    int c, int d, uint64_t *out128)
{
	const unsigned char *p = msg, *end = p + (n & ~(size_t)7);
	uint64_t v0, v1, v2, v3, m;

	v0 = k0 ^ UINT64_C(0x736f6d6570736575);
	v1 = k1 ^ UINT64_C(0x646f72616e646f6d);
	v2 = k0 ^ UINT64_C(0x6c7967656e657261);
	v3 = k1 ^ UINT64_C(0x7465646279746573);
	if (out128)
		v1 ^= 0xee;
	for (; p < end; p += 8) {
		m = sip_load64(p);
		v3 ^= m;
		SIP_ROUNDS(c);
		v0 ^= m;
	}
	v3 ^= last;
	SIP_ROUNDS(c);
	v0 ^= last;
	v2 ^= out128 ? 0xee : 0xff;
	SIP_ROUNDS(d);
	m = v0 ^ v1 ^ v2 ^ v3;
	if (out128) {
		out128[0] = m;
		v1 ^= 0xdd;
		SIP_ROUNDS(d);
		out128[1] = v0 ^ v1 ^ v2 ^ v3;
	}
	return m;
}

/* SipHash-c-d of the n bytes at msg (see siphash_last). */
static inline uint64_t
siphash(uint64_t k0, uint64_t k1, const void *msg, size_t n, int c, int d,
    uint64_t *out128)
{
	const unsigned char *p = msg;

	return siphash_last(k0, k1, msg, n, sip_lastblock(p + (n & ~(size_t)7), n),
	    c, d, out128);
}

/*
 * SipHash-1-3 of the 8 bytes of v, little-endian: the place of a 64-bit
 * value in a hash table under a secret key, so that no input made without
 * the key crowds one part of the table (hash flooding).
 */
static inline uint64_t
siphash13_u64(uint64_t k0, uint64_t k1, uint64_t v)
{
	uint64_t v0, v1, v2, v3, last = (uint64_t)8 << 56;

	v0 = k0 ^ UINT64_C(0x736f6d6570736575);
	v1 = k1 ^ UINT64_C(0x646f72616e646f6d);
	v2 = k0 ^ UINT64_C(0x6c7967656e657261);
	v3 = k1 ^ UINT64_C(0x7465646279746573);
	v3 ^= v;
	SIP_ROUND();
	v0 ^= v;
	v3 ^= last;
	SIP_ROUND();
	v0 ^= last;
	v2 ^= 0xff;
	SIP_ROUNDS(3);
	return v0 ^ v1 ^ v2 ^ v3;
}

/*
 * Word i (0 to SIP_RUNKEYS - 1) of the process's secret key: random bits
 * drawn once, at the first call, from /dev/urandom; failing that (a chroot
 * without /dev), from the clock, the process id and the address space
 * layout, which still differ from run to run. Each table that must not be
 * flooded takes its own words. Nothing a tool writes may depend on them.
 */
#define SIP_RUNKEYS	10
uint64_t sip_runkey(unsigned i);

/* SipHash-2-4, and SipHash-2-4-128 into out[2]. */
uint64_t siphash24(uint64_t k0, uint64_t k1, const void *msg, size_t n);
void siphash24_128(uint64_t k0, uint64_t k1, const void *msg, size_t n, uint64_t out[2]);

#endif
