/* esc.c: field escaping of simrec(5). */
#include <string.h>

#include "esc.h"

/* The escape letter of each byte that needs one, else 0. */
static const char esc_letter[256] = {
	['\\'] = '\\', ['\t'] = 't', ['\n'] = 'n', ['\r'] = 'r', ['\0'] = '0',
};

void
esc_write(const char *s, size_t n, FILE *fp)
{
	const char *run = s, *end = s + n;
	char pair[2] = { '\\', 0 };

	for (; s < end; s++) {
		if (!esc_letter[(unsigned char)*s])
			continue;
		fwrite(run, 1, (size_t)(s - run), fp);
		pair[1] = esc_letter[(unsigned char)*s];
		fwrite(pair, 1, 2, fp);
		run = s + 1;
	}
	fwrite(run, 1, (size_t)(end - run), fp);
}

ptrdiff_t
esc_decode(char *s, size_t n)
{
	char *r = s, *w = s, *end = s + n;

	while (r < end) {
		if (*r != '\\') {
			*w++ = *r++;
			continue;
		}
		if (++r == end)
			return -1;
		switch (*r++) {
		case '\\': *w++ = '\\'; break;
		case 't': *w++ = '\t'; break;
		case 'n': *w++ = '\n'; break;
		case 'r': *w++ = '\r'; break;
		case '0': *w++ = '\0'; break;
		default: return -1;
		}
	}
	return w - s;
}
