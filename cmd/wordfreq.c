/* wordfreq: count the words of page records, over all pages or per page. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pagerec.h"
#include "rdr.h"
#include "tok.h"
#include "util.h"
#include "wtab.h"

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p)	__builtin_prefetch(p)
#else
#define PREFETCH(p)	((void)(p))
#endif

/* What a word of the table is besides a counted word. */
enum { PLAIN, STOP, VOCAB };

static int pflag;		/* per-page counts */
static int dflag;		/* document frequencies */
static unsigned tokflags;	/* TOK_UNICODE with -u */
static int kgram = 1;		/* features are k-grams of words (-k) */
static int havestop;		/* a stopword list is loaded */
static int vflag;		/* count only vocabulary words */
static const char *totalsfile;	/* -T: the sums of the per-page counts go there */

static struct wtab words;
static unsigned char *kind;	/* by word id */
static unsigned long long *count;	/* by word id: over all pages, or in this page */
static size_t kindcap, countcap;
static unsigned long long *docfreq;	/* by word id, with -d: pages holding it */
static size_t docfreqcap;
static unsigned long long *total;	/* by word id, with -T: over the pages written */
static size_t totalcap;
static unsigned long long ndocs;	/* pages read, with -d */
static uint32_t *touched;	/* ids counted in this page, in order of first occurrence */
static size_t ntouched, touchedcap;

static struct pagerec rec;	/* the page record being read: its ID, escaped as read */

/* Make room for the ids up to the table's size; new words are plain and uncounted. */
static void
growtables(void)
{
	size_t old = countcap;

	/* +1: the tables exist even for no word (no arithmetic on null) */
	egrow(&count, &countcap, wtab_size(&words) + 1, sizeof *count);
	memset(count + old, 0, (countcap - old) * sizeof *count);
	old = kindcap;
	egrow(&kind, &kindcap, wtab_size(&words) + 1, sizeof *kind);
	memset(kind + old, PLAIN, kindcap - old);
	if (dflag) {
		old = docfreqcap;
		egrow(&docfreq, &docfreqcap, wtab_size(&words) + 1, sizeof *docfreq);
		memset(docfreq + old, 0, (docfreqcap - old) * sizeof *docfreq);
	}
	if (totalsfile) {
		old = totalcap;
		egrow(&total, &totalcap, wtab_size(&words) + 1, sizeof *total);
		memset(total + old, 0, (totalcap - old) * sizeof *total);
	}
}

#define MAXGRAM 16

/* The last k words of the page, joined by '_': the k-gram they make. */
static struct obuf gram;
static size_t gramlen[MAXGRAM];	/* the length of each of its words */
static int ngram;

/* The id of feature w, or WTAB_NONE if it is not counted. */
static uint32_t
featureid(const char *w, size_t n)
{
	uint32_t i;

	if (vflag)
		return wtab_find(&words, w, n);
	i = wtab_intern(&words, w, n);
	if (i >= countcap)
		growtables();
	return i;
}

/* Count the feature of id i (from featureid). */
static void
countid(uint32_t i)
{
	/* with -v only vocabulary words count, else all but stopwords */
	if (i == WTAB_NONE || (vflag ? kind[i] != VOCAB : kind[i] == STOP))
		return;
	if (count[i]++ == 0 && (pflag || dflag)) {
		if (ntouched == touchedcap)	/* a call only when it grows */
			egrow(&touched, &touchedcap, ntouched + 1, sizeof *touched);
		touched[ntouched++] = i;
	}
}

/* Count feature w, a word or a k-gram. */
static void
addfeature(const char *w, size_t n)
{
	countid(featureid(w, n));
}

/*
 * Without -k, the tokenizer gives the words in batches: their ids are
 * found together (wtab_batch, which in a large table asks for all their
 * slots first), then their counts asked for, then counted, by which time
 * most of what they need is in the cache. Words are counted in text order,
 * so ids and output are those of counting each as it comes.
 */
static void
addbatch(void *ctx, const char *buf, const size_t *off, const size_t *len, size_t n)
{
	uint32_t ids[TOK_BATCH];
	size_t i;

	(void)ctx;
	wtab_batch(&words, vflag, buf, off, len, n, ids);
	if (wtab_size(&words) > countcap)
		growtables();
	for (i = 0; i < n; i++) {
		if (ids[i] != WTAB_NONE) {
			PREFETCH(&count[ids[i]]);
			PREFETCH(&kind[ids[i]]);
		}
	}
	for (i = 0; i < n; i++)
		countid(ids[i]);
}

