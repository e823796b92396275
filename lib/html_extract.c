/*
 * html_extract.c: the main content of a parsed page (html.h, html_int.h).
 *
 * In the manner of Readability: each paragraph (an element with text of its
 * own) scores by its length and commas, less its links; the score goes to
 * the paragraph's parent and, divided, to four more ancestors, which start
 * from a weight by tag and by class, id and role hints. The best candidate,
 * corrected by its ancestors, is the content; siblings that score near it
 * or are long paragraphs with few links join it. Inside, blocks that look
 * like boilerplate (mostly links, little text, form controls, negative
 * hints) are dropped, innermost first. When the result is short, the steps
 * run again with fewer of the pruning rules; of short results, the
 * strictest that keeps half of the most text wins.
 */
#include <stdlib.h>
#include <string.h>

#include "html_int.h"

/* The pruning rules, dropped one by one while the result is short. */
enum { STRIP = 1, WEIGHT = 2, CLEAN = 4 };
/* With LINKS, no block goes for its links: they are the content (an index). */
enum { LINKS = 8 };

enum { MINTEXT = 500 };		/* a result shorter than this tries again */

/* An ancestor with this many times the good text takes over, below this link density. */
#define EXPAND 2.0f
#define EXPANDLD 0.25f
/* An ancestor that scores this share of the best, with this many times its good text, takes over. */
#define NEARSCORE 0.75f
#define NEARGOOD 1.25f
/* A choice with under 1 / BOXSHARE of the page's good text gives way to the page. */
#define BOXSHARE 4.0f

struct xs {
	uint32_t tlen, llen, commas;	/* text of the subtree: length, in links, commas */
	uint32_t olen, ollen, ocommas;	/* text of its own paragraph */
	uint32_t np, nli, nimg, ninput, nemb;
	uint32_t good;			/* text of its paragraphs with few links */
	uint32_t blink;			/* link text of its paragraphs (not cells) that are mostly links */
	float score;
	uint8_t cand;
};

/* The stats of element i (its ordinal is kept in its off). */
#define X(i) x[h->n[i].off]

static int
isws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/*
 * Is an element of tag t a box of its own (a block, a cell)? The hint of
 * an inline element (a span, a link) drops nothing: it is a word of its
 * paragraph, as a highlighter's "comment" span or a heading's
 * "headerlink" is.
 */
static int
isbox(enum tag t)
{
	return (html_tagprops[t] & (TP_BLOCK | TP_CELL)) != 0;
}

