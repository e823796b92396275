/*
 * gencorpus: a seeded synthetic corpus in the course's page-file format:
 * dir/article.txt and dir/sample.txt, where most samples are lightly edited
 * copies of articles (near-duplicates) and a few are unrelated pages.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rng.h"
#include "util.h"

#define MAXARTICLES	10000000LL
#define MAXSAMPLES	10000000LL
#define MAXWORDS	100000000LL
#define MINVOCAB	50LL
#define MAXVOCAB	10000000LL
#define OUTBUF		(1 << 20)
#define TOKMAX		128		/* longest rendered token, with slack */
#define GUIDE		(1 << 16)	/* Zipf search guide table size */
#define FWTAB		4096		/* function-word lookup table size */

/* Token kinds, in the top 4 bits of a token; the rest is the payload. */
enum { K_WORD, K_FUNC, K_NUM, K_MAIL, K_PUNCT, K_NL, K_PARA };
#define TOK(k, p)	((uint32_t)(k) << 28 | (uint32_t)(p))
#define KIND(t)		((t) >> 28)
#define LOAD(t)		((t) & 0x0fffffffu)
#define ISWORD(t)	(KIND(t) <= K_MAIL)

/* Case forms of a word, in bits 24-25 of K_WORD and K_FUNC payloads. */
enum { C_LOWER, C_CAP, C_UPPER };

/* How a punctuation token sits between its neighbours. */
enum { M_AFTER, M_OPEN, M_JOIN, M_SPACED };
enum {
	P_COMMA, P_STOP, P_SEMI, P_COLON, P_BANG, P_QUERY, P_RPAREN, P_RQUOTE,
	P_POSS, P_LPAREN, P_LQUOTE, P_HYPHEN, P_DASH
};
static const struct {
	const char *s;
	int mode;
} punct[] = {
	{ ",", M_AFTER }, { ".", M_AFTER }, { ";", M_AFTER }, { ":", M_AFTER },
	{ "!", M_AFTER }, { "?", M_AFTER }, { ")", M_AFTER }, { "\"", M_AFTER },
	{ "'s", M_AFTER }, { "(", M_OPEN }, { "\"", M_OPEN }, { "-", M_JOIN },
	{ "-", M_SPACED },
};

/* The words drawn as function words, most frequent first. */
static const char *const funcword[] = {
	"the", "of", "and", "to", "a", "in", "is", "it", "that", "for",
	"on", "with", "as", "was", "be", "by", "this", "are", "or", "at",
	"from", "not", "but", "have", "an", "they", "which", "you", "were",
	"their", "has", "one", "all", "we", "can", "her", "there", "been",
	"if", "more",
};
#define NFUNC	(sizeof funcword / sizeof funcword[0])

/*
 * English function words no made-up word may spell, so that removing the
 * stopwords of demo/stopwords.txt removes function words only.  Sorted.
 */
static const char *const reserved[] = {
	"a", "about", "after", "all", "also", "am", "an", "and", "any", "are",
	"as", "at", "be", "because", "been", "before", "being", "between",
	"both", "but", "by", "can", "could", "did", "do", "does", "down",
	"each", "for", "from", "had", "has", "have", "he", "her", "here",
	"him", "his", "how", "i", "if", "in", "into", "is", "it", "its",
	"just", "may", "me", "might", "more", "most", "must", "my", "no",
	"not", "now", "of", "off", "on", "one", "only", "or", "other", "our",
	"out", "over", "s", "she", "should", "so", "some", "such", "t", "than",
	"that", "the", "their", "them", "then", "there", "these", "they",
	"this", "those", "through", "to", "too", "up", "us", "very", "was",
	"we", "were", "what", "when", "where", "which", "while", "who", "why",
	"will", "with", "would", "you", "your",
};
#define NRESERVED	(sizeof reserved / sizeof reserved[0])

