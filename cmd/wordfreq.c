/* wordfreq: count the words of page records, over all pages or per page. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "esc.h"
#include "pagefile.h"
#include "pagerec.h"
#include "rdr.h"
#include "sniff.h"
#include "tok.h"
#include "util.h"
#include "warc.h"
#include "wtab.h"

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
	int iflag;		/* -i: words written as their numbers */
	const char *totalsfile;	/* -T: the sums of the per-page counts go there */
	const char *topfile;	/* -t: the topn most counted words of the sums go there */
	unsigned long long topn;	/* -n */
	int pagefiles;		/* -F: the inputs are page files, not records */
	int anyfile;		/* -a: with -F, whatever the file's first bytes */
	unsigned part, parts;	/* -c: with -F, the pages of this byte range only */
} opt = { .kgram = 1, .parts = 1 };

/*
 * What is kept of a word, together: counting a word of a large vocabulary
 * and writing its count then touch one cache line, not one per array.
 */
struct entry {
	unsigned long long count;	/* over all pages, or in this page */
	unsigned long long total;	/* with -T: over the pages written */
	/*
	 * With -i, the number written for the word (WTAB_NONE until it has
	 * one): its line in the vocabulary, or without -v in the order of
	 * first writing (tab.order)
	 */
	uint32_t num;
	unsigned char kind;
	/* num in decimal, written once: ndig digits (0 past 8 of them) */
	unsigned char ndig;
	char dig[8];
};

/* The words and their counts, by word id. */
static struct {
	struct wtab words;
	struct entry *ent;
	size_t entcap;
	unsigned long long *docfreq;	/* with -d: pages holding it */
	size_t docfreqcap;
	unsigned long long ndocs;	/* pages read, with -d */
	uint32_t *touched;	/* ids counted in this page, in order of first occurrence */
	size_t ntouched, touchedcap;
	uint32_t *order;	/* with -i and no -v, the ids by number: the totals' order */
	size_t nnum, ordercap;
} tab;

static struct pagerec rec;	/* the page record being read: its ID, escaped as read */

