/*
 * gendocs: a seeded demo collection for neardup(1), with its truth.
 *
 *	gendocs [-n pages] [-q queries] [-s seed] dir
 *
 * writes under dir:
 *
 *	docs/SITE/NNN-SLUG.html	pages of three HTML sites (harbor: HTML5
 *	docs/notes/NNN-SLUG.txt	docs, lantern: a div-soup blog, meadow: a
 *				table-layout knowledge base) and a plain-text
 *				site (notes), each with its own header,
 *				navigation, footer and cookie banner
 *	docs/SITE/archive/...	edited copies of pages, in their site's template
 *	new/SITE-NNN-SLUG.*	queries: copies of pages and new pages
 *	labels.tsv		the truth about docs/: ID_A TAB ID_B TAB LABEL TAB KIND
 *	new-labels.tsv		the truth about new/ against docs/
 *
 * IDs are paths relative to dir, as `cd dir && neardup docs` reports them,
 * so `paireval labels.tsv pairs` scores it. The body text is English-like:
 * sentences of a small grammar over our own word lists. Each original page
 * gets at most one planted near-duplicate (label 1): the same body in
 * another template (template), its text version (text), 1-10% of words
 * edited (edit), paragraphs reordered (reorder), added (padd) or removed
 * (pdel), the first half or more (trunc); and hard negatives (label 0):
 * pages that share a site template (neg-template), a page and its
 * neighbour that share the heading and introduction (neg-neighbour), a
 * page and a copy with 40% of its words edited (neg-edit40). Of the
 * queries, one in three is a page with 3% of its words edited in another
 * template (query-edit), one its text version (query-text), one a new
 * page; the copied pages follow each other from a seeded start, so they
 * repeat only when there are more than 3 * pages queries. Every output
 * file is written to a temporary name and renamed into place.
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

#define MAXPAGES	100000
#define MAXQUERIES	10000
#define WRAP		72

/* A token: a word number, and what follows the word. */
#define T_END		(UINT32_C(1) << 30)	/* a full stop: the sentence ends */
#define T_COMMA		(UINT32_C(1) << 29)
#define T_WORD(t)	((t) & 0xffff)

