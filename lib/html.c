/* html.c: the tolerant HTML parser and the text renderer (html.h, html_int.h). */
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#include "html_entities.h"
#include "html_int.h"
#include "swar.h"

_Static_assert(TAG_N <= 128, "nopen has a slot per tag");

const unsigned char html_tagprops[TAG_N] = {
#define T(id, name, props) props,
#include "html_tags.h"
#undef T
};

static const char *const tagnames[TAG_N] = {
#define T(id, name, props) name,
#include "html_tags.h"
#undef T
};

static int
isws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static int
isalpha_(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* Do the n bytes at s start with the lowercase word w, ignoring case? */
static int
startsci(const char *s, size_t n, const char *w)
{
	size_t i;

	for (i = 0; w[i]; i++)
		if (i >= n || lower((unsigned char)s[i]) != w[i])
			return 0;
	return 1;
}

/* ---- Sniffing ---- */

int
html_sniff(const char *s, size_t n)
{
	static const char *const pat[] = {
		"<!doctype html", "<html", "<head", "<script", "<iframe", "<h1",
		"<div", "<font", "<table", "<a", "<style", "<title", "<b",
		"<body", "<br", "<p", "<!--",
	};
	size_t i = 0, k, len;

	if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	else if (n >= 2 && (memcmp(s, "\xFF\xFE", 2) == 0 || memcmp(s, "\xFE\xFF", 2) == 0))
		return 1;	/* UTF-16: not text the other tools read anyway */
	while (i < n && isws((unsigned char)s[i]))
		i++;
	for (k = 0; k < sizeof pat / sizeof pat[0]; k++) {
		len = strlen(pat[k]);
		if (!startsci(s + i, n - i, pat[k]))
			continue;
		/* a comment needs nothing after it; the tags a space or '>' */
		if (!strcmp(pat[k], "<!--") || (i + len < n &&
		    (s[i + len] == ' ' || s[i + len] == '>')))
			return 1;
	}
	/* an XML declaration then an html root */
	if (startsci(s + i, n - i, "<?xml")) {
		for (k = i; k + 5 < n && k < i + 1024; k++)
			if (s[k] == '<' && startsci(s + k, n - k, "<html"))
				return 1;
	}
	return 0;
}

/* ---- Charsets ---- */

/* Longest charset label taken (RFC 2978 names have at most 40 characters). */
enum { MAXLABEL = 40 };

/* Can c be in a charset label? No iconv suffix ("//IGNORE"), no path. */
static int
labelchar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
	    c == '_' || c == '.' || c == ':' || c == '(' || c == ')' || c == '+';
}

/*
 * The charset a label names, as iconv knows it, or NULL for UTF-8: a
 * label with other characters than a name has, or longer than MAXLABEL,
 * is none. Per the WHATWG encoding standard, latin1 and ASCII labels
 * mean windows-1252, and a meta naming UTF-16 means UTF-8.
 */
static const char *
charsetname(const char *s, size_t n, char *buf, size_t bufsz)
{
	static const char *const w1252[] = {
		"windows-1252", "cp1252", "x-cp1252", "iso-8859-1", "iso8859-1",
		"iso_8859-1", "iso88591", "latin1", "l1", "us-ascii", "ascii",
		"ansi_x3.4-1968", "cp819", "ibm819", "iso-ir-100", "csisolatin1",
	};
	size_t i, k;

	while (n && (isws((unsigned char)*s) || *s == '"' || *s == '\''))
		s++, n--;
	for (k = 0; k < n && !isws((unsigned char)s[k]) && s[k] != '"' &&
	    s[k] != '\'' && s[k] != ';'; k++)
		;
	if (k == 0 || k > MAXLABEL || k >= bufsz)
		return NULL;
	for (i = 0; i < k; i++)
		if (!labelchar(buf[i] = (char)lower((unsigned char)s[i])))
			return NULL;
	buf[k] = '\0';
	/* UTF-7, which the standard has no label for, is none too */
	if (!strcmp(buf, "utf-8") || !strcmp(buf, "utf8") || !strncmp(buf, "utf-16", 6) ||
	    !strcmp(buf, "unicode-1-1-utf-8") || !strcmp(buf, "utf-7") || !strcmp(buf, "utf7") ||
	    !strcmp(buf, "unicode-1-1-utf-7") || !strcmp(buf, "csunicode11utf7"))
		return NULL;
	for (i = 0; i < sizeof w1252 / sizeof w1252[0]; i++)
		if (!strcmp(buf, w1252[i]))
			return "WINDOWS-1252";
	if (!strcmp(buf, "gb2312") || !strcmp(buf, "x-gbk") || !strcmp(buf, "gb_2312-80"))
		return "GBK";
	if (!strcmp(buf, "x-sjis") || !strcmp(buf, "ms_kanji") || !strcmp(buf, "sjis"))
		return "SHIFT_JIS";
	return buf;
}

/*
 * The next attribute in the tag's attribute bytes *sp..e (which hold no
 * '>' outside quotes): its name and its value ("" for none). 0 when no
 * attribute is left.
 */
static int
nextattr(const char **sp, const char *e, const char **name, size_t *nl,
    const char **val, size_t *vl)
{
	const char *s = *sp, *ns, *v = "";
	char q;

	while (s < e && (isws((unsigned char)*s) || *s == '/'))
		s++;
	ns = s;
	while (s < e && !isws((unsigned char)*s) && *s != '=' && (*s != '/' || s == ns))
		s++;
	if (s == ns)
		return 0;
	*name = ns;
	*nl = (size_t)(s - ns);
	*vl = 0;
	while (s < e && isws((unsigned char)*s))
		s++;
	if (s < e && *s == '=') {
		s++;
		while (s < e && isws((unsigned char)*s))
			s++;
		if (s < e && (*s == '"' || *s == '\'')) {
			q = *s++;
			v = s;
			while (s < e && *s != q)
				s++;
			*vl = (size_t)(s - v);
			if (s < e)
				s++;
		} else {
			v = s;
			while (s < e && !isws((unsigned char)*s))
				s++;
			*vl = (size_t)(s - v);
		}
	}
	*val = v;
	*sp = s;
	return 1;
}

