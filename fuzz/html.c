/*
 * Fuzz htmltext: part 0 is a file of page records run through the tool's
 * own worker; OPT2 bit 0 is -a, bit 1 is -H. With bit 2, the input after the
 * option bytes is also one page, parsed directly (any bytes, NUL and LF
 * too), and its text, all of it and the main content, must be valid UTF-8.
 */
#include <stdlib.h>

#include "fuzz.h"

#define main htmltext_main
#include "../cmd/htmltext.c"
#undef main

static int
validutf8(const unsigned char *s, size_t n)
{
	size_t i = 0, k, j;

	while (i < n) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if (s[i] >= 0xC2 && s[i] <= 0xDF)
			k = 2;
		else if (s[i] >= 0xE0 && s[i] <= 0xEF)
			k = 3;
		else if (s[i] >= 0xF0 && s[i] <= 0xF4)
			k = 4;
		else
			return 0;
		if (i + k > n)
			return 0;
		for (j = 1; j < k; j++)
			if ((s[i + j] & 0xC0) != 0x80)
				return 0;
		if ((s[i] == 0xE0 && s[i + 1] < 0xA0) || (s[i] == 0xED && s[i + 1] > 0x9F) ||
		    (s[i] == 0xF0 && s[i + 1] < 0x90) || (s[i] == 0xF4 && s[i + 1] > 0x8F))
			return 0;
		i += k;
	}
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct fuzzin in;

	fuzz_begin(&in, d, n, 1);
	if (doc == NULL)
		doc = html_new();	/* main is not run: its one parser, made once */
	aflag = in.o2 & 1;
	Hflag = in.o2 >> 1 & 1;
	htmltext(in.path[0]);
	fflush(stdout);
	if ((in.o2 & 4) && n > 2) {
		text.n = 0;
		html_parse(doc, (const char *)d + 2, n - 2);
		html_all(doc, &text);
		if (!validutf8((const unsigned char *)text.p, text.n))
			abort();
		text.n = 0;
		html_extract(doc, &text);
		if (!validutf8((const unsigned char *)text.p, text.n))
			abort();
	}
	return 0;
}