/* Word classes of the grammar; every word list is our own. */
enum { DET, ADJ, NOUN, VERB, ADV, PREP, CONJ, NCLASS };
static const char *const detw[] = {
	"the", "the", "the", "each", "every", "this", "any", "our", "its", "one",
};
static const char *const adjw[] = {
	"new", "old", "small", "large", "fast", "slow", "default", "local",
	"remote", "shared", "private", "public", "empty", "full", "first",
	"last", "next", "main", "optional", "required", "simple", "stable",
	"current", "temporary", "internal", "external", "active", "idle",
	"broken", "valid", "safe", "hidden", "visible", "short", "long",
	"single", "common", "rare", "quiet", "busy", "primary", "separate",
	"global", "partial", "complete", "recent", "early", "late", "open",
	"closed", "plain", "binary", "careful", "spare", "nightly", "weekly",
	"signed", "sorted", "nested", "strict",
};
static const char *const nounw[] = {
	"server", "cache", "file", "request", "user", "client", "record",
	"index", "table", "query", "page", "buffer", "stream", "socket",
	"thread", "process", "kernel", "module", "driver", "device", "disk",
	"volume", "partition", "network", "packet", "router", "address",
	"port", "channel", "message", "queue", "worker", "job", "task",
	"schedule", "timer", "clock", "signal", "handler", "event", "log",
	"report", "account", "password", "key", "token", "session", "header",
	"field", "column", "row", "value", "option", "flag", "setting",
	"profile", "template", "layout", "theme", "widget", "button", "menu",
	"window", "screen", "panel", "image", "font", "border", "archive",
	"backup", "snapshot", "mirror", "release", "version", "branch",
	"patch", "commit", "build", "package", "library", "function",
	"method", "object", "array", "list", "string", "number", "pointer",
	"memory", "register", "sensor", "battery", "printer", "scanner",
	"keyboard", "display", "terminal", "shell", "script", "command",
	"manual", "chapter", "section", "editor", "parser", "compiler",
	"debugger", "monitor", "gateway", "proxy", "bridge", "tunnel",
	"firewall", "certificate", "policy", "rule", "limit", "quota",
};
static const char *const verbw[] = {
	"reads", "writes", "stores", "sends", "receives", "opens", "closes",
	"checks", "updates", "removes", "creates", "builds", "loads", "saves",
	"starts", "stops", "restarts", "holds", "keeps", "moves", "copies",
	"sorts", "merges", "splits", "joins", "matches", "compares", "counts",
	"measures", "tracks", "records", "reports", "returns", "accepts",
	"rejects", "ignores", "skips", "locks", "unlocks", "maps", "scans",
	"parses", "formats", "encodes", "decodes", "compresses", "expands",
	"signs", "verifies", "caches", "indexes", "renames", "replaces",
	"restores", "deletes", "selects", "filters", "groups", "limits",
	"describes",
};
static const char *const advw[] = {
	"quickly", "slowly", "often", "rarely", "always", "never", "usually",
	"later", "again", "only", "also", "still", "already", "safely",
	"carefully", "directly", "silently", "automatically", "manually",
	"twice",
};
static const char *const prepw[] = {
	"of", "in", "on", "for", "with", "from", "to", "by", "after",
	"before", "under", "over", "into", "through", "without",
};
static const char *const conjw[] = {
	"when", "if", "while", "because", "unless", "and", "but",
};
static const struct {
	const char *const *w;
	size_t n;
} wclass[NCLASS] = {
#define L(a)	{ a, sizeof a / sizeof a[0] }
	L(detw), L(adjw), L(nounw), L(verbw), L(advw), L(prepw), L(conjw),
#undef L
};
static size_t wbase[NCLASS + 1];	/* class c is words wbase[c] to wbase[c + 1] - 1 */
static const char *words[512];

/*
 * Sentence patterns: a lower-case letter is an optional word of its class,
 * ',' a comma after the word before. D det, A adj, N noun, V verb, R adverb,
 * P preposition, C conjunction (the first two, when and if, start clauses).
 */
static const char *const pattern[] = {
	"DaNVDaNPDN",
	"DNPDNVDNR",
	"CDNVDN,DANVDaN",
	"R,DNVDNPDAN",
	"DaNVDNPDNPDaN",
	"DNVDN,CDNVDaNr",
	"DANrVDNPDN",
	"DNPDaNVDN,CDNV",
};
#define NPATTERN	(sizeof pattern / sizeof pattern[0])

struct para {
	uint32_t *t;
	size_t n, cap;
};

struct body {
	struct para *p;
	size_t n, cap;
};

struct page {
	char title[128], slug[128];
	struct body b;
};

enum { HARBOR, LANTERN, MEADOW, NOTES, NSITE };
static const char *const sitename[NSITE] = { "harbor", "lantern", "meadow", "notes" };

static long long npages = 40, nqueries = 6;
static uint64_t seed = 1;
static const char *dir;
static char *tmppath;		/* removed if we die */
static struct obuf labels, qlabels;

static _Noreturn void
die(const char *what)
{
	weprintf("%s:", escname(what));
	if (tmppath)
		unlink(tmppath);
	exit(1);
}

static void
seedrng(struct rng *g, unsigned kind, long long index)
{
	g->s = rng_mix(rng_mix(seed ^ (uint64_t)kind << 56) + (uint64_t)index);
}

static uint32_t
below(struct rng *g, uint32_t n)
{
	return (uint32_t)(((rng_next(g) >> 32) * n) >> 32);
}

static void
initwords(void)
{
	size_t c, i, n = 0;

	for (c = 0; c < NCLASS; c++) {
		wbase[c] = n;
		for (i = 0; i < wclass[c].n; i++)
			words[n++] = wclass[c].w[i];
	}
	wbase[NCLASS] = n;
}