/* Make room for the ids up to the table's size; new words are plain and uncounted. */
static void
growtables(void)
{
	size_t old = tab.entcap, i;

	/* +1: the tables exist even for no word (no arithmetic on null) */
	egrow(&tab.ent, &tab.entcap, wtab_size(&tab.words) + 1, sizeof *tab.ent);
	memset(tab.ent + old, 0, (tab.entcap - old) * sizeof *tab.ent);
	for (i = old; i < tab.entcap; i++) {
		tab.ent[i].kind = PLAIN;
		tab.ent[i].num = WTAB_NONE;
	}
	if (opt.dflag) {
		old = tab.docfreqcap;
		egrow(&tab.docfreq, &tab.docfreqcap, wtab_size(&tab.words) + 1, sizeof *tab.docfreq);
		memset(tab.docfreq + old, 0, (tab.docfreqcap - old) * sizeof *tab.docfreq);
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
	if (i >= tab.entcap)
		growtables();
	return i;
}

/* Count the feature of id i (from featureid). */
static inline void
countid(uint32_t i)
{
	/* with -v only vocabulary words count, else all but stopwords */
	if (i == WTAB_NONE || (opt.vflag ? tab.ent[i].kind != VOCAB : tab.ent[i].kind == STOP))
		return;
	if (tab.ent[i].count++ == 0 && (opt.pflag || opt.dflag)) {
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
	if (wtab_size(&tab.words) > tab.entcap)
		growtables();
	for (i = 0; i < n; i++) {
		if (ids[i] != WTAB_NONE)
			PREFETCH(&tab.ent[ids[i]]);
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
	if (opt.havestop && (i = wtab_find(&tab.words, w, n)) != WTAB_NONE && tab.ent[i].kind == STOP)
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

/* Give e the number num (-i), and keep its digits if they are few. */
static void
setnum(struct entry *e, size_t num)
{
	char d[20];
	size_t n = utoa(d, num);

	e->num = (uint32_t)num;
	e->ndig = n <= sizeof e->dig ? (unsigned char)n : 0;
	if (e->ndig)
		memcpy(e->dig, d, n);
}

/* How many words ahead putpage asks for their tables' entries. */
enum { PUTAHEAD = 16 };

/* Write "ID<TAB>word:count ..." for the page just read and reset its counts. */
static void
putpage(void)
{
	struct entry *e;
	const char *w = NULL;
	char *o;
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
			PREFETCH(&tab.ent[k]);
			if (!opt.iflag)
				PREFETCH(&tab.words.off[k]);
		}
		if (!opt.iflag && i + PUTAHEAD / 2 < tab.ntouched)
			PREFETCH(tab.words.text + tab.words.off[tab.touched[i + PUTAHEAD / 2]]);
		k = tab.touched[i];
		e = &tab.ent[k];
		if (opt.iflag && e->num == WTAB_NONE) {
			/* without -v: the next number, the word's line in the totals */
			egrow(&tab.order, &tab.ordercap, tab.nnum + 1, sizeof *tab.order);
			tab.order[tab.nnum] = k;
			setnum(e, tab.nnum++);
		}
		if (opt.iflag)
			n = 20;	/* a number's digits: 8 copied if kept, else utoa's */
		else
			w = wtab_word(&tab.words, k, &n);
		/* room for the item at once: a space, word or number, ':', count */
		o = obuf_room(&out, n + 22);
		if (i > 0)
			*o++ = ' ';
		if (!opt.iflag) {
			memcpy(o, w, n);
			o += n;
		} else if (e->ndig) {
			memcpy(o, e->dig, sizeof e->dig);
			o += e->ndig;
		} else {
			o += utoa(o, e->num);
		}
		*o++ = ':';
		if (e->count < 10)	/* most counts */
			*o++ = (char)('0' + e->count);
		else
			o += utoa(o, e->count);
		out.n = (size_t)(o - out.p);
		e->total += e->count;
		e->count = 0;
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
		tab.ent[tab.touched[i]].count = 0;
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
		tab.ent[tab.touched[i]].count = 0;
	tab.ntouched = 0;
}

/*
 * The page being read: its text goes to the tokenizer. Words are the
 * features themselves unless they make k-grams; the ASCII tokenizer gives
 * them in batches, the UTF-8 one a word at a time.
 */
static struct {
	struct tok t;
	int batch;
	tok_fn *add;
} page;

static void
feedtext(const char *p, size_t n)
{
	if (page.batch)
		tok_feed_batch(&page.t, p, n, addbatch, NULL);
	else
		tok_feed(&page.t, p, n, page.add, NULL);
}

/* The page's text has ended: count it, and write it unless it was bad. */
static int
endpage(struct rdr *r)
{
	int bad;

	if ((page.batch ? tok_end_batch(&page.t, addbatch, NULL) :
	    tok_end(&page.t, page.add, NULL)) < 0 && !rec.bad) {
		rdr_warn(r, "bad escape in the page text");
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
	bad = rec.bad;
	pagerec_next(&rec);
	return bad;
}

/* -F: a page file's pages (pagefile.h), their IDs escaped as records have them. */
static void
fileid(void *ctx, const char *id, size_t n)
{
	(void)ctx;
	rec.id.n = esc_encode(obuf_room(&rec.id, 2 * n), id, n);
	rec.intext = 1;
}

static void
filetext(void *ctx, const char *p, size_t n)
{
	(void)ctx;
	feedtext(p, n);
}

static void
fileend(void *ctx)
{
	endpage(ctx);
}

/* -F: the pages of the page file r, as docsplit(1) would give them. */
static int
pagefile(struct rdr *r)
{
	struct pagefile_sink k = { fileid, filetext, fileend, r };
	const char *p;
	size_t n;
	int gz;

	gz = rdr_gunzip(r, PAGEFILE_GZMAX);
	if (opt.anyfile)
		return pagefile_read(r, opt.part, opt.parts, gz, &k);
	n = rdr_peek(r, SNIFF_LEN, &p);
	if (warc_is(p, n)) {
		weprintf("%s: a WARC file: read it with docsplit", escname(r->name));
		return 1;
	}
	/* not a document: skipped, as docsplit skips it (by its magic number) */
	if (sniff_format(p, n))
		return 0;
	return pagefile_read(r, opt.part, opt.parts, gz, &k);
}

static int
wordfreq(const char *path)
{
	struct rdr r;
	const char *p;
	ptrdiff_t n;
	int eol, k, ret = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	page.batch = opt.kgram == 1 && !(opt.tokflags & TOK_UNICODE);
	page.add = opt.kgram == 1 ? addone : addword;
	tok_init(&page.t, opt.tokflags | (opt.pagefiles ? TOK_RAW : 0));
	if (opt.pagefiles)
		ret = pagefile(&r);
	else while ((n = rdr_chunk(&r, &p, &eol)) >= 0) {
		if ((k = pagerec_chunk(&rec, &r, &p, &n, eol)) <= 0) {
			ret |= k < 0;
			continue;
		}
		feedtext(p, (size_t)n);
		if (eol)
			ret |= endpage(&r);
	}
	tok_free(&page.t);
	return rdr_close(&r) | ret;
}

/*
 * Write "word<TAB>count" for every word counted, its sum over the pages
 * written if totals is set, else its count, in order of first appearance
 * (with -i and no -v, of first writing: by number), through o to fp.
 */
static void
puttotals(int totals, struct obuf *o, FILE *fp)
{
	const char *w;
	size_t i, n, nids = wtab_size(&tab.words);
	uint32_t k;
	unsigned long long c;
	int bynum = opt.iflag && !opt.vflag;

	for (i = 0; i < (bynum ? tab.nnum : nids); i++) {
		k = bynum ? tab.order[i] : (uint32_t)i;
		if (!(c = totals ? tab.ent[k].total : tab.ent[k].count))
			continue;
		w = wtab_word(&tab.words, k, &n);
		obuf_add(o, w, n);
		obuf_addc(o, '\t');
		obuf_addu(o, c);
		obuf_addc(o, '\n');
		if (o->n >= 1 << 16)
			obuf_flush(o, fp);
	}
	obuf_flush(o, fp);
}

/*
 * Write the opt.topn words summed most over the pages written, as topn(1)
 * writes them from the sums puttotals writes, to fp.
 */
static void
puttop(FILE *fp)
{
	unsigned long long *sum;
	uint32_t *ids;
	size_t i, n = 0, nids = wtab_size(&tab.words);

	sum = ereallocarray(NULL, nids ? nids : 1, sizeof *sum);
	ids = ereallocarray(NULL, nids ? nids : 1, sizeof *ids);
	for (i = 0; i < nids; i++)
		if ((sum[i] = tab.ent[i].total))
			ids[n++] = (uint32_t)i;
	wtab_top(&tab.words, sum, ids, n, opt.topn, fp);
	free(ids);
	free(sum);
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
 * Add word w of a list as a word of kind k unless the table has it (a
 * stopword stays a stopword), folded as the text is; with -i a vocabulary
 * word's number is num, its line in the list (fphash(1) -i).
 */
static void
addlisted(const char *w, size_t n, int k, size_t num)
{
	static struct obuf folded;
	size_t before = wtab_size(&tab.words);
	uint32_t id;

	if (opt.tokflags & TOK_UNICODE) {
		/* the loaders fold ASCII only: fold the rest as the text is */
		folded.n = 0;
		tok_fold(&folded, w, n);
		w = folded.p;
		n = folded.n;
	}
	id = wtab_intern(&tab.words, w, n);
	if (wtab_size(&tab.words) == before)
		return;
	growtables();
	tab.ent[id].kind = (unsigned char)k;
	if (opt.iflag && k == VOCAB)
		setnum(&tab.ent[id], num);
}

/* Load the stopword list. Returns -1 after a diagnostic. */
static int
loadstop(const char *path)
{
	struct wtab list;
	const char *w;
	size_t i, n;
	int st;

	wtab_init(&list);
	st = wtab_load_words(&list, path);
	for (i = 0; i < wtab_size(&list); i++) {
		w = wtab_word(&list, (uint32_t)i, &n);
		addlisted(w, n, STOP, 0);
	}
	wtab_free(&list);
	return st;
}

static int
addvocab(void *ctx, const char *w, size_t n)
{
	size_t *line = ctx;

	addlisted(w, n, VOCAB, (*line)++);
	return 0;
}

/* Load the vocabulary, a word a line. Returns -1 after a diagnostic. */
static int
loadvocab(const char *path)
{
	size_t line = 0;

	return wtab_lines(path, addvocab, &line);
}

static const char synopsis[] =
    "[-Fadipu] [-T totals] [-c part/parts] [-k length] [-n count -t top] [-s stopwords]"
    " [-v vocabulary] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	struct afile totals, top;
	const char *stopfile = NULL, *vocabfile = NULL;
	int c, ret = 0;

	argv0 = "wordfreq";
	while ((c = getopt(argc, argv, "FT:ac:dhik:n:ps:t:uv:")) != -1) {
		switch (c) {
		case 'F':
			opt.pagefiles = 1;
			break;
		case 'T':
			opt.totalsfile = optarg;
			break;
		case 'a':
			opt.anyfile = 1;
			break;
		case 'c':
			estrtopart(optarg, &opt.part, &opt.parts);
			break;
		case 'd':
			opt.dflag = 1;
			break;
		case 'h':
			return help(synopsis);
		case 'i':
			opt.iflag = 1;
			break;
		case 'k':
			opt.kgram = (int)estrtonum(optarg, 1, MAXGRAM, "length");
			break;
		case 'n':
			opt.topn = (unsigned long long)estrtonum(optarg, 1, LLONG_MAX, "count");
			break;
		case 'p':
			opt.pflag = 1;
			break;
		case 's':
			stopfile = optarg;
			break;
		case 't':
			opt.topfile = optarg;
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
	if (opt.anyfile && !opt.pagefiles)
		eusagewhy(synopsis, "-a needs -F");
	/* -i: numbers of the vocabulary, or of the totals; not of folded lists */
	if ((opt.dflag && opt.pflag) || (opt.totalsfile && !opt.pflag) ||
	    (opt.topfile && !opt.pflag) || !opt.topfile != !opt.topn ||
	    (opt.parts > 1 && !opt.pagefiles) ||
	    (opt.iflag && (!opt.pflag || !(vocabfile || opt.totalsfile) ||
	    (vocabfile && (opt.tokflags & TOK_UNICODE)))))
		usage();

	wtab_init(&tab.words);
	growtables();
	if (stopfile && loadstop(stopfile) < 0)
		return EXIT_DATA;
	opt.havestop = stopfile != NULL;
	if (vocabfile) {
		opt.vflag = 1;
		if (loadvocab(vocabfile) < 0)
			return EXIT_DATA;
	}

	/* the totals are written beside their name, then renamed: never half of them */
	if (opt.totalsfile && !afile_open(&totals, opt.totalsfile))
		return EXIT_DATA;
	if (opt.topfile && !afile_open(&top, opt.topfile)) {
		if (opt.totalsfile)
			afile_close(&totals, 1);
		return EXIT_DATA;
	}
	setupstdout();
	if (argc == 0)
		ret |= wordfreq("-");
	/* stop at a write error: the output is lost, and fshut still knows why */
	for (; argc > 0 && !ferror(stdout); argc--, argv++)
		ret |= wordfreq(*argv);
	if (opt.dflag)
		putdocfreq();
	else if (!opt.pflag)
		puttotals(0, &out, stdout);
	flushout(1);
	if (fshut(stdout, "<stdout>")) {
		/* the per-page records are lost: no totals of them */
		if (opt.totalsfile)
			afile_close(&totals, 1);
		if (opt.topfile)
			afile_close(&top, 1);
		return 1;
	}
	if (opt.totalsfile && (puttotals(1, &out, totals.fp), afile_close(&totals, 0))) {
		/* the top of sums that were not written is not written either */
		if (opt.topfile)
			afile_close(&top, 1);
		return 1;
	}
	if (opt.topfile) {
		puttop(top.fp);
		ret |= afile_close(&top, 0);
	}
	return ret;
}
