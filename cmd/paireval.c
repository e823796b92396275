/* paireval: score reported near-duplicate pairs against labelled pairs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdr.h"
#include "rec.h"
#include "util.h"
#include "wtab.h"

/* A similarity is held exactly, as an integer count of 10^-15 (at most 15 decimals). */
#define SIMONE	FRAC_ONE
#define GRID	20	/* the sweep's thresholds are k / GRID */

static int sflag;		/* -s */
static int tflag;		/* -t given */
static uint64_t minsim;		/* -t, in units of 1 / SIMONE */

/* A pair is the two dense ids of its IDs, smaller first: (A,B) = (B,A). */
struct label {
	uint64_t key;
	uintmax_t line;		/* where it was read, for conflicts */
	uint32_t kind;
	unsigned char positive;
};

/* cls: what a reported pair turned out to be after the join. */
enum { C_FALSE, C_TRUE, C_UNLABELLED };

struct report {
	uint64_t key;
	uint64_t sim;
	unsigned char cls;
};

static struct wtab ids, kinds;
static struct label *labels;
static struct report *reports;
static size_t nlabels, labelcap, nreports, reportcap;

/* The totals of the last evaluation (the fuzz harness checks them). */
static uint64_t tp, fp, fn, tn, unlabelled, distinctlabels, distinctreports;

static uint64_t
pairkey(uint32_t a, uint32_t b)
{
	return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}

/* The key of the pair in fields 0 and 1; -1 after a diagnostic. */
static int
pairof(struct rdr *r, const char **f, size_t *len, uint64_t *key)
{
	uint32_t a, b;

	if (len[0] == 0 || len[1] == 0) {
		rdr_warn(r, "empty ID");
		return -1;
	}
	if (len[0] == len[1] && memcmp(f[0], f[1], len[0]) == 0) {
		rdr_warn(r, "an ID paired with itself");
		return -1;
	}
	a = wtab_intern(&ids, f[0], len[0]);
	b = wtab_intern(&ids, f[1], len[1]);
	*key = pairkey(a, b);
	return 0;
}

/* Write a similarity in its shortest decimal form. */
static void
putsim(uint64_t v, FILE *out)
{
	char buf[32];
	size_t n;

	if (v >= SIMONE) {
		fputs("1", out);
		return;
	}
	n = (size_t)snprintf(buf, sizeof buf, "0.%015ju", (uintmax_t)v);
	while (n > 1 && buf[n - 1] == '0')
		n--;
	if (buf[n - 1] == '.')
		n--;
	fwrite(buf, 1, n, out);
}

static int
readlabels(const char *path)
{
	struct rdr r;
	const char *f[4];
	char *line;
	size_t len[4];
	ptrdiff_t n;
	uint64_t key;
	uint32_t kind;
	int nf, bad = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((n = rdr_line(&r, &line)) >= 0) {
		if ((nf = rec_cut(line, (size_t)n, f, len, 4)) < 3) {
			rdr_warn(&r, "fewer than 3 fields (ID_A, ID_B, LABEL)");
			bad = 1;
			continue;
		}
		if (len[2] != 1 || (f[2][0] != '0' && f[2][0] != '1')) {
			rdr_warn(&r, "label '%.*s' is invalid (allowed: 0 or 1)", (int)len[2], f[2]);
			bad = 1;
			continue;
		}
		if (pairof(&r, f, len, &key) < 0) {
			bad = 1;
			continue;
		}
		if (nf == 4 && len[3] > 0)
			kind = wtab_intern(&kinds, f[3], len[3]);
		else
			kind = wtab_intern(&kinds, "-", 1);
		egrow(&labels, &labelcap, nlabels + 1, sizeof *labels);
		labels[nlabels].key = key;
		labels[nlabels].line = r.lineno;
		labels[nlabels].kind = kind;
		labels[nlabels].positive = f[2][0] == '1';
		nlabels++;
	}
	return rdr_close(&r) | bad;
}

static int
readpairs(const char *path)
{
	struct rdr r;
	const char *f[3], *errstr;
	char *line;
	size_t len[3];
	ptrdiff_t n;
	uint64_t key, sim;
	int nf, bad = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((n = rdr_line(&r, &line)) >= 0) {
		if ((nf = rec_cut(line, (size_t)n, f, len, 3)) < 2) {
			rdr_warn(&r, "fewer than 2 fields (ID_A, ID_B)");
			bad = 1;
			continue;
		}
		sim = nf == 3 ? parsefracn(f[2], len[2], &errstr) : SIMONE;
		if (nf == 3 && errstr) {
			rdr_warn(&r, "similarity '%.*s' is %s (allowed: a decimal "
			    "fraction from 0 to 1, at most 15 decimals)",
			    (int)len[2], f[2], errstr);
			bad = 1;
			continue;
		}
		if (nf < 3 && (sflag || tflag)) {
			rdr_warn(&r, "no similarity (-s and -t need one)");
			bad = 1;
			continue;
		}
		if (pairof(&r, f, len, &key) < 0) {
			bad = 1;
			continue;
		}
		if (sim < minsim)
			continue;
		egrow(&reports, &reportcap, nreports + 1, sizeof *reports);
		reports[nreports].key = key;
		reports[nreports].sim = sim;
		reports[nreports].cls = C_UNLABELLED;
		nreports++;
	}
	return rdr_close(&r) | bad;
}