static uint32_t
drawclass(struct rng *g, int c)
{
	return (uint32_t)(wbase[c] + below(g, (uint32_t)wclass[c].n));
}

/* Any word but a conjunction: a substitution or an insertion of an edit. */
static uint32_t
drawany(struct rng *g)
{
	return below(g, (uint32_t)wbase[CONJ]);
}

static void
addtok(struct para *p, uint32_t t)
{
	egrow(&p->t, &p->cap, p->n + 1, sizeof *p->t);
	p->t[p->n++] = t;
}

static void
sentence(struct rng *g, struct para *p)
{
	const char *s;
	int c;

	for (s = pattern[below(g, NPATTERN)]; *s; s++) {
		switch (*s) {
		case ',':
			p->t[p->n - 1] |= T_COMMA;
			continue;
		case 'a': case 'r':
			if (below(g, 2))
				continue;
			break;
		}
		switch (*s) {
		case 'D': c = DET; break;
		case 'A': case 'a': c = ADJ; break;
		case 'N': c = NOUN; break;
		case 'V': c = VERB; break;
		case 'R': case 'r': c = ADV; break;
		case 'P': c = PREP; break;
		default: c = CONJ; break;
		}
		/* a clause starts with when or if; and/but join two */
		addtok(p, c == CONJ ? (uint32_t)wbase[CONJ] + below(g, 2) : drawclass(g, c));
	}
	p->t[p->n - 1] |= T_END;
}

static struct para *
newpara(struct body *b, size_t at)
{
	egrow(&b->p, &b->cap, b->n + 1, sizeof *b->p);
	memmove(b->p + at + 1, b->p + at, (b->n - at) * sizeof *b->p);
	b->n++;
	memset(b->p + at, 0, sizeof *b->p);
	return b->p + at;
}

static void
genpara(struct rng *g, struct para *p, uint32_t minsent, uint32_t maxsent)
{
	uint32_t i, n = minsent + below(g, maxsent - minsent + 1);

	for (i = 0; i < n; i++)
		sentence(g, p);
}

static void
freebody(struct body *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->p[i].t);
	free(b->p);
	memset(b, 0, sizeof *b);
}

static void
copybody(struct body *to, const struct body *from)
{
	size_t i;

	freebody(to);
	for (i = 0; i < from->n; i++) {
		struct para *p = newpara(to, i);

		p->n = p->cap = from->p[i].n;
		p->t = ereallocarray(NULL, p->n, sizeof *p->t);
		memcpy(p->t, from->p[i].t, p->n * sizeof *p->t);
	}
}

static size_t
nwords(const struct body *b)
{
	size_t i, n = 0;

	for (i = 0; i < b->n; i++)
		n += b->p[i].n;
	return n;
}

/*
 * Original page i: a title of an adjective and a noun, an introduction and
 * four to seven paragraphs. Page i + 1 of a neighbour pair (part 2) has
 * the title and introduction of page i and a body of its own.
 */
static void
genpage(long long i, int part2, struct page *pg)
{
	static const char *const lead[] = {
		"Configuring the", "About the", "Troubleshooting the", "Using the",
		"Inside the", "Replacing the", "Tuning the", "Moving the",
	};
	struct rng g, tg;
	const char *a, *n, *l;
	size_t j, np;

	seedrng(&g, 1, i);
	seedrng(&tg, 2, part2 ? i - 1 : i);
	l = lead[below(&tg, sizeof lead / sizeof lead[0])];
	a = adjw[below(&tg, wclass[ADJ].n)];
	n = nounw[below(&tg, wclass[NOUN].n)];
	snprintf(pg->title, sizeof pg->title, "%s %s %s%s", l, a, n, part2 ? ", part 2" : "");
	snprintf(pg->slug, sizeof pg->slug, "%03lld-%s-%s%s", i, a, n, part2 ? "-part-2" : "");
	freebody(&pg->b);
	genpara(&tg, newpara(&pg->b, 0), 2, 3);
	np = 4 + below(&g, 4);
	for (j = 1; j <= np; j++)
		genpara(&g, newpara(&pg->b, j), 3, 5);
}