/* A word of the text that is a feature (no -k), a word at a time. */
static void
addone(void *ctx, const char *w, size_t n)
{
	(void)ctx;
	addfeature(w, n);
}

/*
 * A word of the text. Stopwords are dropped first; the k-grams are those of
 * the words that remain. Each word is copied into k grams at most, so the
 * work is linear in the text.
 */
static void
addword(void *ctx, const char *w, size_t n)
{
	uint32_t i;

	(void)ctx;
	if (havestop && (i = wtab_find(&words, w, n)) != WTAB_NONE && kind[i] == STOP)
		return;
	if (ngram == kgram) {
		/* the first word leaves the window, with its '_' */
		gram.n -= gramlen[0] + 1;
		memmove(gram.p, gram.p + gramlen[0] + 1, gram.n);
		memmove(gramlen, gramlen + 1, (size_t)(kgram - 1) * sizeof *gramlen);
		ngram--;
	}
	if (ngram > 0)
		obuf_addc(&gram, '_');
	obuf_add(&gram, w, n);
	gramlen[ngram++] = n;
	if (ngram == kgram)
		addfeature(gram.p, gram.n);
}

/* The page's text has ended: no k-gram spans two pages. */
static void
endtext(void)
{
	ngram = 0;
	gram.n = 0;
}

static struct obuf out;		/* output records, written a block at a time */

static void
flushout(int force)
{
	if (force || out.n >= 1 << 16)
		obuf_flush(&out, stdout);
}

/* Write "ID<TAB>word:count ..." for the page just read and reset its counts. */
static void
putpage(void)
{
	const char *w;
	size_t i, n;
	uint32_t k;

	obuf_add(&out, rec.id.p, rec.id.n);
	obuf_addc(&out, '\t');
	for (i = 0; i < ntouched; i++) {
		k = touched[i];
		w = wtab_word(&words, k, &n);
		if (i > 0)
			obuf_addc(&out, ' ');
		obuf_add(&out, w, n);
		obuf_addc(&out, ':');
		obuf_addu(&out, count[k]);
		if (total)
			total[k] += count[k];
		count[k] = 0;
	}
	obuf_addc(&out, '\n');
	ntouched = 0;
	flushout(0);
}

/* Count the page just read as a document holding each of its features once. */
static void
docpage(void)
{
	size_t i;

	for (i = 0; i < ntouched; i++) {
		docfreq[touched[i]]++;
		count[touched[i]] = 0;
	}
	ntouched = 0;
	ndocs++;
}

/* Forget the counts of a page that is not written. */
static void
droppage(void)
{
	size_t i;

	for (i = 0; i < ntouched; i++)
		count[touched[i]] = 0;
	ntouched = 0;
}

static int
wordfreq(const char *path)
{
	struct rdr r;
	struct tok t;
	const char *p;
	ptrdiff_t n;
	int eol, k, ret = 0;
	/*
	 * Words are the features themselves unless they make k-grams; the
	 * ASCII tokenizer gives them in batches, the UTF-8 one a word at a time.
	 */
	int batch = kgram == 1 && !(tokflags & TOK_UNICODE);
	tok_fn *add = kgram == 1 ? addone : addword;

	if (rdr_open(&r, path) < 0)
		return 1;
	tok_init(&t, tokflags);
	while ((n = rdr_chunk(&r, &p, &eol)) >= 0) {
		if ((k = pagerec_chunk(&rec, &r, &p, &n, eol)) <= 0) {
			ret |= k < 0;
			continue;
		}
		if (batch)
			tok_feed_batch(&t, p, (size_t)n, addbatch, NULL);
		else
			tok_feed(&t, p, (size_t)n, add, NULL);
		if (eol) {
			if ((batch ? tok_end_batch(&t, addbatch, NULL) :
			    tok_end(&t, add, NULL)) < 0 && !rec.bad) {
				weprintf("%s:%ju: bad escape in the page text", r.name, r.lineno);
				rec.bad = 1;
			}
			endtext();
			/* a bad record is reported, not written */
			if (rec.bad)
				droppage();
			else if (pflag)
				putpage();
			else if (dflag)
				docpage();
			ret |= rec.bad;
			pagerec_next(&rec);
		}
	}
	tok_free(&t);
	return rdr_close(&r) | ret;
}

/*
 * Write "word<TAB>count" for every word counted in c, in order of first
 * appearance, through o to fp.
 */
