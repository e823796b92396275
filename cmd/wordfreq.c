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

/* The options. */
static struct {
	int pflag;		/* per-page counts */
	int dflag;		/* document frequencies */
	unsigned tokflags;	/* TOK_UNICODE with -u */
	int kgram;		/* features are k-grams of words (-k) */
	int havestop;		/* a stopword list is loaded */
	int vflag;		/* count only vocabulary words */
	const char *totalsfile;	/* -T: the sums of the per-page counts go there */
} opt = { .kgram = 1 };

/* The words and their counts, by word id. */
static struct {
	struct wtab words;
	unsigned char *kind;
	unsigned long long *count;	/* over all pages, or in this page */
	size_t kindcap, countcap;
	unsigned long long *docfreq;	/* with -d: pages holding it */
	size_t docfreqcap;
	unsigned long long *total;	/* with -T: over the pages written */
	size_t totalcap;
	unsigned long long ndocs;	/* pages read, with -d */
	uint32_t *touched;	/* ids counted in this page, in order of first occurrence */
	size_t ntouched, touchedcap;
} tab;

static struct pagerec rec;	/* the page record being read: its ID, escaped as read */

/* Make room for the ids up to the table's size; new words are plain and uncounted. */
static void
growtables(void)
{
	size_t old = tab.countcap;

	/* +1: the tables exist even for no word (no arithmetic on null) */
	egrow(&tab.count, &tab.countcap, wtab_size(&tab.words) + 1, sizeof *tab.count);
	memset(tab.count + old, 0, (tab.countcap - old) * sizeof *tab.count);
	old = tab.kindcap;
	egrow(&tab.kind, &tab.kindcap, wtab_size(&tab.words) + 1, sizeof *tab.kind);
	memset(tab.kind + old, PLAIN, tab.kindcap - old);
	if (opt.dflag) {
		old = tab.docfreqcap;
		egrow(&tab.docfreq, &tab.docfreqcap, wtab_size(&tab.words) + 1, sizeof *tab.docfreq);
		memset(tab.docfreq + old, 0, (tab.docfreqcap - old) * sizeof *tab.docfreq);
	}
	if (opt.totalsfile) {
		old = tab.totalcap;
		egrow(&tab.total, &tab.totalcap, wtab_size(&tab.words) + 1, sizeof *tab.total);
		memset(tab.total + old, 0, (tab.totalcap - old) * sizeof *tab.total);
	}
}

#define MAXGRAM 16

/* The last k words of the page, joined by '_': the k-gram they make. */
static struct {
	struct obuf gram;
	size_t len[MAXGRAM];	/* the length of each of its words */
	int n;
} win;

/* The id of feature w, or WTAB_NONE if it is not counted. */
static uint32_t
featureid(const char *w, size_t n)
{
	uint32_t i;

	if (opt.vflag)
		return wtab_find(&tab.words, w, n);
	i = wtab_intern(&tab.words, w, n);
	if (i >= tab.countcap)
		growtables();
	return i;
}