/* The value of attribute name in the tag's attribute bytes s..e, or NULL. */
static const char *
attrval(const char *s, const char *e, const char *name, size_t *vlen)
{
	size_t len = strlen(name), nl;
	const char *ns, *v;

	while (nextattr(&s, e, &ns, &nl, &v, vlen))
		if (nl == len && startsci(ns, nl, name))
			return v;
	return NULL;
}

/*
 * The charset a <meta> names, or NULL: one in the first 1024 bytes, or
 * later in the head (before <body>, within the first 64 kB).
 */
static const char *
prescan(const char *s, size_t n, char *buf, size_t bufsz)
{
	const char *p = s, *e = s + (n < 65536 ? n : 65536), *te, *v, *c;
	size_t vl, k;
	int body = 0;

	while ((p = memchr(p, '<', (size_t)(e - p)))) {
		/*
		 * a comment's meta is no meta: the standard's prescan skips
		 * to the first "-->", whose dashes may be those of "<!--"
		 */
		if (startsci(p, (size_t)(e - p), "<!--")) {
			for (c = p + 2; e - c >= 3 && memcmp(c, "-->", 3); c++)
				;
			if (e - c < 3)
				return NULL;
			p = c + 3;
			continue;
		}
		if (startsci(p, (size_t)(e - p), "<body"))
			body = 1;
		if (p - s >= 1024 && body)
			return NULL;
		if (!startsci(p, (size_t)(e - p), "<meta") || p + 5 >= e ||
		    !(isws((unsigned char)p[5]) || p[5] == '/')) {
			p++;
			continue;
		}
		/* the tag may run past the first 1024 bytes */
		if (!(te = memchr(p, '>', n - (size_t)(p - s))))
			return NULL;
		if ((v = attrval(p + 5, te, "charset", &vl)))
			return charsetname(v, vl, buf, bufsz);
		if ((v = attrval(p + 5, te, "content", &vl)) && attrval(p + 5, te, "http-equiv", &k)) {
			for (c = v; c + 7 <= v + vl; c++)
				if (startsci(c, (size_t)(v + vl - c), "charset")) {
					c += 7;
					while (c < v + vl && isws((unsigned char)*c))
						c++;
					if (c < v + vl && *c == '=')
						return charsetname(c + 1, (size_t)(v + vl - c - 1), buf, bufsz);
				}
		}
		p = te;
	}
	return NULL;
}

static void
addfffd(struct obuf *o)
{
	obuf_add(o, "\xEF\xBF\xBD", 3);
}

/*
 * Does the converter read ASCII letters, digits and the bytes of a tag as
 * themselves? A charset that does not (UTF-16, UTF-32, UCS-2, UCS-4,
 * wchar_t, EBCDIC) cannot be the page's, whose meta was read in ASCII.
 */
static int
readsascii(iconv_t cd)
{
	static const char probe[] = "<meta charset=\"abcdefghijklmnopqrstuvwxyz"
	    " ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789-_.:()\" />";
	char out[4 * sizeof probe], *in = (char *)probe, *o = out;
	size_t inleft = sizeof probe - 1, outleft = sizeof out;
	int same;

	same = iconv(cd, &in, &inleft, &o, &outleft) != (size_t)-1 && inleft == 0 &&
	    (size_t)(o - out) == sizeof probe - 1 && !memcmp(out, probe, sizeof probe - 1);
	iconv(cd, NULL, NULL, NULL, NULL);
	return same;
}

/*
 * Convert with iconv; each byte it cannot convert becomes U+FFFD. -1 when
 * iconv does not know the charset or it does not read ASCII as ASCII.
 */
static int
conviconv(const char *cs, const char *s, size_t n, struct obuf *o)
{
	iconv_t cd;
	char *in = (char *)s, *outp;
	size_t inleft = n, outleft, r;

	if ((cd = iconv_open("UTF-8", cs)) == (iconv_t)-1)
		return -1;
	if (!readsascii(cd)) {
		iconv_close(cd);
		return -1;
	}
	o->n = 0;
	while (inleft > 0) {
		outp = obuf_room(o, inleft * 2 + 16);
		outleft = o->cap - o->n;
		r = iconv(cd, &in, &inleft, &outp, &outleft);
		o->n = (size_t)(outp - o->p);
		if (r != (size_t)-1)
			break;
		if (errno == E2BIG)
			continue;
		/* EILSEQ, or EINVAL: a sequence cut at the end */
		addfffd(o);
		in++;
		inleft--;
		iconv(cd, NULL, NULL, NULL, NULL);
	}
	iconv_close(cd);
	return 0;
}

/* UTF-16 (BOM already skipped) to UTF-8; an unpaired surrogate is U+FFFD. */
static void
convutf16(const unsigned char *s, size_t n, int be, struct obuf *o)
{
	size_t i;
	unsigned long c, d;

	o->n = 0;
	for (i = 0; i + 1 < n; i += 2) {
		c = be ? (unsigned long)s[i] << 8 | s[i + 1] : (unsigned long)s[i + 1] << 8 | s[i];
		if (c >= 0xD800 && c <= 0xDBFF && i + 3 < n) {
			d = be ? (unsigned long)s[i + 2] << 8 | s[i + 3] :
			    (unsigned long)s[i + 3] << 8 | s[i + 2];
			if (d >= 0xDC00 && d <= 0xDFFF) {
				c = 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00);
				i += 2;
			}
		}
		if (c >= 0xD800 && c <= 0xDFFF)
			c = 0xFFFD;
		o->n += utf8put(obuf_room(o, 4), c);
	}
	if (i < n)
		addfffd(o);
}

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t
utf8len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return n >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF) {
		if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
			return 0;
		if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F))
			return 0;
		return 3;
	}
	if (c >= 0xF0 && c <= 0xF4) {
		if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
		    (s[3] & 0xC0) != 0x80)
			return 0;
		if ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] > 0x8F))
			return 0;
		return 4;
	}
	return 0;
}