/* Words the syllables can spell that nobody wants in demo text.  Sorted. */
static const char *const unseemly[] = {
	"cum", "nazi", "penis", "rape", "semen", "sex", "shit", "slut", "tit",
	"vagina",
};
#define NUNSEEMLY	(sizeof unseemly / sizeof unseemly[0])

/*
 * Made-up words are syllables (onset + nucleus) and a final coda. Onsets
 * and codas are consonants only and nuclei vowels only, so a word splits
 * into its parts in one way: distinct part sequences give distinct words.
 */
static const char *const onset[32] = {
	"b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s",
	"t", "v", "w", "z", "br", "ch", "cl", "cr", "dr", "fl", "gr", "pl",
	"pr", "sh", "sl", "st", "th", "tr",
};
static const char *const nucleus[8] = {
	"a", "e", "i", "o", "u", "ai", "ea", "ou",
};
static const char *const coda[12] = {
	"", "n", "r", "s", "t", "l", "m", "d", "x", "st", "nd", "ng",
};
static const char *const tld[4] = {
	"example", "example.com", "example.org", "example.net",
};

struct toks {
	uint32_t *v;
	size_t n, cap;
};

struct out {
	FILE *fp;
	char *tmp;		/* temporary path, renamed into place at the end */
	char *path;
	char buf[OUTBUF];
	size_t n;
};


static int crlf;
static long long narticles = 200, nsamples = 10, nunrelated = -1;
static long long minwords = 30, maxwords = 3000, nvocab = 20000;
static uint64_t seed = 1;

static char *vbuf;		/* the vocabulary, words back to back */
static uint32_t *voff;		/* word r is vbuf[voff[r]..voff[r + 1]) */
static uint64_t *zcum;		/* cumulative Zipf weights by rank */
static uint32_t zguide[GUIDE + 1];
static unsigned char fwtab[FWTAB];
static size_t fwlen[NFUNC];
static struct out *outs[2];	/* removed if we die */
static struct out artout, smpout;

static void
die(const char *fmt, const char *arg)
{
	int saved = errno, i;

	fprintf(stderr, "%s: ", argv0);
	fprintf(stderr, fmt, arg);
	if (saved)
		fprintf(stderr, ": %s", strerror(saved));
	fputc('\n', stderr);
	for (i = 0; i < 2; i++)
		if (outs[i] && outs[i]->tmp)
			unlink(outs[i]->tmp);
	exit(1);
}

static void *
xmalloc(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		die("%s", "malloc");
	}
	if (!(p = malloc(n && size ? n * size : 1)))
		die("%s", "malloc");
	return p;
}

/* Uniform in [0, n) for n < 2^32, by multiply-shift: no division. */
static uint32_t
below(struct rng *g, uint32_t n)
{
	return (uint32_t)(((rng_next(g) >> 32) * n) >> 32);
}

/*
 * One independent stream per page, so that a sample can regenerate the
 * article it copies without storing it.
 */
static void
seedrng(struct rng *g, unsigned kind, long long index)
{
	g->s = rng_mix(rng_mix(seed ^ (uint64_t)kind << 56) + (uint64_t)index);
}

/*
 * Log-uniform integer in [lo, hi] with integers only: pick one of the
 * equally likely doublings [L, 2L) of lo, then n in it with density 1/n by
 * rejection. The last doubling may pass hi; rejecting n > hi there keeps
 * its share right.
 */