static int
labelcmp(const void *a, const void *b)
{
	const struct label *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* By pair, the highest similarity first, so that a pair reported twice keeps it. */
static int
reportcmp(const void *a, const void *b)
{
	const struct report *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->sim < y->sim) - (x->sim > y->sim);
}

static int
simdesc(const void *a, const void *b)
{
	const struct report *x = a, *y = b;

	return (x->sim < y->sim) - (x->sim > y->sim);
}

/* Sort the labels and keep the first of each pair; 1 if two disagree. */
static int
uniqlabels(const char *path)
{
	const char *name = escname(strcmp(path, "-") ? path : "<stdin>");
	size_t i, k;
	uintmax_t nbad = 0;

	if (nlabels == 0)
		return 0;
	qsort(labels, nlabels, sizeof *labels, labelcmp);
	for (i = 1, k = 0; i < nlabels; i++) {
		if (labels[i].key != labels[k].key) {
			labels[++k] = labels[i];
			continue;
		}
		if (labels[i].positive != labels[k].positive && said(&nbad))
			weprintf("%s:%ju: pair labelled %d here and %d at line %ju", name,
			    labels[i].line, labels[i].positive, labels[k].positive,
			    labels[k].line);
	}
	saidcount(nbad, name, "labels that disagree");
	nlabels = k + 1;
	return nbad > 0;
}

static void
uniqreports(void)
{
	size_t i, k;

	if (nreports == 0)
		return;
	qsort(reports, nreports, sizeof *reports, reportcmp);
	for (i = 1, k = 0; i < nreports; i++)
		if (reports[i].key != reports[k].key)
			reports[++k] = reports[i];
	nreports = k + 1;
}

/* num / den with 4 decimals, or "-" when den is 0. */
static void
putratio(uint64_t num, uint64_t den)
{
	putchar('\t');
	if (den == 0)
		putchar('-');
	else
		printf("%.4f", (double)num / (double)den);
}

static void
putcount(uint64_t v)
{
	putchar('\t');
	putu(v, stdout);
}

/* Counts, then precision, recall and F1 = 2tp / (2tp + fp + fn). */
static void
putscores(uint64_t t, uint64_t f, uint64_t n)
{
	putratio(t, t + f);
	putratio(t, t + n);
	putratio(2 * t, 2 * t + f + n);
}

/* The threshold sweep over the reported pairs (all classified). */
static void
sweep(uint64_t positives)
{
	uint64_t c[GRID + 1][3] = { { 0 } }, bt = 0, bf = 0, bu = 0, t = 0, f = 0, u = 0;
	uint64_t best = SIMONE + 1;	/* none yet: nothing reported */
	double f1, bestf1 = -1;
	size_t i;
	int k;

	for (i = 0; i < nreports; i++)
		for (k = 0; k <= GRID; k++)
			if (reports[i].sim >= (uint64_t)k * (SIMONE / GRID))
				c[k][reports[i].cls]++;
	printf("#type\tthreshold\ttp\tfp\tfn\tunlabelled\tprecision\trecall\tf1\n");
	for (k = 0; k <= GRID; k++) {
		printf("sweep\t%d.%02d", k / GRID, k % GRID * (100 / GRID));
		putcount(c[k][C_TRUE]);
		putcount(c[k][C_FALSE]);
		putcount(positives - c[k][C_TRUE]);
		putcount(c[k][C_UNLABELLED]);
		putscores(c[k][C_TRUE], c[k][C_FALSE], positives - c[k][C_TRUE]);
		putchar('\n');
	}
	/* Every distinct similarity as threshold, highest first; a tie keeps the higher. */
	if (nreports > 0)	/* reports may be null */
		qsort(reports, nreports, sizeof *reports, simdesc);
	for (i = 0; i < nreports; i++) {
		if (reports[i].cls == C_TRUE)
			t++;
		else if (reports[i].cls == C_FALSE)
			f++;
		else
			u++;
		if (i + 1 < nreports && reports[i + 1].sim == reports[i].sim)
			continue;
		f1 = 2 * t + f + (positives - t) ? 2.0 * (double)t /
		    (double)(2 * t + f + (positives - t)) : -1;
		if (f1 > bestf1 || best > SIMONE) {
			bestf1 = f1;
			best = reports[i].sim;
			bt = t;
			bf = f;
			bu = u;
		}
	}
	fputs("best\t", stdout);
	if (best > SIMONE)
		putchar('-');
	else
		putsim(best, stdout);
	putcount(bt);
	putcount(bf);
	putcount(positives - bt);
	putcount(bu);
	putscores(bt, bf, positives - bt);
	putchar('\n');
}