/* Offset of the first invalid UTF-8 byte, or n. */
static size_t
utf8valid(const unsigned char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		/* eight ASCII bytes at a time */
		while (i + 8 <= n) {
			uint64_t w;
			memcpy(&w, s + i, 8);
			if (w & 0x8080808080808080ULL)
				break;
			i += 8;
		}
		if (i >= n)
			break;
		if (!(k = utf8len(s + i, n - i)))
			return i;
		i += k;
	}
	return n;
}

/* s with each invalid byte replaced by U+FFFD, from offset bad on. */
static void
utf8fix(const char *s, size_t n, size_t bad, struct obuf *o)
{
	size_t i, k;

	o->n = 0;
	obuf_add(o, s, bad);
	for (i = bad; i < n; i += k) {
		if ((k = utf8len((const unsigned char *)s + i, n - i))) {
			obuf_add(o, s + i, k);
		} else {
			addfffd(o);
			k = 1;
		}
	}
}

/* ---- Tree building ---- */

/*
 * The tag names in an open-addressing table, by a hash of their bytes
 * zero-padded to 16: a name is found with one or two compares, where a
 * binary search of the sorted names took seven strcmp calls.
 */
enum { TAGSLOTS = 256 };
_Static_assert(TAG_N <= TAGSLOTS / 2, "the tag table is at most half full");

struct tagkey {
	uint64_t w[2];
};

static unsigned char tagslot[TAGSLOTS];	/* a tag, 0 (T_UNKNOWN) for none */
static struct tagkey tagkeys[TAG_N];
static int tagready;

static size_t
tagnamehash(const struct tagkey *k)
{
	return (size_t)((k->w[0] * 0x9e3779b97f4a7c15u ^ k->w[1]) * 0xbf58476d1ce4e5b9u >> 56);
}

static void
taginit(void)
{
	size_t t, i;

	for (t = 1; t < TAG_N; t++) {
		memset(&tagkeys[t], 0, sizeof tagkeys[t]);
		memcpy(tagkeys[t].w, tagnames[t], strlen(tagnames[t]));
		for (i = tagnamehash(&tagkeys[t]); tagslot[i]; i = (i + 1) % TAGSLOTS)
			;
		tagslot[i] = (unsigned char)t;
	}
	tagready = 1;
}

static enum tag
tagid(const char *s, size_t n)
{
	struct tagkey k = { { 0, 0 } };
	unsigned char *name = (unsigned char *)k.w;
	size_t i;
	int t;

	if (n >= sizeof k.w)
		return T_UNKNOWN;
	if (!tagready)
		taginit();
	/* a name ends at a NUL, as a C string does */
	for (i = 0; i < n && s[i]; i++)
		name[i] = (unsigned char)lower((unsigned char)s[i]);
	for (i = tagnamehash(&k); (t = tagslot[i]); i = (i + 1) % TAGSLOTS)
		if (tagkeys[t].w[0] == k.w[0] && tagkeys[t].w[1] == k.w[1])
			return (enum tag)t;
	return T_UNKNOWN;
}

static uint32_t
newnode(struct html *h, size_t parent_entry, enum tag t, unsigned flags)
{
	struct hopen *pe = &h->st[parent_entry];
	struct hnode *nd;
	uint32_t i;

	/* bounded memory: elements past the budget melt into their parent */
	if (!(flags & HF_TEXT) && h->nn >= h->maxnodes)
		return 0;
	if (h->nn >= UINT32_MAX - 1)
		eprintf("page has too many elements");
	egrow(&h->n, &h->ncap, h->nn + 1, sizeof *h->n);
	i = (uint32_t)h->nn++;
	nd = &h->n[i];
	memset(nd, 0, sizeof *nd);
	nd->parent = pe->node;
	nd->tag = (uint8_t)t;
	nd->flags = (uint8_t)flags;
	if (pe->last)
		h->n[pe->last].next = i;
	else
		h->n[pe->node].first = i;
	pe->last = i;
	if (!(flags & HF_TEXT) && (html_tagprops[t] & TP_BLOCK))
		h->n[pe->node].flags |= HF_BLOCKKID;
	return i;
}

/*
 * Make the nodes of open entry k and of its open ancestors that have none
 * yet; an element past the node budget melts into its parent (its host
 * becomes the parent's host).
 */
static void
materialize(struct html *h, size_t k)
{
	size_t j, hj, par;
	struct hopen *e;
	uint32_t i;

	hj = h->st[k].host;
	if (hj == 0 || h->st[hj].node)
		return;
	/* from the entry above the highest host that has a node */
	for (j = hj; j > 1; j--) {
		hj = h->st[j - 1].host;
		if (hj == 0 || h->st[hj].node)
			break;
	}
	for (; j <= k; j++) {
		e = &h->st[j];
		if (e->host != j) {
			/* follow a host that melted */
			e->host = h->st[e->host].host;
			continue;
		}
		if (e->node)
			continue;
		par = h->st[j - 1].host;
		if (!(i = newnode(h, par, (enum tag)e->tag, 0))) {
			e->host = (uint32_t)par;
			continue;
		}
		h->n[i].hint = e->hint;
		h->n[i].klass = e->klass;
		h->n[i].flags |= e->flags & HF_MAIN;
		e->node = i;
	}
}

static void
popto(struct html *h, size_t k)
{
	if (k == 0)
		return;
	for (; h->depth >= k; h->depth--)
		h->nopen[h->st[h->depth].tag]--;
}

/* Find the open element t from the top, stopping at one with properties stop. */
static size_t
findopen(const struct html *h, enum tag t, unsigned stop, int bound)
{
	size_t k;

	if (!h->nopen[t])
		return 0;
	for (k = h->depth; k > 0; k--) {
		if (h->st[k].tag == t)
			return k;
		if ((html_tagprops[h->st[k].tag] & stop) || (int)h->st[k].tag == bound)
			return 0;
	}
	return 0;
}

static int
isscopebound(enum tag t)
{
	return t == T_TABLE || t == T_TD || t == T_TH || t == T_CAPTION ||
	    t == T_HTML || t == T_TEMPLATE || t == T_MARQUEE || t == T_OBJECT ||
	    t == T_APPLET;
}