/* Edit rate percent of the words: each a substitution, insertion or deletion. */
static void
editwords(struct rng *g, struct body *b, unsigned rate)
{
	size_t n = nwords(b), k, e, w, i;
	struct para *p;

	e = n * rate / 100;
	if (e == 0)
		e = 1;
	for (k = 0; k < e; k++) {
		w = below(g, (uint32_t)nwords(b));
		for (i = 0; w >= b->p[i].n; i++)
			w -= b->p[i].n;
		p = b->p + i;
		switch (below(g, 3)) {
		case 0:
			p->t[w] = (p->t[w] & ~UINT32_C(0xffff)) | drawany(g);
			break;
		case 1:
			addtok(p, 0);
			memmove(p->t + w + 1, p->t + w, (p->n - 1 - w) * sizeof *p->t);
			p->t[w] = drawany(g);
			break;
		default:
			if (p->n < 2)
				break;
			/* the stop or comma after it goes to the word before */
			if (w > 0)
				p->t[w - 1] |= p->t[w] & (T_END | T_COMMA);
			memmove(p->t + w, p->t + w + 1, (p->n - 1 - w) * sizeof *p->t);
			p->n--;
			break;
		}
	}
}

static void
reorder(struct rng *g, struct body *b)
{
	struct para t;
	size_t i, j;

	/* a rotation by at least one: every paragraph moves */
	j = 1 + below(g, (uint32_t)b->n - 1);
	for (i = 0; i < j; i++) {
		t = b->p[0];
		memmove(b->p, b->p + 1, (b->n - 1) * sizeof *b->p);
		b->p[b->n - 1] = t;
	}
}

static void
truncate_(struct rng *g, struct body *b)
{
	size_t keep = nwords(b) * (50 + below(g, 31)) / 100, i;

	for (i = 0; i < b->n && keep >= b->p[i].n; i++)
		keep -= b->p[i].n;
	if (i == b->n)
		return;
	if (keep == 0) {
		while (b->n > i)
			free(b->p[--b->n].t);
		return;
	}
	b->p[i].n = keep;
	b->p[i].t[keep - 1] = (b->p[i].t[keep - 1] & ~T_COMMA) | T_END;
	while (b->n > i + 1)
		free(b->p[--b->n].t);
}

/* The paragraph as text, wrapped at WRAP columns, each line after indent. */
static void
puttext(struct obuf *o, const struct para *p, const char *indent)
{
	size_t i, col = 0, len;
	const char *w;
	int cap = 1;
	char *at;

	for (i = 0; i < p->n; i++) {
		w = words[T_WORD(p->t[i])];
		len = strlen(w) + ((p->t[i] & (T_END | T_COMMA)) != 0);
		if (col && col + 1 + len > WRAP) {
			obuf_addc(o, '\n');
			col = 0;
		}
		if (col == 0) {
			obuf_add(o, indent, strlen(indent));
			col = strlen(indent);
		} else {
			obuf_addc(o, ' ');
			col++;
		}
		/* the word's place after obuf_add, which may move the buffer */
		obuf_add(o, w, strlen(w));
		at = o->p + o->n - strlen(w);
		if (cap)
			*at -= 'a' - 'A';
		if (p->t[i] & T_END)
			obuf_addc(o, '.');
		else if (p->t[i] & T_COMMA)
			obuf_addc(o, ',');
		col += len;
		cap = (p->t[i] & T_END) != 0;
	}
	obuf_addc(o, '\n');
}

static void
puts_(struct obuf *o, const char *s)
{
	obuf_add(o, s, strlen(s));
}

static void
putbody(struct obuf *o, const struct body *b, const char *indent)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		puts_(o, indent);
		puts_(o, "<p>\n");
		puttext(o, b->p + i, indent);
		puts_(o, indent);
		puts_(o, "</p>\n");
	}
}

