/* htmltext: the text of HTML page records, the main content or all of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "esc.h"
#include "html.h"
#include "pagerec.h"
#include "rdr.h"
#include "util.h"

static int aflag;		/* all visible text, no pruning */
static int Hflag;		/* every record is HTML, no sniffing */
static struct html *doc;
static struct obuf text;	/* a page's text */
static struct obuf out;		/* page records, written a block at a time */

/* The text of one page; the page bytes are s[0..n). */
static void
convert(const char *s, size_t n)
{
	text.n = 0;
	if (!Hflag && !html_sniff(s, n)) {
		obuf_add(&text, s, n);
		return;
	}
	html_parse(doc, s, n);
	if (aflag)
		html_all(doc, &text);
	else
		html_extract(doc, &text);
}

/*
 * A record whose text is not HTML, and is escaped as esc_encode would
 * escape it again, goes out as it came: then 1. Else 0, and the record is
 * for convert (which says what is wrong with a bad one). The sniff needs
 * the text's start only, decoded.
 */
static int
passthrough(const char *line, size_t n)
{
	char buf[4096];
	const char *tab, *t;
	size_t tn, m, i;
	ptrdiff_t d;

	if (Hflag || !(tab = memchr(line, '\t', n)))
		return 0;
	t = tab + 1;
	tn = n - (size_t)(t - line);
	m = tn < sizeof buf ? tn : sizeof buf;
	memcpy(buf, t, m);
	/* an escape cut by the prefix's end fails; a bad one goes to convert */
	if ((d = esc_decode(buf, m)) < 0) {
		memcpy(buf, t, --m);
		if ((d = esc_decode(buf, m)) < 0)
			return 0;
	}
	if (m < tn) {
		/* a prefix: enough of it for the sniff? */
		i = d >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3) ? 3 : 0;
		while (i < (size_t)d && strchr(" \t\n\r\f", buf[i]) && buf[i])
			i++;
		if (i + HTML_SNIFFSPAN > (size_t)d)
			return 0;
	}
	if (html_sniff(buf, (size_t)d) || !esc_canonical(t, tn))
		return 0;
	obuf_add(&out, line, n);
	obuf_addc(&out, '\n');
	if (out.n >= 1 << 16)
		obuf_flush(&out, stdout);
	return 1;
}

static int
htmltext(const char *path)
{
	struct rdr r;
	char *line, *page;
	ptrdiff_t n, tn;
	size_t idlen;
	int ret = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((n = rdr_line(&r, &line)) >= 0) {
		if (passthrough(line, (size_t)n))
			continue;
		if ((tn = pagerec_split(&r, line, (size_t)n, &idlen, &page)) < 0) {
			ret = 1;
			continue;
		}
		convert(page, (size_t)tn);
		obuf_add(&out, line, idlen + 1);	/* the ID and its TAB */
		if (text.n)
			out.n += esc_encode(obuf_room(&out, 2 * text.n), text.p, text.n);
		obuf_addc(&out, '\n');
		if (out.n >= 1 << 16)
			obuf_flush(&out, stdout);
		/* a huge page's buffers go back: memory follows the largest page only while needed */
		if (text.cap > 1 << 24) {
			free(text.p);
			memset(&text, 0, sizeof text);
		}
	}
	if (out.n)
		obuf_flush(&out, stdout);
	return rdr_close(&r) | ret;
}

static const char synopsis[] = "[-aH] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	int c, ret = 0;

	argv0 = "htmltext";
	while ((c = getopt(argc, argv, "aHh")) != -1) {
		switch (c) {
		case 'a':
			aflag = 1;
			break;
		case 'H':
			Hflag = 1;
			break;
		case 'h':
			return help(synopsis);
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	setupstdout();
	doc = html_new();
	if (argc == 0)
		ret |= htmltext("-");
	for (; argc > 0 && !ferror(stdout); argc--, argv++)
		ret |= htmltext(*argv);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
