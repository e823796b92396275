/*
 * mono: the course task (simtool N M) as one small C program, written from
 * the course statement: the yardstick of bench/pipeline.sh for the course
 * run. It reads stopwords.txt, hashvalue.txt, article.txt and sample.txt in
 * the current directory, writes result.txt and the first sample's block to
 * stdout, as simtool(1) does. It is no tool (its checks are few, its
 * messages short), only a fair monolithic peer: every file is read once,
 * the article words are tokenized once, and kept as word ids for the
 * fingerprints.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXD 3

struct word {
	const char *s;
	uint32_t len;
	uint32_t next;		/* chain in the hash table: id + 1, 0 at its end */
	uint32_t hash;
	uint64_t count;
};

struct page {
	const char *id, *text, *end;	/* the ID, trimmed; the text */
	size_t idlen;
	uint64_t fp[2];
};

static struct word *word;	/* by id: stopwords first, then article words */
static size_t nword, wordcap, nstopword;
static uint32_t *bucket;	/* id + 1 of the first word of the chain */
static size_t nbucket;
static unsigned char lower[256];	/* ASCII letters lowercased, else 0 */
static long *featof;		/* by word id: feature rank or -1 */
static uint64_t (*hashbits)[2];	/* by feature: its M bits, bit j = column j */
static uint64_t *weight;	/* by feature, in the page being hashed */
static long *touched;		/* the features of that page */
static size_t ntouched;
static int m;

static _Noreturn void
die(const char *what)
{
	fprintf(stderr, "mono: %s\n", what);
	exit(1);
}

static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = need > 2 * *cap ? need : 2 * *cap;
	if (!(p = realloc(p, *cap * size)))
		die("out of memory");
	return p;
}

static char *
slurp(const char *path, size_t *n)
{
	struct stat st;
	char *p = NULL;
	size_t cap = 0;
	ssize_t got;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0 || fstat(fd, &st) < 0)
		die(path);
	*n = 0;
	cap = (size_t)st.st_size + 1;
	if (!(p = malloc(cap)))
		die("out of memory");
	for (;;) {
		p = grow(p, &cap, *n + 2, 1);	/* a file that grew meanwhile */
		if ((got = read(fd, p + *n, cap - *n - 1)) <= 0)
			break;
		*n += (size_t)got;
	}
	if (got < 0)
		die(path);
	close(fd);
	p[*n] = '\0';
	return p;
}

