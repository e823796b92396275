/*
 * Fuzz the field escape: decoding any bytes must not go wrong, escaping
 * then decoding must give the bytes back, and a field is canonical exactly
 * when escaping its decoding gives it back. The input is used whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "esc.h"

/* Escape s into a new buffer, decode it and check that s comes back. */
static void
roundtrip(const char *s, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	ptrdiff_t m;
	FILE *fp;

	if (!(fp = open_memstream(&buf, &len)))
		abort();
	esc_write(s, n, fp);
	if (fclose(fp) == EOF)
		abort();
	if (memchr(buf, '\t', len) || memchr(buf, '\n', len) || memchr(buf, '\r', len) ||
	    memchr(buf, '\0', len))
		abort();	/* an escaped field holds none of these */
	m = esc_decode(buf, len);
	if (m < 0 || (size_t)m != n || memcmp(buf, s, n))
		abort();
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	char *s = malloc(n ? n : 1);
	ptrdiff_t m;

	if (!s)
		abort();
	roundtrip((const char *)d, n);
	memcpy(s, d, n);
	m = esc_decode(s, n);
	if (esc_check((const char *)d, n) != (m < 0 ? -1 : 0))
		abort();	/* the check and the decoder agree */
	if (m >= 0) {
		char *e = malloc(2 * (size_t)m + 1);

		if ((size_t)m > n || !e)
			abort();
		roundtrip(s, (size_t)m);
		/* canonical: escaping the decoded bytes gives the input back */
		if (esc_canonical((const char *)d, n) !=
		    (esc_encode(e, s, (size_t)m) == n && !memcmp(e, d, n)))
			abort();
		free(e);
	} else if (esc_canonical((const char *)d, n)) {
		abort();
	}
	free(s);
	return 0;
}
