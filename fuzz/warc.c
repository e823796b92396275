/*
 * Fuzz the WARC reader (lib/warc) and the gzip reading under it (rdr):
 * part 0 is read as docsplit reads a file, decompressed if gzip, with the
 * cap 2^(OPT2 & 15) + 1 bytes. Checked: the reader ends (every call
 * takes input or ends), record offsets never go back, a document's text
 * is at most the cap, a skipped or bad record says why, and the bytes
 * the records take never pass the stream read.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "rdr.h"
#include "warc.h"

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;
	struct rdr r;
	struct warc w;
	const char *p;
	ptrdiff_t m;
	uint64_t max, got;
	uintmax_t last = 0;
	int k;

	fuzz_begin(&in, d, n, 1);
	max = ((uint64_t)1 << (in.o2 & 15)) + 1;
	if (rdr_opendoc(&r, in.path[0], 0) < 0)
		abort();
	rdr_gunzip(&r, UINT64_MAX);
	warc_init(&w, &r, max);
	while ((k = warc_next(&w)) != WARC_END) {
		if (w.off < last)
			abort();
		last = w.off;
		if (k == WARC_DOC) {
			got = 0;
			while ((m = warc_read(&w, &p)) >= 0) {
				if (m == 0)
					abort();
				got += (uint64_t)m;
			}
			if (got > max)
				abort();
			k = warc_done(&w);
		}
		if (k == WARC_BAD && !w.why)
			abort();
		if (rdr_tell(&r) < w.off)
			abort();
	}
	warc_free(&w);
	rdr_close(&r);
	return 0;
}