static uint32_t
hashword(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void
rehash(void)
{
	size_t i;
	uint32_t h;

	free(bucket);
	nbucket = nbucket ? 2 * nbucket : 1 << 12;
	if (!(bucket = calloc(nbucket, sizeof *bucket)))
		die("out of memory");
	for (i = 0; i < nword; i++) {
		h = word[i].hash & (nbucket - 1);
		word[i].next = bucket[h];
		bucket[h] = (uint32_t)i + 1;
	}
}

/* The id of the n bytes at s, added if add, else -1 if absent. */
static long
lookup(const char *s, size_t n, int add)
{
	uint32_t full = hashword(s, n), h = full & (nbucket - 1), i;
	const struct word *w;

	for (i = bucket[h]; i; i = w->next) {
		w = &word[i - 1];
		if (w->hash == full && w->len == n && memcmp(w->s, s, n) == 0)
			return (long)i - 1;
	}
	if (!add)
		return -1;
	word = grow(word, &wordcap, nword + 1, sizeof *word);
	word[nword] = (struct word){ s, (uint32_t)n, bucket[h], full, 0 };
	bucket[h] = (uint32_t)++nword;
	if (nword > nbucket / 2)
		rehash();
	return (long)nword - 1;
}

static int
isspacebyte(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v';
}

/*
 * The pages of a page file: separated by form feeds; the ID is the first
 * line that is not blank, trimmed; the text the rest. Pages without an ID
 * are no pages.
 */
static struct page *
split(const char *p, size_t len, size_t *npage)
{
	const char *end = p + len, *q, *s, *e;
	struct page *pg = NULL;
	size_t cap = 0;

	*npage = 0;
	while (p < end) {
		for (q = p; q < end && *q != '\n' && *q != '\f'; q++)
			;
		for (s = p, e = q; s < e && isspacebyte((unsigned char)*s); s++)
			;
		while (e > s && isspacebyte((unsigned char)e[-1]))
			e--;
		p = q < end ? q + 1 : q;
		if (s == e)
			continue;	/* a blank line before the ID, or an empty page */
		pg = grow(pg, &cap, *npage + 1, sizeof *pg);
		pg[*npage].id = s;
		pg[*npage].idlen = (size_t)(e - s);
		if (q < end && *q == '\f') {
			pg[*npage].text = pg[*npage].end = p;	/* no text */
			++*npage;
			continue;
		}
		pg[*npage].text = p;
		if (!(q = memchr(p, '\f', (size_t)(end - p))))
			q = end;
		pg[(*npage)++].end = q;
		p = q < end ? q + 1 : q;
	}
	return pg;
}

/* Weigh feature f of the page being hashed. */
static void
weigh(long f)
{
	if (weight[f]++ == 0)
		touched[ntouched++] = f;
}

/* The fingerprint of the page whose features were weighed; weights reset. */
static void
fingerprint(struct page *pg)
{
	long long sum[128] = { 0 }, v;
	const uint64_t *b;
	size_t i;
	int j;

	for (i = 0; i < ntouched; i++) {
		b = hashbits[touched[i]];
		v = (long long)weight[touched[i]];
		weight[touched[i]] = 0;
		for (j = 0; j < m; j++)
			sum[j] += b[j >> 6] >> (j & 63) & 1 ? v : -v;
	}
	ntouched = 0;
	pg->fp[0] = pg->fp[1] = 0;
	for (j = 0; j < m; j++)
		if (sum[j] > 0)
			pg->fp[j >> 6] |= (uint64_t)1 << (j & 63);
}

static int
byrank(const void *a, const void *b)
{
	const struct word *x = &word[*(const uint32_t *)a], *y = &word[*(const uint32_t *)b];
	size_t n = x->len < y->len ? x->len : y->len;
	int d;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if ((d = memcmp(x->s, y->s, n)))
		return d;
	return (x->len > y->len) - (x->len < y->len);
}

static int
popcount(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555u;
	x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return (int)((x * 0x0101010101010101u) >> 56);
}

/* Write sample pg's block: its ID, then the articles at each distance. */
static void
block(FILE *f, const struct page *pg, const unsigned char *dist, size_t na,
    const struct page *apg)
{
	size_t i;
	int d, any;

	fwrite(pg->id, 1, pg->idlen, f);
	putc('\n', f);
	for (d = 0; d <= MAXD; d++) {
		any = 0;
		for (i = 0; i < na; i++) {
			if (dist[i] != d)
				continue;
			if (!any)
				fprintf(f, "%d:", d);
			any = 1;
			fwrite(apg[i].id, 1, apg[i].idlen, f);
			putc(' ', f);
		}
		if (any)
			putc('\n', f);
	}
}

/* Tokenize [p, end) in place, lowercased: s and n are each word, body runs on it. */
#define WORDS(p, end, s, n, body) do { \
	char *p_ = (char *)(p), *e_ = (char *)(end); \
	while (p_ < e_) { \
		while (p_ < e_ && !lower[(unsigned char)*p_]) \
			p_++; \
		for (s = p_; p_ < e_ && lower[(unsigned char)*p_]; p_++) \
			*p_ = (char)lower[(unsigned char)*p_]; \
		if ((n = (size_t)(p_ - s)) > 0) \
			body \
	} \
} while (0)