/* Count the feature of id i (from featureid). */
static void
countid(uint32_t i)
{
	/* with -v only vocabulary words count, else all but stopwords */
	if (i == WTAB_NONE || (opt.vflag ? tab.kind[i] != VOCAB : tab.kind[i] == STOP))
		return;
	if (tab.count[i]++ == 0 && (opt.pflag || opt.dflag)) {
		if (tab.ntouched == tab.touchedcap)	/* a call only when it grows */
			egrow(&tab.touched, &tab.touchedcap, tab.ntouched + 1, sizeof *tab.touched);
		tab.touched[tab.ntouched++] = i;
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
	wtab_batch(&tab.words, opt.vflag, buf, off, len, n, ids);
	if (wtab_size(&tab.words) > tab.countcap)
		growtables();
	for (i = 0; i < n; i++) {
		if (ids[i] != WTAB_NONE) {
			PREFETCH(&tab.count[ids[i]]);
			PREFETCH(&tab.kind[ids[i]]);
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
	if (opt.havestop && (i = wtab_find(&tab.words, w, n)) != WTAB_NONE && tab.kind[i] == STOP)
		return;
	if (win.n == opt.kgram) {
		/* the first word leaves the window, with its '_' */
		win.gram.n -= win.len[0] + 1;
		memmove(win.gram.p, win.gram.p + win.len[0] + 1, win.gram.n);
		memmove(win.len, win.len + 1, (size_t)(opt.kgram - 1) * sizeof *win.len);
		win.n--;
	}
	if (win.n > 0)
		obuf_addc(&win.gram, '_');
	obuf_add(&win.gram, w, n);
	win.len[win.n++] = n;
	if (win.n == opt.kgram)
		addfeature(win.gram.p, win.gram.n);
}

/* The page's text has ended: no k-gram spans two pages. */
static void
endtext(void)
{
	win.n = 0;
	win.gram.n = 0;
}

static struct obuf out;		/* output records, written a block at a time */

static void
flushout(int force)
{
	if (force || out.n >= 1 << 16)
		obuf_flush(&out, stdout);
}

/* How many words ahead putpage asks for their tables' entries. */
enum { PUTAHEAD = 16 };

/* Write "ID<TAB>word:count ..." for the page just read and reset its counts. */
static void
putpage(void)
{
	const char *w;
	size_t i, n;
	uint32_t k;

	obuf_add(&out, rec.id.p, rec.id.n);
	obuf_addc(&out, '\t');
	for (i = 0; i < tab.ntouched; i++) {
		/*
		 * A large vocabulary's tables are far from the cache, and the
		 * words touched are scattered through them: ask for the
		 * counts and offsets of words ahead, and for their text
		 * when the offset has come.
		 */
		if (i + PUTAHEAD < tab.ntouched) {
			k = tab.touched[i + PUTAHEAD];
			PREFETCH(&tab.count[k]);
			PREFETCH(&tab.words.off[k]);
			if (tab.total)
				PREFETCH(&tab.total[k]);
		}
		if (i + PUTAHEAD / 2 < tab.ntouched)
			PREFETCH(tab.words.text + tab.words.off[tab.touched[i + PUTAHEAD / 2]]);
		k = tab.touched[i];
		w = wtab_word(&tab.words, k, &n);
		if (i > 0)
			obuf_addc(&out, ' ');
		obuf_add(&out, w, n);
		obuf_addc(&out, ':');
		obuf_addu(&out, tab.count[k]);
		if (tab.total)
			tab.total[k] += tab.count[k];
		tab.count[k] = 0;
	}
	obuf_addc(&out, '\n');
	tab.ntouched = 0;
	flushout(0);
}

/* Count the page just read as a document holding each of its features once. */
static void
docpage(void)
{
	size_t i;

	for (i = 0; i < tab.ntouched; i++) {
		tab.docfreq[tab.touched[i]]++;
		tab.count[tab.touched[i]] = 0;
	}
	tab.ntouched = 0;
	tab.ndocs++;
}

/* Forget the counts of a page that is not written. */
static void
droppage(void)
{
	size_t i;

	for (i = 0; i < tab.ntouched; i++)
		tab.count[tab.touched[i]] = 0;
	tab.ntouched = 0;
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
	int batch = opt.kgram == 1 && !(opt.tokflags & TOK_UNICODE);
	tok_fn *add = opt.kgram == 1 ? addone : addword;

	if (rdr_open(&r, path) < 0)
		return 1;
	tok_init(&t, opt.tokflags);
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
				weprintf("%s:%ju: bad escape in the page text", escname(r.name), r.lineno);
				rec.bad = 1;
			}
			endtext();
			/* a bad record is reported, not written */
			if (rec.bad)
				droppage();
			else if (opt.pflag)
				putpage();
			else if (opt.dflag)
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

	for (i = 0; i < wtab_size(&tab.words); i++) {
		if (!c[i])
			continue;
		w = wtab_word(&tab.words, (uint32_t)i, &n);
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
	obuf_addu(&out, tab.ndocs);
	obuf_addc(&out, '\n');
	for (i = 0; i < wtab_size(&tab.words); i++) {
		if (!tab.docfreq[i])
			continue;
		w = wtab_word(&tab.words, (uint32_t)i, &n);
		obuf_add(&out, w, n);
		obuf_addc(&out, '\t');
		obuf_addu(&out, tab.docfreq[i]);
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
	size_t first = wtab_size(&tab.words), i, n;
	int st;

	if (!(opt.tokflags & TOK_UNICODE)) {
		st = load(&tab.words, path);
	} else {
		/* the loaders fold ASCII only: fold the rest as the text is */
		wtab_init(&list);
		st = load(&list, path);
		for (i = 0; i < wtab_size(&list); i++) {
			w = wtab_word(&list, (uint32_t)i, &n);
			folded.n = 0;
			tok_fold(&folded, w, n);
			wtab_intern(&tab.words, folded.p, folded.n);
		}
		wtab_free(&list);
		free(folded.p);
	}
	growtables();
	for (; first < wtab_size(&tab.words); first++)
		tab.kind[first] = (unsigned char)k;
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
			opt.totalsfile = optarg;
			break;
		case 'd':
			opt.dflag = 1;
			break;
		case 'h':
			return help(synopsis);
		case 'k':
			opt.kgram = (int)estrtonum(optarg, 1, MAXGRAM, "length");
			break;
		case 'p':
			opt.pflag = 1;
			break;
		case 's':
			stopfile = optarg;
			break;
		case 'u':
			opt.tokflags |= TOK_UNICODE;
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
	if ((opt.dflag && opt.pflag) || (opt.totalsfile && !opt.pflag))
		usage();

	wtab_init(&tab.words);
	growtables();
	if (stopfile && loadlist(stopfile, STOP, wtab_load_words) < 0)
		return EXIT_DATA;
	opt.havestop = stopfile != NULL;
	if (vocabfile) {
		opt.vflag = 1;
		if (loadlist(vocabfile, VOCAB, loadvocab) < 0)
			return EXIT_DATA;
	}

	/* the totals are written beside their name, then renamed: never half of them */
	if (opt.totalsfile && !afile_open(&totals, opt.totalsfile))
		return EXIT_DATA;
	setupstdout();
	if (argc == 0)
		ret |= wordfreq("-");
	/* stop at a write error: the output is lost, and fshut still knows why */
	for (; argc > 0 && !ferror(stdout); argc--, argv++)
		ret |= wordfreq(*argv);
	if (opt.dflag)
		putdocfreq();
	else if (!opt.pflag)
		puttotals(tab.count, &out, stdout);
	flushout(1);
	if (fshut(stdout, "<stdout>")) {
		/* the per-page records are lost: no totals of them */
		if (opt.totalsfile)
			afile_close(&totals, 1);
		return 1;
	}
	if (opt.totalsfile) {
		puttotals(tab.total, &out, totals.fp);
		ret |= afile_close(&totals, 0);
	}
	return ret;
}
