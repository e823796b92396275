/*
 * swar.h: 8 bytes at a time in a 64-bit word (SIMD within a register),
 * in portable C: the byte at the lowest address is the word's low byte,
 * and a byte's mark is its high bit.
 */
#ifndef SWAR_H
#define SWAR_H

#include <stddef.h>
#include <stdint.h>

#include "siphash.h"

#define SWAR_ONES	UINT64_C(0x0101010101010101)
#define SWAR_HIGHS	(SWAR_ONES * 0x80)

/* The 8 bytes at p, little-endian whatever the machine (siphash.h's load). */
static inline uint64_t
swar_load8(const unsigned char *p)
{
	return sip_load64(p);
}

/* Store v at p, its low byte first (written out: compilers make this one store). */
static inline void
swar_store8(char *p, uint64_t v)
{
	p[0] = (char)(v & 0xff);
	p[1] = (char)(v >> 8 & 0xff);
	p[2] = (char)(v >> 16 & 0xff);
	p[3] = (char)(v >> 24 & 0xff);
	p[4] = (char)(v >> 32 & 0xff);
	p[5] = (char)(v >> 40 & 0xff);
	p[6] = (char)(v >> 48 & 0xff);
	p[7] = (char)(v >> 56 & 0xff);
}

/*
 * The marks of the bytes of v from lo up to, not including, hi (hi at
 * most 0x80; exact, no carry between bytes): with bit 7 cleared, adding
 * 0x80 - lo reaches bit 7 from lo on, adding 0x80 - hi from hi on; bytes
 * of 0x80 and up are none.
 */
static inline uint64_t
swar_range(uint64_t v, unsigned lo, unsigned hi)
{
	uint64_t x = v & SWAR_ONES * 0x7f;

	return (x + SWAR_ONES * (0x80 - lo)) & ~(x + SWAR_ONES * (0x80 - hi)) & ~v & SWAR_HIGHS;
}

/* The marks of the ASCII decimal digits of v (0x30 to 0x39). */
static inline uint64_t
swar_digits(uint64_t v)
{
	return swar_range(v, '0', '9' + 1);
}

/* The marks of the bytes of v below n (n at most 0x80): swar_range from 0, one add fewer. */
static inline uint64_t
swar_below(uint64_t v, unsigned n)
{
	uint64_t x = v & SWAR_ONES * 0x7f;

	return ~(x + SWAR_ONES * (0x80 - n)) & ~v & SWAR_HIGHS;
}

/*
 * The number the 8 digits of d make, each byte a digit's value (0 to 9),
 * the first (most significant) in the low byte: pairs, then fours, then
 * all eight, by three multiplications.
 */
static inline uint64_t
swar_number(uint64_t d)
{
	d = (d * 10 + (d >> 8)) & UINT64_C(0x00ff00ff00ff00ff);
	d = (d * 100 + (d >> 16)) & UINT64_C(0x0000ffff0000ffff);
	return (d * 10000 + (d >> 32)) & UINT64_C(0xffffffff);
}

/*
 * The number the 8 lowercase hex digits of v make, the first (most
 * significant) in the low byte, or -1 if a byte is not one (0-9, a-f):
 * each digit's value, then pairs, fours and all eight packed by shifts.
 */
static inline int64_t
swar_hex8(uint64_t v)
{
	uint64_t letters = swar_range(v, 'a', 'f' + 1), d;

	if ((swar_digits(v) | letters) != SWAR_HIGHS)
		return -1;
	d = (v & SWAR_ONES * 0x0f) + (letters >> 7) * 9;
	d = (d << 4 | d >> 8) & UINT64_C(0x00ff00ff00ff00ff);
	d = (d << 8 | d >> 16) & UINT64_C(0x0000ffff0000ffff);
	return (int64_t)((d << 16 | d >> 32) & UINT64_C(0xffffffff));
}

/*
 * The 8 lowercase hex digits of the 32-bit x, the first (most
 * significant) in the low byte: swar_hex8 backwards, then each digit's
 * ASCII code.
 */
static inline uint64_t
swar_tohex8(uint32_t x)
{
	uint64_t d = (uint64_t)(x >> 16) | (uint64_t)(x & 0xffff) << 32;

	d = (d >> 8 & UINT64_C(0x000000ff000000ff)) | (d & UINT64_C(0x000000ff000000ff)) << 16;
	d = (d >> 4 & UINT64_C(0x000f000f000f000f)) | (d & UINT64_C(0x000f000f000f000f)) << 8;
	return d + SWAR_ONES * 0x30 + (((d + SWAR_ONES * 0x76) & SWAR_HIGHS) >> 7) * 0x27;
}

/* The index of the byte whose high bit is the lowest bit set in b (b != 0, marks only). */
static inline size_t
swar_first(uint64_t b)
{
#if defined(__GNUC__) || defined(__clang__)
	return (size_t)__builtin_ctzll(b) >> 3;
#else
	b &= ~b + 1;
	/* the bit moved to the byte's low bit, times 0x0001020304050607:
	 * byte i's own number lands in the top byte */
	return (size_t)(((b >> 7) * UINT64_C(0x0001020304050607)) >> 56);
#endif
}

#endif