int
main(int argc, char *argv[])
{
	char *stop, *art, *smp, *hv = NULL, *p, *s;
	size_t nstop, nart, nsmp, nhv = 0, na, ns, nrank, nfeat, i, k, n;
	uint32_t *tok = NULL, *rank;
	size_t ntok = 0, tokcap = 0, *tok0;
	struct page *apg, *spg;
	unsigned char *dist;
	long id, f;
	int c, j;
	FILE *out, *hvf;

	if (argc != 3 || (nfeat = strtoul(argv[1], NULL, 10)) < 1 ||
	    (m = atoi(argv[2])) < 1 || m > 128)
		die("usage: mono N M");
	for (c = 'a'; c <= 'z'; c++)
		lower[c] = lower[c - 'a' + 'A'] = (unsigned char)c;
	rehash();

	/* stopwords: whitespace-separated, lowercased; ids 0 to nstopword - 1 */
	stop = slurp("stopwords.txt", &nstop);
	for (p = stop; p < stop + nstop;) {
		while (p < stop + nstop && strchr(" \t\n\r\v\f", *p))
			p++;
		for (s = p; p < stop + nstop && !strchr(" \t\n\r\v\f", *p); p++)
			if (*p >= 'A' && *p <= 'Z')
				*p += 'a' - 'A';
		if (p > s)
			lookup(s, (size_t)(p - s), 1);
	}
	nstopword = nword;

	/* the article: words counted, and kept by page as ids */
	art = slurp("article.txt", &nart);
	apg = split(art, nart, &na);
	if (!(tok0 = malloc((na + 1) * sizeof *tok0)))
		die("out of memory");
	for (i = 0; i < na; i++) {
		tok0[i] = ntok;
		WORDS(apg[i].text, apg[i].end, s, n, {
			if ((size_t)(id = lookup(s, n, 1)) >= nstopword) {
				word[id].count++;
				tok = grow(tok, &tokcap, ntok + 1, sizeof *tok);
				tok[ntok++] = (uint32_t)id;
			}
		});
	}
	tok0[na] = ntok;

	/* the features: the N most frequent words, count down, then bytes up */
	nrank = nword - nstopword;
	if (!(rank = malloc((nrank + 1) * sizeof *rank)) ||
	    !(featof = malloc((nword + 1) * sizeof *featof)))
		die("out of memory");
	for (i = 0; i < nrank; i++)
		rank[i] = (uint32_t)(nstopword + i);
	qsort(rank, nrank, sizeof *rank, byrank);
	for (i = 0; i < nword; i++)
		featof[i] = -1;
	if (nfeat > nrank)
		nfeat = nrank;
	for (i = 0; i < nfeat; i++)
		featof[rank[i]] = (long)i;

	/* the hash rows of the features: first N rows, first M columns */
	if (!(hashbits = calloc(nfeat + 1, sizeof *hashbits)) ||
	    !(weight = calloc(nfeat + 1, sizeof *weight)) ||
	    !(touched = malloc((nfeat + 1) * sizeof *touched)) ||
	    !(hvf = fopen("hashvalue.txt", "r")))
		die("hashvalue.txt");
	for (i = 0; i < nfeat; i++) {
		if (getline(&hv, &nhv, hvf) < m)
			die("hashvalue.txt: too few rows, or a short one");
		for (j = 0; j < m; j++)
			if (hv[j] == '1')
				hashbits[i][j >> 6] |= (uint64_t)1 << (j & 63);
	}
	fclose(hvf);

	/* fingerprints */
	for (i = 0; i < na; i++) {
		for (k = tok0[i]; k < tok0[i + 1]; k++)
			if ((f = featof[tok[k]]) >= 0)
				weigh(f);
		fingerprint(&apg[i]);
	}
	smp = slurp("sample.txt", &nsmp);
	spg = split(smp, nsmp, &ns);
	for (i = 0; i < ns; i++) {
		WORDS(spg[i].text, spg[i].end, s, n, {
			if ((id = lookup(s, n, 0)) >= 0 && (f = featof[id]) >= 0)
				weigh(f);
		});
		fingerprint(&spg[i]);
	}

	/* matches */
	if (!(out = fopen("result.txt", "w")) || !(dist = malloc(na + 1)))
		die("result.txt");
	for (i = 0; i < ns; i++) {
		for (k = 0; k < na; k++) {
			c = popcount(spg[i].fp[0] ^ apg[k].fp[0]) +
			    popcount(spg[i].fp[1] ^ apg[k].fp[1]);
			dist[k] = (unsigned char)(c <= MAXD ? c : MAXD + 1);
		}
		block(out, &spg[i], dist, na, apg);
		if (i == 0)
			block(stdout, &spg[i], dist, na, apg);
	}
	if (fclose(out) == EOF || fflush(stdout) == EOF)
		die("write error");
	return 0;
}
