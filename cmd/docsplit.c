/* docsplit: split page files at form feeds into page records "ID<TAB>TEXT". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "esc.h"
#include "rdr.h"
#include "util.h"

/* Where the splitter is within a page. */
enum state { SEEK_ID, IN_TEXT };

static char *idline;		/* the line that may become the ID */
static size_t idlen, idcap;
static struct obuf out;		/* page records, written a block at a time */

/* Append n bytes of s to the output, escaped. */
static void
putesc(const char *s, size_t n)
{
	out.n += esc_encode(obuf_room(&out, 2 * n), s, n);
	if (out.n >= 1 << 16)
		obuf_flush(&out, stdout);
}

static int
isspacebyte(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v';
}

/* If the line gathered in idline is not blank, write it trimmed as an ID. */
static int
putid(void)
{
	size_t s = 0, e = idlen;

	while (s < e && isspacebyte((unsigned char)idline[s]))
		s++;
	while (e > s && isspacebyte((unsigned char)idline[e - 1]))
		e--;
	idlen = 0;
	if (s == e)
		return 0;
	putesc(idline + s, e - s);
	obuf_addc(&out, '\t');
	return 1;
}

static int
docsplit(const char *path)
{
	struct rdr r;
	enum state st = SEEK_ID;
	const char *p, *end, *q;
	ptrdiff_t n;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((n = rdr_block(&r, &p)) >= 0) {
		for (end = p + n; p < end;) {
			if (st == IN_TEXT) {
				if (!(q = memchr(p, '\f', (size_t)(end - p)))) {
					putesc(p, (size_t)(end - p));
					break;
				}
				putesc(p, (size_t)(q - p));
				obuf_addc(&out, '\n');
				st = SEEK_ID;
				p = q + 1;
				continue;
			}
			/* SEEK_ID: gather a line; blank lines and empty pages vanish */
			for (q = p; q < end && *q != '\n' && *q != '\f'; q++)
				;
			/* +1: never memcpy to a null idline */
			egrow(&idline, &idcap, idlen + (size_t)(q - p) + 1, 1);
			memcpy(idline + idlen, p, (size_t)(q - p));
			idlen += (size_t)(q - p);
			if (q == end)
				break;
			if (putid()) {
				if (*q == '\f')
					obuf_addc(&out, '\n');	/* an ID and no text */
				else
					st = IN_TEXT;
			}
			p = q + 1;
		}
	}
	/* end of file ends the last page */
	if (st == IN_TEXT)
		obuf_addc(&out, '\n');
	else if (putid())
		obuf_addc(&out, '\n');
	idlen = 0;
	obuf_flush(&out, stdout);
	return rdr_close(&r);
}

static const char synopsis[] = "[file ...]";

static void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	int c, ret = 0;

	argv0 = "docsplit";
	while ((c = getopt(argc, argv, "h")) != -1) {
		switch (c) {
		case 'h':
			return help(synopsis);
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	setupstdout();
	if (argc == 0)
		ret |= docsplit("-");
	/* stop at a write error: the output is lost, and fshut still knows why */
	for (; argc > 0 && !ferror(stdout); argc--, argv++)
		ret |= docsplit(*argv);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
