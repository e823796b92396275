/*
 * inflate.c: DEFLATE (RFC 1951) and gzip (RFC 1952) decompression, in
 * chunks (inflate.h).
 *
 * The decoder is a state machine whose steps are whole units: a header
 * field, a code length, a literal, or a length with its distance. Input
 * goes into a 64-bit bit buffer; a unit is decoded only when all of its
 * bits are there (at most 48), else the decoder waits for input with
 * nothing of the unit used, so any chunking gives the same result.
 *
 * Huffman codes are decoded by table: the first INF_LITBITS (or
 * INF_DISTBITS) bits of the input index a table whose entry gives the
 * symbol and its code length, or for a longer code a sub-table indexed
 * by the bits that follow. An entry is
 *
 *	value << 16 | flags | extra bits << 8 | code length
 *
 * where value is a literal, a length or distance base, a sub-table's
 * offset (and then the extra bits field holds its index bits), or a
 * code-length symbol.
 *
 * Output is written into buf behind the last 32 kB of output (the
 * window), so that a match is one forward copy. When buf is nearly full
 * and handed out, its last 32 kB move to the front.
 */
#include <stdio.h>
#include <string.h>

#include "inflate.h"

#define E_LIT 0x1000u		/* a literal byte */
#define E_SUB 0x2000u		/* a link to a sub-table */
#define E_EOB 0x4000u		/* end of block */
#define E_BAD 0x8000u		/* a code that is invalid or unused */

#define ENTLEN(e) ((e) & 0xffu)
#define ENTEXTRA(e) ((e) >> 8 & 15u)
#define ENTVAL(e) ((e) >> 16)

enum {
	BUFEND = INF_WSIZE + INF_OUTSIZE,	/* decoding stops here */
	SLIDE = BUFEND - 4096			/* the window moves beyond this */
};

enum state {
	S_MAGIC,	/* the header's first 10 bytes (hpos counts them) */
	S_XLEN, S_EXTRA, S_NAME, S_COMMENT, S_HCRC,
	S_BLOCK, S_STOREDLEN, S_STORED, S_COUNTS, S_CLENS, S_LENS, S_CODES,
	S_TRAILER,	/* CRC-32 and ISIZE; hpos counts the fields */
	S_NEXT, S_NEXT2, S_ZEROS, S_GARBAGE,	/* after a member */
	S_END, S_ERR
};

enum { FTEXT = 1, FHCRC = 2, FEXTRA = 4, FNAME = 8, FCOMMENT = 16, FRESERVED = 0xe0 };

enum codeset { LITLEN, DIST, CLEN };

static const uint16_t lenbase[29] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
	67, 83, 99, 115, 131, 163, 195, 227, 258
};
static const uint8_t lenextra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
	4, 4, 4, 4, 5, 5, 5, 5, 0
};
static const uint16_t distbase[30] = {
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385,
	513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577
};
static const uint8_t distextra[30] = {
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7,
	8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13
};
/* the order in which the code length code's lengths come */
static const uint8_t clenorder[19] = {
	16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
};

