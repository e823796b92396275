/* esc.c: field escaping of simrec(5). */
#include <stdint.h>
#include <string.h>

#include "esc.h"

/* The escape letter of each byte that needs one, else 0. */
static const char esc_letter[256] = {
	['\\'] = '\\', ['\t'] = 't', ['\n'] = 'n', ['\r'] = 'r', ['\0'] = '0',
};

#define ONES	0x0101010101010101u
/* Whether any byte of v is 0 (exact: the first zero byte makes it true). */
#define HASZERO(v)	(((v) - ONES) & ~(v) & (ONES << 7))
/* Whether any byte of v is below n <= 128 (exact in the same way). */
#define HASLESS(v, n)	(((v) - ONES * (n)) & ~(v) & (ONES << 7))

/*
 * The bytes of v that need an escape, a bit set in each: exact up to the
 * first one (the lowest set bit, in memory order on a little-endian
 * machine); above it a bit may be set wrongly.
 */
static inline uint64_t
special(uint64_t v)
{
	return HASZERO(v) | HASZERO(v ^ ONES * '\\') | HASZERO(v ^ ONES * '\t') |
	    HASZERO(v ^ ONES * '\n') | HASZERO(v ^ ONES * '\r');
}

/* The index of the lowest set bit of m != 0 (de Bruijn: no builtin needed). */
static inline unsigned
lowbit(uint64_t m)
{
	static const unsigned char pos[64] = {
		0, 1, 2, 53, 3, 7, 54, 27, 4, 38, 41, 8, 34, 55, 48, 28,
		62, 5, 39, 46, 44, 42, 22, 9, 24, 35, 59, 56, 49, 18, 29, 11,
		63, 52, 6, 26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10,
		51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12,
	};

	return pos[(m & -m) * 0x022fdd63cc95386du >> 58];
}

static int
littleendian(void)
{
	const uint64_t one = 1;
	unsigned char b;

	memcpy(&b, &one, 1);
	return b == 1;
}

size_t
esc_encode(char *dst, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n, *stop;
	char *d = dst, l;
	uint64_t v, m;
	unsigned k;

	if (littleendian()) {
		/*
		 * 8 bytes at a time; a block with a byte that may need an
		 * escape (a backslash, or below CR) is copied whole (dst has
		 * room), then kept up to that byte only
		 */
		while (end - p >= 8) {
			memcpy(&v, p, 8);
			memcpy(d, &v, 8);
			if (!(m = HASLESS(v, '\r' + 1) | HASZERO(v ^ ONES * '\\'))) {
				p += 8;
				d += 8;
				continue;
			}
			k = lowbit(m) / 8;
			p += k;
			d += k;
			if ((l = esc_letter[*p])) {
				*d++ = '\\';
				*d++ = l;
			} else {
				*d++ = (char)*p;
			}
			p++;
		}
	}
	while (p < end) {
		/* text is mostly plain: copy it 8 bytes at a time */
		for (; end - p >= 8; p += 8, d += 8) {
			memcpy(&v, p, 8);
			if (special(v))
				break;
			memcpy(d, &v, 8);
		}
		/* then a byte at a time through the block with a special byte */
		for (stop = end - p > 8 ? p + 8 : end; p < stop; p++) {
			if ((l = esc_letter[*p])) {
				*d++ = '\\';
				*d++ = l;
			} else {
				*d++ = (char)*p;
			}
		}
	}
	return (size_t)(d - dst);
}

void
esc_write(const char *s, size_t n, FILE *fp)
{
	char buf[4096];
	size_t k;

	for (; n > 0; s += k, n -= k) {
		k = n < sizeof buf / 2 ? n : sizeof buf / 2;
		fwrite(buf, 1, esc_encode(buf, s, k), fp);
	}
}

int
esc_byte(int c)
{
	switch (c) {
	case '\\': return '\\';
	case 't': return '\t';
	case 'n': return '\n';
	case 'r': return '\r';
	case '0': return '\0';
	default: return -1;
	}
}

int
esc_canonical(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	uint64_t v;

	/* 8 bytes at a time: most text has none of the four */
	for (; end - p >= 8; p += 8) {
		memcpy(&v, p, 8);
		if (HASZERO(v) | HASZERO(v ^ ONES * '\t') | HASZERO(v ^ ONES * '\n') |
		    HASZERO(v ^ ONES * '\r'))
			return 0;
	}
	for (; p < end; p++)
		if (*p == '\0' || *p == '\t' || *p == '\n' || *p == '\r')
			return 0;
	return esc_check(s, n) == 0;
}

int
esc_check(const char *s, size_t n)
{
	const char *end = s + n;

	while (s < end && (s = memchr(s, '\\', (size_t)(end - s)))) {
		if (++s == end || esc_byte((unsigned char)*s++) < 0)
			return -1;
	}
	return 0;
}

ptrdiff_t
esc_decode(char *s, size_t n)
{
	char *r, *w, *end = s + n, *bs;
	size_t k;
	int c;

	/* the runs between escapes move a run at a time, not a byte */
	if (!(bs = memchr(s, '\\', n)))
		return (ptrdiff_t)n;
	for (r = w = bs; r < end; r += k, w += k) {
		/* r is at a backslash */
		if (++r == end || (c = esc_byte((unsigned char)*r++)) < 0)
			return -1;
		*w++ = (char)c;
		bs = memchr(r, '\\', (size_t)(end - r));
		k = (size_t)((bs ? bs : end) - r);
		memmove(w, r, k);
	}
	return w - s;
}
