/*
 * Fuzz the inflater (lib/inflate): the input after the two option bytes is
 * a gzip file (OPT2 bit 0: a raw DEFLATE stream), decoded twice: in one
 * chunk, and in chunks of OPT1's size (fuzz.c's sizes, 1 byte to 4 kB, or
 * with 0 sizes drawn from 1 to 64 by OPT2). Both must give the same bytes
 * and the same end: error, offset, trailing garbage. The output never
 * passes the cap: OPT2 bit 1 sets it to OPT1 * 37 bytes, else 1 MB. On
 * success the output and the last member's trailer agree: ISIZE is the
 * output's size mod 2^32 and the CRC-32 (computed here bit by bit) its
 * CRC, when there was one member; inf_crc32 of the output cut in two
 * agrees with a CRC computed here bit by bit.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "inflate.h"

struct result {
	unsigned char *out;
	size_t n;
	int err, reads;
	uint64_t errpos, garbage, mend, members;
};

static struct inflate z;

static void
take(struct result *res, uint64_t max)
{
	const unsigned char *p;
	ptrdiff_t m;

	while ((m = inf_read(&z, &p)) > 0) {
		if (res->n + (size_t)m > max || z.nout != res->n + (size_t)m)
			abort();	/* past the cap, or miscounted */
		memcpy(res->out + res->n, p, (size_t)m);
		res->n += (size_t)m;
		res->reads++;
	}
}

/* Decode d[0..n) in chunks of step bytes (0: sizes drawn from seed). */
static void
run(struct result *res, const uint8_t *d, size_t n, int format, uint64_t max,
    size_t step, unsigned seed)
{
	size_t i, len;

	unsigned char *out = res->out;

	memset(res, 0, sizeof *res);
	res->out = out;
	inf_init(&z, format, max);
	for (i = 0; i < n && !z.err; i += len) {
		if (step)
			len = step;
		else {
			seed = seed * 1103515245 + 12345;
			len = 1 + (seed >> 16) % 64;
		}
		if (len > n - i)
			len = n - i;
		inf_input(&z, d + i, len);
		take(res, max);
	}
	if (n == 0)
		take(res, max);
	inf_finish(&z);
	res->err = z.err;
	res->errpos = z.errpos;
	res->garbage = z.garbage;
	res->mend = z.mend;
	res->members = z.members;
	if (z.err && z.err != INF_ETOOBIG && z.errpos > z.nin)
		abort();	/* an offset beyond the input */
}

static uint32_t
bitcrc(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffff;
	int k;

	while (n--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = c & 1 ? c >> 1 ^ 0xedb88320 : c >> 1;
	}
	return ~c;
}

static uint32_t
le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static const size_t steps[16] = {
		0, 1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64, 100, 256, 1000, 4096
	};
	static unsigned char out1[(1 << 20) + 1], out2[(1 << 20) + 1];
	struct result whole = { .out = out1 }, cut = { .out = out2 };
	unsigned o1, o2;
	uint64_t max;
	int format;

	if (n < 2)
		return 0;
	o1 = d[0];
	o2 = d[1];
	d += 2;
	n -= 2;
	format = o2 & 1 ? INF_RAW : INF_GZIP;
	max = o2 & 2 ? (uint64_t)o1 * 37 : 1 << 20;

	run(&whole, d, n, format, max, n ? n : 1, 0);
	run(&cut, d, n, format, max, steps[o1 & 15], o2);
	if (whole.n != cut.n || memcmp(whole.out, cut.out, whole.n) != 0 ||
	    whole.err != cut.err || whole.errpos != cut.errpos ||
	    whole.garbage != cut.garbage || whole.mend != cut.mend ||
	    whole.members != cut.members)
		abort();
	if (whole.err == INF_OK) {
		if (whole.mend > n || (format == INF_GZIP && whole.mend < 18))
			abort();
		if (format == INF_GZIP && whole.members == 1) {
			if (le32(d + whole.mend - 4) != (uint32_t)whole.n ||
			    le32(d + whole.mend - 8) != bitcrc(whole.out, whole.n))
				abort();
		}
		/* after the last member: zeros, or garbage reported at its start */
		if (format == INF_GZIP && whole.garbage == 0) {
			size_t i;

			for (i = whole.mend; i < n; i++)
				if (d[i] != 0)
					abort();
		}
		if (whole.garbage && whole.garbage != whole.mend + 1)
			abort();
	}
	if (whole.err == INF_ETOOBIG && whole.n != max)
		abort();
	/* the CRC in 8-byte steps, split anywhere, against the one bit by bit */
	if (whole.n <= 65536) {
		size_t cut1 = whole.n ? o1 % (whole.n + 1) : 0;

		if (inf_crc32(inf_crc32(0, whole.out, cut1), whole.out + cut1,
		    whole.n - cut1) != bitcrc(whole.out, whole.n))
			abort();
	}
	return 0;
}