/* An open element t in scope (not behind a table or cell boundary). */
static size_t
inscope(const struct html *h, enum tag t)
{
	size_t k;

	if (!h->nopen[t])
		return 0;
	for (k = h->depth; k > 0; k--) {
		if (h->st[k].tag == t)
			return k;
		if (isscopebound((enum tag)h->st[k].tag))
			return 0;
	}
	return 0;
}

static int
isheading(enum tag t)
{
	return t >= T_H1 && t <= T_H6;
}

static int
has(const char *v, size_t n, const char *w)
{
	size_t wl = strlen(w), i;

	for (i = 0; i + wl <= n; i++)
		if (v[i] == w[0] && memcmp(v + i, w, wl) == 0)
			return 1;
	return 0;
}

static uint32_t
hashof(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h ? h : 1;
}

static int
isalnumc(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/*
 * The tokens of a class or id value, at most max: runs of letters and
 * digits, split where a lower case letter meets an upper case one. Their
 * starts go to ts, their lengths to tl; returns how many.
 */
static size_t
tokens(const char *s, size_t n, size_t *ts, size_t *tl, size_t max)
{
	size_t nt = 0, i, j;

	for (i = 0; i < n && nt < max;) {
		while (i < n && !isalnumc((unsigned char)s[i]))
			i++;
		if (i >= n)
			break;
		for (j = i + 1; j < n && isalnumc((unsigned char)s[j]) &&
		    !(s[j] >= 'A' && s[j] <= 'Z' && s[j - 1] >= 'a' && s[j - 1] <= 'z'); j++)
			;
		ts[nt] = i;
		tl[nt++] = j - i;
		i = j;
	}
	return nt;
}

/*
 * An id of min tokens or more is an anchor made from a heading ("the-
 * tools-organization", Sphinx's section ids), not a role: it gives no hint.
 * A section is a part of the text: two tokens are a slug there
 * ("security-headers").
 */
static int
isslug(const char *s, size_t n, size_t min)
{
	size_t ts[3], tl[3];

	return tokens(s, n, ts, tl, 3) >= min;
}

/* Is the token t of n bytes the word w, ignoring case? */
static int
tokeq(const char *t, size_t n, const char *w)
{
	size_t k;

	for (k = 0; k < n && w[k]; k++)
		if (lower((unsigned char)t[k]) != w[k])
			return 0;
	return k == n && !w[k];
}

/* Is w the token, its start, or (seven letters or more) its end? */
static int
tokmatch(const char *t, size_t n, const char *w)
{
	size_t wl = strlen(w), k;

	if (n < wl)
		return 0;
	for (k = 0; k < wl && lower((unsigned char)t[k]) == w[k]; k++)
		;
	if (k == wl)
		return 1;
	if (wl < 7)
		return 0;
	for (k = 0; k < wl && lower((unsigned char)t[n - wl + k]) == w[k]; k++)
		;
	return k == wl;
}

/*
 * The hint of a class or id value: words of navigation, ads and other
 * boilerplate count against, words of articles for. Values are matched by
 * their tokens (runs of letters and digits, split again where a lower case
 * letter meets an upper case one): a word counts when a token is the word
 * or starts with it ("nav" in navbar, "comment" in comments), and a word of
 * seven letters or more also when a token ends with it ("toolbar" in
 * maintoolbar). A word for glued to a word against counts against
 * ("mainmenu"). Never inside a token: "nav" is not in unavailable,
 * "rating" not in generating, "cta" not in expectations, "main" not in
 * domain.
 */
static int
hintscan(const char *s, size_t n)
{
	static const char *const neg[] = {
		"nav", "menu", "footer", "comment", "share", "sharing",
		"related", "breadcrumb", "cookie", "banner", "social", "widget",
		"advert", "sponsor", "promo", "masthead", "popup", "modal",
		"newsletter", "subscribe", "signup", "login", "pagination", "pager",
		"disqus", "outbrain", "taboola", "toolbar", "combx", "community",
		"remark", "rss", "shoutbox", "skip", "agegate", "recommend",
		"trending", "popular", "mostread", "tags", "follow",
		"byline", "dateline", "cta", "newsfeed",
		"consent", "gdpr", "header", "topbar", "hidden", "print", "rating",
		"reply", "subnav", "tools", "tweet", "facebook", "twitter",
	};
	/* two-token words: "most-read", "footnote-ref", "author-bio" */
	static const char *const neg2[][2] = {
		{ "most", "read" }, { "footnote", "ref" }, { "author", "bio" },
	};
	/* short words that are whole tokens only: "ad", not "adjust" */
	static const char *const negexact[] = { "ad", "ads", "tag", "meta" };
	static const char *const pos[] = {
		"article", "content", "main", "post", "entry", "body", "text",
		"story", "blog", "hentry", "page",
	};
	enum { NTOK = 32 };
	size_t ts[NTOK], tl[NTOK], nt, j, k, m, wl, rest;
	int isneg = 0, ispos = 0;

	nt = tokens(s, n, ts, tl, NTOK);
	for (k = 0; k < nt; k++) {
		for (j = 0; !isneg && j < sizeof neg / sizeof neg[0]; j++)
			isneg = tokmatch(s + ts[k], tl[k], neg[j]);
		for (j = 0; !isneg && j < sizeof negexact / sizeof negexact[0]; j++)
			isneg = tokeq(s + ts[k], tl[k], negexact[j]);
		for (j = 0; !isneg && k + 1 < nt && j < sizeof neg2 / sizeof neg2[0]; j++)
			isneg = tokeq(s + ts[k], tl[k], neg2[j][0]) &&
			    tokeq(s + ts[k + 1], tl[k + 1], neg2[j][1]);
		for (j = 0; !ispos && j < sizeof pos / sizeof pos[0]; j++) {
			if (!tokmatch(s + ts[k], tl[k], pos[j]))
				continue;
			/*
			 * A word of articles glued to one of boilerplate
			 * names the boilerplate ("mainmenu", "pagenav").
			 */
			wl = strlen(pos[j]);
			rest = tl[k] > wl && tokeq(s + ts[k], wl, pos[j]) ? tl[k] - wl : 0;
			for (m = 0; rest && m < sizeof neg / sizeof neg[0]; m++)
				if (tokmatch(s + ts[k] + wl, rest, neg[m]))
					break;
			if (rest && m < sizeof neg / sizeof neg[0])
				isneg = 1;
			else
				ispos = 1;
		}
	}
	return (isneg ? -25 : 0) + (ispos ? 25 : 0);
}

/*
 * hintscan, remembered: a page repeats a few class names thousands of times
 * (a highlighter's spans), and the hint depends on the value's bytes only.
 * hash is hashof(s, n), or 0 if not known yet.
 */
enum { HINTSLOTS = 512, HINTKEY = 46 };

static struct {
	unsigned char len;	/* 0: empty */
	signed char hint;
	char key[HINTKEY];
} hintcache[HINTSLOTS];

static int
hintof(const char *s, size_t n, uint32_t hash)
{
	size_t i;
	int hint;

	if (n == 0 || n > HINTKEY)
		return hintscan(s, n);
	i = (hash ? hash : hashof(s, n)) % HINTSLOTS;
	if (hintcache[i].len == n && !memcmp(hintcache[i].key, s, n))
		return hintcache[i].hint;
	hint = hintscan(s, n);
	hintcache[i].len = (unsigned char)n;
	hintcache[i].hint = (signed char)hint;
	memcpy(hintcache[i].key, s, n);
	return hint;
}


/* Does the style attribute hide the element? */
static int
stylehides(const char *s, size_t n)
{
	char v[512];
	size_t i, k = 0;

	for (i = 0; i < n && k < sizeof v - 1; i++)
		if (!isws((unsigned char)s[i]))
			v[k++] = (char)lower((unsigned char)s[i]);
	return has(v, k, "display:none") || has(v, k, "visibility:hidden");
}

enum { A_CLASS, A_ID, A_ROLE, A_HIDDEN, A_ARIAHIDDEN, A_STYLE, A_ITEMPROP, A_HREF, A_N };

struct attrs {
	const char *v[A_N];	/* the value, "" when none, NULL when absent */
	size_t n[A_N];
};

/* The attributes that matter, in one pass over the tag's bytes as..ae. */
static void
attrs(const char *s, const char *e, struct attrs *a)
{
	static const char *const names[A_N] = {
		"class", "id", "role", "hidden", "aria-hidden", "style", "itemprop", "href",
	};
	static const unsigned char lens[A_N] = { 5, 2, 4, 6, 11, 5, 8, 4 };
	const char *ns, *v;
	size_t nl, vl, k;

	memset(a, 0, sizeof *a);
	while (nextattr(&s, e, &ns, &nl, &v, &vl))
		for (k = 0; k < A_N; k++)
			if (lens[k] == nl && startsci(ns, nl, names[k])) {
				/* the first of a name counts */
				if (!a->v[k]) {
					a->v[k] = v;
					a->n[k] = vl;
				}
				break;
			}
}

static void
starttag(struct html *h, enum tag t, const char *as, const char *ae)
{
	unsigned props = html_tagprops[t];
	struct hopen *e;
	struct attrs at;
	const char *v;
	size_t k, vl, top;
	uint32_t klass = 0;
	int hint = 0, hidden = 0, landmark = t == T_MAIN, link = 0;

	if (t == T_HTML || t == T_BODY || t == T_HEAD || t == T_FRAMESET)
		return;
	if ((props & TP_CLOSEP) && (k = inscope(h, T_P)))
		popto(h, k);
	if ((t == T_LI && h->nopen[T_LI]) || ((t == T_DD || t == T_DT) &&
	    h->nopen[T_DD] + h->nopen[T_DT])) {
		for (k = h->depth; k > 0; k--) {
			enum tag o = h->st[k].tag;
			if ((t == T_LI && o == T_LI) || (t != T_LI && (o == T_DD || o == T_DT))) {
				popto(h, k);
				break;
			}
			if ((html_tagprops[o] & TP_SPECIAL) && o != T_ADDRESS && o != T_DIV &&
			    o != T_P)
				break;
		}
	}
	if (isheading(t) && isheading((enum tag)h->st[h->depth].tag) && h->depth > 0)
		popto(h, h->depth);
	if (t == T_TR && (k = findopen(h, T_TR, 0, T_TABLE)))
		popto(h, k);
	if ((t == T_TD || t == T_TH) && h->nopen[T_TD] + h->nopen[T_TH]) {
		for (k = h->depth; k > 0; k--) {
			enum tag o = h->st[k].tag;
			if (o == T_TABLE || o == T_TR)
				break;
			if (o == T_TD || o == T_TH) {
				popto(h, k);
				break;
			}
		}
	}
	if ((t == T_OPTION || t == T_OPTGROUP) && h->st[h->depth].tag == T_OPTION)
		popto(h, h->depth);
	if (t == T_A && (k = findopen(h, T_A, 0, T_TABLE)))
		popto(h, k);

	if (as < ae) {
		attrs(as, ae, &at);
		if (at.v[A_CLASS] && at.n[A_CLASS])
			klass = hashof(at.v[A_CLASS], at.n[A_CLASS]);
		if (at.v[A_CLASS])
			hint += hintof(at.v[A_CLASS], at.n[A_CLASS], klass);
		if (at.v[A_ID] && !isslug(at.v[A_ID], at.n[A_ID], t == T_SECTION ? 2 : 3))
			hint += hintof(at.v[A_ID], at.n[A_ID], 0);
		if ((v = at.v[A_ITEMPROP]) && has(v, at.n[A_ITEMPROP], "articleBody")) {
			hint += 25;
			landmark = 1;
		}
		if ((v = at.v[A_ROLE])) {
			vl = at.n[A_ROLE];
			landmark |= startsci(v, vl, "main");
			if (startsci(v, vl, "main") || startsci(v, vl, "article"))
				hint += 25;
			else if (startsci(v, vl, "navigation") || startsci(v, vl, "banner") ||
			    startsci(v, vl, "contentinfo") || startsci(v, vl, "complementary") ||
			    startsci(v, vl, "search") || startsci(v, vl, "menu") ||
			    startsci(v, vl, "dialog") || startsci(v, vl, "alert"))
				hint -= 50;
		}
		if (at.v[A_HIDDEN] || ((v = at.v[A_ARIAHIDDEN]) && startsci(v, at.n[A_ARIAHIDDEN], "true")) ||
		    ((v = at.v[A_STYLE]) && stylehides(v, at.n[A_STYLE])))
			hidden = 1;
		link = at.v[A_HREF] != NULL;
	}
	if (t == T_NAV || t == T_ASIDE || t == T_FOOTER)
		hint -= 50;
	else if (t == T_HEADER)
		hint -= 25;
	else if (t == T_MAIN || t == T_ARTICLE)
		hint += 25;
	if (hint > 100)
		hint = 100;
	if (hint < -100)
		hint = -100;

	top = h->depth;
	if (props & TP_VOID) {
		/* a node only for what shows or counts: br, hr, img, input, embed */
		if (hidden || (h->st[top].flags & HF_HIDDEN) || !(props & (TP_KEEP | TP_BLOCK)))
			return;
		materialize(h, top);
		newnode(h, h->st[top].host, t, 0);
		return;
	}
	if (top >= HTML_MAXDEPTH) {
		h->overflow++;
		return;
	}
	e = &h->st[++h->depth];
	e->tag = (uint8_t)t;
	h->nopen[t]++;
	e->flags = (uint8_t)(h->st[top].flags & (HF_INLINK | HF_PRE | HF_HIDDEN));
	if (hidden)
		e->flags |= HF_HIDDEN;
	/* an <a> without href is an anchor, a place in the text: no link */
	if (t == T_A && link)
		e->flags |= HF_INLINK;
	if (t == T_PRE || t == T_LISTING)
		e->flags |= HF_PRE;
	if (landmark)
		e->flags |= HF_MAIN;
	e->hint = (int8_t)hint;
	e->klass = klass;
	e->node = 0;
	e->last = 0;
	/* inline elements melt into their parent unless they carry a hint */
	e->host = (props & (TP_BLOCK | TP_KEEP | TP_CELL)) || hint ? h->depth :
	    h->st[top].host;
}

static void
endtag(struct html *h, enum tag t)
{
	unsigned props = html_tagprops[t];
	size_t k;

	if (h->overflow) {
		h->overflow--;
		return;
	}
	if (t == T_BR) {
		starttag(h, T_BR, NULL, NULL);
		return;
	}
	if (t == T_HTML || t == T_BODY || t == T_HEAD)
		return;
	if (t == T_TD || t == T_TH || t == T_TR)
		k = findopen(h, t, 0, T_TABLE);
	else if (t == T_TABLE)
		k = findopen(h, t, 0, TAG_N);
	else if (t == T_LI && h->nopen[T_LI]) {
		for (k = h->depth; k > 0 && h->st[k].tag != T_LI; k--)
			if (h->st[k].tag == T_UL || h->st[k].tag == T_OL ||
			    isscopebound((enum tag)h->st[k].tag)) {
				k = 0;
				break;
			}
	}
	else if (isheading(t) && !(h->nopen[T_H1] + h->nopen[T_H2] + h->nopen[T_H3] +
	    h->nopen[T_H4] + h->nopen[T_H5] + h->nopen[T_H6]))
		k = 0;
	else if (isheading(t)) {
		/* any heading closes any heading */
		for (k = h->depth; k > 0 && !isheading((enum tag)h->st[k].tag); k--)
			if (isscopebound((enum tag)h->st[k].tag)) {
				k = 0;
				break;
			}
	} else if (t == T_LI)
		k = 0;
	else if (props & TP_SPECIAL)
		k = inscope(h, t);
	else
		k = findopen(h, t, TP_SPECIAL, TAG_N);
	if (k)
		popto(h, k);
	else if (t == T_P && !(h->st[h->depth].flags & HF_HIDDEN)) {
		/* </p> without a p is an empty p: a paragraph break */
		materialize(h, h->depth);
		newnode(h, h->st[h->depth].host, T_P, 0);
	}
}

/* Append the text s..e to the current element, references decoded. */
static void
addtext(struct html *h, const char *s, const char *e)
{
	struct hopen *top = &h->st[h->depth], *host;
	struct hnode *last;
	const char *amp;
	char ref[8];
	size_t k, rl, start;
	uint32_t i;
	int ws = 1;

	if (s == e || (top->flags & HF_HIDDEN))
		return;
	for (amp = s; amp < e && ws; amp++)
		ws = isws((unsigned char)*amp);
	host = &h->st[top->host];
	if (ws && !(top->flags & HF_PRE) && (!host->last ||
	    (host->node && h->n[host->last].tag != T_UNKNOWN &&
	    (html_tagprops[h->n[host->last].tag] & (TP_BLOCK | TP_VOID)))))
		return;		/* white space beside a block boundary shows nothing */
	materialize(h, h->depth);
	host = &h->st[top->host];
	start = h->text.n;
	while (s < e) {
		if (!(amp = memchr(s, '&', (size_t)(e - s))))
			amp = e;
		obuf_add(&h->text, s, (size_t)(amp - s));
		if (amp == e)
			break;
		if ((k = charref(amp + 1, (size_t)(e - amp - 1), 0, ref, &rl))) {
			/* a no-break space is a space to the tools that read the text */
			if (rl == 2 && !memcmp(ref, "\xC2\xA0", 2))
				obuf_addc(&h->text, ' ');
			else
				obuf_add(&h->text, ref, rl);
			s = amp + 1 + k;
		} else {
			obuf_addc(&h->text, '&');
			s = amp + 1;
		}
	}
	if (h->text.n > UINT32_MAX)
		eprintf("page text is too large");
	last = host->last ? &h->n[host->last] : NULL;
	if (last && (last->flags & HF_TEXT) && last->off + last->len == start &&
	    ((last->flags & (HF_INLINK | HF_PRE)) == (top->flags & (HF_INLINK | HF_PRE)) ||
	    h->nn >= h->maxnodes)) {
		last->len += (uint32_t)(h->text.n - start);
		return;
	}
	i = newnode(h, top->host, T_UNKNOWN, HF_TEXT | (top->flags & (HF_INLINK | HF_PRE)));
	h->n[i].off = (uint32_t)start;
	h->n[i].len = (uint32_t)(h->text.n - start);
}

/* The end of raw text started at s for element name (n bytes): its end tag. */
static const char *
rawend(const char *s, const char *e, const char *name, size_t n)
{
	const char *p = s;

	while ((p = memchr(p, '<', (size_t)(e - p)))) {
		if (p + 2 + n <= e && p[1] == '/' && startsci(p + 2, n, name) &&
		    (p + 2 + n == e || isws((unsigned char)p[2 + n]) || p[2 + n] == '>' ||
		    p[2 + n] == '/'))
			return p;
		p++;
	}
	return e;
}

/* The end of a tag's attributes at s: its '>' (quotes respected), or NULL. */
static const char *
tagend(const char *s, const char *e)
{
	char q;

	for (; s < e; s++) {
		if (*s == '>')
			return s;
		if (*s == '=') {
			s++;
			while (s < e && isws((unsigned char)*s))
				s++;
			if (s < e && (*s == '"' || *s == '\'')) {
				q = *s;
				if (!(s = memchr(s + 1, q, (size_t)(e - s - 1))))
					return NULL;
			} else {
				s--;
			}
		}
	}
	return NULL;
}

static void
parse(struct html *h, const char *s, size_t n)
{
	const char *p = s, *e = s + n, *lt, *q, *ns, *te;
	enum tag t;

	h->nn = 0;
	h->text.n = 0;
	h->depth = 0;
	h->overflow = 0;
	memset(h->nopen, 0, sizeof h->nopen);
	h->maxnodes = n / 16 + 65536;
	egrow(&h->n, &h->ncap, 1, sizeof *h->n);
	memset(&h->n[0], 0, sizeof h->n[0]);
	h->nn = 1;
	memset(&h->st[0], 0, sizeof h->st[0]);
	while (p < e) {
		if (!(lt = memchr(p, '<', (size_t)(e - p))))
			lt = e;
		addtext(h, p, lt);
		if (lt == e)
			break;
		p = lt;
		q = lt + 1;
		if (q < e && *q == '!') {
			if (e - q >= 3 && q[1] == '-' && q[2] == '-') {
				/* comment: <!--> and <!---> end at once */
				for (q += 3; q < e; q++)
					if (*q == '>' && (q == lt + 4 || q == lt + 5 ||
					    (q[-1] == '-' && q[-2] == '-') ||
					    (q[-1] == '!' && q[-2] == '-' && q[-3] == '-')))
						break;
				p = q < e ? q + 1 : e;
			} else if (e - q >= 8 && memcmp(q, "![CDATA[", 8) == 0) {
				for (q += 8; q + 2 < e && memcmp(q, "]]>", 3) != 0; q++)
					;
				p = q + 2 < e ? q + 3 : e;
			} else {
				q = memchr(q, '>', (size_t)(e - q));
				p = q ? q + 1 : e;
			}
			continue;
		}
		if (q < e && *q == '?') {
			q = memchr(q, '>', (size_t)(e - q));
			p = q ? q + 1 : e;
			continue;
		}
		if (q < e && *q == '/') {
			q++;
			if (q < e && *q == '>') {
				p = q + 1;
				continue;
			}
			if (q >= e || !isalpha_((unsigned char)*q)) {
				q = memchr(q, '>', (size_t)(e - q));
				p = q ? q + 1 : e;
				continue;
			}
			for (ns = q; q < e && !isws((unsigned char)*q) && *q != '/' && *q != '>'; q++)
				;
			if (!(te = tagend(q, e)))
				break;
			endtag(h, tagid(ns, (size_t)(q - ns)));
			p = te + 1;
			continue;
		}
		if (q >= e || !isalpha_((unsigned char)*q)) {
			addtext(h, lt, lt + 1);
			p = lt + 1;
			continue;
		}
		for (ns = q; q < e && !isws((unsigned char)*q) && *q != '/' && *q != '>'; q++)
			;
		if (!(te = tagend(q, e)))
			break;		/* a tag cut by the end of input is dropped */
		t = tagid(ns, (size_t)(q - ns));
		p = te + 1;
		if (html_tagprops[t] & TP_RAW) {
			p = rawend(p, e, tagnames[t], strlen(tagnames[t]));
			continue;
		}
		starttag(h, t, q, te);
		/* a newline just after <pre> is not part of it */
		if ((t == T_PRE || t == T_LISTING) && p < e && *p == '\n')
			p++;
		else if ((t == T_PRE || t == T_LISTING) && p + 1 < e && p[0] == '\r' && p[1] == '\n')
			p += 2;
	}
	/* subtree ends: children come after their parent */
	{
		size_t i;
		h->ne = 0;
		for (i = 0; i < h->nn; i++) {
			h->n[i].end = (uint32_t)i + 1;
			if (i > 0 && !(h->n[i].flags & HF_TEXT))
				h->n[i].off = (uint32_t)++h->ne;
		}
		for (i = h->nn; i-- > 1;)
			if (h->n[h->n[i].parent].end < h->n[i].end)
				h->n[h->n[i].parent].end = h->n[i].end;
	}
}

void
html_parse(struct html *h, const char *s, size_t n)
{
	char buf[MAXLABEL + 1];
	struct obuf fixed;
	const char *cs;
	size_t bad;

	if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
		s += 3;
		n -= 3;
	} else if (n >= 2 && (memcmp(s, "\xFF\xFE", 2) == 0 || memcmp(s, "\xFE\xFF", 2) == 0)) {
		convutf16((const unsigned char *)s + 2, n - 2, s[0] == '\xFE', &h->conv);
		parse(h, h->conv.p, h->conv.n);
		return;
	} else if ((cs = prescan(s, n, buf, sizeof buf)) &&
	    conviconv(cs, s, n, &h->conv) == 0) {
		/* what iconv writes is checked too: some converters write 5- and 6-byte forms */
		if ((bad = utf8valid((const unsigned char *)h->conv.p, h->conv.n)) < h->conv.n) {
			fixed = h->conv;
			memset(&h->conv, 0, sizeof h->conv);
			utf8fix(fixed.p, fixed.n, bad, &h->conv);
			free(fixed.p);
		}
		parse(h, h->conv.p, h->conv.n);
		return;
	}
	if ((bad = utf8valid((const unsigned char *)s, n)) < n) {
		utf8fix(s, n, bad, &h->conv);
		parse(h, h->conv.p, h->conv.n);
		return;
	}
	parse(h, s, n);
}