static void
putlinks(struct obuf *o, const char *const *l, const char *pre, const char *post)
{
	for (; *l; l++) {
		puts_(o, pre);
		puts_(o, "<a href=\"/");
		puts_(o, l[0][0] == 'A' ? "about" : "topic");
		puts_(o, ".html\">");
		puts_(o, *l);
		puts_(o, "</a>");
		puts_(o, post);
	}
}

static void
harbor(struct obuf *o, const struct page *pg)
{
	static const char *const nav[] = {
		"Getting started", "Installing Harbor", "Storage classes",
		"Volumes and snapshots", "Replication", "Access control",
		"Command reference", "Release notes", "About this manual", NULL,
	};

	puts_(o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	puts_(o, pg->title);
	puts_(o, " - Harbor documentation</title>\n"
	    "<link rel=\"stylesheet\" href=\"/static/harbor.css\">\n</head>\n<body>\n"
	    "<div id=\"cookie-banner\" class=\"cookie-banner\">\n"
	    "<p>This site uses cookies to remember your preferences and to count\n"
	    "visits. By continuing to read the documentation you accept them.</p>\n"
	    "<button>Accept</button> <a href=\"/privacy.html\">Privacy notice</a>\n</div>\n"
	    "<header class=\"site-header\">\n<a class=\"logo\" href=\"/\">Harbor</a>\n"
	    "<span class=\"tagline\">Documentation for the Harbor storage service, version 4</span>\n"
	    "<form class=\"search\" action=\"/search\"><input name=\"q\" placeholder=\"Search the manual\">"
	    "<button>Search</button></form>\n</header>\n"
	    "<nav class=\"sidebar\">\n<h3>Contents</h3>\n<ul>\n");
	putlinks(o, nav, "<li>", "</li>\n");
	puts_(o, "</ul>\n</nav>\n<main>\n<article>\n<h1>");
	puts_(o, pg->title);
	puts_(o, "</h1>\n");
	putbody(o, &pg->b, "");
	puts_(o, "</article>\n</main>\n<footer class=\"site-footer\">\n"
	    "<p>Copyright 2026 the Harbor authors. This manual may be copied and\n"
	    "changed freely; the service itself is under the ISC licence.</p>\n"
	    "<p>Found a mistake in this page? Tell us on the mailing list, or send\n"
	    "a patch against the manual sources.</p>\n"
	    "<p><a href=\"/about.html\">About</a> | <a href=\"/contact.html\">Contact</a> |\n"
	    "<a href=\"/privacy.html\">Privacy</a></p>\n</footer>\n</body>\n</html>\n");
}

static void
lantern(struct obuf *o, const struct page *pg, long long i)
{
	static const char *const menu[] = {
		"Home", "Archive", "Tags", "About", NULL,
	};
	static const char *const recent[] = {
		"Why small tools win", "A week without a database",
		"Notes from the hardware shelf", "The printer that would not print",
		"Backups are a habit", NULL,
	};
	static const char *const month[] = {
		"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December",
	};
	char date[64];

	snprintf(date, sizeof date, "%s %lld, %lld", month[i % 12], 1 + i * 7 % 28, 2019 + i % 7);
	puts_(o, "<html>\n<head><title>Lantern Notes :: ");
	puts_(o, pg->title);
	puts_(o, "</title></head>\n<body bgcolor=\"#ffffff\">\n<div id=\"top\">\n"
	    "<div class=\"topbar\"><a href=\"/\">Lantern Notes</a> - a weblog about small\n"
	    "systems, old machines and the people who keep them running</div>\n<div id=\"menu\">");
	putlinks(o, menu, " ", "");
	puts_(o, "</div>\n</div>\n<div id=\"wrap\">\n<div class=\"post\">\n<div class=\"post-title\"><h2>");
	puts_(o, pg->title);
	puts_(o, "</h2></div>\n<div class=\"post-meta\">Posted on ");
	puts_(o, date);
	puts_(o, " by Ada in <a href=\"/tags/systems\">Systems</a></div>\n<div class=\"post-body\">\n");
	putbody(o, &pg->b, "  ");
	puts_(o, "</div>\n<div class=\"share\">Share this post: <a href=\"#\">Mail</a> "
	    "<a href=\"#\">Feed</a></div>\n<div class=\"comments\">\n<h3>2 comments</h3>\n"
	    "<div class=\"comment\"><b>Rob</b> wrote: Thanks, this saved me an afternoon of\n"
	    "guessing. Please write more about the hardware side.</div>\n"
	    "<div class=\"comment\"><b>Mei</b> wrote: We did the same at work, and it\n"
	    "held up well for two years.</div>\n</div>\n</div>\n"
	    "<div class=\"sidebar\">\n<h3>Recent posts</h3>\n<ul>\n");
	putlinks(o, recent, "<li>", "</li>\n");
	puts_(o, "</ul>\n<h3>About</h3>\n<p>Lantern Notes is written by Ada, who fixes\n"
	    "computers for a living and writes about it in the evenings.</p>\n</div>\n</div>\n"
	    "<div class=\"footer\">Lantern Notes, written by hand since 2019. All rights\n"
	    "reserved. Powered by a shell script and a text editor.</div>\n"
	    "<div class=\"cookie-notice\">We use one cookie to count readers; nothing is sold\n"
	    "or shared. <a href=\"#\">OK</a></div>\n</body>\n</html>\n");
}

static void
meadow(struct obuf *o, const struct page *pg)
{
	static const char *const topics[] = {
		"Accounts and sign-in", "Networking", "Storage", "Printing",
		"Backups", "Security", "Upgrades", "About the knowledge base", NULL,
	};

	puts_(o, "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">\n<html>\n<head>\n"
	    "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\">\n<title>");
	puts_(o, pg->title);
	puts_(o, " | Meadow Knowledge Base</title>\n</head>\n<body>\n<table width=\"100%\" cellpadding=\"4\">\n"
	    "<tr><td colspan=\"2\" class=\"banner\">Meadow Knowledge Base<br>Answers for the people\n"
	    "who run the Meadow office network</td></tr>\n"
	    "<tr>\n<td class=\"toc\" valign=\"top\" width=\"20%\">\n<b>Topics</b><br>\n");
	putlinks(o, topics, "", "<br>\n");
	puts_(o, "</td>\n<td class=\"content\" valign=\"top\">\n<div class=\"breadcrumbs\">"
	    "<a href=\"/\">Home</a> &gt; <a href=\"/kb/\">Articles</a> &gt; ");
	puts_(o, pg->title);
	puts_(o, "</div>\n<h1>");
	puts_(o, pg->title);
	puts_(o, "</h1>\n<div class=\"article-text\">\n");
	putbody(o, &pg->b, "");
	puts_(o, "</div>\n<div class=\"feedback\">Was this article helpful? <a href=\"#\">Yes</a>\n"
	    "<a href=\"#\">No</a></div>\n</td>\n</tr>\n"
	    "<tr><td colspan=\"2\" class=\"footer\">Meadow IT desk, room 4. Call extension 200\n"
	    "for anything this knowledge base does not answer. Last reviewed this spring.</td></tr>\n"
	    "</table>\n<div class=\"consent\">This knowledge base stores a cookie with your\n"
	    "language. <a href=\"#\">Fine</a></div>\n</body>\n</html>\n");
}

static void
notes(struct obuf *o, const struct page *pg)
{
	size_t i;

	puts_(o, pg->title);
	obuf_addc(o, '\n');
	for (i = strlen(pg->title); i > 0; i--)
		obuf_addc(o, '=');
	obuf_addc(o, '\n');
	for (i = 0; i < pg->b.n; i++) {
		obuf_addc(o, '\n');
		puttext(o, pg->b.p + i, "");
	}
	puts_(o, "\n-- \nNotes archive, plain text edition. Send corrections to the\n"
	    "maintainers; every page is also on the web.\n");
}

static void
render(struct obuf *o, int site, const struct page *pg, long long i)
{
	o->n = 0;
	switch (site) {
	case HARBOR: harbor(o, pg); break;
	case LANTERN: lantern(o, pg, i); break;
	case MEADOW: meadow(o, pg); break;
	default: notes(o, pg); break;
	}
}

/* mkdir dir/sub, where sub is "", "docs", "docs/SITE" or such. */
static void
makedir(const char *sub, const char *site, const char *leaf)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof path, "%s%s%s%s%s%s%s", dir, *sub ? "/" : "", sub,
	    site ? "/" : "", site ? site : "", leaf ? "/" : "", leaf ? leaf : "") >= sizeof path) {
		errno = ENAMETOOLONG;
		die(dir);
	}
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		die(path);
}

