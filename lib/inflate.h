/*
 * inflate.h: streaming decompression of gzip files (RFC 1952) and raw
 * DEFLATE streams (RFC 1951).
 *
 * The caller feeds the compressed bytes in chunks of any size and pulls
 * the decompressed bytes out in chunks:
 *
 *	inf_init(z, INF_GZIP, max);
 *	while ((n = rdr_block(&r, &p)) >= 0) {
 *		inf_input(z, p, n);
 *		while ((m = inf_read(z, &out)) > 0)
 *			use(out, m);
 *		if (m < 0)
 *			break;			(z->err, or a raw stream's end)
 *	}
 *	if (!z->err)
 *		inf_finish(z);			(end of input)
 *	if (z->err)
 *		report(inf_strerror(z, msg, sizeof msg));
 *
 * Memory: a stream is this struct and nothing else, about 110 kB (its
 * size is sizeof(struct inflate)): the 32 kB window and 64 kB of output
 * in one buffer, the decoding tables and the code lengths. Nothing is
 * allocated; no input buffers the whole file.
 *
 * Time: linear in input plus output. Every input byte is looked at a
 * bounded number of times and every output byte is written once (and
 * moved once more when the window slides); a dynamic block's tables
 * cost at most a few thousand steps, and its header is at least 2 bytes.
 *
 * Expansion: output beyond max bytes is never handed out. A stream that
 * would give more hands out exactly its first max bytes and then fails
 * with INF_ETOOBIG ("exceeds max bytes"), having decoded at most 258
 * bytes more. So a bomb costs at most the time of max bytes of output.
 *
 * gzip: a file is one or more members, each a header (the flags FTEXT,
 * FHCRC, FEXTRA, FNAME, FCOMMENT are read; the reserved flags refused;
 * the header CRC checked), a DEFLATE stream, its CRC-32 and its size
 * mod 2^32 (both checked). Members follow each other and their output is
 * one stream, as gzip -d gives it. After a member, as gzip 1.12 does:
 * bytes that are all zero (padding) are ignored; other bytes that do not
 * start with the magic 1f 8b are ignored too, but counted as trailing
 * garbage (z->garbage, for a warning: the output is complete); a lone
 * 1f at the end is a truncated member. An empty input is truncated.
 *
 * DEFLATE: stored, fixed and dynamic blocks. Checked: the block type,
 * a stored block's LEN against NLEN, at most 286 literal/length and 30
 * distance codes, code sets neither over-subscribed nor incomplete (an
 * incomplete set is accepted only as a single code of one bit, for
 * literal/length or distance codes, as RFC 1951 allows; a distance set
 * may be empty), the end-of-block code present, code length repeats,
 * the codes 286 and 287 and the distances 30 and 31 (which the fixed
 * codes can express), and distances reaching before the start of the
 * member's output. A member's distances never reach into the one before.
 * Length code 284 with all extra bits set gives 258, as zlib and gzip
 * decode it.
 *
 * Errors carry the offset (from 0, over all the input given to this
 * stream) of the byte holding the first bit of the field found bad: for a
 * bad code, the code; for a bad code set, its first code length; for a
 * CRC or size mismatch, that field of the trailer; for truncation, the
 * end of the input. The output handed out
 * before an error is all of what was decoded (z->nout bytes); a CRC
 * mismatch is found after its member's output was handed out.
 */
#ifndef INFLATE_H
#define INFLATE_H

#include <stddef.h>
#include <stdint.h>

#define INF_WSIZE 32768		/* the window: the farthest a distance reaches */
#define INF_OUTSIZE 65536	/* output decoded between slides of the window */
/* the decoder writes up to a match (258) and one 8-byte copy (7) past its limit */
#define INF_BUFSIZE (INF_WSIZE + INF_OUTSIZE + 272)

/*
 * Table sizes: the first-level tables look up 10 (literal/length) and 8
 * (distance) bits; longer codes go to sub-tables. In a complete code a
 * sub-table of 2^k entries holds at least k + 1 codes, so 288 codes need
 * at most 48 sub-tables of 32 entries, and 30 distance codes at most 672
 * entries in all.
 */