/* ---- Rendering ---- */

struct rend {
	struct obuf *out;
	size_t start;		/* where this document's text starts in out */
	int nl;			/* newlines owed before the next text: 1 <br>, 2 paragraph */
	int sep;		/* separator owed: ' ' or '\t' */
	int trailnl;		/* newlines at the end of out */
};

static void
owe(struct rend *r, int nl)
{
	if (r->nl < nl)
		r->nl = nl;
	r->sep = 0;
}

/* Pay what is owed before text. */
static void
pay(struct rend *r)
{
	if (r->out->n > r->start) {
		if (r->nl > r->trailnl) {
			memset(obuf_room(r->out, 2), '\n', (size_t)(r->nl - r->trailnl));
			r->out->n += (size_t)(r->nl - r->trailnl);
		} else if (r->sep && !r->trailnl) {
			obuf_addc(r->out, (char)r->sep);
		}
	}
	r->nl = r->sep = r->trailnl = 0;
}

/*
 * The first byte from w on that may end a run of words one space apart
 * (or e): 8 bytes at a time, passing those of 0x21 and up and spaces
 * followed by one; a byte below 0x20, or a space before one below 0x21,
 * is looked at by the caller.
 */
static const char *
runend(const char *w, const char *e)
{
	const unsigned char *p = (const unsigned char *)w;
	uint64_t v, stop;

	for (; e - (const char *)p >= 9; p += 8) {
		v = swar_load8(p);
		/* controls; spaces before a byte below 0x21 */
		stop = swar_below(v, 0x20) |
		    (swar_range(v, 0x20, 0x21) & swar_below(swar_load8(p + 1), 0x21));
		if (stop)
			return (const char *)p + swar_first(stop);
	}
	return (const char *)p;
}