static void
puttotals(const unsigned long long *c, struct obuf *o, FILE *fp)
{
	const char *w;
	size_t i, n;

	for (i = 0; i < wtab_size(&words); i++) {
		if (!c[i])
			continue;
		w = wtab_word(&words, (uint32_t)i, &n);
		obuf_add(o, w, n);
		obuf_addc(o, '\t');
		obuf_addu(o, c[i]);
		obuf_addc(o, '\n');
		if (o->n >= 1 << 16)
			obuf_flush(o, fp);
	}
	obuf_flush(o, fp);
}

/*
 * Write the document count "<TAB>N", then "word<TAB>df" for every feature
 * in some page, in order of first appearance.
 */
static void
putdocfreq(void)
{
	const char *w;
	size_t i, n;

	obuf_addc(&out, '\t');
	obuf_addu(&out, ndocs);
	obuf_addc(&out, '\n');
	for (i = 0; i < wtab_size(&words); i++) {
		if (!docfreq[i])
			continue;
		w = wtab_word(&words, (uint32_t)i, &n);
		obuf_add(&out, w, n);
		obuf_addc(&out, '\t');
		obuf_addu(&out, docfreq[i]);
		obuf_addc(&out, '\n');
		flushout(0);
	}
}

/*
 * Load a word list and mark its new words as k: a stopword stays a stopword.
 * Returns -1 after a diagnostic.
 */
static int
loadlist(const char *path, int k, int (*load)(struct wtab *, const char *))
{
	struct wtab list;
	struct obuf folded = { 0 };
	const char *w;
	size_t first = wtab_size(&words), i, n;
	int st;

	if (!(tokflags & TOK_UNICODE)) {
		st = load(&words, path);
	} else {
		/* the loaders fold ASCII only: fold the rest as the text is */
		wtab_init(&list);
		st = load(&list, path);
		for (i = 0; i < wtab_size(&list); i++) {
			w = wtab_word(&list, (uint32_t)i, &n);
			folded.n = 0;
			tok_fold(&folded, w, n);
			wtab_intern(&words, folded.p, folded.n);
		}
		wtab_free(&list);
		free(folded.p);
	}
	growtables();
	for (; first < wtab_size(&words); first++)
		kind[first] = (unsigned char)k;
	return st;
}

static int
loadvocab(struct wtab *t, const char *path)
{
	return wtab_load_lines(t, path, 0);
}

static const char synopsis[] =
    "[-dpu] [-T totals] [-k length] [-s stopwords] [-v vocabulary] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	struct afile totals;
	const char *stopfile = NULL, *vocabfile = NULL;
	int c, ret = 0;

	argv0 = "wordfreq";
	while ((c = getopt(argc, argv, "T:dhk:ps:uv:")) != -1) {
		switch (c) {
		case 'T':
			totalsfile = optarg;
			break;
		case 'd':
			dflag = 1;
			break;
		case 'h':
			return help(synopsis);
		case 'k':
			kgram = (int)estrtonum(optarg, 1, MAXGRAM, "length");
			break;
		case 'p':
			pflag = 1;
			break;
		case 's':
			stopfile = optarg;
			break;
		case 'u':
			tokflags |= TOK_UNICODE;
			break;
		case 'v':
			vocabfile = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if ((dflag && pflag) || (totalsfile && !pflag))
		usage();

	wtab_init(&words);
	growtables();
	if (stopfile && loadlist(stopfile, STOP, wtab_load_words) < 0)
		return EXIT_DATA;
	havestop = stopfile != NULL;
	if (vocabfile) {
		vflag = 1;
		if (loadlist(vocabfile, VOCAB, loadvocab) < 0)
			return EXIT_DATA;
	}

	/* the totals are written beside their name, then renamed: never half of them */
	if (totalsfile && !afile_open(&totals, totalsfile))
		return EXIT_DATA;
	setupstdout();
	if (argc == 0)
		ret |= wordfreq("-");
	/* stop at a write error: the output is lost, and fshut still knows why */
	for (; argc > 0 && !ferror(stdout); argc--, argv++)
		ret |= wordfreq(*argv);
	if (dflag)
		putdocfreq();
	else if (!pflag)
		puttotals(count, &out, stdout);
	flushout(1);
	if (fshut(stdout, "<stdout>")) {
		/* the per-page records are lost: no totals of them */
		if (totalsfile)
			afile_close(&totals, 1);
		return 1;
	}
	if (totalsfile) {
		puttotals(total, &out, totals.fp);
		ret |= afile_close(&totals, 0);
	}
	return ret;
}