#define INF_LITBITS 10
#define INF_DISTBITS 8
#define INF_LITTAB ((1 << INF_LITBITS) + 1536)
#define INF_DISTTAB ((1 << INF_DISTBITS) + 512)

enum inf_format {
	INF_GZIP,		/* gzip members */
	INF_RAW			/* one DEFLATE stream; inf_read gives -1 at its end */
};

enum inf_error {
	INF_OK,
	INF_ENOTGZIP,		/* not in gzip format */
	INF_EMETHOD,		/* unknown compression method */
	INF_EFLAGS,		/* reserved header flags set */
	INF_EHCRC,		/* header CRC mismatch */
	INF_EBTYPE,		/* invalid block type */
	INF_ESTORED,		/* invalid stored block lengths */
	INF_ECOUNTS,		/* too many length or distance codes */
	INF_ECLENSET,		/* invalid code lengths set */
	INF_EREPEAT,		/* invalid code length repeat */
	INF_ELITSET,		/* invalid literal/length code set */
	INF_EDISTSET,		/* invalid distance code set */
	INF_ENOEOB,		/* missing end-of-block code */
	INF_ELITCODE,		/* invalid literal/length code */
	INF_EDISTCODE,		/* invalid distance code */
	INF_EFAR,		/* invalid distance too far back */
	INF_ECRC,		/* CRC mismatch */
	INF_ESIZE,		/* length mismatch */
	INF_ETRUNC,		/* unexpected end of input */
	INF_ETOOBIG		/* exceeds max bytes */
};

/* The fields below err are the decoder's own. */
struct inflate {
	int err;		/* enum inf_error */
	uint64_t errpos;	/* where it was found (see above) */
	uint64_t nout;		/* bytes handed out */
	uint64_t max;		/* the cap on output */
	uint64_t nin;		/* bytes of input given (inf_input) */
	uint64_t garbage;	/* offset + 1 of trailing garbage, or 0 */
	uint64_t members;	/* gzip members begun */
	uint64_t mend;		/* the offset past the last member read whole
				   (its trailer checked), or past a raw stream */

	int format, state;
	/* input: the current chunk, and the bits taken from it but not used */
	const unsigned char *in, *inend;
	uint64_t bits;
	unsigned nbits;
	/* output: decoded up to wpos, handed out up to rpos, CRC'd to crcpos */
	size_t wpos, rpos, crcpos, mstart;	/* mstart: the member's first byte, or 0 */
	uint64_t ndec;		/* bytes decoded */
	uint32_t crc, msize;	/* of the member's output so far */
	/* the gzip header */
	unsigned flags, hpos, xlen;
	uint32_t hcrc;
	/* the block */
	int last, fixed;	/* the last block; the tables are the fixed ones */
	unsigned stored;	/* bytes left in a stored block */
	unsigned nlen, ndist, ncode, ilen;
	uint64_t setpos;	/* where the code lengths being read begin */
	unsigned litbits, distbits;
	unsigned char lens[320];
	uint32_t clen[128];
	uint32_t lit[INF_LITTAB];
	uint32_t dist[INF_DISTTAB];
	unsigned char buf[INF_BUFSIZE];
};

/* Start a stream that hands out at most max bytes (UINT64_MAX: no cap). */
void inf_init(struct inflate *z, int format, uint64_t max);
/* The next n bytes of input; the decoder reads them until inf_read gives 0. */
void inf_input(struct inflate *z, const void *p, size_t n);
/*
 * The next decompressed bytes: their number (> 0), with *out pointing at
 * them (valid until the next call); 0 when the input given is used up;
 * -1 on an error (z->err) or at the end of a raw stream.
 */
ptrdiff_t inf_read(struct inflate *z, const unsigned char **out);
/*
 * The input is at its end (call when inf_read gave 0 after the last
 * chunk): sets INF_ETRUNC unless the stream ended. Returns z->err.
 */
int inf_finish(struct inflate *z);
/* "what at byte N" (or "exceeds N bytes") for z->err, in buf; returns buf. */
char *inf_strerror(const struct inflate *z, char *buf, size_t size);

/* The CRC-32 of RFC 1952 of n bytes at p, continuing crc (0 to start). */
uint32_t inf_crc32(uint32_t crc, const void *p, size_t n);

#endif