static void
rendtext(struct rend *r, const char *s, size_t n, int pre)
{
	const char *e = s + n, *w;

	if (pre) {
		for (; s < e; s++) {
			if (*s == '\r' && s + 1 < e && s[1] == '\n')
				continue;
			if (*s != '\n' && *s != '\r') {
				pay(r);
				obuf_addc(r->out, *s);
				continue;
			}
			/* the lines of pre, blank ones too, but none at the start */
			if (r->out->n == r->start)
				continue;
			if (r->nl > r->trailnl) {
				memset(obuf_room(r->out, 2), '\n', (size_t)(r->nl - r->trailnl));
				r->out->n += (size_t)(r->nl - r->trailnl);
				r->trailnl = r->nl;
			}
			r->nl = r->sep = 0;
			obuf_addc(r->out, '\n');
			r->trailnl++;
		}
		return;
	}
	while (s < e) {
		if (isws((unsigned char)*s)) {
			if (!r->nl && r->sep != '\t')
				r->sep = ' ';
			s++;
			continue;
		}
		/*
		 * words one space apart come out as they are: copied as one
		 * run, not a word at a time
		 */
		for (w = s; w < e; w++) {
			w = runend(w, e);
			if (w < e && isws((unsigned char)*w) &&
			    (*w != ' ' || w + 1 == e || isws((unsigned char)w[1])))
				break;
		}
		pay(r);
		obuf_add(r->out, s, (size_t)(w - s));
		s = w;
	}
}