/* Write the bytes of o to dir/name: a temporary file, then a rename. */
static void
writefile(const char *name, const struct obuf *o)
{
	char path[PATH_MAX];
	FILE *fp;
	int fd;
	mode_t mask;

	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path ||
	    (size_t)snprintf(tmppath, PATH_MAX, "%s/.gendocs.XXXXXX", dir) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		die(dir);
	}
	if ((fd = mkstemp(tmppath)) < 0) {
		tmppath[0] = '\0';
		die(path);
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(fp = fdopen(fd, "w")))
		die(tmppath);
	errno = 0;
	if ((o->n && fwrite(o->p, 1, o->n, fp) != o->n) || fflush(fp) == EOF || ferror(fp)) {
		fclose(fp);
		die(tmppath);
	}
	if (fclose(fp) == EOF)
		die(tmppath);
	if (rename(tmppath, path) < 0)
		die(path);
}

static void
label(struct obuf *l, const char *a, const char *b, int yes, const char *kind)
{
	puts_(l, a);
	obuf_addc(l, '\t');
	puts_(l, b);
	obuf_addc(l, '\t');
	obuf_addc(l, yes ? '1' : '0');
	obuf_addc(l, '\t');
	puts_(l, kind);
	obuf_addc(l, '\n');
}

static int
sitefor(long long i)
{
	/* a neighbour pair (roles 4 and 5) shares its site */
	if (i % 10 == 5 && i > 1)
		i--;
	return (int)((i - 1) % NSITE);
}

