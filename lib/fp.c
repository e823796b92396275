/* fp.c: fingerprint text forms. */
#include <string.h>

#include "fp.h"
#include "rec.h"
#include "swar.h"
#include "util.h"

void
fp_write(const struct fp *f, unsigned m, FILE *out)
{
	char bits[FP_MAXBITS];
	uint64_t b;
	unsigned j;

	/*
	 * 8 bits at a time, the first the byte's top bit: the byte copied
	 * into all 8 bytes, byte i keeping bit 7 - i, each made 0 or 1
	 */
	for (j = 0; j < m; j += 8) {
		b = f->w[j >> 6] >> (56 - (j & 63)) & 0xff;
		b = (b * SWAR_ONES) & UINT64_C(0x0102040810204080);
		swar_store8(bits + j, ((b + SWAR_ONES * 0x7f) >> 7 & SWAR_ONES) | SWAR_ONES * '0');
	}
	fwrite(bits, 1, m, out);
}

int
fprec_read(struct rdr *r, struct fprec *rec, unsigned *width)
{
	char *line, *tab, *bits;
	ptrdiff_t n;
	size_t m, j;

	if ((n = rdr_line(r, &line)) < 0)
		return r->err ? -1 : 0;
	if (!(tab = memchr(line, '\t', (size_t)n))) {
		rdr_warn(r, "no TAB between ID and fingerprint");
		return -1;
	}
	bits = tab + 1;
	m = (size_t)(line + n - bits);
	if (m == 0 || m > FP_MAXBITS) {
		rdr_warn(r, "fingerprint has %zu bits, not 1 to %d", m, FP_MAXBITS);
		return -1;
	}
	if (*width && m != *width) {
		rdr_warn(r, "fingerprint has %zu bits, not %u like the first", m, *width);
		return -1;
	}
	memset(&rec->fp, 0, sizeof rec->fp);
	/* Eight characters at a time while they are all 0 or 1. */
	for (j = 0; j + 8 <= m; j += 8) {
		const unsigned char *c = (const unsigned char *)bits + j;
		uint64_t x = (uint64_t)c[0] | (uint64_t)c[1] << 8 | (uint64_t)c[2] << 16 |
		    (uint64_t)c[3] << 24 | (uint64_t)c[4] << 32 | (uint64_t)c[5] << 40 |
		    (uint64_t)c[6] << 48 | (uint64_t)c[7] << 56;

		x -= UINT64_C(0x3030303030303030);
		if (x & ~UINT64_C(0x0101010101010101))
			break;
		/* Gather the low bit of each byte, the first character leftmost. */
		x = (x * UINT64_C(0x8040201008040201)) >> 56;
		rec->fp.w[j >> 6] |= x << (56 - (j & 63));
	}
	for (; j < m; j++) {
		if (bits[j] == '1')
			fp_setbit(&rec->fp, (unsigned)j);
		else if (bits[j] != '0') {
			rdr_warn(r, "fingerprint character %zu is not 0 or 1", j + 1);
			return -1;
		}
	}
	*width = (unsigned)m;
	rec->id = line;
	rec->idlen = (size_t)(tab - line);
	return 1;
}

int
matchrec_read(struct rdr *r, struct matchrec *m)
{
	const char *f[4], *errstr;
	size_t len[4];
	char *line;
	ptrdiff_t n;
	int nf;

	if ((n = rdr_line(r, &line)) < 0)
		return r->err ? -1 : 0;
	nf = rec_cut(line, (size_t)n, f, len, 4);
	m->q = f[0];
	m->qlen = len[0];
	if (nf == 1) {
		m->id = f[0] + len[0];
		m->idlen = 0;
		m->dist = -1;
		return 1;
	}
	if (nf != 3) {
		rdr_warn(r, "not a match record (ID<TAB>DISTANCE<TAB>ID)");
		return -1;
	}
	m->dist = (int)parsenumn(f[1], len[1], 0, FP_MAXBITS, &errstr);
	if (errstr) {
		rdr_warn(r, "distance '%.*s' is %s",
		    (int)len[1], f[1], errstr);
		return -1;
	}
	m->id = f[2];
	m->idlen = len[2];
	return 1;
}