/* bytekind[c]: 1 for white space, 2 for a comma, else 0 */
static const unsigned char bytekind[256] = {
	[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['\f'] = 1, [','] = 2,
};

/*
 * Length of the text of text node i with white space runs counted as one;
 * commas. Each try of the extraction asks again: counted once a page.
 */
static uint32_t
textlen(const struct html *h, uint32_t i, uint32_t *commas)
{
	const unsigned char *s = (const unsigned char *)h->text.p + h->n[i].off;
	uint32_t len = 0, c = 0, *tl = h->tl + 2 * (size_t)i;
	size_t k, n = h->n[i].len;
	unsigned inws = 1, kind;

	if (tl[0] != UINT32_MAX) {
		*commas = tl[1];
		return tl[0];
	}
	for (k = 0; k < n; k++) {
		kind = bytekind[s[k]];
		/* a white space byte counts if it ends a run of others */
		len += kind == 1 ? !inws : 1;
		c += kind == 2;
		inws = kind == 1;
	}
	tl[0] = len;
	tl[1] = *commas = c;
	return len;
}

static int
tagweight(enum tag t)
{
	switch (t) {
	case T_DIV:
	case T_ARTICLE:
	case T_MAIN:
		return 5;
	case T_PRE:
	case T_TD:
	case T_BLOCKQUOTE:
		return 3;
	case T_ADDRESS:
	case T_OL:
	case T_UL:
	case T_DL:
	case T_DD:
	case T_DT:
	case T_LI:
	case T_FORM:
		return -3;
	case T_H1:
	case T_H2:
	case T_H3:
	case T_H4:
	case T_H5:
	case T_H6:
	case T_TH:
		return -5;
	default:
		return 0;
	}
}

/* The tag's weight when below 0 (lists, forms, headings), else 0. */
static int
negweight(enum tag t)
{
	int w = tagweight(t);

	return w < 0 ? w : 0;
}

static float
density(const struct xs *x)
{
	return x->tlen ? (float)x->llen / (float)x->tlen : 0;
}

static void
addstats(struct xs *to, const struct xs *x)
{
	to->tlen += x->tlen;
	to->llen += x->llen;
	to->commas += x->commas;
	to->np += x->np;
	to->nli += x->nli;
	to->nimg += x->nimg;
	to->ninput += x->ninput;
	to->nemb += x->nemb;
	to->good += x->good;
	to->blink += x->blink;
}

static void
substats(struct xs *to, const struct xs *x)
{
	to->tlen -= x->tlen;
	to->llen -= x->llen;
	to->commas -= x->commas;
	to->np -= x->np;
	to->nli -= x->nli;
	to->nimg -= x->nimg;
	to->ninput -= x->ninput;
	to->nemb -= x->nemb;
	to->good -= x->good;
	to->blink -= x->blink;
}

/* Does the text of subtree i read like a sentence (". " or a final '.')? */
static int
sentence(const struct html *h, uint32_t i)
{
	const struct hnode *nd;
	const char *s;
	uint32_t j, k;

	for (j = i; j < h->n[i].end; j++) {
		nd = &h->n[j];
		if (!(nd->flags & HF_TEXT))
			continue;
		s = h->text.p + nd->off;
		for (k = 0; k + 1 < nd->len; k++)
			if (s[k] == '.' && isws((unsigned char)s[k + 1]))
				return 1;
		for (k = nd->len; k > 0 && isws((unsigned char)s[k - 1]); k--)
			;
		if (k > 0 && s[k - 1] == '.')
			return 1;
	}
	return 0;
}

static void
stats(struct html *h, struct xs *x, int flags)
{
	const struct hnode *nd;
	struct xs *xi, tx;
	uint32_t i, p, c;
	enum tag t;

	memset(x, 0, (h->ne + 1) * sizeof *x);
	h->skip[0] = 0;
	/* STRIP: subtrees with negative hints are gone before scoring */
	for (i = 1; i < h->nn; i++) {
		nd = &h->n[i];
		h->skip[i] = h->skip[nd->parent];
		if ((flags & STRIP) && !(nd->flags & HF_TEXT) && nd->hint < 0 &&
		    isbox((enum tag)nd->tag))
			h->skip[i] = 1;
	}
	/* children come after their parent: sums from the last node back */
	for (i = (uint32_t)h->nn; i-- > 1;) {
		nd = &h->n[i];
		if (h->skip[i])
			continue;
		t = (enum tag)nd->tag;
		if (nd->flags & HF_TEXT) {
			memset(&tx, 0, sizeof tx);
			xi = &tx;
			xi->tlen = textlen(h, i, &c);
			xi->commas = c;
			if (nd->flags & HF_INLINK)
				xi->llen = xi->tlen;
			p = h->para[i];
			X(p).olen += xi->tlen;
			X(p).ollen += xi->llen;
			X(p).ocommas += c;
		} else {
			xi = &X(i);
			xi->np += t == T_P;
			xi->nli += t == T_LI;
			xi->nimg += t == T_IMG;
			xi->ninput += t == T_INPUT || t == T_SELECT || t == T_BUTTON;
			xi->nemb += t == T_EMBED || t == T_OBJECT;
			/* its own paragraph is complete: its text follows it */
			if (xi->olen >= 25 && xi->ollen * 10 < xi->olen * 3)
				xi->good += xi->olen - xi->ollen;
			/* a cell of links is a column of its table, which goes by its links */
			if (xi->ollen * 2 >= xi->olen && !(html_tagprops[t] & TP_CELL))
				xi->blink += xi->ollen;
		}
		addstats(&X(nd->parent), xi);
	}
}

static void
score(struct html *h, struct xs *x, int flags)
{
	const struct hnode *nd;
	uint32_t i, a;
	float ps, own;
	int level;

	for (i = 1; i < h->nn; i++) {
		nd = &h->n[i];
		if (h->skip[i] || (nd->flags & HF_TEXT) || X(i).olen < 25)
			continue;
		own = X(i).olen ? 1 - (float)X(i).ollen / (float)X(i).olen : 1;
		ps = (1 + (float)X(i).ocommas + (float)(X(i).olen / 100 < 3 ? X(i).olen / 100 : 3)) * own;
		/* a paragraph beside blocks, or in a table cell, is the element's own */
		a = (nd->flags & HF_BLOCKKID) || (html_tagprops[nd->tag] & TP_CELL) ? i : nd->parent;
		for (level = 0; level < 5; level++, a = h->n[a].parent) {
			if (!X(a).cand) {
				X(a).cand = 1;
				X(a).score = (float)tagweight((enum tag)h->n[a].tag) +
				    ((flags & WEIGHT) ? h->n[a].hint : 0);
			}
			X(a).score += ps / (level == 0 ? 1 : level == 1 ? 2 : (float)level * 3);
			if (a == 0)
				break;
		}
	}
	for (i = 0; i <= h->ne; i++)
		if (x[i].cand)
			x[i].score *= 1 - density(&x[i]);
}

static void
initcand(const struct html *h, struct xs *x, uint32_t i, int flags)
{
	if (X(i).cand)
		return;
	X(i).cand = 1;
	X(i).score = (float)tagweight((enum tag)h->n[i].tag) + ((flags & WEIGHT) ? h->n[i].hint : 0);
}

#define NOANC UINT32_MAX	/* no ancestor (an enum is an int) */

/* The parent of element a; of an element in <body>, the page (0) only if rootok; else NOANC. */
static uint32_t
up(const struct html *h, uint32_t a, int rootok)
{
	if (a == 0 || (h->n[a].parent == 0 && !rootok))
		return NOANC;
	return h->n[a].parent;
}

/* The best candidate, corrected by its ancestors; 0: the page (or none). */
static uint32_t
choose(const struct html *h, struct xs *x, int flags)
{
	uint32_t best[5] = { 0 }, top, a, c;
	size_t nb = 0, k, j, alts;
	float last, threshold;
	uint32_t i;
	/*
	 * The page itself (node 0) is a candidate while the blocks with
	 * negative hints are gone: its paragraphs are the content when they
	 * lie in <body> itself (groff's, texi2html's pages), not in a box.
	 * A later try keeps them, menus and footers with them: not there.
	 */
	int rootok = (flags & STRIP) != 0;

	for (i = rootok ? 0 : 1; i < h->nn; i++) {
		if ((h->n[i].flags & HF_TEXT) || !X(i).cand)
			continue;
		for (k = 0; k < nb && X(best[k]).score >= X(i).score; k++)
			;
		if (k >= 5)
			continue;
		if (nb < 5)
			nb++;
		memmove(best + k + 1, best + k, (nb - 1 - k) * sizeof best[0]);
		best[k] = i;
	}
	/*
	 * A declared main content with text wins over a choice outside it:
	 * on a short page the site's menu can outscore a line of text.
	 */
	for (i = 1; i < h->nn; i++)
		if ((h->n[i].flags & HF_MAIN) && !h->skip[i] && X(i).tlen > 0)
			break;
	if (i < h->nn && (nb == 0 || best[0] == 0 || (!(best[0] >= i && best[0] < h->n[i].end) &&
	    !(i >= best[0] && i < h->n[best[0]].end)))) {
		initcand(h, x, i, flags);
		return i;
	}
	if (nb == 0)
		return 0;
	top = best[0];
	/* several good candidates under one ancestor: the article is split */
	for (a = up(h, top, rootok); a != NOANC; a = up(h, a, rootok)) {
		alts = 0;
		/* (for the page, which holds all, those outside the best) */
		for (j = 1; j < nb; j++)
			if (X(best[j]).score >= 0.75f * X(top).score &&
			    best[j] >= a && best[j] < h->n[a].end &&
			    (a != 0 || best[j] < top || best[j] >= h->n[top].end))
				alts++;
		if (alts >= 2 && nb >= 3) {
			top = a;
			initcand(h, x, top, flags);
			break;
		}
	}
	/*
	 * A parent that scores better holds more of the article; so does an
	 * ancestor that scores near the best with more of its good text (the
	 * rest of the article in sections around the best): a few words
	 * moved must not tip a choice between close scores.
	 */
	last = X(top).score;
	threshold = last / 3;
	for (a = h->n[top].parent; a != 0; a = h->n[a].parent) {
		if (!X(a).cand)
			continue;
		if (X(a).score < threshold)
			break;
		if (X(a).score > last || (X(a).score >= NEARSCORE * X(top).score &&
		    (float)X(a).good >= NEARGOOD * (float)X(top).good)) {
			top = a;
			break;
		}
		last = X(a).score;
	}
	/* an ancestor with much more good text holds the rest of the article */
	for (a = up(h, top, rootok); a != NOANC; a = up(h, a, rootok)) {
		if (density(&X(a)) > EXPANDLD)
			break;
		if ((float)X(a).good >= EXPAND * (float)X(top).good) {
			top = a;
			initcand(h, x, top, flags);
		}
	}
	/*
	 * A choice with under a quarter of the page's good text is a box
	 * beside the content (a site's tagline above a short page): the
	 * page is the content. (Not under half: an article among teasers
	 * with excerpts may hold a third.)
	 */
	if (rootok && top != 0 && (float)X(top).good * BOXSHARE < (float)X(0).good)
		return 0;
	/*
	 * The page declares its main content (<main>, role=main,
	 * itemprop=articleBody) around the choice: the declaration holds the
	 * rest of it (a javadoc page's member lists, a Sphinx page's sections).
	 */
	for (a = h->n[top].parent; a != 0; a = h->n[a].parent)
		if (h->n[a].flags & HF_MAIN) {
			top = a;
			initcand(h, x, top, flags);
			break;
		}
	/*
	 * A cell that holds under half of its table's text out of links is
	 * one column of a table (of members, of packages): the table is the
	 * content. A layout table's text cell holds most of it and stays.
	 */
	if (html_tagprops[h->n[top].tag] & TP_CELL) {
		for (a = h->n[top].parent; a != 0 && h->n[a].tag != T_TABLE; a = h->n[a].parent)
			;
		if (a != 0 && 2 * X(top).tlen < X(a).tlen - X(a).llen) {
			top = a;
			initcand(h, x, top, flags);
		}
	}
	/* an only child stands for its parent */
	for (a = h->n[top].parent; a != 0; a = h->n[top].parent) {
		for (k = 0, c = h->n[a].first; c && k < 2; c = h->n[c].next)
			if (!(h->n[c].flags & HF_TEXT))
				k++;
		if (k != 1)
			break;
		top = a;
		initcand(h, x, top, flags);
	}
	return top;
}

/* Mark the children of top's parent that do not join top as skipped. */
static void
siblings(const struct html *h, struct xs *x, uint32_t top)
{
	uint32_t p = h->n[top].parent, s;
	float threshold = X(top).score * 0.2f, bonus, ld;
	int keep;

	if (threshold < 10)
		threshold = 10;
	for (s = h->n[p].first; s; s = h->n[s].next) {
		keep = s == top;
		if (!keep && !(h->n[s].flags & HF_TEXT) && !h->skip[s]) {
			bonus = h->n[s].klass && h->n[s].klass == h->n[top].klass ?
			    X(top).score * 0.2f : 0;
			if (X(s).cand && X(s).score + bonus >= threshold)
				keep = 1;
			else if (h->n[s].tag == T_P || ((html_tagprops[h->n[s].tag] & TP_BLOCK) &&
			    !(h->n[s].flags & HF_BLOCKKID))) {
				ld = density(&X(s));
				if (X(s).tlen > 80 && ld < 0.25f)
					keep = 1;
				else if (X(s).tlen > 0 && X(s).tlen <= 80 && ld == 0 &&
				    sentence(h, s))
					keep = 1;
			}
		}
		if (!keep)
			h->skip[s] = 1;
	}
}

static int
isheading(enum tag t)
{
	return t >= T_H1 && t <= T_H6;
}

/*
 * Is element i one of a run of siblings of its class (the lines of a code
 * listing, the rows of a record)? Text between them does not break it.
 */
static int
inrun(const struct html *h, uint32_t i)
{
	uint32_t k = h->n[i].klass, p = h->n[i].parent, c;
	int n;

	if (k == 0)
		return 0;
	/* the next element, then the one before: a text node may sit between */
	for (c = h->n[i].next, n = 0; c && (h->n[c].flags & HF_TEXT) && n < 2; c = h->n[c].next, n++)
		;
	if (c && h->n[c].klass == k)
		return 1;
	/* a subtree ends where the next begins: the sibling before i ends at i */
	for (c = i, n = 0; n < 2 && c - 1 != p; n++) {
		for (c = c - 1; h->n[c].parent != p; c = h->n[c].parent)
			;
		if (!(h->n[c].flags & HF_TEXT))
			return h->n[c].klass == k;
	}
	return 0;
}

/* Should element i, inside the content, go? */
static int
boilerplate(const struct html *h, const struct xs *x, uint32_t i, int flags)
{
	const struct hnode *nd = &h->n[i];
	const struct xs *xi = &X(i);
	enum tag t = (enum tag)nd->tag;
	int weight = (flags & WEIGHT) ? nd->hint : 0, list;
	float ld = density(xi);

	switch (t) {
	case T_NAV:
	case T_ASIDE:
	case T_FOOTER:
	case T_BUTTON:
	case T_SELECT:
	case T_INPUT:
	case T_OBJECT:
	case T_EMBED:
		return 1;
	default:
		break;
	}
	if (isheading(t))
		return weight < 0 || (!(flags & LINKS) && ld > 0.5f);
	if ((flags & WEIGHT) && nd->hint < 0 && xi->tlen < MINTEXT && isbox(t))
		return 1;
	if (!(flags & CLEAN))
		return 0;
	switch (t) {
	case T_FORM:
	case T_FIELDSET:
	case T_TABLE:
	case T_UL:
	case T_OL:
	case T_DIV:
	case T_SECTION:
	case T_HEADER:
		break;
	default:
		return 0;
	}
	/*
	 * A low score: not for a block that is mostly text of few links. A
	 * list's own weight does not count: a list of short items (a class's
	 * ancestry, a list of signatures) is no boilerplate for being a list;
	 * a list of links goes by its links below.
	 */
	if (weight + (xi->cand ? xi->score - (float)negweight(t) : 0) < 0 &&
	    xi->good * 2 < xi->tlen)
		return 1;
	if (xi->commas >= 10)
		return 0;
	list = t == T_UL || t == T_OL;
	if (xi->nimg > 1 && (float)xi->np / (float)xi->nimg < 0.5f)
		return 1;
	if (!list && xi->nli > xi->np + 100)
		return 1;
	if (xi->ninput > xi->np / 3)
		return 1;
	if (!list && xi->tlen < 25 && (xi->nimg == 0 || xi->nimg > 2) &&
	    (xi->llen > 0 || !inrun(h, i)))
		return 1;
	/*
	 * Links inside paragraphs of text are no sign of boilerplate; nor
	 * are cells of links in a table whose rows hold text (a table of
	 * packages, of methods): a table goes when most of its text is links.
	 */
	if (!(flags & LINKS)) {
		if (!list && weight < 25 && ld > 0.2f && (ld > 0.5f ||
		    (t != T_TABLE && xi->blink * 5 > xi->tlen)))
			return 1;
		if (list && ld > 0.5f)
			return 1;
		if (weight >= 25 && ld > 0.5f)
			return 1;
	}
	if ((xi->nemb == 1 && xi->tlen < 75) || xi->nemb > 1)
		return 1;
	return 0;
}

/* What the drops inside an element took from it, not yet subtracted: see clean. */
struct lost {
	uint32_t node;
	struct xs sum;
};

/*
 * Drop the boilerplate inside [from, to) but top, innermost first. What a
 * drop takes from the stats of its ancestors is subtracted lazily, so
 * that each element is touched once whatever the depth: the walk goes
 * from the end back, and what the subtree of an element not yet reached
 * has lost waits on a stack (its entries are ancestors of the walk's
 * element, the nearest on top); reached, the element takes it off and
 * passes it on to its parent, with its own stats if it goes too.
 */
static void
clean(struct html *h, struct xs *x, uint32_t from, uint32_t to, uint32_t top, int flags,
    struct xs *lost)
{
	struct lost *st = h->lost;
	struct xs sum;
	size_t sp = 0;
	uint32_t i, p;
	int has;

	for (i = to; i-- > from;) {
		if (h->n[i].flags & HF_TEXT)
			continue;
		if ((has = sp > 0 && st[sp - 1].node == i))
			sum = st[--sp].sum;
		if (!h->skip[i] && i != top) {
			if (has)
				substats(&X(i), &sum);
			if (boilerplate(h, x, i, flags)) {
				h->skip[i] = 1;
				if (has)
					addstats(&sum, &X(i));
				else
					sum = X(i);
				has = 1;
			}
		}
		if (!has)
			continue;
		p = h->n[i].parent;
		if (sp > 0 && st[sp - 1].node == p) {
			addstats(&st[sp - 1].sum, &sum);
		} else {
			egrow(&h->lost, &h->lostcap, sp + 1, sizeof *st);
			st = h->lost;
			st[sp].node = p;
			st[sp++].sum = sum;
		}
	}
	/* what is left is what the parent of the region lost */
	if (sp > 0)
		*lost = st[sp - 1].sum;
	else
		memset(lost, 0, sizeof *lost);
}

/* One try with the rules in flags: the text it gives, appended to out. */
static void
attempt(struct html *h, struct xs *x, int flags, struct obuf *out)
{
	uint32_t top, p, from, to, c, k, text = 0;
	struct xs lost;

	stats(h, x, flags);
	score(h, x, flags);
	top = choose(h, x, flags);
	if (top == 0) {
		p = 0;
		from = 1;
		to = (uint32_t)h->nn;
	} else {
		siblings(h, x, top);
		p = h->n[top].parent;
		from = p + 1;
		to = h->n[p].end;
	}
	for (c = h->n[p].first; c; c = h->n[c].next)
		if (!h->skip[c])
			text += h->n[c].flags & HF_TEXT ? textlen(h, c, &k) : X(c).tlen;
	clean(h, x, from, to, top, flags, &lost);
	/*
	 * The blocks of links dropped held a third of the content's text:
	 * they are the content (an index page, a table of contents), not
	 * a box beside it. Only on the first try, and when the text kept
	 * is not short (a short result tries again without the dropping).
	 */
	if ((flags & STRIP) && (flags & CLEAN) && !(flags & LINKS) && lost.llen * 3 > text &&
	    text - lost.tlen >= MINTEXT) {
		attempt(h, x, flags | LINKS, out);
		return;
	}
	html_render(h, from, to, h->skip, out);
}

/*
 * Does the heading say the block it opens is boilerplate ("Related
 * stories", "3 Comments", "Most read")? Only short headings that start
 * with such words count.
 */
static int
boilerheading(const struct html *h, uint32_t i)
{
	static const char *const words[] = {
		"related", "read more", "more stories", "more from", "more news",
		"most read", "most popular", "popular", "trending", "recommended",
		"you may also like", "you might also like", "comments", "comment",
		"leave a reply", "leave a comment", "responses", "replies",
		"share", "tags", "advertisement", "sponsored", "newsletter",
		"sign up", "subscribe", "follow us", "about the author", "recent posts",
		"latest news", "top stories", "see also",
	};
	char v[64];
	const struct hnode *nd;
	const char *s;
	size_t n = 0, k, j;
	uint32_t t;

	for (t = i + 1; t < h->n[i].end; t++) {
		nd = &h->n[t];
		if (!(nd->flags & HF_TEXT))
			continue;
		s = h->text.p + nd->off;
		for (k = 0; k < nd->len; k++) {
			if (n == sizeof v)
				return 0;	/* long: a heading of the article */
			if (isws((unsigned char)s[k]) || s[k] == ':') {
				if (n > 0 && v[n - 1] != ' ')
					v[n++] = ' ';
				continue;
			}
			/* "3 Comments": the number goes */
			if (s[k] >= '0' && s[k] <= '9' && (n == 0 || v[n - 1] == ' ' ||
			    (v[n - 1] >= '0' && v[n - 1] <= '9'))) {
				if (n > 0 && v[n - 1] == ' ')
					n--;
				continue;
			}
			v[n++] = (char)(s[k] >= 'A' && s[k] <= 'Z' ? s[k] + 32 : s[k]);
		}
	}
	while (n > 0 && v[n - 1] == ' ')
		n--;
	for (j = 0; j < n && v[j] == ' '; j++)
		;
	for (k = 0; k < sizeof words / sizeof words[0]; k++) {
		size_t wl = strlen(words[k]);
		if (n - j >= wl && !memcmp(v + j, words[k], wl) &&
		    (n - j == wl || v[j + wl] == ' '))
			return 1;
	}
	return 0;
}

/* Headings of boilerplate boxes: the box, or the heading alone, gets a negative hint. */
static void
hintheadings(struct html *h)
{
	uint32_t i, p, c;
	enum tag pt;

	for (i = 1; i < h->nn; i++) {
		if (!isheading((enum tag)h->n[i].tag) || h->n[i].end - i > 16 ||
		    !boilerheading(h, i))
			continue;
		p = h->n[i].parent;
		for (c = h->n[p].first; c && (h->n[c].flags & HF_TEXT); c = h->n[c].next)
			;
		pt = (enum tag)h->n[p].tag;
		if (c == i && p != 0 && pt != T_ARTICLE && pt != T_MAIN)
			h->n[p].hint = (int8_t)(h->n[p].hint > -50 ? h->n[p].hint - 50 : -100);
		else
			h->n[i].hint = (int8_t)(h->n[i].hint > -75 ? h->n[i].hint - 25 : -100);
	}
}

/* Does some element have a hint below 0 (neg) or other than 0? */
static int
hashint(const struct html *h, int neg)
{
	uint32_t i;

	for (i = 1; i < h->nn; i++)
		if (neg ? h->n[i].hint < 0 : h->n[i].hint != 0)
			return 1;
	return 0;
}

void
html_extract(struct html *h, struct obuf *out)
{
	static const int tries[] = { STRIP | WEIGHT | CLEAN, WEIGHT | CLEAN, CLEAN, 0 };
	enum { NTRIES = sizeof tries / sizeof tries[0] };
	char shorts[NTRIES][MINTEXT];	/* the text of the short tries */
	struct xs *x;
	size_t start = out->n, best, maxlen = 0, k, len[NTRIES];
	uint32_t i;
	int same[NTRIES] = { 0 };

	if (h->ne + 1 > h->xcap) {
		free(h->x);
		h->x = ereallocarray(NULL, h->ne + 1, sizeof *x);
		h->xcap = h->ne + 1;
	}
	if (h->nn > h->skipcap) {
		free(h->skip);
		free(h->para);
		h->skip = emalloc(h->nn);
		h->para = ereallocarray(NULL, h->nn, sizeof *h->para);
		h->skipcap = h->nn;
	}
	if (2 * h->nn > h->tlcap) {
		free(h->tl);
		h->tl = ereallocarray(NULL, h->nn, 2 * sizeof *h->tl);
		h->tlcap = 2 * h->nn;
	}
	memset(h->tl, 0xff, 2 * h->nn * sizeof *h->tl);	/* none known */
	/* the paragraph of each node: itself if a block or cell, else its parent's */
	h->para[0] = 0;
	for (i = 1; i < h->nn; i++)
		h->para[i] = html_tagprops[h->n[i].tag] & (TP_BLOCK | TP_CELL) ?
		    i : h->para[h->n[i].parent];
	x = h->x;
	hintheadings(h);
	/* a rule with no hint to act on makes a try the same as the one before */
	same[1] = !hashint(h, 1);
	same[2] = !hashint(h, 0);
	for (k = 0; k < NTRIES; k++) {
		if (same[k]) {
			len[k] = len[k - 1];
			memcpy(shorts[k], shorts[k - 1], len[k]);
			continue;
		}
		out->n = start;
		attempt(h, x, tries[k], out);
		if (out->n - start >= MINTEXT)
			return;
		if ((len[k] = out->n - start) > 0)
			memcpy(shorts[k], out->p + start, len[k]);
		if (len[k] > maxlen)
			maxlen = len[k];
	}
	/* all short: the strictest try that keeps half of the most text */
	for (best = 0; best < k - 1 && len[best] * 2 < maxlen; best++)
		;
	out->n = start;
	obuf_add(out, shorts[best], len[best]);
}