/* Join the labels with the reports and print the figures. */
static void
evaluate(void)
{
	uint64_t *cnt;		/* by kind and label: pairs, reported */
	uint32_t kd;
	size_t i = 0, j = 0, x, wn;
	const char *w;
	int pos;

	cnt = ecalloc(kinds.n * 4 + 1, sizeof *cnt);
	tp = fp = fn = tn = unlabelled = 0;
	distinctlabels = nlabels;
	distinctreports = nreports;
	while (i < nlabels || j < nreports) {
		if (j == nreports || (i < nlabels && labels[i].key < reports[j].key)) {
			if (labels[i].positive)
				fn++;
			else
				tn++;
			cnt[labels[i].kind * 4 + labels[i].positive * 2]++;
			i++;
		} else if (i == nlabels || reports[j].key < labels[i].key) {
			unlabelled++;
			j++;
		} else {
			if (labels[i].positive)
				tp++;
			else
				fp++;
			reports[j].cls = labels[i].positive ? C_TRUE : C_FALSE;
			x = labels[i].kind * 4 + labels[i].positive * 2;
			cnt[x]++;
			cnt[x + 1]++;
			i++;
			j++;
		}
	}
	printf("#type\ttp\tfp\tfn\ttn\tprecision\trecall\tf1\n");
	fputs("all", stdout);
	putcount(tp);
	putcount(fp);
	putcount(fn);
	putcount(tn);
	putscores(tp, fp, fn);
	printf("\n#type\tkind\tlabel\tpairs\treported\trate\n");
	for (kd = 0; kd < kinds.n; kd++)
		for (pos = 1; pos >= 0; pos--) {
			x = (size_t)kd * 4 + (size_t)pos * 2;
			if (cnt[x] == 0)
				continue;
			fputs("kind\t", stdout);
			w = wtab_word(&kinds, kd, &wn);
			fwrite(w, 1, wn, stdout);
			printf("\t%d", pos);
			putcount(cnt[x]);
			putcount(cnt[x + 1]);
			putratio(cnt[x + 1], cnt[x]);
			putchar('\n');
		}
	printf("#type\tpairs\tlabelled\tunlabelled\tprecision\n");
	fputs("reported", stdout);
	putcount(nreports);
	putcount(tp + fp);
	putcount(unlabelled);
	putratio(tp, nreports);
	putchar('\n');
	if (sflag)
		sweep(tp + fn);
	free(cnt);
}

/* Read the labels and every file of pairs; evaluate if all were good. */
static int
paireval(const char *labelpath, char **files, int nfiles)
{
	int i, bad;

	wtab_init(&ids);
	wtab_init(&kinds);
	bad = readlabels(labelpath);
	bad |= uniqlabels(labelpath);
	for (i = 0; i < nfiles; i++)
		bad |= readpairs(files[i]);
	/* figures from part of the input would mislead */
	if (!bad) {
		uniqreports();
		evaluate();
	}
	wtab_free(&ids);
	wtab_free(&kinds);
	free(labels);
	free(reports);
	labels = NULL;
	reports = NULL;
	nlabels = labelcap = nreports = reportcap = 0;
	return bad;
}

static const char synopsis[] = "[-s] [-t threshold] labels [file ...]";

static void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	static char *stdinonly[] = { "-", NULL };
	char **files;
	int c, i, nfiles, ret;

	argv0 = "paireval";
	while ((c = getopt(argc, argv, "hst:")) != -1) {
		switch (c) {
		case 'h':
			return help(synopsis);
		case 's':
			sflag = 1;
			break;
		case 't':
			minsim = estrtofrac(optarg, "threshold");
			tflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		eusagewhy(synopsis, "no labels operand");
	files = argc > 1 ? argv + 1 : stdinonly;
	nfiles = argc > 1 ? argc - 1 : 1;
	for (i = 0; i < nfiles; i++)
		if (strcmp(argv[0], "-") == 0 && strcmp(files[i], "-") == 0)
			enprintf(EXIT_USAGE, "labels and pairs cannot both be standard input");
	setupstdout();
	ret = paireval(argv[0], files, nfiles);
	ret |= fshut(stdout, "<stdout>");
	return ret;
}