void
html_render(const struct html *h, uint32_t from, uint32_t to, const unsigned char *skip,
    struct obuf *out)
{
	struct rend r = { out, out->n, 0, 0, 0 };
	/* the open blocks: when the walk passes their end, a break is owed */
	uint32_t stk[HTML_MAXDEPTH + 8];
	uint32_t cells[HTML_MAXDEPTH + 8];
	size_t sp = 0;
	uint32_t i;
	const struct hnode *nd;
	unsigned props;

	for (i = from; i < to;) {
		while (sp > 0 && i >= h->n[stk[sp - 1]].end) {
			sp--;
			props = html_tagprops[h->n[stk[sp]].tag];
			if (props & TP_BLOCK)
				owe(&r, 2);
		}
		nd = &h->n[i];
		if (skip && skip[i]) {
			i = nd->end;
			continue;
		}
		if (nd->flags & HF_TEXT) {
			rendtext(&r, h->text.p + nd->off, nd->len, nd->flags & HF_PRE);
			i++;
			continue;
		}
		props = html_tagprops[nd->tag];
		if (nd->tag == T_BR) {
			if (r.nl < 2)
				r.nl++;
			r.sep = 0;
		} else if (props & TP_BLOCK) {
			owe(&r, 2);
		} else if (props & TP_CELL) {
			/* cells after the first of a row: a TAB before their text */
			if (sp > 0 && cells[sp - 1]++ > 0 && !r.nl)
				r.sep = '\t';
		} else if (nd->tag == T_IMG || nd->tag == T_INPUT) {
			if (!r.nl && !r.sep)
				r.sep = ' ';
		}
		if (nd->end > i + 1 && sp < sizeof stk / sizeof stk[0]) {
			cells[sp] = 0;
			stk[sp++] = i;
		}
		i++;
	}
	/* no white space at the end */
	while (out->n > r.start && isws((unsigned char)out->p[out->n - 1]))
		out->n--;
}

void
html_all(struct html *h, struct obuf *out)
{
	html_render(h, 1, (uint32_t)h->nn, NULL, out);
}

struct html *
html_new(void)
{
	return ecalloc(1, sizeof(struct html));
}

void
html_free(struct html *h)
{
	if (h == NULL)
		return;
	free(h->n);
	free(h->text.p);
	free(h->conv.p);
	free(h->x);
	free(h->skip);
	free(h->tl);
	free(h->para);
	free(h->lost);
	free(h);
}