static void
pathof(char *s, size_t n, const char *top, int site, const char *sub, const char *slug)
{
	snprintf(s, n, "%s/%s/%s%s%s", top, sitename[site], sub, slug,
	    site == NOTES ? ".txt" : ".html");
}

static void
gendocs(void)
{
	static const char *const pname[] = {
		"template", "text", "edit", "reorder", NULL, NULL, "padd", "pdel",
		"trunc", "neg-edit40",
	};
	struct page pg = { 0 }, var = { 0 };
	struct obuf o = { 0 };
	struct rng g;
	char id[PATH_MAX], vid[PATH_MAX], last[NSITE][PATH_MAX];
	long long i, k, j;
	int site, vsite, role;
	uint32_t base;

	tmppath = emalloc(PATH_MAX);
	tmppath[0] = '\0';
	initwords();
	makedir("", NULL, NULL);
	makedir("docs", NULL, NULL);
	for (site = 0; site < NSITE; site++) {
		makedir("docs", sitename[site], NULL);
		makedir("docs", sitename[site], "archive");
		last[site][0] = '\0';
	}

	for (i = 1; i <= npages; i++) {
		role = (int)(i % 10);
		site = sitefor(i);
		genpage(i, role == 5 && i > 1, &pg);
		pathof(id, sizeof id, "docs", site, "", pg.slug);
		render(&o, site, &pg, i);
		writefile(id, &o);

		/* hard negatives: the page before in the same site, or its neighbour */
		if (role == 5 && i > 1)
			label(&labels, last[site], id, 0, "neg-neighbour");
		else if (last[site][0] && site != NOTES)
			label(&labels, last[site], id, 0, "neg-template");
		strcpy(last[site], id);

		if (!pname[role])
			continue;
		seedrng(&g, 3, i);
		copybody(&var.b, &pg.b);
		strcpy(var.title, pg.title);
		strcpy(var.slug, pg.slug);
		vsite = site;
		switch (role) {
		case 0:
			vsite = site == NOTES ? HARBOR : (site + 1) % NOTES;
			break;
		case 1:
			vsite = site == NOTES ? LANTERN : NOTES;
			break;
		case 2:
			editwords(&g, &var.b, 1 + below(&g, 10));
			break;
		case 3:
			reorder(&g, &var.b);
			break;
		case 6:
			genpara(&g, newpara(&var.b, 1 + below(&g, (uint32_t)var.b.n)), 3, 5);
			break;
		case 7:
			j = 1 + below(&g, (uint32_t)var.b.n - 1);
			free(var.b.p[j].t);
			memmove(var.b.p + j, var.b.p + j + 1, (var.b.n - j - 1) * sizeof *var.b.p);
			var.b.n--;
			break;
		case 8:
			truncate_(&g, &var.b);
			break;
		case 9:
			editwords(&g, &var.b, 40);
			break;
		}
		pathof(vid, sizeof vid, "docs", vsite, vsite == site ? "archive/" : "", var.slug);
		render(&o, vsite, &var, i);
		writefile(vid, &o);
		label(&labels, id, vid, role != 9, pname[role]);
	}

	/* queries: an edited copy in another template, a text version, a new page */
	if (nqueries)
		makedir("new", NULL, NULL);
	/* roles 1 and 2 copy pages from base on: distinct pages until they wrap */
	seedrng(&g, 4, 0);
	base = below(&g, (uint32_t)npages);
	for (j = 1; j <= nqueries; j++) {
		seedrng(&g, 4, j);
		role = (int)(j % 3);
		k = role ? 1 + (long long)((base + (uint64_t)(j - 1) / 3) % (uint64_t)npages) :
		    npages + j;
		genpage(k, role && k % 10 == 5 && k > 1, &pg);
		site = sitefor(k);
		pathof(id, sizeof id, "docs", site, "", pg.slug);
		vsite = role == 1 ? (site == NOTES ? MEADOW : (site + 2) % NOTES) :
		    role == 2 ? (site == NOTES ? HARBOR : NOTES) : (int)below(&g, NOTES);
		if (role == 1)
			editwords(&g, &pg.b, 3);
		snprintf(vid, sizeof vid, "new/%s-%s%s", sitename[vsite], pg.slug,
		    vsite == NOTES ? ".txt" : ".html");
		render(&o, vsite, &pg, k);
		writefile(vid, &o);
		if (role)
			label(&qlabels, vid, id, 1, role == 1 ? "query-edit" : "query-text");
	}

	writefile("labels.tsv", &labels);
	writefile("new-labels.tsv", &qlabels);
	freebody(&pg.b);
	freebody(&var.b);
	free(o.p);
	free(labels.p);
	free(qlabels.p);
	free(tmppath);
	tmppath = NULL;
}

static _Noreturn void
usage(void)
{
	fprintf(stderr, "usage: %s [-n pages] [-q queries] [-s seed] dir\n", argv0);
	exit(2);
}

int
main(int argc, char *argv[])
{
	int c;

	argv0 = "gendocs";
	opterr = 0;	/* one line on a usage error: ours */
	while ((c = getopt(argc, argv, "n:q:s:")) != -1) {
		switch (c) {
		case 'n':
			npages = estrtonum(optarg, 1, MAXPAGES, "pages");
			break;
		case 'q':
			nqueries = estrtonum(optarg, 0, MAXQUERIES, "queries");
			break;
		case 's':
			seed = (uint64_t)estrtonum(optarg, 0, LLONG_MAX, "seed");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		usage();
	dir = argv[0];
	gendocs();
	return 0;
}
