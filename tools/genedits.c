/*
 * genedits: a seeded, controlled edit of one document, for the labelled
 * near-duplicate set of make bench-quality: words substituted, inserted or
 * deleted at a known rate, paragraphs reordered, added or removed, or the
 * document truncated. Words of HTML are those of its text: tags, scripts
 * and styles are kept as they are.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "rdr.h"
#include "rng.h"
#include "util.h"

enum op { SUBST, INS, DEL, MIX, REORDER, PADD, PDEL, TRUNC };
static const char *const opname[] = {
	"subst", "ins", "del", "mix", "reorder", "padd", "pdel", "trunc"
};

struct span {
	size_t off, len;
};

struct doc {
	char *p;
	size_t n, cap;
	struct span *word, *para;	/* paragraphs include the blank lines after them */
	size_t nword, wordcap, npara, paracap;
};

static struct rng g;

static uint64_t
below(uint64_t n)
{
	return n ? rng_next(&g) % n : 0;
}

static int
isspacebyte(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Does the tag at s (after its '<') start an element whose content is not text? */
static const char *
rawend(const char *s, size_t n)
{
	if (n >= 6 && strncasecmp(s, "script", 6) == 0)
		return "</script";
	if (n >= 5 && strncasecmp(s, "style", 5) == 0)
		return "</style";
	return NULL;
}

static void
addspan(struct span **v, size_t *nv, size_t *cap, size_t off, size_t len)
{
	egrow(v, cap, *nv + 1, sizeof **v);
	(*v)[*nv].off = off;
	(*v)[*nv].len = len;
	(*nv)++;
}

static void
load(struct doc *d, const char *path)
{
	struct rdr r;
	const char *blk, *end, *close;
	ptrdiff_t k;
	size_t i, s, nl;

	memset(d, 0, sizeof *d);
	if (rdr_open(&r, path) < 0)
		exit(EXIT_DATA);
	while ((k = rdr_block(&r, &blk)) > 0) {
		egrow(&d->p, &d->cap, d->n + (size_t)k + 1, 1);
		memcpy(d->p + d->n, blk, (size_t)k);
		d->n += (size_t)k;
	}
	if (rdr_close(&r))
		exit(EXIT_DATA);
	egrow(&d->p, &d->cap, d->n + 1, 1);
	d->p[d->n] = '\0';

	/* Words: runs of text bytes outside tags, scripts and styles. */
	for (i = 0; i < d->n;) {
		if (d->p[i] == '<') {
			/* a script or style runs to its end tag, any case */
			if ((close = rawend(d->p + i + 1, d->n - i - 1)))
				for (s = i + 1; s + strlen(close) <= d->n; s++)
					if (strncasecmp(d->p + s, close, strlen(close)) == 0) {
						i = s;
						break;
					}
			end = memchr(d->p + i, '>', d->n - i);
			i = end ? (size_t)(end - d->p) + 1 : d->n;
			continue;
		}
		if (isspacebyte((unsigned char)d->p[i])) {
			i++;
			continue;
		}
		for (s = i; i < d->n && d->p[i] != '<' && !isspacebyte((unsigned char)d->p[i]); i++)
			;
		addspan(&d->word, &d->nword, &d->wordcap, s, i - s);
	}

	/* Paragraphs: text up to a blank line, with the blank lines that follow. */
	for (i = 0; i < d->n;) {
		s = i;
		for (;;) {
			/* the line from i; is the next one blank? */
			while (i < d->n && d->p[i] != '\n')
				i++;
			if (i < d->n)
				i++;
			for (nl = i; nl < d->n && d->p[nl] != '\n' && isspacebyte((unsigned char)d->p[nl]); nl++)
				;
			if (i >= d->n || (nl < d->n && d->p[nl] == '\n'))
				break;
		}
		/* swallow the blank lines */
		while (i < d->n) {
			for (nl = i; nl < d->n && d->p[nl] != '\n' && isspacebyte((unsigned char)d->p[nl]); nl++)
				;
			if (nl >= d->n || d->p[nl] != '\n')
				break;
			i = nl + 1;
		}
		addspan(&d->para, &d->npara, &d->paracap, s, i - s);
	}
}

static void
docfree(struct doc *d)
{
	free(d->p);
	free(d->word);
	free(d->para);
}

static void
putspan(const struct doc *d, struct span s)
{
	fwrite(d->p + s.off, 1, s.len, stdout);
}

/* A paragraph in the middle of the output ends in a blank line. */
static void
putpara(const struct doc *d, struct span s, int last)
{
	size_t nl = 0, i;

	putspan(d, s);
	if (last)
		return;
	for (i = s.len; i > 0 && nl < 2 && isspacebyte((unsigned char)d->p[s.off + i - 1]); i--)
		nl += d->p[s.off + i - 1] == '\n';
	for (; nl < 2; nl++)
		putchar('\n');
}

/* k distinct numbers below n, marked in mark[]. */
static void
choose(unsigned char *mark, size_t n, size_t k, int kinds)
{
	size_t *idx = ereallocarray(NULL, n + 1, sizeof *idx), i, j, t;

	for (i = 0; i < n; i++)
		idx[i] = i;
	for (i = 0; i < k && i < n; i++) {
		j = i + (size_t)below(n - i);
		t = idx[i];
		idx[i] = idx[j];
		idx[j] = t;
		mark[idx[i]] = (unsigned char)(1 + below((uint64_t)kinds));
	}
	free(idx);
}

/* rate% of n, rounded; at least 1 for a rate above 0, so that an edit edits. */
static size_t
count(size_t n, unsigned rate)
{
	size_t k = (size_t)(((uint64_t)n * rate + 50) / 100);

	return k == 0 && rate > 0 && n > 0 ? 1 : k;
}

static void
wordedits(const struct doc *d, const struct doc *donor, enum op op, unsigned rate)
{
	unsigned char *mark = ecalloc(d->nword + 1, 1);
	size_t i, pos = 0;
	struct span w, dw;
	enum op o;

	if (op != DEL && donor->nword == 0)
		eprintf("the donor has no words");
	choose(mark, d->nword, count(d->nword, rate), op == MIX ? 3 : 1);
	for (i = 0; i < d->nword; i++) {
		if (!mark[i])
			continue;
		w = d->word[i];
		o = op == MIX ? (enum op)(mark[i] - 1) : op;
		fwrite(d->p + pos, 1, w.off - pos, stdout);
		pos = w.off + w.len;
		dw = donor->nword ? donor->word[below(donor->nword)] : w;
		switch (o) {
		case SUBST:
			putspan(donor, dw);
			break;
		case INS:
			putspan(d, w);
			putchar(' ');
			putspan(donor, dw);
			break;
		default:	/* DEL: and one blank after it, so as not to leave two */
			if (pos < d->n && (d->p[pos] == ' ' || d->p[pos] == '\t') &&
			    w.off > 0 && isspacebyte((unsigned char)d->p[w.off - 1]))
				pos++;
			break;
		}
	}
	fwrite(d->p + pos, 1, d->n - pos, stdout);
	free(mark);
}

/* A paragraph of the output: of the document or of the donor. */
struct piece {
	const struct doc *src;
	struct span s;
};

static void
paraedits(const struct doc *d, const struct doc *donor, enum op op, unsigned rate)
{
	size_t m = count(d->npara, rate), i, j, k, n = d->npara;
	unsigned char *mark;
	struct piece *out, t;

	if (m == 0)
		m = 1;
	if (n < 2 || (op == PDEL && m >= n))
		eprintf("too few paragraphs (%zu) to %s %u%%", n, opname[op], rate);
	if (op == PADD && donor->npara == 0)
		eprintf("the donor has no paragraphs");
	out = ereallocarray(NULL, n + m + 1, sizeof *out);
	mark = ecalloc(n + 2, 1);
	switch (op) {
	case REORDER:	/* m moves: a paragraph taken out and put back elsewhere */
		for (i = 0; i < n; i++)
			out[i] = (struct piece){ d, d->para[i] };
		for (k = 0; k < m; k++) {
			i = (size_t)below(n);
			do
				j = (size_t)below(n);
			while (j == i);
			t = out[i];
			if (i < j)
				memmove(out + i, out + i + 1, (j - i) * sizeof *out);
			else
				memmove(out + j + 1, out + j, (i - j) * sizeof *out);
			out[j] = t;
		}
		break;
	case PADD:	/* before which paragraphs (n: at the end) */
		choose(mark, n + 1, m, 1);
		for (i = 0, j = 0; i <= n; i++) {
			if (mark[i])
				out[j++] = (struct piece){ donor, donor->para[below(donor->npara)] };
			if (i < n)
				out[j++] = (struct piece){ d, d->para[i] };
		}
		n = j;
		break;
	default:	/* PDEL */
		choose(mark, n, m, 1);
		for (i = 0, j = 0; i < n; i++)
			if (!mark[i])
				out[j++] = (struct piece){ d, d->para[i] };
		n = j;
		break;
	}
	for (i = 0; i < n; i++)
		putpara(out[i].src, out[i].s, i + 1 == n);
	free(mark);
	free(out);
}

static void
truncate_doc(const struct doc *d, unsigned rate)
{
	size_t keep = count(d->n, rate);

	while (keep > 0 && !isspacebyte((unsigned char)d->p[keep - 1]))
		keep--;
	fwrite(d->p, 1, keep, stdout);
	if (keep == 0 || d->p[keep - 1] != '\n')
		putchar('\n');
}

static const char synopsis[] = "[-d donor] [-s seed] op rate file";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	struct doc d, donor;
	const char *donorpath = NULL;
	unsigned rate;
	int c, op;

	argv0 = "genedits";
	g.s = 1;
	while ((c = getopt(argc, argv, "d:hs:")) != -1) {
		switch (c) {
		case 'd':
			donorpath = optarg;
			break;
		case 'h':
			return help(synopsis);
		case 's':
			g.s = (uint64_t)estrtonum(optarg, 0, INT64_MAX, "seed");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 3)
		usage();
	for (op = 0; op <= TRUNC; op++)
		if (strcmp(argv[0], opname[op]) == 0)
			break;
	if (op > TRUNC)
		enprintf(EXIT_USAGE, "unknown op '%s' (subst, ins, del, mix, reorder, "
		    "padd, pdel, trunc)", argv[0]);
	rate = (unsigned)estrtonum(argv[1], 0, 100, "rate");
	load(&d, argv[2]);
	memset(&donor, 0, sizeof donor);
	if (donorpath)
		load(&donor, donorpath);
	else if (op == SUBST || op == INS || op == MIX || op == PADD)
		enprintf(EXIT_USAGE, "%s needs a donor (-d)", argv[0]);
	setupstdout();
	switch (op) {
	case REORDER:
	case PADD:
	case PDEL:
		paraedits(&d, &donor, (enum op)op, rate);
		break;
	case TRUNC:
		truncate_doc(&d, rate);
		break;
	default:
		wordedits(&d, &donor, (enum op)op, rate);
		break;
	}
	docfree(&d);
	docfree(&donor);
	return fshut(stdout, "<stdout>");
}