static long long
loguni(struct rng *g, long long lo, long long hi)
{
	uint32_t k, full = 0;
	uint64_t L, n;

	while ((uint64_t)lo << (full + 1) <= (uint64_t)hi + 1)
		full++;
	for (;;) {
		k = below(g, full + ((uint64_t)lo << full <= (uint64_t)hi));
		L = (uint64_t)lo << k;
		do
			n = L + below(g, (uint32_t)L);
		while (below(g, (uint32_t)n) >= L);
		if (n <= (uint64_t)hi)
			return (long long)n;
	}
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Word number k of the words with n syllables (n <= 3). An affine map
 * mod the class size, coprime multiplier, spreads consecutive k over the
 * class; each syllable is also stirred by the ones before. Both steps are
 * invertible, so distinct k still give distinct words.
 */
static size_t
makeword(char *w, unsigned n, uint64_t k)
{
	uint64_t size = UINT64_C(12) << (8 * n);
	unsigned acc = n * 40503u, s, j;
	const char *p;
	size_t len = 0;

	k = (k * UINT64_C(2654435761) + 977) % size;
	for (j = 0; j < n; j++) {
		s = ((unsigned)(k & 255) * 167 + acc) & 255;
		k >>= 8;
		acc = acc * 31 + s + 7;
		for (p = onset[s >> 3]; *p; p++)
			w[len++] = *p;
		for (p = nucleus[s & 7]; *p; p++)
			w[len++] = *p;
	}
	for (p = coda[(k * 5 + acc) % 12]; *p; p++)
		w[len++] = *p;
	w[len] = '\0';
	return len;
}

static void
buildvocab(void)
{
	char w[32];
	const char *key = w;
	unsigned n = 1;
	uint64_t k = 0, r, total = 0;
	size_t len, cap, used = 0, g;

	cap = (size_t)nvocab * 12;
	vbuf = xmalloc(cap, 1);
	voff = xmalloc((size_t)nvocab + 1, sizeof *voff);
	for (r = 0; r < (uint64_t)nvocab; k++) {
		if (k == UINT64_C(12) << (8 * n)) {
			n++;
			k = 0;
		}
		len = makeword(w, n, k);
		if (bsearch(&key, reserved, NRESERVED, sizeof *reserved, cmpstr) ||
		    bsearch(&key, unseemly, NUNSEEMLY, sizeof *unseemly, cmpstr))
			continue;
		if (used + len > cap) {
			cap *= 2;
			if (!(vbuf = realloc(vbuf, cap)))
				die("%s", "malloc");
		}
		voff[r++] = (uint32_t)used;
		memcpy(vbuf + used, w, len);
		used += len;
	}
	voff[r] = (uint32_t)used;

	/* rank r has weight 1/(r + 2.7), in fixed point */
	zcum = xmalloc((size_t)nvocab, sizeof *zcum);
	for (r = 0; r < (uint64_t)nvocab; r++) {
		total += (UINT64_C(10) << 32) / (10 * r + 27);
		zcum[r] = total;
	}
	/* zguide[g]: the rank drawn by the smallest u with u * GUIDE / total == g */
	for (g = 0, r = 0; g <= GUIDE; g++) {
		uint64_t t = ((uint64_t)g * total + GUIDE - 1) / GUIDE;

		while (r < (uint64_t)nvocab - 1 && zcum[r] <= t)
			r++;
		zguide[g] = (uint32_t)r;
	}

	/* function word i has weight 1/(i + 1), quantized into a table */
	{
		uint64_t fcum[NFUNC], fsum = 0;
		size_t i, j = 0;

		for (i = 0; i < NFUNC; i++) {
			fsum += 720720 / (i + 1);
			fcum[i] = fsum;
			fwlen[i] = strlen(funcword[i]);
		}
		for (i = 0; i < FWTAB; i++) {
			while (fcum[j] * FWTAB <= i * fsum)
				j++;
			fwtab[i] = (unsigned char)j;
		}
	}
}

static uint32_t
zipf(struct rng *g)
{
	uint64_t total = zcum[nvocab - 1], u = rng_next(g) % total;
	size_t gi = (size_t)(u * GUIDE / total), lo = zguide[gi], hi = zguide[gi + 1], mid;

	/* the first rank whose cumulative weight passes u */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (zcum[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return (uint32_t)lo;
}

/* A random word token: 15% function words, a few numbers and addresses. */
static uint32_t
drawword(struct rng *g, int capital)
{
	uint64_t r = rng_next(g);
	unsigned p = (unsigned)(r >> 54), c;
	uint32_t emails = nvocab < 4096 ? (uint32_t)nvocab : 4096;

	if (p < 154)
		return TOK(K_FUNC, fwtab[(r >> 20) % FWTAB] |
		    (uint32_t)(capital ? C_CAP : C_LOWER) << 24);
	if (p < 160)
		return TOK(K_NUM, (uint32_t)((r >> 24) % 5) << 24 | (uint32_t)(r & 0xffffff));
	if (p < 162)
		return TOK(K_MAIL, (uint32_t)((r >> 4) % emails) |
		    (uint32_t)((r >> 20) % emails) << 12 | (uint32_t)(r & 3) << 24);
	c = (unsigned)((r >> 20) % 100);
	c = c < 1 ? C_UPPER : c < 6 || capital ? C_CAP : C_LOWER;
	return TOK(K_WORD, zipf(g) | (uint32_t)c << 24);
}

static void
push(struct toks *t, uint32_t tok)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 4096;
		if (!(t->v = realloc(t->v, t->cap * sizeof *t->v)))
			die("%s", "malloc");
	}
	t->v[t->n++] = tok;
}

/*
 * A page of nwords words: sentences of 4 to 21 words, paragraphs of 2 to
 * 7 sentences, lines of 8 to 14 words.
 */
static void
genpage(struct rng *g, long long nwords, struct toks *t)
{
	long long w = 0;
	uint32_t line = 0, linemax = 8 + below(g, 7), sent = 0, para = 2 + below(g, 6);
	uint32_t paren = 0, quote = 0, r;
	int join = 0, start = 0;

	t->n = 0;
	while (w < nwords) {
		if (sent == 0) {
			sent = 4 + below(g, 18);
			start = 1;
		}
		/* a word after a hyphen stays on its line */
		if (!join && line >= linemax) {
			push(t, TOK(K_NL, 0));
			line = 0;
			linemax = 8 + below(g, 7);
		}
		r = below(g, 1000);
		if (!join && !paren && !quote && sent >= 3 && r < 12) {
			push(t, TOK(K_PUNCT, r < 8 ? P_LPAREN : P_LQUOTE));
			if (r < 8)
				paren = 1 + below(g, sent - 1 < 5 ? sent - 1 : 5);
			else
				quote = 1 + below(g, sent - 1 < 4 ? sent - 1 : 4);
		}
		push(t, drawword(g, start));
		w++;
		line++;
		sent--;
		start = join = 0;
		r = below(g, 1000);
		if (KIND(t->v[t->n - 1]) == K_WORD && r < 10)
			push(t, TOK(K_PUNCT, P_POSS));
		if (paren && (--paren == 0 || sent == 0 || w == nwords)) {
			push(t, TOK(K_PUNCT, P_RPAREN));
			paren = 0;
		}
		if (quote && (--quote == 0 || sent == 0 || w == nwords)) {
			push(t, TOK(K_PUNCT, P_RQUOTE));
			quote = 0;
		}
		if (sent == 0 || w == nwords) {
			r = below(g, 100);
			push(t, TOK(K_PUNCT, r < 87 ? P_STOP : r < 94 ? P_QUERY : P_BANG));
			if (w == nwords)
				break;
			if (--para == 0) {
				push(t, TOK(K_PARA, 0));
				para = 2 + below(g, 6);
				line = 0;
				linemax = 8 + below(g, 7);
			}
			continue;
		}
		r = below(g, 1000);
		if (r < 60)
			push(t, TOK(K_PUNCT, P_COMMA));
		else if (r < 70)
			push(t, TOK(K_PUNCT, P_SEMI));
		else if (r < 75)
			push(t, TOK(K_PUNCT, P_COLON));
		else if (r < 78)
			push(t, TOK(K_PUNCT, P_DASH));
		else if (r < 84 && !paren && !quote) {
			push(t, TOK(K_PUNCT, P_HYPHEN));
			join = 1;
		}
	}
	push(t, TOK(K_NL, 0));
}

/* Where paragraph i (0-based) of t starts and ends; the end is its NL or PARA. */
static void
findpara(const struct toks *t, size_t i, size_t *start, size_t *end)
{
	size_t j, k = 0;

	*start = 0;
	for (j = 0; j < t->n; j++) {
		if (KIND(t->v[j]) != K_PARA)
			continue;
		if (k == i)
			break;
		k++;
		*start = j + 1;
	}
	*end = j < t->n ? j : t->n - 1;
}

/*
 * A near-duplicate of in: replace, delete and insert a few percent of the
 * words, and maybe swap two paragraphs.
 */
static void
edit(struct rng *g, const struct toks *in, struct toks *out, struct toks *tmp)
{
	uint32_t rep = 10 + below(g, 41), del = 10 + below(g, 21), ins = 10 + below(g, 21);
	uint32_t tok, cap;
	uint64_t r;
	size_t i, npara = 1, a, b, sa, ea, sb, eb;

	out->n = 0;
	for (i = 0; i < in->n; i++) {
		tok = in->v[i];
		if (!ISWORD(tok)) {
			push(out, tok);
			npara += KIND(tok) == K_PARA;
			continue;
		}
		r = rng_next(g);
		cap = (KIND(tok) == K_WORD || KIND(tok) == K_FUNC) &&
		    (LOAD(tok) >> 24) == C_CAP;
		if ((r & 0xffff) % 1000 < ins)
			push(out, drawword(g, 0));
		/* only after a word: keeps "," off line starts and "()" out */
		if ((r >> 16 & 0xffff) % 1000 < del && out->n > 0 &&
		    ISWORD(out->v[out->n - 1]))
			continue;
		if ((r >> 32 & 0xffff) % 1000 < rep)
			tok = drawword(g, (int)cap);
		push(out, tok);
	}
	if (npara < 2 || below(g, 2))
		return;
	a = below(g, (uint32_t)npara);
	b = below(g, (uint32_t)npara - 1);
	if (b >= a)
		b++;
	else {
		i = a;
		a = b;
		b = i;
	}
	findpara(out, a, &sa, &ea);
	findpara(out, b, &sb, &eb);
	/* [sa, eb) becomes paragraph b, what lay between, paragraph a */
	tmp->n = 0;
	for (i = sa; i < eb; i++)
		push(tmp, out->v[i]);
	memcpy(out->v + sa, tmp->v + (sb - sa), (eb - sb) * sizeof *tmp->v);
	memcpy(out->v + sa + (eb - sb), tmp->v + (ea - sa), (sb - ea) * sizeof *tmp->v);
	memcpy(out->v + sa + (eb - sb) + (sb - ea), tmp->v, (ea - sa) * sizeof *tmp->v);
}

static void
flush(struct out *o)
{
	if (o->n && fwrite(o->buf, 1, o->n, o->fp) != o->n)
		die("%s: write error", o->tmp);
	o->n = 0;
}

/* Make room for one more token. */
static void
room(struct out *o)
{
	if (o->n > OUTBUF - TOKMAX)
		flush(o);
}

static char *
putstr(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

static char *
putnum(char *p, unsigned long long v)
{
	char d[24], *q = d + sizeof d;

	do
		*--q = (char)('0' + v % 10);
	while (v /= 10);
	return putstr(p, q, (size_t)(d + sizeof d - q));
}

static char *
puteol(char *p)
{
	if (crlf)
		*p++ = '\r';
	*p++ = '\n';
	return p;
}

static char *
putword(char *p, uint32_t rank, unsigned cs)
{
	char *w = p;

	p = putstr(p, vbuf + voff[rank], voff[rank + 1] - voff[rank]);
	if (cs == C_CAP)
		*w -= 'a' - 'A';
	else if (cs == C_UPPER)
		for (; w < p; w++)
			*w -= 'a' - 'A';
	return p;
}

static void
putid(struct out *o, const char *prefix, long long id)
{
	char *p = o->buf + o->n;

	p = putstr(p, prefix, strlen(prefix));
	p = putnum(p, (unsigned long long)id);
	p = puteol(p);
	o->n = (size_t)(p - o->buf);
}

static void
render(struct out *o, const struct toks *t)
{
	size_t i;
	uint32_t tok, x;
	int bol = 1, join = 0;
	char *p, *w;

	for (i = 0; i < t->n; i++) {
		room(o);
		p = o->buf + o->n;
		tok = t->v[i];
		x = LOAD(tok);
		if (ISWORD(tok) && !bol && !join)
			*p++ = ' ';
		switch (KIND(tok)) {
		case K_WORD:
			p = putword(p, x & 0xffffff, x >> 24);
			break;
		case K_FUNC:
			w = p;
			p = putstr(p, funcword[x & 0xff], fwlen[x & 0xff]);
			if (x >> 24 == C_CAP)
				*w -= 'a' - 'A';
			break;
		case K_NUM:
			x &= 0xffffff;
			switch (LOAD(tok) >> 24) {
			case 0:		/* a year */
				p = putnum(p, 1900 + x % 125);
				break;
			case 1:
				p = putnum(p, x % 1000);
				break;
			case 2:		/* a version */
				*p++ = 'v';
				p = putnum(p, 1 + x % 9);
				*p++ = '.';
				p = putnum(p, x / 9 % 10);
				break;
			case 3:		/* a model name such as x86 */
				*p++ = (char)('a' + x % 26);
				p = putnum(p, x / 26 % 1000);
				break;
			default:
				p = putnum(p, x % 100000);
				break;
			}
			break;
		case K_MAIL:
			p = putword(p, x & 0xfff, C_LOWER);
			*p++ = '@';
			p = putword(p, x >> 12 & 0xfff, C_LOWER);
			*p++ = '.';
			p = putstr(p, tld[x >> 24 & 3], strlen(tld[x >> 24 & 3]));
			break;
		case K_PUNCT:
			if ((punct[x].mode == M_OPEN && !bol && !join) ||
			    punct[x].mode == M_SPACED)
				*p++ = ' ';
			p = putstr(p, punct[x].s, strlen(punct[x].s));
			join = punct[x].mode == M_OPEN || punct[x].mode == M_JOIN;
			bol = 0;
			o->n = (size_t)(p - o->buf);
			continue;
		case K_PARA:
			p = puteol(p);
			/* FALLTHROUGH */
		case K_NL:
			p = puteol(p);
			bol = 1;
			join = 0;
			o->n = (size_t)(p - o->buf);
			continue;
		}
		bol = join = 0;
		o->n = (size_t)(p - o->buf);
	}
}

static void
openout(struct out *o, const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 16;
	mode_t mask;
	int fd;

	o->path = xmalloc(n, 1);
	o->tmp = xmalloc(n, 1);
	snprintf(o->path, n, "%s/%s", dir, name);
	snprintf(o->tmp, n, "%s/.%s.XXXXXX", dir, name);
	errno = 0;
	if ((fd = mkstemp(o->tmp)) < 0) {
		snprintf(o->tmp, n, "%s/.%s.XXXXXX", dir, name);
		die("%s", o->tmp);
		/* NOTREACHED */
	}
	/* mkstemp makes 0600; give the usual 0666 less umask */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(o->fp = fdopen(fd, "w")))
		die("%s", o->tmp);
	o->n = 0;
}

static void
closeout(struct out *o)
{
	flush(o);
	errno = 0;
	if (fflush(o->fp) == EOF || ferror(o->fp))
		die("%s: write error", o->tmp);
	if (fclose(o->fp) == EOF) {
		o->fp = NULL;
		die("%s: write error", o->tmp);
	}
	o->fp = NULL;
}

static void
gencorpus(const char *dir)
{
	struct toks art = { 0 }, smp = { 0 }, tmp = { 0 };
	struct rng g, ag, sel;
	long long i, need, left;
	int exact;

	buildvocab();
	outs[0] = &artout;
	outs[1] = &smpout;
	openout(&artout, dir, "article.txt");
	openout(&smpout, dir, "sample.txt");

	for (i = 1; i <= narticles; i++) {
		seedrng(&g, 1, i);
		genpage(&g, loguni(&g, minwords, maxwords), &art);
		room(&artout);
		if (i > 1)
			artout.buf[artout.n++] = '\f';
		putid(&artout, "A-", i);
		render(&artout, &art);
	}
	closeout(&artout);

	/* the real sample files start with an empty line */
	smpout.n = (size_t)(puteol(smpout.buf) - smpout.buf);
	/* sample 1 copies article 1 exactly, unless all samples are unrelated */
	exact = nunrelated < nsamples;
	/* the unrelated ones: a uniform choice of positions (Knuth's algorithm S) */
	seedrng(&sel, 3, 0);
	need = nunrelated;
	left = nsamples - exact;
	for (i = 1; i <= nsamples; i++) {
		seedrng(&g, 2, i);
		room(&smpout);
		putid(&smpout, "Sample-", i);
		if (i == 1 && exact) {
			seedrng(&ag, 1, 1);
			genpage(&ag, loguni(&ag, minwords, maxwords), &art);
			render(&smpout, &art);
		} else if (below(&sel, (uint32_t)left--) < need) {
			need--;
			genpage(&g, loguni(&g, minwords, maxwords), &art);
			render(&smpout, &art);
		} else {
			seedrng(&ag, 1, 1 + below(&g, (uint32_t)narticles));
			genpage(&ag, loguni(&ag, minwords, maxwords), &art);
			edit(&g, &art, &smp, &tmp);
			render(&smpout, &smp);
		}
		room(&smpout);
		smpout.buf[smpout.n++] = '\f';
	}
	closeout(&smpout);

	errno = 0;
	for (i = 0; i < 2; i++) {
		if (rename(outs[i]->tmp, outs[i]->path) < 0)
			die("%s", outs[i]->path);
		free(outs[i]->tmp);
		free(outs[i]->path);
		outs[i]->tmp = NULL;
	}
	free(art.v);
	free(smp.v);
	free(tmp.v);
}

static _Noreturn void
usage(void)
{
	fprintf(stderr, "usage: %s [-c] [-a articles] [-l minwords] [-L maxwords] "
	    "[-q samples] [-s seed] [-u unrelated] [-v vocab] dir\n", argv0);
	exit(2);
}

int
main(int argc, char *argv[])
{
	const char *optu = NULL, *optl = NULL;
	int c;

	argv0 = "gencorpus";
	opterr = 0;	/* one line on a usage error: ours */
	while ((c = getopt(argc, argv, "L:a:cl:q:s:u:v:")) != -1) {
		switch (c) {
		case 'L':
			maxwords = estrtonum(optarg, 1, MAXWORDS, "maxwords");
			break;
		case 'a':
			narticles = estrtonum(optarg, 1, MAXARTICLES, "articles");
			break;
		case 'c':
			crlf = 1;
			break;
		case 'l':
			optl = optarg;	/* its range depends on -L */
			break;
		case 'q':
			nsamples = estrtonum(optarg, 0, MAXSAMPLES, "samples");
			break;
		case 's':
			seed = (uint64_t)estrtonum(optarg, 0, LLONG_MAX, "seed");
			break;
		case 'u':
			optu = optarg;	/* its range depends on -q */
			break;
		case 'v':
			nvocab = estrtonum(optarg, MINVOCAB, MAXVOCAB, "vocab");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		usage();
	if (optl)
		minwords = estrtonum(optl, 1, maxwords, "minwords");
	else if (minwords > maxwords)
		minwords = maxwords;
	if (optu)
		nunrelated = estrtonum(optu, 0, nsamples, "unrelated");
	else
		nunrelated = nsamples < 2 ? nsamples : 2;

	gencorpus(argv[0]);
	return 0;
}