/* CRC-32, polynomial 0xedb88320 (reflected), by byte */
static const uint32_t crctab[256] = {
	0x00000000, 0x77073096, 0xee0e612c, 0x990951ba, 0x076dc419, 0x706af48f,
	0xe963a535, 0x9e6495a3, 0x0edb8832, 0x79dcb8a4, 0xe0d5e91e, 0x97d2d988,
	0x09b64c2b, 0x7eb17cbd, 0xe7b82d07, 0x90bf1d91, 0x1db71064, 0x6ab020f2,
	0xf3b97148, 0x84be41de, 0x1adad47d, 0x6ddde4eb, 0xf4d4b551, 0x83d385c7,
	0x136c9856, 0x646ba8c0, 0xfd62f97a, 0x8a65c9ec, 0x14015c4f, 0x63066cd9,
	0xfa0f3d63, 0x8d080df5, 0x3b6e20c8, 0x4c69105e, 0xd56041e4, 0xa2677172,
	0x3c03e4d1, 0x4b04d447, 0xd20d85fd, 0xa50ab56b, 0x35b5a8fa, 0x42b2986c,
	0xdbbbc9d6, 0xacbcf940, 0x32d86ce3, 0x45df5c75, 0xdcd60dcf, 0xabd13d59,
	0x26d930ac, 0x51de003a, 0xc8d75180, 0xbfd06116, 0x21b4f4b5, 0x56b3c423,
	0xcfba9599, 0xb8bda50f, 0x2802b89e, 0x5f058808, 0xc60cd9b2, 0xb10be924,
	0x2f6f7c87, 0x58684c11, 0xc1611dab, 0xb6662d3d, 0x76dc4190, 0x01db7106,
	0x98d220bc, 0xefd5102a, 0x71b18589, 0x06b6b51f, 0x9fbfe4a5, 0xe8b8d433,
	0x7807c9a2, 0x0f00f934, 0x9609a88e, 0xe10e9818, 0x7f6a0dbb, 0x086d3d2d,
	0x91646c97, 0xe6635c01, 0x6b6b51f4, 0x1c6c6162, 0x856530d8, 0xf262004e,
	0x6c0695ed, 0x1b01a57b, 0x8208f4c1, 0xf50fc457, 0x65b0d9c6, 0x12b7e950,
	0x8bbeb8ea, 0xfcb9887c, 0x62dd1ddf, 0x15da2d49, 0x8cd37cf3, 0xfbd44c65,
	0x4db26158, 0x3ab551ce, 0xa3bc0074, 0xd4bb30e2, 0x4adfa541, 0x3dd895d7,
	0xa4d1c46d, 0xd3d6f4fb, 0x4369e96a, 0x346ed9fc, 0xad678846, 0xda60b8d0,
	0x44042d73, 0x33031de5, 0xaa0a4c5f, 0xdd0d7cc9, 0x5005713c, 0x270241aa,
	0xbe0b1010, 0xc90c2086, 0x5768b525, 0x206f85b3, 0xb966d409, 0xce61e49f,
	0x5edef90e, 0x29d9c998, 0xb0d09822, 0xc7d7a8b4, 0x59b33d17, 0x2eb40d81,
	0xb7bd5c3b, 0xc0ba6cad, 0xedb88320, 0x9abfb3b6, 0x03b6e20c, 0x74b1d29a,
	0xead54739, 0x9dd277af, 0x04db2615, 0x73dc1683, 0xe3630b12, 0x94643b84,
	0x0d6d6a3e, 0x7a6a5aa8, 0xe40ecf0b, 0x9309ff9d, 0x0a00ae27, 0x7d079eb1,
	0xf00f9344, 0x8708a3d2, 0x1e01f268, 0x6906c2fe, 0xf762575d, 0x806567cb,
	0x196c3671, 0x6e6b06e7, 0xfed41b76, 0x89d32be0, 0x10da7a5a, 0x67dd4acc,
	0xf9b9df6f, 0x8ebeeff9, 0x17b7be43, 0x60b08ed5, 0xd6d6a3e8, 0xa1d1937e,
	0x38d8c2c4, 0x4fdff252, 0xd1bb67f1, 0xa6bc5767, 0x3fb506dd, 0x48b2364b,
	0xd80d2bda, 0xaf0a1b4c, 0x36034af6, 0x41047a60, 0xdf60efc3, 0xa867df55,
	0x316e8eef, 0x4669be79, 0xcb61b38c, 0xbc66831a, 0x256fd2a0, 0x5268e236,
	0xcc0c7795, 0xbb0b4703, 0x220216b9, 0x5505262f, 0xc5ba3bbe, 0xb2bd0b28,
	0x2bb45a92, 0x5cb36a04, 0xc2d7ffa7, 0xb5d0cf31, 0x2cd99e8b, 0x5bdeae1d,
	0x9b64c2b0, 0xec63f226, 0x756aa39c, 0x026d930a, 0x9c0906a9, 0xeb0e363f,
	0x72076785, 0x05005713, 0x95bf4a82, 0xe2b87a14, 0x7bb12bae, 0x0cb61b38,
	0x92d28e9b, 0xe5d5be0d, 0x7cdcefb7, 0x0bdbdf21, 0x86d3d2d4, 0xf1d4e242,
	0x68ddb3f8, 0x1fda836e, 0x81be16cd, 0xf6b9265b, 0x6fb077e1, 0x18b74777,
	0x88085ae6, 0xff0f6a70, 0x66063bca, 0x11010b5c, 0x8f659eff, 0xf862ae69,
	0x616bffd3, 0x166ccf45, 0xa00ae278, 0xd70dd2ee, 0x4e048354, 0x3903b3c2,
	0xa7672661, 0xd06016f7, 0x4969474d, 0x3e6e77db, 0xaed16a4a, 0xd9d65adc,
	0x40df0b66, 0x37d83bf0, 0xa9bcae53, 0xdebb9ec5, 0x47b2cf7f, 0x30b5ffe9,
	0xbdbdf21c, 0xcabac28a, 0x53b39330, 0x24b4a3a6, 0xbad03605, 0xcdd70693,
	0x54de5729, 0x23d967bf, 0xb3667a2e, 0xc4614ab8, 0x5d681b02, 0x2a6f2b94,
	0xb40bbe37, 0xc30c8ea1, 0x5a05df1b, 0x2d02ef8d
};

uint32_t
inf_crc32(uint32_t crc, const void *p, size_t n)
{
	const unsigned char *s = p;

	crc = ~crc;
	while (n--)
		crc = crctab[(crc ^ *s++) & 0xff] ^ crc >> 8;
	return ~crc;
}

/* 8 bytes at p as a little-endian number (one load where the compiler can) */
static inline uint64_t
load64(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	    (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

/* The table entry of symbol s of a code set. */
static uint32_t
symentry(enum codeset set, unsigned s)
{
	switch (set) {
	case LITLEN:
		if (s < 256)
			return E_LIT | s << 16;
		if (s == 256)
			return E_EOB;
		if (s < 286)
			return (uint32_t)lenbase[s - 257] << 16 | (uint32_t)lenextra[s - 257] << 8;
		return E_BAD;		/* 286, 287: the fixed code has them */
	case DIST:
		if (s < 30)
			return (uint32_t)distbase[s] << 16 | (uint32_t)distextra[s] << 8;
		return E_BAD;		/* 30, 31 */
	default:
		return s << 16;
	}
}

static unsigned
reverse(unsigned code, unsigned len)
{
	unsigned r = 0;

	for (; len > 0; len--, code >>= 1)
		r = r << 1 | (code & 1);
	return r;
}

/*
 * Fill table t (of size entries) with the canonical Huffman code of the
 * n code lengths at lens, looking up at most rootmax bits first. Returns
 * the bits looked up first, or -1 if the set is over-subscribed or
 * incomplete: an incomplete set is accepted, except for the code length
 * code, when it has no code or a single code of one bit (RFC 1951, 3.2.7).
 */
static int
build(uint32_t *t, size_t size, const unsigned char *lens, unsigned n,
    unsigned rootmax, enum codeset set)
{
	unsigned count[16] = { 0 }, start[16], code[16];
	uint16_t sorted[320];
	unsigned char subbits[1 << INF_LITBITS];
	unsigned s, len, root, maxlen = 0, ncodes = 0, i, r, step;
	size_t next, j;
	int left = 1;

	for (s = 0; s < n; s++)
		count[lens[s]]++;
	for (len = 1; len <= 15; len++) {
		left <<= 1;
		left -= (int)count[len];
		if (left < 0)
			return -1;	/* over-subscribed */
		if (count[len]) {
			maxlen = len;
			ncodes += count[len];
		}
	}
	if (left > 0 && (set == CLEN || maxlen > 1))
		return -1;		/* incomplete */
	/* the code length code's table is always whole: read 7 bits */
	root = maxlen < rootmax && set != CLEN ? maxlen : rootmax;
	if (root == 0)
		root = 1;
	if (left > 0)
		for (j = 0; j < (size_t)1 << root; j++)
			t[j] = E_BAD | root;

	/* symbols in order of length, then value: the order of their codes */
	start[1] = 0;
	for (len = 1; len < 15; len++)
		start[len + 1] = start[len] + count[len];
	for (s = 0; s < n; s++)
		if (lens[s])
			sorted[start[lens[s]]++] = (uint16_t)s;
	code[1] = 0;
	for (len = 1; len < 15; len++)
		code[len + 1] = (code[len] + count[len]) << 1;

	/* the sub-tables: each root prefix gets the bits of its longest code */
	if (maxlen > root) {
		unsigned c[16];

		memcpy(c, code, sizeof c);
		memset(subbits, 0, (size_t)1 << root);
		for (i = 0; i < ncodes; i++) {
			len = lens[sorted[i]];
			r = c[len]++;
			if (len > root)
				subbits[reverse(r >> (len - root), root)] = (unsigned char)(len - root);
		}
		next = (size_t)1 << root;
		for (j = 0; j < (size_t)1 << root; j++) {
			if (!subbits[j])
				continue;
			if (next + ((size_t)1 << subbits[j]) > size)
				return -1;	/* cannot happen for a complete code */
			t[j] = E_SUB | (uint32_t)next << 16 | (uint32_t)subbits[j] << 8 | root;
			next += (size_t)1 << subbits[j];
		}
	}

	for (i = 0; i < ncodes; i++) {
		s = sorted[i];
		len = lens[s];
		r = reverse(code[len]++, len);
		if (len <= root) {
			for (j = r; j < (size_t)1 << root; j += (size_t)1 << len)
				t[j] = symentry(set, s) | len;
		} else {
			uint32_t link = t[r & ((1u << root) - 1)];
			uint32_t *sub = t + ENTVAL(link);

			step = 1u << (len - root);
			for (j = r >> root; j < (size_t)1 << ENTEXTRA(link); j += step)
				sub[j] = symentry(set, s) | len;
		}
	}
	return (int)root;
}

/* The tables of the fixed codes (RFC 1951, 3.2.6). */
static void
buildfixed(struct inflate *z)
{
	unsigned s;

	for (s = 0; s < 288; s++)
		z->lens[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
	z->litbits = (unsigned)build(z->lit, INF_LITTAB, z->lens, 288, INF_LITBITS, LITLEN);
	memset(z->lens, 5, 32);
	z->distbits = (unsigned)build(z->dist, INF_DISTTAB, z->lens, 32, INF_DISTBITS, DIST);
	z->fixed = 1;
}

void
inf_init(struct inflate *z, int format, uint64_t max)
{
	/* buf and the tables need no clearing: they are written before read */
	memset(z, 0, offsetof(struct inflate, lens));
	z->format = format;
	z->max = max;
	z->wpos = z->rpos = z->crcpos = z->mstart = 0;
	if (format == INF_RAW) {
		z->state = S_BLOCK;
	} else {
		z->state = S_MAGIC;
		z->members = 1;
	}
}

void
inf_input(struct inflate *z, const void *p, size_t n)
{
	z->in = p;
	z->inend = z->in + n;
	z->nin += n;
}

/* The offset of the byte holding the next bit to decode. */
static uint64_t
bytepos(const struct inflate *z, const unsigned char *in, unsigned nbits)
{
	return z->nin - (uint64_t)(z->inend - in) - (nbits + 7) / 8;
}

static void
fail(struct inflate *z, int err, uint64_t pos)
{
	z->err = err;
	z->errpos = pos;
	z->state = S_ERR;
}

/* Take input into the bit buffer, as much as it holds. */
static void
fill(struct inflate *z)
{
	while (z->nbits < 56 && z->in < z->inend) {
		z->bits |= (uint64_t)*z->in++ << z->nbits;
		z->nbits += 8;
	}
}

/* Have n bits (up to 56) in the bit buffer, or return 0. */
static int
need(struct inflate *z, unsigned n)
{
	if (z->nbits < n)
		fill(z);
	return z->nbits >= n;
}

static void
drop(struct inflate *z, unsigned n)
{
	z->bits >>= n;
	z->nbits -= n;
}

/* The next byte (when the bit buffer is at a byte boundary), or -1. */
static int
getbyte(struct inflate *z)
{
	int c;

	if (!need(z, 8))
		return -1;
	c = (int)(z->bits & 0xff);
	drop(z, 8);
	return c;
}

/* The member's output so far goes into its CRC and size. */
static void
sumoutput(struct inflate *z)
{
	size_t n = z->wpos - z->crcpos;

	if (z->format != INF_GZIP)
		return;
	z->crc = inf_crc32(z->crc, z->buf + z->crcpos, n);
	z->msize += (uint32_t)n;
	z->crcpos = z->wpos;
}

/* The gzip header's field st is read: on to the next field the flags give. */
static void
nextfield(struct inflate *z, int st)
{
	z->hpos = 0;
	switch (st) {
	case S_MAGIC:
		if (z->flags & FEXTRA) {
			z->state = S_XLEN;
			return;
		}
		/* FALLTHROUGH */
	case S_EXTRA:
		if (z->flags & FNAME) {
			z->state = S_NAME;
			return;
		}
		/* FALLTHROUGH */
	case S_NAME:
		if (z->flags & FCOMMENT) {
			z->state = S_COMMENT;
			return;
		}
		/* FALLTHROUGH */
	case S_COMMENT:
		if (z->flags & FHCRC) {
			z->state = S_HCRC;
			z->xlen = z->hcrc & 0xffff;	/* the CRC of the bytes before it */
			return;
		}
		/* FALLTHROUGH */
	default:
		z->state = S_BLOCK;
	}
}

/* A member's DEFLATE stream begins: its output and CRC start here. */
static void
beginmember(struct inflate *z)
{
	z->crc = 0;
	z->msize = 0;
	z->crcpos = z->mstart = z->wpos;
	z->last = 0;
}

/* After a block: the next block, the member's trailer, or the end. */
static void
endblock(struct inflate *z)
{
	if (!z->last)
		z->state = S_BLOCK;
	else if (z->format == INF_RAW) {
		drop(z, z->nbits & 7);
		z->mend = bytepos(z, z->in, z->nbits);
		z->state = S_END;
	} else {
		drop(z, z->nbits & 7);
		z->hpos = 0;
		z->state = S_TRAILER;
	}
}

/*
 * Decode literals and matches while at least 8 bytes of input and room
 * below lim are left. Stops before a code it leaves to the careful loop
 * (end of block, an invalid code) or on an invalid distance (z->err).
 */
static void
fastcodes(struct inflate *z, size_t lim)
{
	const unsigned char *in = z->in, *inend = z->inend;
	unsigned char *buf = z->buf;
	const uint32_t *lit = z->lit, *dist = z->dist;
	uint64_t bits = z->bits;
	unsigned nbits = z->nbits, n, x;
	const uint32_t litmask = (1u << z->litbits) - 1, distmask = (1u << z->distbits) - 1;
	const unsigned litbits = z->litbits, distbits = z->distbits;
	size_t w = z->wpos, mstart = z->mstart, len, d;
	uint32_t e;

	while (w < lim && inend - in >= 8) {
		/*
		 * Refill to 56-63 bits: the bytes loaded past them are the
		 * input's next bits, which the next refill puts there again.
		 */
		bits |= load64(in) << nbits;
		in += (63 - nbits) >> 3;
		nbits |= 56;
		e = lit[bits & litmask];
		if (e & E_SUB)
			e = lit[ENTVAL(e) + ((bits >> litbits) & ((1u << ENTEXTRA(e)) - 1))];
		if (e & E_LIT) {
			n = ENTLEN(e);
			bits >>= n;
			nbits -= n;
			buf[w++] = (unsigned char)ENTVAL(e);
			/* a second literal, if its bits are here */
			e = lit[bits & litmask];
			if ((e & E_LIT) && w < lim) {	/* 41 bits or more are left */
				n = ENTLEN(e);
				bits >>= n;
				nbits -= n;
				buf[w++] = (unsigned char)ENTVAL(e);
			}
			continue;
		}
		if (e & (E_EOB | E_BAD))
			break;
		n = ENTLEN(e);
		x = ENTEXTRA(e);
		bits >>= n;
		nbits -= n;
		len = ENTVAL(e) + (bits & ((1u << x) - 1));
		bits >>= x;
		nbits -= x;
		e = dist[bits & distmask];
		if (e & E_SUB)
			e = dist[ENTVAL(e) + ((bits >> distbits) & ((1u << ENTEXTRA(e)) - 1))];
		n = ENTLEN(e);
		x = ENTEXTRA(e);
		d = ENTVAL(e) + ((bits >> n) & ((1u << x) - 1));
		if ((e & E_BAD) || d > w - mstart) {
			z->in = in;
			fail(z, e & E_BAD ? INF_EDISTCODE : INF_EFAR, bytepos(z, in, nbits));
			break;
		}
		bits >>= n + x;
		nbits -= n + x;
		{
			unsigned char *dst = buf + w, *src = dst - d, *end = dst + len;

			if (d >= 8) {
				do {
					memcpy(dst, src, 8);
					dst += 8;
					src += 8;
				} while (dst < end);
			} else if (d == 1) {
				memset(dst, *src, len);
			} else {
				while (dst < end)
					*dst++ = *src++;
			}
		}
		w += len;
	}
	z->in = in;
	z->bits = bits & (((uint64_t)1 << nbits) - 1);	/* nbits < 64 */
	z->nbits = nbits;
	z->wpos = w;
}

/* Decode in S_CODES until the block ends, the output reaches lim, or input runs out. */
static void
codes(struct inflate *z, size_t lim)
{
	uint32_t e, de;
	unsigned n, x, dn, dx;
	size_t len, d;
	uint64_t pos;

	while (z->state == S_CODES) {
		if (z->wpos >= lim)
			return;
		if (z->inend - z->in >= 8) {
			fastcodes(z, lim);
			if (z->state != S_CODES || z->wpos >= lim)
				return;
		}
		fill(z);
		e = z->lit[z->bits & ((1u << z->litbits) - 1)];
		if (e & E_SUB)
			e = z->lit[ENTVAL(e) + ((z->bits >> z->litbits) & ((1u << ENTEXTRA(e)) - 1))];
		n = ENTLEN(e);
		if (n > z->nbits)
			return;		/* wait for input */
		if (e & E_LIT) {
			drop(z, n);
			z->buf[z->wpos++] = (unsigned char)ENTVAL(e);
			continue;
		}
		if (e & E_EOB) {
			drop(z, n);
			endblock(z);
			return;
		}
		if (e & E_BAD) {
			fail(z, INF_ELITCODE, bytepos(z, z->in, z->nbits));
			return;
		}
		x = ENTEXTRA(e);
		if (n + x > z->nbits)
			return;
		len = ENTVAL(e) + ((z->bits >> n) & ((1u << x) - 1));
		de = z->dist[(z->bits >> (n + x)) & ((1u << z->distbits) - 1)];
		if (de & E_SUB)
			de = z->dist[ENTVAL(de) + ((z->bits >> (n + x + z->distbits)) &
			    ((1u << ENTEXTRA(de)) - 1))];
		dn = ENTLEN(de);
		dx = ENTEXTRA(de);
		if (n + x + dn + ((de & E_BAD) ? 0 : dx) > z->nbits)
			return;
		/* the distance code's first bit */
		pos = (z->nin - (uint64_t)(z->inend - z->in)) * 8 - z->nbits + n + x;
		if (de & E_BAD) {
			fail(z, INF_EDISTCODE, pos / 8);
			return;
		}
		d = ENTVAL(de) + ((z->bits >> (n + x + dn)) & ((1u << dx) - 1));
		if (d > z->wpos - z->mstart) {
			fail(z, INF_EFAR, pos / 8);
			return;
		}
		drop(z, n + x + dn + dx);
		for (; len > 0; len--, z->wpos++)
			z->buf[z->wpos] = z->buf[z->wpos - d];
	}
}

/* Read code lengths (S_LENS) until they are all there; then build the tables. */
static void
codelens(struct inflate *z)
{
	unsigned total = z->nlen + z->ndist, n, sym, rep, x;
	unsigned char val;
	uint32_t e;
	int bits;

	while (z->ilen < total) {
		fill(z);
		e = z->clen[z->bits & 127];
		n = ENTLEN(e);
		sym = ENTVAL(e);
		if (n > z->nbits)
			return;
		if (sym < 16) {
			drop(z, n);
			z->lens[z->ilen++] = (unsigned char)sym;
			continue;
		}
		x = sym == 16 ? 2 : sym == 17 ? 3 : 7;
		if (n + x > z->nbits)
			return;
		rep = (unsigned)((z->bits >> n) & ((1u << x) - 1)) + (sym == 18 ? 11 : 3);
		if ((sym == 16 && z->ilen == 0) || z->ilen + rep > total) {
			fail(z, INF_EREPEAT, bytepos(z, z->in, z->nbits));
			return;
		}
		drop(z, n + x);
		val = sym == 16 ? z->lens[z->ilen - 1] : 0;
		memset(z->lens + z->ilen, val, rep);
		z->ilen += rep;
	}
	if (z->lens[256] == 0) {
		fail(z, INF_ENOEOB, z->setpos);
		return;
	}
	z->fixed = 0;
	if ((bits = build(z->lit, INF_LITTAB, z->lens, z->nlen, INF_LITBITS, LITLEN)) < 0) {
		fail(z, INF_ELITSET, z->setpos);
		return;
	}
	z->litbits = (unsigned)bits;
	if ((bits = build(z->dist, INF_DISTTAB, z->lens + z->nlen, z->ndist, INF_DISTBITS,
	    DIST)) < 0) {
		fail(z, INF_EDISTSET, z->setpos);
		return;
	}
	z->distbits = (unsigned)bits;
	z->state = S_CODES;
}

/* The gzip header, from the state it is in to its end; 0 to wait for input. */
static int
header(struct inflate *z)
{
	uint64_t pos;
	int c;

	while (z->state != S_BLOCK) {
		pos = bytepos(z, z->in, z->nbits);
		if ((c = getbyte(z)) < 0)
			return 0;
		if (z->state != S_HCRC) {
			unsigned char b = (unsigned char)c;

			z->hcrc = inf_crc32(z->hcrc, &b, 1);
		}
		switch (z->state) {
		case S_MAGIC:
			if ((z->hpos == 0 && c != 0x1f) || (z->hpos == 1 && c != 0x8b)) {
				fail(z, INF_ENOTGZIP, pos);
				return 0;
			}
			if (z->hpos == 2 && c != 8) {
				fail(z, INF_EMETHOD, pos);
				return 0;
			}
			if (z->hpos == 3) {
				if (c & FRESERVED) {
					fail(z, INF_EFLAGS, pos);
					return 0;
				}
				z->flags = (unsigned)c;
			}
			if (++z->hpos == 10)
				nextfield(z, S_MAGIC);
			break;
		case S_XLEN:
			if (z->hpos++ == 0) {
				z->xlen = (unsigned)c;
				break;
			}
			z->xlen |= (unsigned)c << 8;
			if (z->xlen == 0)
				nextfield(z, S_EXTRA);
			else
				z->state = S_EXTRA;
			break;
		case S_EXTRA:
			if (--z->xlen == 0)
				nextfield(z, S_EXTRA);
			break;
		case S_NAME:
		case S_COMMENT:
			if (c == 0)
				nextfield(z, z->state);
			break;
		case S_HCRC:
			if (((unsigned)c << 8 * z->hpos & 0xff << 8 * z->hpos) !=
			    (z->xlen & 0xff << 8 * z->hpos)) {
				fail(z, INF_EHCRC, pos - z->hpos);
				return 0;
			}
			if (++z->hpos == 2)
				nextfield(z, S_HCRC);
			break;
		}
	}
	beginmember(z);
	return 1;
}

/* After a member: another member, zero padding, or trailing garbage. */
static int
aftermember(struct inflate *z)
{
	int c;

	for (;;) {
		switch (z->state) {
		case S_NEXT:
			z->garbage = bytepos(z, z->in, z->nbits) + 1;	/* if it is */
			if ((c = getbyte(z)) < 0)
				return 0;
			z->state = c == 0x1f ? S_NEXT2 : c == 0 ? S_ZEROS : S_GARBAGE;
			break;
		case S_NEXT2:
			if ((c = getbyte(z)) < 0)
				return 0;
			if (c != 0x8b) {
				z->state = S_GARBAGE;
				break;
			}
			z->garbage = 0;
			z->members++;
			z->hcrc = inf_crc32(0, "\x1f\x8b", 2);
			z->hpos = 2;
			z->state = S_MAGIC;
			return 1;
		case S_ZEROS:
			while ((c = getbyte(z)) == 0)
				;
			if (c < 0)
				return 0;
			z->state = S_GARBAGE;
			break;
		case S_GARBAGE:
			z->bits = 0;
			z->nbits = 0;
			z->in = z->inend;
			return 0;
		default:
			return 1;
		}
	}
}

/* Decode until the output reaches the buffer's end or the cap, or the input runs out. */
static void
decode(struct inflate *z)
{
	size_t lim = BUFEND, w0 = z->wpos;
	uint64_t pos;
	unsigned v;

	if (z->max - z->ndec < (uint64_t)(BUFEND - z->wpos))
		lim = z->wpos + (size_t)(z->max - z->ndec) + 1;
	for (;;) {
		pos = bytepos(z, z->in, z->nbits);
		switch (z->state) {
		case S_MAGIC: case S_XLEN: case S_EXTRA: case S_NAME: case S_COMMENT:
		case S_HCRC:
			if (!header(z))
				goto out;
			break;
		case S_BLOCK:
			if (!need(z, 3))
				goto out;
			z->last = z->bits & 1;
			v = (unsigned)(z->bits >> 1 & 3);
			if (v == 3) {
				fail(z, INF_EBTYPE, pos);
				goto out;
			}
			drop(z, 3);
			if (v == 0) {
				drop(z, z->nbits & 7);
				z->state = S_STOREDLEN;
			} else if (v == 1) {
				if (!z->fixed)
					buildfixed(z);
				z->state = S_CODES;
			} else {
				z->state = S_COUNTS;
			}
			break;
		case S_STOREDLEN:
			if (!need(z, 32))
				goto out;
			if ((z->bits & 0xffff) != (~z->bits >> 16 & 0xffff)) {
				fail(z, INF_ESTORED, pos);
				goto out;
			}
			z->stored = (unsigned)(z->bits & 0xffff);
			drop(z, 32);
			z->state = S_STORED;
			break;
		case S_STORED:
			while (z->stored > 0 && z->nbits >= 8 && z->wpos < lim) {
				z->buf[z->wpos++] = (unsigned char)z->bits;
				drop(z, 8);
				z->stored--;
			}
			if (z->stored > 0 && z->nbits == 0) {
				size_t n = z->stored;

				if (n > (size_t)(z->inend - z->in))
					n = (size_t)(z->inend - z->in);
				if (n > lim - z->wpos)
					n = lim - z->wpos;
				memcpy(z->buf + z->wpos, z->in, n);
				z->wpos += n;
				z->in += n;
				z->stored -= (unsigned)n;
			}
			if (z->stored > 0)
				goto out;
			endblock(z);
			break;
		case S_COUNTS:
			if (!need(z, 14))
				goto out;
			z->nlen = (unsigned)(z->bits & 31) + 257;
			z->ndist = (unsigned)(z->bits >> 5 & 31) + 1;
			z->ncode = (unsigned)(z->bits >> 10 & 15) + 4;
			if (z->nlen > 286 || z->ndist > 30) {
				fail(z, INF_ECOUNTS, pos);
				goto out;
			}
			drop(z, 14);
			z->ilen = 0;
			z->setpos = bytepos(z, z->in, z->nbits);
			z->state = S_CLENS;
			break;
		case S_CLENS:
			for (; z->ilen < z->ncode; z->ilen++) {
				if (!need(z, 3))
					goto out;
				z->lens[clenorder[z->ilen]] = (unsigned char)(z->bits & 7);
				drop(z, 3);
			}
			for (; z->ilen < 19; z->ilen++)
				z->lens[clenorder[z->ilen]] = 0;
			if (build(z->clen, 128, z->lens, 19, 7, CLEN) < 0) {
				fail(z, INF_ECLENSET, z->setpos);
				goto out;
			}
			z->ilen = 0;
			z->setpos = bytepos(z, z->in, z->nbits);
			z->state = S_LENS;
			break;
		case S_LENS:
			codelens(z);
			if (z->state == S_LENS || z->state == S_ERR)
				goto out;
			break;
		case S_CODES:
			codes(z, lim);
			if (z->state == S_CODES || z->state == S_ERR)
				goto out;
			break;
		case S_TRAILER:
			if (!need(z, 32))
				goto out;
			sumoutput(z);
			if (z->hpos == 0 && (uint32_t)z->bits != z->crc) {
				fail(z, INF_ECRC, pos);
				goto out;
			}
			if (z->hpos == 1 && (uint32_t)z->bits != z->msize) {
				fail(z, INF_ESIZE, pos);
				goto out;
			}
			drop(z, 32);
			if (++z->hpos == 2) {
				z->mend = bytepos(z, z->in, z->nbits);
				z->state = S_NEXT;
			}
			break;
		case S_NEXT: case S_NEXT2: case S_ZEROS: case S_GARBAGE:
			if (!aftermember(z))
				goto out;
			break;
		default:	/* S_END, S_ERR */
			goto out;
		}
	}
out:
	sumoutput(z);
	z->ndec += z->wpos - w0;
}

/* Move the window (the last INF_WSIZE bytes of output) to the front of buf. */
static void
slide(struct inflate *z)
{
	size_t shift = z->wpos - INF_WSIZE;

	memmove(z->buf, z->buf + shift, INF_WSIZE);
	z->wpos = z->rpos = z->crcpos = INF_WSIZE;
	z->mstart = z->mstart > shift ? z->mstart - shift : 0;
}

ptrdiff_t
inf_read(struct inflate *z, const unsigned char **out)
{
	size_t n;

	if (z->rpos == z->wpos) {
		if (z->err || z->state == S_END)
			return -1;
		if (z->ndec > z->max) {
			fail(z, INF_ETOOBIG, bytepos(z, z->in, z->nbits));
			return -1;
		}
		if (z->wpos >= SLIDE)
			slide(z);
		decode(z);
		if (z->rpos == z->wpos)
			return z->err || z->state == S_END ? -1 : 0;
	}
	n = z->wpos - z->rpos;
	if (n > z->max - z->nout)
		n = (size_t)(z->max - z->nout);
	if (n == 0) {
		fail(z, INF_ETOOBIG, bytepos(z, z->in, z->nbits));
		return -1;
	}
	*out = z->buf + z->rpos;
	z->rpos += n;
	z->nout += n;
	return (ptrdiff_t)n;
}

int
inf_finish(struct inflate *z)
{
	if (z->err)
		return z->err;
	switch (z->state) {
	case S_NEXT:
	case S_ZEROS:
		z->garbage = 0;
		/* FALLTHROUGH */
	case S_GARBAGE:
	case S_END:
		return 0;
	default:
		fail(z, INF_ETRUNC, z->nin);
		return z->err;
	}
}

char *
inf_strerror(const struct inflate *z, char *buf, size_t size)
{
	static const char *const what[] = {
		[INF_OK] = "no error",
		[INF_ENOTGZIP] = "not in gzip format",
		[INF_EMETHOD] = "unknown compression method",
		[INF_EFLAGS] = "reserved header flags set",
		[INF_EHCRC] = "header CRC mismatch",
		[INF_EBTYPE] = "invalid block type",
		[INF_ESTORED] = "invalid stored block lengths",
		[INF_ECOUNTS] = "too many length or distance codes",
		[INF_ECLENSET] = "invalid code lengths set",
		[INF_EREPEAT] = "invalid code length repeat",
		[INF_ELITSET] = "invalid literal/length code set",
		[INF_EDISTSET] = "invalid distance code set",
		[INF_ENOEOB] = "missing end-of-block code",
		[INF_ELITCODE] = "invalid literal/length code",
		[INF_EDISTCODE] = "invalid distance code",
		[INF_EFAR] = "invalid distance too far back",
		[INF_ECRC] = "CRC mismatch",
		[INF_ESIZE] = "length mismatch",
		[INF_ETRUNC] = "unexpected end of input",
	};

	if (z->err == INF_ETOOBIG)
		snprintf(buf, size, "exceeds %llu bytes", (unsigned long long)z->max);
	else
		snprintf(buf, size, "%s at byte %llu", what[z->err],
		    (unsigned long long)z->errpos);
	return buf;
}
